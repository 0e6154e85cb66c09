"""Median Slant solve time per puzzle by size, against a seed-style bare DFS.

The puzzles are fixed sets stored in ``benchmarks/data/slant_<n>.txt`` (the seed's text format,
UVa 11694: ``boardsweep judge slant < benchmarks/data/slant_10.txt`` solves one), made once by
:func:`solvers.slant.generate` (unique, nearly clue-minimal) with the seed and counts recorded
in ``benchmarks/data/slant.json`` together with the generation time of each puzzle.  Reading
them takes no time; ``--regenerate`` makes the sets of the chosen sizes again (a 100 x 100
puzzle takes several seconds) and rewrites the files.

For each size the script prints: puzzles, share of points with a clue, generation seconds
per puzzle (median, as recorded), our median and worst solve time (one core, one puzzle at a
time, the full verdict: stop at the second solution; each puzzle solved ``--repeat`` times
and the fastest kept), median search nodes, time per puzzle through ``solve_batch``, and the
bare DFS (the UVa 11694 seed's search: cells in row-major order, ``\\`` then ``/``, a clue
checked when its point is complete, a loop found by walking the slashes) answering the same
question: how many puzzles it finished within its node budget, its median time on those, and
the ratio of its median to ours on the same puzzles.  Times are CPU seconds of this process
(``time.process_time``), so a busy machine blurs them less than wall time.

Run: ``python benchmarks/slant_kernel.py`` (``--sizes 5 7 10 --count 100`` to choose,
``--budget`` for the DFS node budget, ``--dfs-max`` for the largest size it is tried on,
``--regenerate`` to make the stored sets again, ``--seed`` for their seed).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from common import conditions, markdown, spread, write_results
from numba import njit

from boardsweep.solvers import slant
from boardsweep.solvers.slant.kernel import (
    CHECK,
    LEARN_CELLS,
    make_workspace,
    reset,
    search,
)

TIMED = ("boardsweep.solvers.slant",)  # and the data set of each size measured
DATA = Path(__file__).resolve().parent / "data"
MANIFEST = DATA / "slant.json"
DEFAULT_COUNTS = {5: 200, 7: 200, 10: 200, 20: 40, 50: 15, 100: 15}
DEFAULT_SEED = 2024


@njit(cache=True, nogil=True)
def _connected(R, C, cell, a, b, seen, stamp, stack):
    """Whether points a and b are joined by decided slashes (a walk over the slashes)."""
    W = C + 1
    top = 1
    stack[0] = a
    seen[a] = stamp
    while top > 0:
        top -= 1
        q = stack[top]
        if q == b:
            return True
        y = q // W
        x = q - y * W
        for d in range(4):
            r = y - 1 + (d >> 1)
            c = x - 1 + (d & 1)
            if r < 0 or r >= R or c < 0 or c >= C:
                continue
            v = cell[r * C + c]
            if v < 0 or v != (1 if d == 0 or d == 3 else 0):
                continue  # undecided, or its slash misses q
            o = q + (2 * (d >> 1) - 1) * W + 2 * (d & 1) - 1
            if seen[o] != stamp:
                seen[o] = stamp
                stack[top] = o
                top += 1
    return False


@njit(cache=True, nogil=True, inline="always")
def _unset(cell, need, k, a, b):
    """Take back cell ``k`` whose slash joins points ``a`` and ``b``: both need it again."""
    if need[a] >= 0:
        need[a] += 1
    if need[b] >= 0:
        need[b] += 1
    cell[k] = -1


@njit(cache=True, nogil=True)
def bare_dfs(R, C, clues, max_solutions, budget):
    """The seed's search: ``(solutions up to max_solutions, nodes)``; solutions -1 past budget."""
    W = C + 1
    n = R * C
    need = clues.astype(np.int64)
    cell = np.full(n, -1, dtype=np.int64)
    tried = np.zeros(n + 1, dtype=np.int64)
    seen = np.zeros((R + 1) * W, dtype=np.int64)
    stack = np.empty((R + 1) * W, dtype=np.int64)
    stamp = 0
    nodes = 0
    nsol = 0
    k = 0
    while True:
        if k == n or tried[k] == 2:
            if k == n:
                nsol += 1
                if nsol >= max_solutions:
                    return nsol, nodes
            else:
                tried[k] = 0
            if k == 0:
                return nsol, nodes
            k -= 1  # undo cell k
            r = k // C
            tl = r * W + k - r * C
            a, b = (tl, tl + W + 1) if cell[k] == 1 else (tl + 1, tl + W)
            _unset(cell, need, k, a, b)
            continue
        v = 1 - tried[k]  # '\' first, as the seed
        tried[k] += 1
        nodes += 1
        if nodes > budget:
            return -1, nodes
        r = k // C
        c = k - r * C
        tl = r * W + c
        a, b = (tl, tl + W + 1) if v == 1 else (tl + 1, tl + W)
        if need[a] == 0 or need[b] == 0:
            continue
        stamp += 1
        if _connected(R, C, cell, a, b, seen, stamp, stack):
            continue
        if need[a] > 0:
            need[a] -= 1
        if need[b] > 0:
            need[b] -= 1
        cell[k] = v
        # points left complete by this cell must have met their clues
        done = need[tl] > 0
        done |= c == C - 1 and need[tl + 1] > 0
        done |= r == R - 1 and need[tl + W] > 0
        done |= r == R - 1 and c == C - 1 and need[tl + W + 1] > 0
        if done:
            _unset(cell, need, k, a, b)
            continue
        k += 1
        tried[k] = 0


