"""Slant puzzles through the whole pipeline on a local cluster of 2 worker processes.

    python benchmarks/slant.py [--count 10000] [--n 10]

Generates ``--count`` unique n x n puzzles into a Parquet set (timed on its own), then runs a
``slant`` job over that set: read, split, solve with a uniqueness verdict, merge into
slant.parquet (timed: wall seconds, workers warm).  Per-size solve times of the kernel alone,
against the seed-style DFS, are in benchmarks/slant_kernel.py.
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
from pipeline.jobs import generate_set, run_job  # noqa: E402
from pipeline.store import read_table  # noqa: E402
from pipeline.tasks import warm_up  # noqa: E402


def main() -> None:
    """Generate, then solve through the pipeline, and print the table."""
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--n", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, Client(cluster) as client:
        client.run(warm_up, ["slant"])
        runner = dask_runner(client)
        puzzles = Path(scratch) / "puzzles.parquet"
        start = time.perf_counter()
        generate_set("slant", {"n": args.n, "count": args.count, "seed": 1}, runner, 2, puzzles)
        generated = time.perf_counter() - start
        job = JobSpec("slant", "slant", {"puzzles": {"parquet": str(puzzles)}})
        start = time.perf_counter()
        run_job(job, Path(scratch) / "out", runner, workers=2)
        solved = time.perf_counter() - start
        table = read_table(Path(scratch) / "out" / "slant" / "slant.parquet").to_pandas()
    print("| step | seconds |")
    print("|---|---|")
    print(f"| generate {args.count:,} unique {args.n}x{args.n} puzzles (2 workers) "
          f"| {generated:.1f} |")
    print(f"| solve them through the pipeline: read, split, solve, merge (2 workers) "
          f"| {solved:.1f} |")
    seconds = table["seconds"]
    print(f"\nstatus: {table['status'].value_counts().to_dict()}; per puzzle: median "
          f"{seconds.median() * 1e3:.3f} ms, p99 {seconds.quantile(0.99) * 1e3:.3f} ms, "
          f"median nodes {table['nodes'].median():.0f}")


if __name__ == "__main__":
    main()
