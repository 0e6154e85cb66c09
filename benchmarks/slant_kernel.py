"""Median Slant solve time per puzzle by size, against a seed-style bare DFS.

Puzzles come from :func:`solvers.slant.generate` (unique, nearly clue-minimal).  For each
size the script prints: puzzles, share of points with a clue, generation time per puzzle,
our median and worst solve time (one core, one puzzle at a time, the full verdict: stop at
the second solution), median search nodes, time per puzzle through ``solve_batch``, and the
bare DFS (the UVa 11694 seed's search: cells in row-major order, ``\\`` then ``/``, a clue
checked when its point is complete, a loop found by walking the slashes) answering the same
question: how many puzzles it finished within its node budget, its median time on those,
and the ratio of its median to ours on the same puzzles.  Times are CPU seconds of this
process (``time.process_time``), so a busy machine blurs them less than wall time.

Run: ``python benchmarks/slant_kernel.py`` (``--sizes 5 7 10 --count 100`` to choose,
``--budget`` for the DFS node budget, ``--dfs-max`` for the largest size it is tried on).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from solvers import slant
from solvers.slant_kernel import CHECK, make_workspace, reset, search

DEFAULT_COUNTS = {5: 200, 7: 200, 10: 200, 20: 40, 50: 10, 100: 5}


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
            if need[a] >= 0:
                need[a] += 1
            if need[b] >= 0:
                need[b] += 1
            cell[k] = -1
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
            if need[a] >= 0:
                need[a] += 1
            if need[b] >= 0:
                need[b] += 1
            cell[k] = -1
            continue
        k += 1
        tried[k] = 0


def _median_ms(values: list[float]) -> str:
    return f"{1e3 * float(np.median(values)):.3f}"


def bench_size(n: int, count: int, seed: int, budget: int, dfs_max: int) -> dict[str, str]:
    """Generate ``count`` n x n puzzles and time both solvers on them."""
    t0 = time.process_time()
    batch = slant.generate(n, count, seed)
    gen = (time.process_time() - t0) / count
    P = (n + 1) * (n + 1)
    ws, st = make_workspace(P)
    sol = np.empty(n * n, dtype=np.int64)
    first = np.zeros(n * n, dtype=np.int64)
    ours, nodes, dfs, ours_where_dfs = [], [], [], []
    for j in range(count):
        clues = batch["clues"][j * P:(j + 1) * P]
        t = time.process_time()
        reset(ws, st, n, n, clues)
        found, nn = search(ws, st, n, n, np.int64(2), sol, first, True, CHECK, 0)
        ours.append(time.process_time() - t)
        nodes.append(nn)
        assert found == 1, "a generated puzzle must be unique"
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
    row = {
        "n": str(n),
        "puzzles": str(count),
        "clues %": f"{100 * float((batch['clues'] >= 0).mean()):.1f}",
        "gen s": f"{gen:.3f}",
        "ours ms": _median_ms(ours),
        "max ms": f"{1e3 * max(ours):.3f}",
        "nodes": f"{float(np.median(nodes)):.0f}",
        "batch ms": f"{batch_ms:.3f}",
        "dfs done": f"{len(dfs)}/{count}" if n <= dfs_max else "skipped",
        "dfs ms": _median_ms(dfs) if dfs else "-",
        "ratio": f"{np.median(dfs) / np.median(ours_where_dfs):.1f}" if dfs else "-",
    }
    return row


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_COUNTS))
    parser.add_argument("--count", type=int, default=None, help="puzzles per size")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--budget", type=int, default=2_000_000, help="DFS nodes per puzzle")
    parser.add_argument("--dfs-max", type=int, default=20, help="largest n given to the DFS")
    args = parser.parse_args()
    # compile (or load) both kernels before timing
    bench_size(3, 2, args.seed, 1000, 3)
    rows = []
    for n in args.sizes:
        count = args.count or DEFAULT_COUNTS.get(n, 10)
        rows.append(bench_size(n, count, args.seed, args.budget, args.dfs_max))
        print(" ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    keys = list(rows[0])
    widths = [max(len(k), *(len(r[k]) for r in rows)) for k in keys]
    print()
    print("  ".join(k.rjust(w) for k, w in zip(keys, widths, strict=True)))
    for r in rows:
        print("  ".join(r[k].rjust(w) for k, w in zip(keys, widths, strict=True)))


if __name__ == "__main__":
    main()