# ------------------------------------------------------------------------ the stored sets


def set_path(n: int) -> Path:
    """The stored set of n x n puzzles."""
    return DATA / f"slant_{n}.txt"


def write_set(path: Path, n: int, clues: np.ndarray) -> None:
    """Write n x n puzzles (clues flat, one puzzle after another) in the seed's format."""
    P = (n + 1) * (n + 1)
    count = clues.shape[0] // P
    chars = np.array(list(".01234"))
    lines = [str(count)]
    for j in range(count):
        grid = clues[j * P : (j + 1) * P].reshape(n + 1, n + 1).astype(np.int64) + 1
        lines.append(str(n))
        lines.extend("".join(row) for row in chars[grid])
    path.write_text("\n".join(lines) + "\n")


def read_set(path: Path) -> dict[str, np.ndarray]:
    """A stored set as a puzzle batch (:mod:`solvers.slant`)."""
    return slant.table_to_batch(slant.PROBLEM.seed_format.read(path.read_text()))


def load_manifest() -> dict:
    return json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {"sizes": {}}


def save_manifest(manifest: dict) -> None:
    """Write the manifest, one line per size."""
    sizes = sorted(manifest["sizes"].items(), key=lambda kv: int(kv[0]))
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sizes]
    MANIFEST.write_text(
        "{\n"
        f' "generator": {json.dumps(manifest["generator"])},\n'
        ' "sizes": {\n' + ",\n".join(lines) + "\n }\n}\n"
    )


def regenerate(n: int, count: int, seed: int) -> None:
    """Generate and store ``count`` n x n puzzles of ``seed``, timing each."""
    slant.generate(3, 1, 0)  # compile (or load) the generator before timing
    seconds, parts = [], []
    for j in range(count):
        t = time.process_time()
        parts.append(slant.generate(n, 1, seed, start=j)["clues"])
        seconds.append(round(time.process_time() - t, 4))
        print(f"generated {n}x{n} #{j}: {seconds[-1]:.2f} s", flush=True)
    DATA.mkdir(exist_ok=True)
    write_set(set_path(n), n, np.concatenate(parts))
    manifest = load_manifest()
    manifest["generator"] = (
        "boardsweep.solvers.slant.generate(n, 1, seed, start=j) for j in range(count); "
        "generate_seconds: CPU seconds of each"
    )
    manifest["sizes"][str(n)] = {"count": count, "seed": seed, "generate_seconds": seconds}
    save_manifest(manifest)


# ------------------------------------------------------------------------ timing


def _median_ms(values: list[float]) -> str:
    return f"{1e3 * float(np.median(values)):.3f}"


