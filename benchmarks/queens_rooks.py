"""Queens and rooks: whole-row kernel against the seed's one-placement-at-a-time search.

For each n = M + N it times ``solvers.queens_rooks.row(n)`` (every M = 0..n in one search, one
process) and, where it finishes within the budget, the seed program's DFS (b510, ported below to
numba) run once per M on the same cells; the two must agree.  Times are CPU seconds of this
process (``time.process_time``: steadier than wall time on a shared machine), measured
interleaved, one run each.  Then the triangle 1..max-n through the pipeline on ``--workers``
local workers (wall time, as ``boardsweep solve`` computes it), and the triangle of counts
itself.  The tables go to stdout and to ``benchmarks/results/queens_rooks.md`` (``--out``).

    .venv/bin/python benchmarks/queens_rooks.py [--max-n 13] [--seed-budget 60] [--workers 2]
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from boardsweep.solvers import queens_rooks as qr

TIMED = ("boardsweep.solvers.queens_rooks", "boardsweep.pipeline.jobs")
REPEATS = "1 (one run of each search per n; the pipeline once)"


@njit(cache=True)
def seed_count(m: int, n_rooks: int) -> int:
    """The seed's search: attack counters on a board, rows top-down, queen then rook per cell.

    ``table[r, c] > 0``: cell (r, c) is attacked from above; ``-1``: a rook stands there (a queen
    looks up its diagonals for one).  Explicit stack: ``col[i]``/``stage[i]`` for row i.
    """
    size = m + n_rooks
    if size == 0:
        return 1
    table = np.zeros((size, size), np.int32)
    col = np.zeros(size + 1, np.int64)
    stage = np.zeros(size + 1, np.int64)
    queens = np.zeros(size + 1, np.int64)
    rooks = np.zeros(size + 1, np.int64)
    queens[0], rooks[0] = m, n_rooks
    found = 0
    i = 0
    while i >= 0:
        j = col[i]
        if stage[i] == 0:  # next free cell of row i: claim its column below
            if j == size:
                i -= 1
                continue
            if table[i, j] != 0:
                col[i] += 1
                continue
            for k in range(i + 1, size):
                table[k, j] += 1
            stage[i] = 1
        elif stage[i] == 1:  # a queen, unless a rook sits on an upper diagonal
            stage[i] = 3
            if queens[i] > 0:
                clear = True
                k, c = i - 1, j - 1
                while clear and k >= 0 and c >= 0:
                    clear = table[k, c] != -1
                    k, c = k - 1, c - 1
                k, c = i - 1, j + 1
                while clear and k >= 0 and c < size:
                    clear = table[k, c] != -1
                    k, c = k - 1, c + 1
                if clear:
                    _diagonals(table, i, j, size, 1)
                    stage[i] = 2
                    if i + 1 == size:
                        found += 1
                    else:
                        i += 1
                        col[i], stage[i] = 0, 0
                        queens[i], rooks[i] = queens[i - 1] - 1, rooks[i - 1]
        elif stage[i] == 2:  # back from the queen
            _diagonals(table, i, j, size, -1)
            stage[i] = 3
        elif stage[i] == 3:  # a rook
            stage[i] = 5
            if rooks[i] > 0:
                table[i, j] = -1
                stage[i] = 4
                if i + 1 == size:
                    found += 1
                else:
                    i += 1
                    col[i], stage[i] = 0, 0
                    queens[i], rooks[i] = queens[i - 1], rooks[i - 1] - 1
        elif stage[i] == 4:  # back from the rook
            table[i, j] = 0
            stage[i] = 5
        else:  # release the column, next cell
            for k in range(i + 1, size):
                table[k, j] -= 1
            col[i] += 1
            stage[i] = 0
    return found


@njit(cache=True)
def _diagonals(table: np.ndarray, i: int, j: int, size: int, step: int) -> None:
    """Add ``step`` to the cells below (i, j) on both its diagonals."""
    k, c = i + 1, j - 1
    while k < size and c >= 0:
        table[k, c] += step
        k, c = k + 1, c - 1
    k, c = i + 1, j + 1
    while k < size and c < size:
        table[k, c] += step
        k, c = k + 1, c + 1


def cpu(fn, *args):
    """(CPU seconds, result) of one call."""
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def pipeline_triangle(max_n: int, workers: int):
    """(wall seconds, counts table) of the triangle 1..max_n on a local Dask cluster, as
    ``boardsweep solve`` computes (``pipeline.jobs.run_once``; workers warm)."""
    from common import local_cluster, make, solve_once

    with local_cluster(workers, ["queens_rooks"]) as (runner, threads, _):
        job = make("queens_rooks", "triangle", {"total": f"1..{max_n}"})
        start = time.perf_counter()
        table = solve_once(job, runner, threads)["counts"]
        return time.perf_counter() - start, table


def main() -> None:
    """Print the timing table and the triangle."""
    import common
    from common import conditions, markdown

    parser = common.benchmark_parser(__doc__, max_n=13)
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="also time the triangle through the pipeline (0: skip)",
    )
    parser.add_argument(
        "--seed-budget",
        type=float,
        default=60.0,
        help="skip the seed search once its next row would take longer (s)",
    )
    args = common.parse_benchmark_args(parser)
    sizes = {
        "max n": args.max_n,
        "seed budget": f"{args.seed_budget:g} s",
        "pipeline": f"{args.workers} workers" if args.workers else "skipped",
    }
    print(conditions(**sizes), flush=True)
    qr.row(6), seed_count(2, 2)  # compile (or load from the cache) before timing
    table_rows = []
    triangle, rows = 0.0, {}
    seed_last, seed_on = 0.0, True
    for n in range(1, args.max_n + 1):
        params = {"n": n, "queens": list(range(n + 1))}
        t_row, result = cpu(qr.count, params, qr.prefixes(params, 0))
        rows[n] = [int(v) for v in result.counts[0]]
        triangle += t_row
        seed_text = ratio = "-"
        if seed_on and seed_last * 12 < args.seed_budget:
            t_seed = 0.0
            for m in range(n + 1):
                t, value = cpu(seed_count, m, n - m)
                t_seed += t
                assert value == rows[n][m], (m, n - m, value, rows[n][m])
            seed_last = t_seed
            seed_text = f"{t_seed:.3f}"
            ratio = f"{t_seed / t_row:.1f}" if t_row > 0 else "-"
        else:
            seed_on = False
        table_rows.append(
            [n, f"{t_row:.3f}", f"{int(result.nodes.sum()):,}", seed_text, ratio, f"{triangle:.3f}"]
        )
        common.progress(f"n = {n}: row {t_row:.3f} s, seed {seed_text} s")
    parts = [
        "CPU seconds of one process, one run each: the whole row M = 0..n from one search, "
        "and the seed's search once per M on the same cells (skipped once its next row would "
        "pass the budget); the two must agree.",
        markdown(["n", "row s", "nodes", "seed s", "seed / row", "triangle 1..n s"], table_rows),
    ]
    if args.workers:
        seconds, table = pipeline_triangle(args.max_n, args.workers)
        got = {
            (n, m): int(c)
            for n, m, c in zip(
                table.column("n").to_pylist(),
                table.column("queens").to_pylist(),
                table.column("count_text").to_pylist(),
                strict=True,
            )
        }
        assert got == {(n, m): c for n in rows for m, c in enumerate(rows[n])}
        parts.append(
            f"Whole triangle 1..{args.max_n} through the pipeline on {args.workers} workers "
            f"(one run): {seconds:.1f} s wall ({triangle:.1f} s CPU in one process above)."
        )
    parts.append(
        "The triangle, placements(M, n - M) for M = 0..n:\n\n```text\n"
        + "\n".join(f"{n:>3}: " + " ".join(str(c) for c in counts) for n, counts in rows.items())
        + "\n```"
    )
    body = "\n\n".join(parts)
    common.print_and_write(__file__, body, timed=TIMED, repeats=REPEATS, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
