"""Slant kernel A/B: the solver's engine at git revisions (or the working tree), interleaved.

    python benchmarks/slant_ab.py HEAD~1 work --sets 5e 50h 100 --rounds 5
    python benchmarks/slant_ab.py HEAD work --sets 100 --each

Each side is ``solvers/slant/{kernel,state,clock,classes,learning,tatham}.py`` and the kits
they use (``solvers/{fields,members,borrowed}.py``) as of a revision (``work``: as in the working
tree), copied into a scratch package and compiled there, so two versions run in one process.
Every round
times one :func:`solve_range` call over the whole set per side (CPU seconds per puzzle), the
sides in turn, their order reversed every other round; the table gives each side's median, its
ratio to the first side's, the median of its per-round ratios to the first side (*paired*: both
halves of a round saw about the same load) and the range over rounds. On a shared machine use
many rounds (the default 20) and read the paired ratio: 5 rounds of whole sets once showed a
0.62x gain that 40 pairs refuted. ``--each`` times each puzzle alone instead and adds the
median, 90th and 99th percentile (numpy's linear interpolation) and slowest puzzle, each
puzzle's time the median over rounds. The sides must agree on every verdict and solution (nodes
may differ); the script exits 1 if they do not.

Sets: ``100`` the stored minimal 100 x 100 puzzles (``benchmarks/data/slant_100.txt``);
``<n>e`` / ``<n>h`` Simon Tatham's Easy / Hard puzzles cached by ``slant_tatham.py`` in
``--work`` (its ``ids_<n>_<level>_<count>_<seed>.txt``, the first such file found);
``g<n>x<count>s<seed>`` puzzles ``0..count-1`` of ``solvers.slant.generate(n, 1, seed,
start=j)``, made on first use (a 100 x 100 one takes about 8 s) and kept in ``--work`` as
``gen_<n>_<count>_<seed>.npy``.  A tail (p99) needs many puzzles: the 15 stored 100 x 100
ones once read a worst case of 0.2 s where 60 fresh ones held one of 14 s.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import HERE, ROOT, conditions, markdown, median, write_results
from slant_tatham import to_batch

from boardsweep.solvers import slant

TIMED = ("boardsweep.solvers.slant",)
FILES = ("kernel.py", "state.py", "clock.py", "classes.py", "learning.py", "tatham.py")
KITS = ("fields.py", "members.py", "borrowed.py")  # solvers/ (fields and members were in
# solvers/slant/ before they became kits)
LATER = ("classes.py", "learning.py", "tatham.py", *KITS)  # files older revisions lack


def _source(rev: str, path: str) -> str | None:
    """The text of ``path`` at ``rev`` (``work``: the working tree), None where it has none."""
    if rev == "work":
        return (ROOT / path).read_text() if (ROOT / path).exists() else None
    shown = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True
    )
    return shown.stdout if shown.returncode == 0 else None


def side(rev: str, scratch: Path, k: int):
    """The kernel module of ``rev`` (or the working tree), compiled in its own package
    (``sideK.slant``, its kits in ``sideK``)."""
    pkg = scratch / f"side{k}"
    (pkg / "slant").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "slant" / "__init__.py").write_text("")
    for name in (*FILES, *KITS):
        for path, to in ((f"solvers/slant/{name}", pkg / "slant"), (f"solvers/{name}", pkg)):
            text = _source(rev, path)
            if text is not None:
                (to / name).write_text(text)
                break
        else:
            if name not in LATER:
                sys.exit(f"{rev} has no solvers/slant/{name}")
    return importlib.import_module(f"side{k}.slant.kernel")


def resolved(rev: str) -> str:
    """A revision as a short commit hash (``work``: the working tree)."""
    if rev == "work":
        return "the working tree"
    shown = subprocess.run(
        ["git", "rev-parse", "--short=12", rev], cwd=ROOT, capture_output=True, text=True
    )
    return shown.stdout.strip() or rev


def generated(n: int, count: int, seed: int, work: Path) -> dict[str, np.ndarray]:
    """Puzzles ``0..count-1`` of ``slant.generate(n, 1, seed, start=j)``, cached in ``work``."""
    path = work / f"gen_{n}_{count}_{seed}.npy"
    if not path.exists():
        work.mkdir(parents=True, exist_ok=True)
        parts, start = [], time.perf_counter()
        for j in range(count):
            parts.append(slant.generate(n, 1, seed, start=j)["clues"])
            print(
                f"generated {j + 1}/{count} {n}x{n} puzzles of seed {seed} "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
        np.save(path, np.concatenate(parts))
    clues = np.load(path)
    offsets = np.arange(count + 1, dtype=np.int64) * (n + 1) ** 2
    if clues.shape[0] != offsets[-1]:
        sys.exit(f"{path} does not hold {count} {n}x{n} puzzles: remove it to make it again")
    return {
        "rows": np.full(count, n, np.int32),
        "cols": np.full(count, n, np.int32),
        "offsets": offsets,
        "clues": clues.astype(np.int8),
    }


def load(name: str, work: Path) -> dict[str, np.ndarray]:
    """The puzzle set called ``name``."""
    made = re.fullmatch(r"g(\d+)x(\d+)s(\d+)", name)
    if made:
        return generated(*(int(g) for g in made.groups()), work)
    if name == "100":
        text = (HERE / "data" / "slant_100.txt").read_text()
        return slant.table_to_batch(slant.PROBLEM.seed_format.read(text))
    level = {"e": "easy", "h": "hard"}[name[-1]]
    found = sorted(work.glob(f"ids_{int(name[:-1])}_{level}_*.txt"))
    if not found:
        sys.exit(f"no {name} set in {work}: run slant_tatham.py with --work {work} first")
    return to_batch(found[0])


def solve(kernel, batch: dict[str, np.ndarray], lo: int, hi: int):
    """CPU seconds of one solve_range call over puzzles lo..hi-1, and its answers."""
    rows = np.ascontiguousarray(batch["rows"], np.int64)
    cols = np.ascontiguousarray(batch["cols"], np.int64)
    offsets = np.ascontiguousarray(batch["offsets"], np.int64)
    clues = np.ascontiguousarray(batch["clues"], np.int8)
    most = int(np.diff(offsets).max())
    ws, st = kernel.make_workspace(most)
    block = getattr(ws, "block", ws)  # solve_range takes the bare block from d09a767 on
    k = rows.shape[0]
    cells = np.zeros(k + 1, np.int64)
    np.cumsum(rows * cols, out=cells[1:])
    solution = np.empty(int(cells[-1]), np.uint8)
    check = np.int64(kernel.CHECK)
    if "frame" in inspect.signature(kernel.solve_range.py_func).parameters:
        # from the commit that packs a batch into one frame on
        frame = kernel.make_frame(rows, cols, offsets, clues, kernel.CHECK, False)
        start = time.process_time()
        kernel.solve_range(frame, block, lo, hi)
        _, answers, solution = kernel.frame_views(frame)  # answers: verdict, nodes, ticks
        status, nodes, solution = answers[0].astype(np.uint8), answers[1], solution.astype(np.uint8)
    elif "layout" in inspect.signature(kernel.solve_range.py_func).parameters:
        # from the commit after 35e810b on: one layout array and one out array
        layout = np.zeros((4, k + 1), np.int64)
        layout[0, :k], layout[1, :k], layout[2], layout[3] = rows, cols, offsets, cells
        out = np.zeros((2, k), np.int64)
        start = time.process_time()
        kernel.solve_range(layout, clues, lo, hi, block, check, out, solution)
        status, nodes = out[0].astype(np.uint8), out[1]
    else:
        sol = np.empty(most, np.int64)
        first = np.full(most, -1, np.int64)
        status = np.zeros(k, np.uint8)
        nodes = np.zeros(k, np.int64)
        start = time.process_time()
        kernel.solve_range(
            rows,
            cols,
            offsets,
            clues,
            lo,
            hi,
            cells[lo],
            block,
            st,
            sol,
            first,
            check,
            status,
            nodes,
            solution,
            np.zeros(0, np.int64),
        )
    spent = time.process_time() - start
    return spent, status[lo:hi], solution[cells[lo] : cells[hi]], int(nodes[lo:hi].sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="+", help="git revisions, or 'work' for the working tree")
    parser.add_argument("--sets", nargs="+", default=["5e", "50h", "100"])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--each", action="store_true", help="time each puzzle alone")
    parser.add_argument(
        "--work",
        type=Path,
        default=Path("/tmp/slantc/bench"),
        help="slant_tatham.py's folder of his cached puzzles",
    )
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="slant_ab_"))
    sys.path.insert(0, str(scratch))
    try:
        kernels = [side(rev, scratch, k) for k, rev in enumerate(args.revs)]
        sets = {name: load(name, args.work) for name in args.sets}
        for kernel in kernels:  # compile
            solve(kernel, next(iter(sets.values())), 0, 1)
        print(conditions(rounds=args.rounds), flush=True)
        table, agree = [], True
        for name, batch in sets.items():
            k = len(batch["rows"])
            per = {j: [] for j in range(len(kernels))}
            each = {j: np.zeros((args.rounds, k)) for j in range(len(kernels))}
            nodes, answers = {}, None
            for r in range(args.rounds):
                order = range(len(kernels)) if r % 2 == 0 else reversed(range(len(kernels)))
                for j in order:
                    if args.each:
                        for p in range(k):
                            each[j][r, p] = solve(kernels[j], batch, p, p + 1)[0]
                        per[j].append(each[j][r].sum() / k)
                        continue
                    spent, status, solution, nodes[j] = solve(kernels[j], batch, 0, k)
                    per[j].append(spent / k)
                    if answers is None:
                        answers = (status.copy(), solution.copy())
                    elif not (
                        np.array_equal(answers[0], status) and np.array_equal(answers[1], solution)
                    ):
                        agree = False
                        print(f"{name}: {args.revs[j]} answers differently", flush=True)
            base = median(per[0])
            for j, rev in enumerate(args.revs):
                paired = median([t / t0 for t, t0 in zip(per[j], per[0], strict=True)])
                row = [
                    name,
                    rev,
                    f"{1e6 * median(per[j]):.1f}",
                    f"{median(per[j]) / base:.3f}",
                    f"{paired:.3f}",
                    f"{1e6 * min(per[j]):.1f}-{1e6 * max(per[j]):.1f}",
                    nodes.get(j, ""),
                ]
                if args.each:
                    ms = 1e3 * np.median(each[j], axis=0)
                    row += [f"{np.percentile(ms, q):.1f}" for q in (50, 90, 99)]
                    row.append(f"{ms.max():.1f}")
                table.append(row)
                print(" | ".join(str(c) for c in row), flush=True)
        headers = [
            "set",
            "side",
            "median us/puzzle",
            "ratio",
            "paired ratio",
            "range us/puzzle",
            "nodes",
        ]
        if args.each:
            headers += ["median ms", "p90 ms", "p99 ms", "max ms"]
        text = markdown(headers, table)
        print(f"\n{text}")
        if not agree:
            sys.exit("the sides disagree on a verdict or solution")
        sides = {rev: resolved(rev) for rev in args.revs}
        body = (
            "CPU seconds per puzzle, "
            + ("each puzzle timed alone" if args.each else "one `solve_range` call per set")
            + f", medians of {args.rounds} rounds, the sides in turn (the order reversed every "
            "other round); ratios to the first side, *paired*: the median of the per-round "
            "ratios. Sides: "
            + ", ".join(f"{rev} = {commit}" for rev, commit in sides.items())
            + ". Every side gave every puzzle the same verdict and solution."
            + f"\n\n{text}"
        )
        repeats = f"{args.rounds} rounds, the sides interleaved"
        sizes = {"sets": " ".join(args.sets), "each": args.each}
        write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