def bench_size(
    n: int,
    batch: dict[str, np.ndarray],
    gen: list[float],
    repeat: int,
    budget: int,
    dfs_max: int,
) -> dict[str, str]:
    """Time our solver and the bare DFS on the n x n puzzles of ``batch``."""
    count = batch["rows"].shape[0]
    P = (n + 1) * (n + 1)
    ws, st = make_workspace(P)
    sol = np.empty(n * n, dtype=np.int64)
    first = np.full(n * n, -1, dtype=np.int64)  # no preferred values, as solve_batch
    ours, nodes, dfs, ours_where_dfs = [], [], [], []
    for j in range(count):
        clues = batch["clues"][j * P : (j + 1) * P]
        times = []
        for _ in range(repeat):
            t = time.process_time()
            reset(ws, st, n, n, clues)
            found, nn = search(
                ws, st, n, n, np.int64(2), sol, first, True, CHECK, 0, np.int64(LEARN_CELLS)
            )
            times.append(time.process_time() - t)
        if n > 3:  # not the warm-up
            spread(times)
        ours.append(min(times))
        nodes.append(nn)
        assert found == 1, "a stored puzzle must be unique"
        if n > dfs_max:
            continue
        t = time.process_time()
        found, _ = bare_dfs(n, n, clues, 2, budget)
        if found >= 0:
            assert found == 1
            dfs.append(time.process_time() - t)
            ours_where_dfs.append(ours[-1])
    t = time.process_time()
    slant.solve_batch(batch)
    batch_ms = 1e3 * (time.process_time() - t) / count
    return {
        "n": str(n),
        "puzzles": str(count),
        "clues %": f"{100 * float((batch['clues'] >= 0).mean()):.1f}",
        "gen s": f"{float(np.median(gen)):.3f}" if gen else "-",
        "ours ms": _median_ms(ours),
        "max ms": f"{1e3 * max(ours):.3f}",
        "nodes": f"{float(np.median(nodes)):.0f}",
        "batch ms": f"{batch_ms:.3f}",
        "dfs done": f"{len(dfs)}/{count}" if n <= dfs_max else "skipped",
        "dfs ms": _median_ms(dfs) if dfs else "-",
        "ratio": f"{np.median(dfs) / np.median(ours_where_dfs):.1f}" if dfs else "-",
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_COUNTS))
    parser.add_argument("--count", type=int, default=None, help="puzzles per size")
    parser.add_argument("--repeat", type=int, default=3, help="solves per puzzle (fastest kept)")
    parser.add_argument("--budget", type=int, default=2_000_000, help="DFS nodes per puzzle")
    parser.add_argument("--dfs-max", type=int, default=20, help="largest n given to the DFS")
    parser.add_argument(
        "--regenerate",
        action="store_true",
        help="generate the sets of --sizes again and store them",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of --regenerate")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sizes = {
        "sizes": " ".join(map(str, args.sizes)),
        "count": args.count or "each stored set",
        "DFS budget": f"{args.budget:,} nodes",
        "DFS up to": f"{args.dfs_max}x{args.dfs_max}",
    }
    print(conditions(repeat=args.repeat, **sizes), flush=True)
    if args.regenerate:
        for n in args.sizes:
            regenerate(n, args.count or DEFAULT_COUNTS.get(n, 10), args.seed)
    manifest = load_manifest()
    missing = [n for n in args.sizes if not set_path(n).exists()]
    if missing:
        parser.error(f"no stored set for n = {missing} in {DATA}: add --regenerate to make it")
    # compile (or load) both kernels before timing
    warm = slant.generate(3, 2, 1)
    bench_size(3, warm, [], 1, 1000, 3)
    rows = []
    for n in args.sizes:
        batch = read_set(set_path(n))
        stored = batch["rows"].shape[0]
        count = min(args.count or stored, stored)
        if count < stored:
            P = (n + 1) * (n + 1)
            batch = slant.pack(
                [batch["clues"][j * P : (j + 1) * P].reshape(n + 1, n + 1) for j in range(count)]
            )
        gen = manifest["sizes"].get(str(n), {}).get("generate_seconds", [])[:count]
        rows.append(bench_size(n, batch, gen, args.repeat, args.budget, args.dfs_max))
        print(" ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    headers = {
        "n": "n",
        "puzzles": "puzzles",
        "clues %": "clues %",
        "gen s": "generate s (median, recorded)",
        "ours ms": "median ms",
        "max ms": "worst ms",
        "nodes": "median nodes",
        "batch ms": "via solve_batch ms (mean)",
        "dfs done": "seed DFS within budget",
        "dfs ms": "seed DFS median ms",
        "ratio": "DFS / ours",
    }
    table = markdown(list(headers.values()), [[r[k] for k in headers] for r in rows])
    body = (
        f"CPU seconds of this process, one core, one puzzle at a time, the fastest of "
        f"{args.repeat} solves per puzzle; *via solve_batch* is one cold pass over the set (it "
        "carries the size's first call); the seed's bare DFS answers the same question on the "
        "same puzzles, within its node budget (its ratio over the puzzles it finished)."
        f"\n\n{table}"
    )
    print(f"\n{body}")
    timed = (*TIMED, *(f"benchmarks/data/slant_{n}.txt" for n in args.sizes))
    repeats = f"{args.repeat} solves per puzzle, the fastest kept; the DFS and the batch once"
    write_results(__file__, body, timed=timed, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
