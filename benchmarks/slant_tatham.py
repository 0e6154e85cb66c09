"""Slant: boardsweep's solver against Simon Tatham's, on the same Tatham-generated puzzles.

    python benchmarks/slant_tatham.py --tatham-source /path/to/puzzles/src
    python benchmarks/slant_tatham.py --tatham-harness /path/to/built/harness

``--tatham-source`` is a folder holding his ``slant.c`` and its helpers (``dsf.c``,
``malloc.c``, ``misc.c``, ``random.c``, ``findloop.c``, ``nullfe.c``, ``puzzles.h``) from his
Portable Puzzle Collection, kept outside this project.  The script compiles, in a scratch
folder (``--work``), our harness ``slant_tatham_harness.c`` with his ``slant.c`` #included:
it calls his generator and times his solver in-process.  ``--tatham-harness`` names such a
build made before.  With neither, the script prints that it skipped and exits 0.

Puzzles: his generator's, at his levels Easy and Hard, cached in ``--work`` (his generator
takes about 15 s per 50 x 50 Hard puzzle, so the first run spends minutes there; later runs
reuse them).  His side is his standalone solver's grading solve (``slant_solve`` at Easy,
then at Hard if Easy stalls), giving his verdict and solution; ours is the uniqueness
verdict (none, unique, multiple) and a solution.  Every puzzle he solves must be one we call
unique with his solution: the ``agree`` column counts them (anything less is a wrong
number, and the script exits 1).

Timing (CPU seconds; rounds interleaved, Tatham then ours, medians of ``--rounds``):

- *batch*: per puzzle, one pass over all the row's puzzles: his solver in a C loop with one
  scratch per size; ours one :func:`solvers.slant.solve_batch` call, the way the pipeline's
  batches run (small sizes: ``--batch`` puzzles, 10,000 by default);
- *timed*: ours through :func:`solvers.slant.solve_each`, the pipeline's path: the batch is
  still one numba call, which also times each puzzle (the CPU's time-stamp counter read in
  numba), against his batch;
- *per call*: per puzzle, each puzzle solved alone: his timed one by one, ours one numba call
  per puzzle from Python with the workspace reused (``solve_each``'s path where the
  time-stamp counter cannot serve as a clock), one clock around the loop.  His per-call time
  includes the two clock reads around each solve (a system call each, as his process CPU
  clock has no fast path), which ours does not pay; so the table also gives ours per call
  against his batch, a C loop that calls his solver once per puzzle with one clock around it:
  the stricter of the two ratios.

The last table is our time per puzzle at 100 x 100, each timed alone (median, p99, the
slowest): the 15 stored minimal puzzles of ``benchmarks/data/slant_100.txt`` (our generator,
fewer clues than his Hard) and, with ``--p99-count``, that many of his Easy puzzles (his
generator took over 10 minutes for one 100 x 100 Easy puzzle here, so none by default).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import HERE, conditions, markdown, median, write_results

from boardsweep.solvers import slant
from boardsweep.solvers.slant.format import read_game_id

TIMED = (
    "boardsweep.solvers.slant",
    "benchmarks/slant_tatham_harness.c",
    "benchmarks/data/slant_100.txt",
)
HARNESS_C = HERE / "slant_tatham_harness.c"
HIS_FILES = ("dsf.c", "malloc.c", "misc.c", "random.c", "findloop.c", "nullfe.c")
LEVELS = {"easy": "e", "hard": "h"}
SMALL = (5, 7, 10)
DEFAULT_SIZES = (5, 7, 10, 20, 30, 50)
LARGE_COUNT = {20: 20, 30: 20, 50: 10}


def build_harness(source: Path, work: Path) -> Path:
    """Compile our harness with his ``slant.c`` #included, in ``work``."""
    source = source.resolve()
    missing = [f for f in ("slant.c", "puzzles.h", *HIS_FILES) if not (source / f).is_file()]
    if missing:
        sys.exit(f"{source} lacks {', '.join(missing)}: give his puzzles' source folder")
    out = work / "slant_tatham_harness"
    cc = os.environ.get("CC", "cc")
    cmd = [
        cc,
        "-O3",
        "-march=native",
        "-DSTANDALONE_SOLVER",
        f"-I{source}",
        "-o",
        str(out),
        str(HARNESS_C),
        *(str(source / f) for f in HIS_FILES),
        "-lm",
    ]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


