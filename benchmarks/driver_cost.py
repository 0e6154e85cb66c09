"""The driver's cost per task: no-op tasks end to end through the pipeline, against plain Dask.

    python benchmarks/driver_cost.py [--tasks 10000] [--workers 2] [--repeats 3]

The problem is ``tests.noop`` (registered through ``BOARDSWEEP_PROBLEMS``, as a third-party
problem is): one point of N work units that do nothing, each estimated at ``--seconds``, run
at a target task length of ``--seconds``, so the plan holds exactly N tasks.  Each repeat runs,
interleaved, on one local cluster of ``--workers`` worker processes (``pipeline.jobs.
open_runner``, the cluster ``boardsweep run`` makes):

1. boardsweep: ``make_job`` + ``run_job`` into a fresh output folder: lock and state folder,
   plan, the loop (bundles, bounded window), store commits, merge and publication (with
   ``--unbundled``, once more with one task per Dask future: the loop's cost per future);
2. baseline: the same N no-op calls (``compute(point, u, u + 1)``) as one Dask future each,
   ``client.map`` + ``as_completed(..., with_results=True).batches()``, results dropped;
3. baseline + Parquet: the same, each result stored as the old pipeline stored a task's
   fragment: its own zstd Parquet file, written to a temp name, fsync'd, renamed.

Per row: tasks, Dask futures (boardsweep packs short tasks into bundles), median wall seconds,
milliseconds per task, median CPU seconds of this process (the driver, which also hosts the
local cluster's scheduler), and ratios to the two baselines.  Nothing here asserts on a time.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import common
from common import ROOT, conditions, local_cluster, markdown, median, run_into

os.environ["BOARDSWEEP_PROBLEMS"] = ",".join(
    [n for n in os.environ.get("BOARDSWEEP_PROBLEMS", "").split(",") if n] + ["tests.noop"]
)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]]
)
sys.path.insert(0, str(ROOT))

from boardsweep.pipeline.run import BundleSource
from boardsweep.pipeline.spec import make_job
from boardsweep.solvers.schema import Context

TIMED = ("boardsweep.pipeline.jobs", "tests.noop")


def noop_call(point, unit: int) -> dict:
    """One no-op unit on a worker, returned as the old pipeline's tasks returned results."""
    from boardsweep import solvers

    start = time.thread_time()
    table = solvers.get("noop").compute(point, unit, unit + 1)
    return {"table": table, "cpu_seconds": time.thread_time() - start}


def write_fragment(table, path: Path) -> None:
    """The old pipeline's fragment write: zstd Parquet to a temp name, fsync, rename."""
    import pyarrow.parquet as pq

    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, temp, compression="zstd")
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def counting(runner):
    """``(runner, counter)``: the runner, counting the bundles (Dask futures) it is given."""
    count = [0]

    def run(source):
        class Counted(BundleSource):
            def next(self):
                bundle = source.next()
                if bundle is not None:
                    count[0] += 1
                return bundle

        yield from runner(Counted())

    return run, count


def pipeline_once(
    runner, threads: int, tasks: int, seconds: float, folder: Path, bundle: int | None = None
) -> dict:
    """One boardsweep run of ``tasks`` no-op tasks into a fresh folder (checked after);
    ``bundle``: at most that many tasks per Dask future (``boardsweep.pipeline.run.MAX_BUNDLE``)."""
    from boardsweep.pipeline import run as pipeline_run

    job = make_job("noop", "noop", {"units": tasks, "seconds": seconds}, Context(str(ROOT)))
    counted, futures = counting(runner)
    default = pipeline_run.MAX_BUNDLE
    pipeline_run.MAX_BUNDLE = bundle or default
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        manifest = run_into(job, folder / "results", counted, threads, seconds, "driver_cost")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        pipeline_run.MAX_BUNDLE = default
    run = manifest["run"]
    if run["tasks_run"] != tasks or manifest["tables"]["noop"]["rows"] != 1:
        raise RuntimeError(f"expected {tasks} tasks and one row, got {run}")
    return {"tasks": run["tasks_run"], "futures": futures[0], "wall": wall, "cpu": cpu}


