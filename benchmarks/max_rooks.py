"""Walled boards through the whole pipeline on a local cluster of 2 worker processes.

    python benchmarks/max_rooks.py [--boards 1000000] [--counted 100000] [--repeats 3]

Prints one table: each row a measured step with its seconds and, where the seeds' exhaustive
search (``max_rooks_dfs``, the UVa 639 / POJ 1315 programs' method) can do the same boards,
its time against ours as a ratio.  The seed's search is far too slow to run on the same
boards: it is timed on ``--dfs-boards`` (20) boards of the same size and density (not the job's),
one call per board on one core, and its time per board multiplied by the job's boards.  Ours
runs on ``WORKERS`` worker processes, so the table gives two ratios: the seed's one core
against our workers, and the seed given as many cores as our workers (its time divided by
``WORKERS``: a perfect split, which favours it), which compares like with like.

1. ``--boards`` random 8 x 8 boards at wall density 0.25: generate -> solve -> merge, as a
   ``max_rooks`` job whose tasks generate their own index ranges (wall time, workers warm).
2. ``--counted`` random 8 x 8 boards at density 0.25 with counts (maximum and all placements).
3. One 2000 x 2000 board at density 0.3 (maximum and one optimal placement), one core, warm.
For the kernel alone (and scipy's matching) see benchmarks/max_rooks_kernel.py.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import common
from common import conditions, local_cluster, make, markdown, median, run_into

from boardsweep.solvers import max_rooks as mr

TIMED = ("boardsweep.pipeline.jobs", "boardsweep.solvers.max_rooks")

WORKERS = 2  # worker processes of the local cluster (1 thread each)
DFS_BOARDS = 20  # boards the seed's search is timed on, per repeat (--dfs-boards)


def dfs_seconds_per_board(n: int, density: float, count: int) -> float:
    """The seeds' exhaustive search, one call per board, seconds per board (one core)."""
    batch = mr.generate(n, density, count, seed=99)
    boards = [mr.board_at(batch, b) for b in range(count)]
    mr.max_rooks_dfs(boards[0])
    start = time.perf_counter()
    for board in boards:
        mr.max_rooks_dfs(board)
    return (time.perf_counter() - start) / count


def job_seconds(cluster, boards: int, counts: bool) -> float:
    """Wall seconds of a generated 8 x 8 @ 0.25 job of ``boards`` boards into a fresh folder
    (``run_job`` as ``boardsweep run`` calls it: plan, loop, store, merge, publication)."""
    runner, threads, _ = cluster
    spec = {
        "boards": {"generate": {"n": 8, "density": 0.25, "count": boards, "seed": 5}},
        "counts": counts,
    }
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        manifest = run_into(
            make("max_rooks", "walled", spec), Path(out) / "results", runner, threads
        )
        seconds = time.perf_counter() - start
    assert manifest["tables"]["maxima"]["rows"] == boards, manifest
    return seconds


def main() -> None:
    """Run the three measurements and print the table."""
    parser = common.benchmark_parser(__doc__, boards=1_000_000, counted=100_000, repeats=3)
    parser.add_argument(
        "--dfs-boards",
        type=int,
        default=DFS_BOARDS,
        help="boards the seed's search is timed on per repeat (2-3 s each)",
    )
    args = common.parse_benchmark_args(parser)
    sizes = {
        "boards": f"{args.boards:,}",
        "counted": f"{args.counted:,}",
        "cluster": f"local, {WORKERS} worker processes (1 thread each)",
        "seed DFS": f"{args.dfs_boards} boards per repeat, one core",
    }
    print(conditions(repeats=args.repeats, **sizes), flush=True)
    dfs, plain, counted, big = [], [], [], []
    mr.solve_batch(mr.generate(50, 0.3, 1, seed=1))
    large = mr.generate(2000, 0.3, 1, seed=1)
    with local_cluster(WORKERS, ["max_rooks"]) as cluster:
        job_seconds(cluster, 1000, True)  # compile or load every kernel on both workers
        for r in range(args.repeats):  # interleaved: each repeat measures every row once
            dfs.append(dfs_seconds_per_board(8, 0.25, args.dfs_boards))
            plain.append(job_seconds(cluster, args.boards, False))
            counted.append(job_seconds(cluster, args.counted, True))
            start = time.perf_counter()
            result = mr.solve_batch(large)
            big.append(time.perf_counter() - start)
            common.progress(
                f"repeat {r + 1}/{args.repeats}: {plain[-1]:.2f} s, {counted[-1]:.2f} s, "
                f"{big[-1]:.2f} s"
            )
    dfs_board = median(dfs)
    rows = [
        (
            f"{args.boards:,} boards 8x8 @0.25: generate -> solve -> merge",
            median(plain),
            dfs_board * args.boards / median(plain),
        ),
        (
            f"{args.counted:,} boards 8x8 @0.25 with counts",
            median(counted),
            dfs_board * args.counted / median(counted),
        ),
        (f"one 2000x2000 board @0.3 (max {result['max_rooks'][0]:,}), one core", median(big), None),
    ]
    table = markdown(
        [
            "step",
            "seconds",
            "seed DFS on 1 core / ours",
            f"seed DFS on {WORKERS} cores (a perfect split) / ours",
        ],
        [
            [
                name,
                f"{seconds:.2f}",
                f"{ratio:,.0f}x" if ratio is not None else "cannot finish",
                f"{ratio / WORKERS:,.0f}x" if ratio is not None else "cannot finish",
            ]
            for name, seconds, ratio in rows
        ],
    )
    body = (
        f"{table}\n\nMedians of {args.repeats} interleaved runs; jobs run into a fresh folder "
        f"each (plan, loop, store, merge, publication) on {WORKERS} warm workers. The baseline "
        "is the seeds' DFS, timed in this script on "
        f"{args.dfs_boards} boards per repeat (one core, {dfs_board * 1e3:.2f} ms per 8x8 board at "
        "density 0.25, median) and multiplied by the job's boards: it is far too slow to run "
        "on them."
    )
    repeats = f"{args.repeats}, every row once per repeat"
    common.print_and_write(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