def tatham_ids(harness: Path, work: Path, n: int, level: str, count: int, seed: str) -> Path:
    """A file of ``count`` of his n x n game IDs of ``level`` (made once, then reused)."""
    path = work / f"ids_{n}_{level}_{count}_{seed}.txt"
    if not path.exists():
        start = time.perf_counter()
        text = subprocess.run(
            [str(harness), "gen", str(n), str(n), LEVELS[level], str(count), seed],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(path)
        print(
            f"generated {count} {n}x{n} {level} puzzles with his generator in "
            f"{time.perf_counter() - start:.1f} s",
            flush=True,
        )
    return path


def to_batch(ids: Path) -> dict[str, np.ndarray]:
    """His game IDs as our puzzle batch."""
    grids = []
    for line in ids.read_text().split():
        rows, cols, clues = read_game_id(line)
        codes = np.frombuffer(clues.encode(), dtype=np.uint8).astype(np.int16) - ord("0")
        codes[codes < 0] = -1  # '.'
        grids.append(codes.astype(np.int8).reshape(rows + 1, cols + 1))
    return slant.pack(grids)


def tatham_round(harness: Path, ids: Path) -> tuple[float, float, list[str]]:
    """His CPU seconds per puzzle (batch pass, per call) and his solution per puzzle
    (``None`` where his solver does not find it)."""
    with ids.open() as f:
        out = subprocess.run(
            [str(harness), "time", "1"], stdin=f, check=True, capture_output=True, text=True
        ).stdout.split("\n")
    lines = [line.split() for line in out if line and not line.startswith("batch")]
    batch = float(next(line for line in out if line.startswith("batch")).split()[1])
    each = sum(float(line[0]) for line in lines) / len(lines)
    return 1e-9 * batch, 1e-9 * each, [line[3] if line[1] == "1" else None for line in lines]


def ours_batch(batch: dict[str, np.ndarray]) -> tuple[float, dict[str, np.ndarray]]:
    """Our CPU seconds per puzzle in one :func:`solvers.slant.solve_batch` call."""
    start = time.process_time()
    out = slant.solve_batch(batch)
    return (time.process_time() - start) / len(batch["rows"]), out


def ours_timed(batch: dict[str, np.ndarray]) -> float:
    """Our CPU seconds per puzzle in :func:`solvers.slant.solve_each`, the pipeline's path:
    one numba call that also times each puzzle."""
    start = time.process_time()
    out = slant.solve_each(batch)
    assert out["seconds"].shape[0] == len(batch["rows"])
    return (time.process_time() - start) / len(batch["rows"])


def ours_each(batch: dict[str, np.ndarray]) -> float:
    """Our CPU seconds per puzzle, one numba call per puzzle from Python with the workspace
    reused (solve_each's path on a machine whose time-stamp counter it cannot trust)."""
    run = slant._Run(batch, slant.CHECK)  # private: the per-call path has no public entry
    solve = run.each()
    start = time.process_time()
    for j in range(len(batch["rows"])):
        solve(j)
    return (time.process_time() - start) / len(batch["rows"])


def agreement(theirs: list[str | None], ours: dict[str, np.ndarray]) -> tuple[int, int]:
    """(puzzles he solves that we call unique with his solution, puzzles he solves)."""
    same = solved = 0
    for j, his in enumerate(theirs):
        if his is None:
            continue
        solved += 1
        a, b = ours["solution_offsets"][j], ours["solution_offsets"][j + 1]
        same += ours["status"][j] == slant.UNIQUE and slant.to_text(ours["solution"][a:b]) == his
    return same, solved


def us(seconds: float) -> str:
    return f"{1e6 * seconds:.1f}"


def compare(harness: Path, ids: Path, rounds: int) -> tuple[list[str], bool]:
    """One table row: both solvers on the puzzles of ``ids``, ``rounds`` interleaved rounds."""
    batch = to_batch(ids)
    k = len(batch["rows"])
    his_b, his_e, ours_b, ours_t, ours_e = [], [], [], [], []
    for _ in range(rounds):
        tb, te, theirs = tatham_round(harness, ids)
        ob, out = ours_batch(batch)
        his_b.append(tb)
        his_e.append(te)
        ours_b.append(ob)
        ours_t.append(ours_timed(batch))
        ours_e.append(ours_each(batch))
    same, solved = agreement(theirs, out)
    ratios = [o / t for o, t in zip(ours_b, his_b, strict=True)]
    n = int(batch["rows"][0])
    level = ids.name.split("_")[2]
    row = [
        f"{n}x{n} {level}",
        k,
        us(median(his_b)),
        us(median(ours_b)),
        f"{median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})",
        us(median(ours_t)),
        f"{median(ours_t) / median(his_b):.2f}",
        us(median(his_e)),
        us(median(ours_e)),
        f"{median(ours_e) / median(his_e):.2f}",
        f"{median(ours_e) / median(his_b):.2f}",
        f"{same}/{solved}",
    ]
    return row, same == solved


def per_puzzle_ms(batch: dict[str, np.ndarray]) -> np.ndarray:
    """Our CPU milliseconds for each puzzle of ``batch``, each solved alone."""
    times = []
    for j in range(len(batch["rows"])):
        lo, hi = batch["offsets"][j], batch["offsets"][j + 1]
        rows, cols = int(batch["rows"][j]), int(batch["cols"][j])
        one = slant.pack([batch["clues"][lo:hi].reshape(rows + 1, cols + 1)])
        start = time.process_time()
        out = slant.solve_batch(one)
        times.append(time.process_time() - start)
        assert out["status"][0] == slant.UNIQUE, "a generated puzzle is unique"
    return 1e3 * np.array(times)


def p99_table(harness: Path, work: Path, count: int, seed: str) -> str:
    """Our CPU time per 100 x 100 puzzle, each solved alone: his Easy puzzles, and the
    stored minimal puzzles of ``benchmarks/data/slant_100.txt`` (our generator, fewer clues
    than his Hard)."""
    rows = []
    sets = []
    if count:
        sets.append(
            ("100x100 his easy", to_batch(tatham_ids(harness, work, 100, "easy", count, seed)))
        )
    stored = HERE / "data" / "slant_100.txt"
    if stored.exists():
        sets.append(
            (
                "100x100 stored minimal",
                slant.table_to_batch(slant.PROBLEM.seed_format.read(stored.read_text())),
            )
        )
    for name, batch in sets:
        ms = per_puzzle_ms(batch)
        rows.append(
            [
                name,
                len(ms),
                f"{np.median(ms):.2f}",
                f"{np.percentile(ms, 99):.2f}",
                f"{ms.max():.2f}",
            ]
        )
    return markdown(["puzzles", "count", "median ms", "p99 ms", "max ms"], rows)


def main() -> None:
    """Parse the command line, build or find his harness, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--tatham-source", type=Path, help="his puzzles' source folder")
    given.add_argument("--tatham-harness", type=Path, help="a harness built before")
    parser.add_argument(
        "--work",
        type=Path,
        default=None,
        help="scratch folder for the build and his puzzles (default: a new "
        "temporary one, removed at the end)",
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=list(LEVELS))
    parser.add_argument(
        "--batch", type=int, default=10_000, help=f"puzzles per row at sizes {SMALL}"
    )
    parser.add_argument(
        "--count",
        type=int,
        default=None,
        help="puzzles per row at larger sizes (default 20, 10 at 50x50)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=7,
        help="interleaved rounds (>= 3; a row of small puzzles takes well under a second of "
        "each side, so a few more rounds steady the median)",
    )
    parser.add_argument(
        "--p99-count",
        type=int,
        default=0,
        help="his 100x100 Easy puzzles for the p99 table (minutes each)",
    )
    parser.add_argument("--no-p99", action="store_true", help="no 100x100 table")
    parser.add_argument("--seed", default="boardsweep", help="his generator's seed")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    if args.tatham_source is None and args.tatham_harness is None:
        print("slant_tatham: skipped (no Tatham build given: --tatham-source or --tatham-harness)")
        return
    work = args.work or Path(tempfile.mkdtemp(prefix="slant_tatham_"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        harness = args.tatham_harness or build_harness(args.tatham_source, work)
        slant.solve_batch(to_batch(tatham_ids(harness, work, 3, "easy", 2, args.seed)))
        print(conditions(rounds=args.rounds, batch=args.batch), flush=True)
        rows, right = [], True
        for n in args.sizes:
            count = args.batch if n in SMALL else args.count or LARGE_COUNT.get(n, 10)
            for level in args.levels:
                ids = tatham_ids(harness, work, n, level, count, args.seed)
                row, ok = compare(harness, ids, args.rounds)
                print(" | ".join(str(c) for c in row), flush=True)
                rows.append(row)
                right &= ok
        parts = [
            f"CPU time per puzzle, medians of {args.rounds} interleaved rounds (his, then "
            "ours); *batch*: a row's puzzles in one pass (his in a C loop, ours one "
            "`solve_batch` call); *timed*: ours through `solve_each`, the pipeline's path; "
            "*per call*: each puzzle alone (his between two clock reads, ours in a Python "
            "loop with one clock around it); *per call / his batch*: ours per call against his "
            "batch, which calls his solver once per puzzle without the clock reads. His "
            "solver is his grading solve (Easy, then Hard), built from his public source "
            "outside the project; *agree*: the puzzles he solves that get our verdict unique "
            "and his solution.",
            markdown(
                [
                    "puzzles",
                    "count",
                    "Tatham batch us",
                    "ours batch us",
                    "ratio (min-max)",
                    "ours timed us",
                    "ratio",
                    "Tatham per call us",
                    "ours per call us",
                    "ratio",
                    "per call / his batch",
                    "agree",
                ],
                rows,
            ),
        ]
        if not args.no_p99:
            parts.append(
                "**Ours at 100 x 100**, CPU ms per puzzle, each solved alone (one run each):"
            )
            parts.append(p99_table(harness, work, args.p99_count, args.seed))
        body = "\n\n".join(parts)
        print(f"\n{body}")
        if not right:
            sys.exit("a puzzle he solves got another verdict or solution from us")
        repeats = f"{args.rounds} rounds, his and ours interleaved"
        sizes = {
            "sizes": " ".join(map(str, args.sizes)),
            "levels": " ".join(args.levels),
            "batch": args.batch,
            "his seed": args.seed,
        }
        write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