def futures_once(client, point, tasks: int, folder: Path | None) -> dict:
    """One Dask future per no-op call; with ``folder``, each result stored as a fragment."""
    from distributed import as_completed

    if folder is not None:
        folder.mkdir(parents=True)
    cpu, wall = time.process_time(), time.perf_counter()
    futures = client.map(noop_call, [point] * tasks, range(tasks), pure=False)
    done = 0
    for batch in as_completed(futures, with_results=True).batches():
        for future, result in batch:
            if folder is not None:
                write_fragment(result["table"], folder / f"{future.key}.parquet")
            done += 1
    del futures
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if done != tasks:
        raise RuntimeError(f"{done} of {tasks} futures came back")
    return {"tasks": tasks, "futures": tasks, "wall": wall, "cpu": cpu}


def main() -> None:
    """Run the interleaved repeats and print the table."""
    parser = common.benchmark_parser(__doc__, tasks=10_000, workers=2, repeats=3)
    parser.add_argument(
        "--seconds",
        type=float,
        default=1.0,
        help="estimated seconds of one unit, and the target task length",
    )
    parser.add_argument(
        "--unbundled",
        action="store_true",
        help="add a boardsweep row with one task per Dask future "
        "(pipeline_run.MAX_BUNDLE = 1): the loop's cost per future",
    )
    args = common.parse_benchmark_args(parser)
    sizes = {
        "tasks": args.tasks,
        "workers": f"{args.workers} local worker processes (1 thread each)",
        "unit estimate = target task length": f"{args.seconds:g} s",
    }
    print(conditions(repeats=args.repeats, **sizes))
    from boardsweep import solvers

    point = solvers.get("noop").points({"units": args.tasks, "seconds": args.seconds}, "noop")[0]
    names = [
        "boardsweep run_job",
        "baseline: one Dask future per task",
        "baseline + one fsync'd Parquet file per task",
    ]
    if args.unbundled:
        names.append("boardsweep run_job, one task per Dask future")
    results: dict[str, list[dict]] = {name: [] for name in names}
    with (
        tempfile.TemporaryDirectory(prefix="driver-cost-") as scratch,
        local_cluster(args.workers, ["noop"]) as (runner, threads, client),
    ):
        base = Path(scratch)
        warm = min(args.tasks, 200)  # Dask's and the store's first-use costs, untimed
        pipeline_once(runner, threads, warm, args.seconds, base / "warm-p")
        futures_once(client, point, warm, base / "warm-f")
        for r in range(args.repeats):
            order = [(r + i) % len(names) for i in range(len(names))]  # rotate the first
            for i in order:
                folder = base / f"r{r}-{i}"
                if i in (0, 3):
                    results[names[i]].append(
                        pipeline_once(
                            runner, threads, args.tasks, args.seconds, folder, 1 if i == 3 else None
                        )
                    )
                else:
                    results[names[i]].append(
                        futures_once(client, point, args.tasks, folder if i == 2 else None)
                    )
                common.progress(
                    f"repeat {r + 1}/{args.repeats} {names[i]}: "
                    f"{results[names[i]][-1]['wall']:.2f} s"
                )
    walls = {name: median([x["wall"] for x in runs]) for name, runs in results.items()}
    rows = []
    for name, runs in results.items():
        wall, cpu = walls[name], median([x["cpu"] for x in runs])
        futures = median([x["futures"] for x in runs])
        rows.append(
            [
                name,
                f"{runs[0]['tasks']:,}",
                f"{futures:,.0f}",
                f"{wall:.2f}",
                f"{1e3 * wall / runs[0]['tasks']:.3f}",
                f"{cpu:.2f}",
                f"{1e3 * cpu / runs[0]['tasks']:.3f}",
                f"{wall / walls[names[1]]:.2f}",
                f"{wall / walls[names[2]]:.2f}",
            ]
        )
    table = markdown(
        [
            "run",
            "tasks",
            "Dask futures",
            "wall s",
            "ms per task",
            "driver CPU s",
            "driver CPU ms per task",
            "wall / futures baseline",
            "wall / futures + Parquet baseline",
        ],
        rows,
    )
    body = (
        f"{table}\n\nMedians of {args.repeats} interleaved repeats; driver CPU is this process's "
        "time (the local cluster's scheduler runs in it too). Each boardsweep row includes "
        "planning, the loop, store commits, merge and publication into a fresh folder.\n\n"
        "All repeats, wall s: "
        + "; ".join(
            f"{name}: " + ", ".join(f"{x['wall']:.2f}" for x in runs)
            for name, runs in results.items()
        )
    )
    repeats = f"{args.repeats}, the rows interleaved (each first in turn)"
    common.print_and_write(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
