"""Slant puzzles through the whole pipeline on a local cluster of 2 worker processes.

    python benchmarks/slant.py [--count 10000] [--n 10] [--repeats 3]
    python benchmarks/slant.py --sets [--sizes 5 7 10 20 50 100]

Generates ``--count`` unique n x n puzzles into a Parquet set (timed on its own), then runs a
``slant`` job over that set: read, split, solve with a uniqueness verdict, merge into
slant.parquet (timed: wall seconds, workers warm).  With ``--sets`` it generates nothing and
runs one job per stored benchmark set instead (``benchmarks/data/slant_<n>.txt``, made by
``benchmarks/slant_kernel.py --regenerate``), printing per size the median and worst solve time
per puzzle as the workers measured it.  Per-size solve times of the kernel alone on one core,
against the seed-style DFS, are in benchmarks/slant_kernel.py.  The tables go to stdout and to
``benchmarks/results/slant.md`` (with ``--sets``: ``slant_sets.md``; ``--out`` to choose).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import common
from common import (
    HERE,
    RESULTS,
    conditions,
    local_cluster,
    make,
    markdown,
    median,
    run_into,
    solve_once,
    write_results,
)

TIMED = ("boardsweep.pipeline.jobs", "boardsweep.solvers.slant")
DATA = HERE / "data"


def read_result(output: Path, job: str):
    """The published slant table of ``job`` as a pandas frame."""
    import pyarrow.parquet as pq

    return pq.read_table(output / job / "slant.parquet").to_pandas()


def solve_sets(sizes: list[int], cluster, scratch: Path) -> str:
    """One job per stored set; per size the workers' solve times per puzzle (a table)."""
    runner, threads, _ = cluster
    rows = []
    for n in sizes:
        path = DATA / f"slant_{n}.txt"
        if not path.exists():
            sys.exit(f"no stored set {path}: run benchmarks/slant_kernel.py --regenerate")
        job = make("slant", f"slant{n}", {"puzzles": {"ingest": str(path)}})
        start = time.perf_counter()
        run_into(job, scratch / "sets", runner, threads)
        wall = time.perf_counter() - start
        table = read_result(scratch / "sets", job.name)
        seconds = table["seconds"] * 1e3
        rows.append(
            (
                n,
                len(table),
                seconds.median(),
                seconds.max(),
                table["nodes"].median(),
                ",".join(f"{k} {v}" for k, v in table["status"].value_counts().items()),
                wall,
            )
        )
    return markdown(
        ["n", "puzzles", "median ms", "worst ms", "median nodes", "status", "job wall s"],
        [
            [n, k, f"{med:.3f}", f"{worst:.3f}", f"{nodes:.0f}", status, f"{wall:.1f}"]
            for n, k, med, worst, nodes, status, wall in rows
        ],
    )


def generate_set(cluster, n: int, count: int, path: Path) -> int:
    """``boardsweep generate slant --n N --count C --seed 1 -o PATH`` on a warm cluster: the
    job's set table only (``Job.only``), computed as ``solve`` does, written with the job's
    provenance in the footer; its rows."""
    from boardsweep.pipeline.publish import table_metadata
    from boardsweep.pipeline.tables import write_parquet

    runner, threads, _ = cluster
    job = make("slant", "generate", {"puzzles": {"generate": {"n": n, "count": count, "seed": 1}}})
    job.only = (job.problem.instances.table.name,)
    table = solve_once(job, runner, threads)[job.problem.instances.table.name]
    return write_parquet(path, [table], job.problem.instances.table.schema(), table_metadata(job))


def main() -> None:
    """Generate, then solve through the pipeline, and print the table."""
    parser = common.benchmark_parser(__doc__, count=10_000, n=10)
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="solve runs (each into a fresh folder); the median is shown",
    )
    parser.add_argument(
        "--sets", action="store_true", help="solve the stored benchmark sets instead of generating"
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 10, 20, 50, 100])
    args = common.parse_benchmark_args(parser)
    sizes = {
        **(
            {"sets": " ".join(map(str, args.sizes))}
            if args.sets
            else {"puzzles": f"{args.count:,} of {args.n}x{args.n}"}
        ),
        "cluster": "local, 2 worker processes (1 thread each)",
    }
    print(conditions(**sizes), flush=True)
    with tempfile.TemporaryDirectory() as scratch, local_cluster(2, ["slant"]) as cluster:
        scratch = Path(scratch)
        if args.sets:
            table = solve_sets(args.sizes, cluster, scratch)
            print(f"\n{table}")
            write_results(
                __file__,
                "One job per stored set (`benchmarks/data/slant_N.txt`) on 2 warm workers; "
                f"per puzzle the time the workers measured.\n\n{table}",
                timed=(*TIMED, *(f"benchmarks/data/slant_{n}.txt" for n in args.sizes)),
                repeats="1 (one job per set; the median and worst are over its puzzles)",
                spread="not repeated: the worst column is the spread over the puzzles",
                sizes=sizes,
                out=args.out or RESULTS / "slant_sets.md",
            )
            return
        runner, threads, _ = cluster
        puzzles = scratch / "puzzles.parquet"
        start = time.perf_counter()
        generate_set(cluster, args.n, args.count, puzzles)
        generated = time.perf_counter() - start
        job = make("slant", "slant", {"puzzles": {"parquet": str(puzzles)}})
        run_into(job, scratch / "warm", runner, threads)  # first-use costs, untimed
        solved = []
        for r in range(args.repeats):
            start = time.perf_counter()
            run_into(job, scratch / f"out{r}", runner, threads)
            solved.append(time.perf_counter() - start)
        table = read_result(scratch / "out0", "slant")
    seconds = table["seconds"]
    steps = markdown(
        ["step", "seconds"],
        [
            [
                f"generate {args.count:,} unique {args.n}x{args.n} puzzles (2 workers)",
                f"{generated:.1f}",
            ],
            [
                "solve them through the pipeline: read, split, solve, merge, publish (2 workers)",
                f"{median(solved):.1f}",
            ],
        ],
    )
    body = (
        f"{steps}\n\nStatus: {table['status'].value_counts().to_dict()}; per puzzle: median "
        f"{seconds.median() * 1e3:.3f} ms, p99 {seconds.quantile(0.99) * 1e3:.3f} ms, "
        f"median nodes {table['nodes'].median():.0f}. Solve: median of {args.repeats} runs "
        f"({', '.join(f'{s:.1f}' for s in solved)} s), each into a fresh folder on warm "
        "workers; generation timed once."
    )
    repeats = f"{args.repeats} for the solve, 1 for the generation"
    settings = {**sizes, "solve repeats": args.repeats}
    common.print_and_write(
        __file__, body, timed=TIMED, repeats=repeats, sizes=settings, out=args.out
    )


if __name__ == "__main__":
    main()
