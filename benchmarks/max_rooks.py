"""Walled boards through the whole pipeline on a local cluster of 2 worker processes.

    python benchmarks/max_rooks.py [--boards 1000000] [--counted 100000]

Prints one table: each row a measured step with its seconds and, where the seeds' exhaustive
search (``max_rooks_dfs``, the UVa 639 / POJ 1315 programs' method) can do the same boards,
its time per board on one core against ours as a ratio.

1. ``--boards`` random 8 x 8 boards at wall density 0.25: generate -> solve -> merge, as a
   ``max_rooks`` job whose tasks generate their own index ranges (wall time, workers warm).
2. ``--counted`` random 8 x 8 boards at density 0.25 with counts (maximum and all placements).
3. One 2000 x 2000 board at density 0.3 (maximum and one optimal placement), one core, warm.
For the kernel alone (and scipy's matching) see benchmarks/max_rooks_kernel.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pipeline.config import JobSpec  # noqa: E402
from pipeline.execute import dask_runner  # noqa: E402
from pipeline.jobs import run_job  # noqa: E402
from pipeline.tasks import warm_up  # noqa: E402
from solvers import max_rooks as mr  # noqa: E402


def dfs_seconds_per_board(n: int, density: float, count: int) -> float:
    """The seeds' exhaustive search, one call per board, seconds per board (one core)."""
    batch = mr.generate(n, density, count, seed=99)
    boards = [mr.board_at(batch, b) for b in range(count)]
    mr.max_rooks_dfs(boards[0])
    start = time.perf_counter()
    for board in boards:
        mr.max_rooks_dfs(board)
    return (time.perf_counter() - start) / count


def job_seconds(runner, boards: int, counts: bool) -> float:
    """Wall seconds of a generated 8 x 8 @ 0.25 job of ``boards`` boards into a fresh folder."""
    spec = {"boards": {"generate": {"n": 8, "density": 0.25, "count": boards, "seed": 5}},
            "counts": counts}
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        manifest = run_job(JobSpec("walled", "max_rooks", spec), out, runner, workers=2)
        seconds = time.perf_counter() - start
    assert manifest["complete"], manifest
    return seconds


def main() -> None:
    """Run the three measurements and print the table."""
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1_000_000)
    parser.add_argument("--counted", type=int, default=100_000)
    args = parser.parse_args()
    rows = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(warm_up, ["max_rooks"])
        runner = dask_runner(client)
        job_seconds(runner, 1000, True)  # compile or load every kernel on both workers
        dfs = dfs_seconds_per_board(8, 0.25, 20)
        seconds = job_seconds(runner, args.boards, False)
        rows.append((f"{args.boards:,} boards 8x8 @0.25: generate -> solve -> merge", seconds,
                     dfs * args.boards / seconds))
        seconds = job_seconds(runner, args.counted, True)
        rows.append((f"{args.counted:,} boards 8x8 @0.25 with counts", seconds,
                     dfs * args.counted / seconds))
    big = mr.generate(2000, 0.3, 1, seed=1)
    mr.solve_batch(mr.generate(50, 0.3, 1, seed=1))
    start = time.perf_counter()
    result = mr.solve_batch(big)
    rows.append((f"one 2000x2000 board @0.3 (max {result['max_rooks'][0]:,}), one core",
                 time.perf_counter() - start, None))
    print(f"seed-style DFS on 8x8 @0.25: {dfs * 1e3:.2f} ms per board (one core)\n")
    print("| step | seconds | seed DFS (1 core) / ours |")
    print("|---|---|---|")
    for name, seconds, ratio in rows:
        shown = f"{ratio:,.0f}x" if ratio is not None else "cannot finish"
        print(f"| {name} | {seconds:.2f} | {shown} |")


if __name__ == "__main__":
    main()
