"""Slant puzzles through the whole pipeline on a local cluster of 2 worker processes.

    python benchmarks/slant.py [--count 10000] [--n 10]
    python benchmarks/slant.py --sets [--sizes 5 7 10 20 50 100]

Generates ``--count`` unique n x n puzzles into a Parquet set (timed on its own), then runs a
``slant`` job over that set: read, split, solve with a uniqueness verdict, merge into
slant.parquet (timed: wall seconds, workers warm).  With ``--sets`` it generates nothing and
runs one job per stored benchmark set instead (``benchmarks/data/slant_<n>.txt``, made by
``benchmarks/slant_kernel.py --regenerate``), printing per size the median and worst solve time
per puzzle as the workers measured it.  Per-size solve times of the kernel alone on one core,
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

DATA = HERE / "data"


def solve_sets(sizes: list[int], runner, scratch: Path) -> None:
    """One job per stored set; per size the workers' solve times per puzzle."""
    rows = []
    for n in sizes:
        path = DATA / f"slant_{n}.txt"
        if not path.exists():
            sys.exit(f"no stored set {path}: run benchmarks/slant_kernel.py --regenerate")
        job = JobSpec(f"slant{n}", "slant", {"puzzles": {"ingest": str(path)}})
        start = time.perf_counter()
        run_job(job, scratch / "sets", runner, workers=2)
        wall = time.perf_counter() - start
        table = read_table(scratch / "sets" / job.name / "slant.parquet").to_pandas()
        seconds = table["seconds"] * 1e3
        rows.append((n, len(table), seconds.median(), seconds.max(), table["nodes"].median(),
                     ",".join(f"{k} {v}" for k, v in table["status"].value_counts().items()),
                     wall))
    print("| n | puzzles | median ms | worst ms | median nodes | status | job wall s |")
    print("|---|---|---|---|---|---|---|")
    for n, k, med, worst, nodes, status, wall in rows:
        print(f"| {n} | {k} | {med:.3f} | {worst:.3f} | {nodes:.0f} | {status} | {wall:.1f} |")


def main() -> None:
    """Generate, then solve through the pipeline, and print the table."""
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--sets", action="store_true",
                        help="solve the stored benchmark sets instead of generating")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 10, 20, 50, 100])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, Client(cluster) as client:
        client.run(warm_up, ["slant"])
        runner = dask_runner(client)
        if args.sets:
            solve_sets(args.sizes, runner, Path(scratch))
            return
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
