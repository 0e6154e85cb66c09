"""One job end to end: plan, skip finished tasks, run the rest, write fragments, merge, manifest.

A fragment is written the moment its task's result arrives, so an interrupted run loses only
the tasks in flight, and a rerun computes just the tasks without a fragment.  The merged tables
are written only when every planned task has its fragment.
"""

from __future__ import annotations

import itertools
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict
from importlib.metadata import version as package_version
from pathlib import Path

import pyarrow as pa

import solvers

from . import datasets, results, store
from .config import JobSpec, instance_source
from .errors import JobError
from .execute import Call, Runner
from .plan import TASKS_PER_WORKER, plan_count_job, plan_instance_job, plan_solutions
from .progress import Progress, log
from .tasks import run_count_task, run_generate_task, run_instance_task, run_solutions_task

__all__ = ["run_job", "solve_count", "solve_solutions", "solve_set", "generate_set",
           "TaskStats"]


class TaskStats:
    """Tasks planned, already done (skipped), run now and failed, with the CPU seconds used.

    Points (one parameter set, one generated group, one input set) are counted too: a point
    finished by any earlier run is reused whole, whatever split that run chose.
    """

    def __init__(self) -> None:
        self.planned = self.skipped = self.run = 0
        self.points = self.points_reused = 0
        self.failed: list[str] = []
        self.cpu_seconds = 0.0

    def as_dict(self) -> dict:
        """The counters as they go into ``manifest.json``."""
        return {"planned": self.planned, "skipped": self.skipped, "run": self.run,
                "failed": len(self.failed), "failures": self.failed[:20],
                "points": self.points, "points_reused": self.points_reused,
                "cpu_seconds": round(self.cpu_seconds, 3)}


def _describe(task) -> str:
    """What a task computes, for messages: its parameters or its instances."""
    def pairs(values: dict) -> str:
        return ", ".join(f"{k}={v}" for k, v in values.items())

    if hasattr(task, "params"):
        return pairs(task.params)
    if task.generate is not None:
        return "generate " + pairs(task.generate)
    return f"instances {task.lo}..{task.hi - 1} of the set"


def _point_table(table: str) -> str:
    return f"{table}-points"


def _run_into_fragments(
    job: JobSpec, output: Path, table: str, tasks: list, make_call: Callable[[object], Call],
    make_fragment: Callable[[object, dict], pa.Table], runner: Runner, stats: TaskStats,
    by_point: bool = True,
) -> list[Path]:
    """Run the tasks that have no ``table`` fragment yet, writing each fragment as it arrives.

    With ``by_point``, the moment every task of a point has its fragment, they are joined (in
    plan order) into one point fragment, the unit a later run reuses and the merge reads.
    Returns the paths the merge reads, in plan order: point fragments, or task fragments.
    """
    if not by_point:
        tasks_of = {t.key: [t] for t in tasks}
        finished = set()
    else:
        tasks_of = {}
        for t in tasks:
            tasks_of.setdefault(t.point, []).append(t)
        finished = store.existing_fragments(output, job.name, _point_table(table)) & tasks_of.keys()
        stats.points += len(tasks_of)
        stats.points_reused += len(finished)

    def path_of(point: str) -> Path:
        if by_point:
            return store.fragment_path(output, job.name, _point_table(table), point)
        return store.fragment_path(output, job.name, table, point)

    done = store.existing_fragments(output, job.name, table)
    live = [t for point, group in tasks_of.items() if point not in finished for t in group]
    todo = {t.key: t for t in live if t.key not in done}
    missing = {point: {t.key for t in group} - done for point, group in tasks_of.items()}
    stats.planned += len(tasks)
    stats.skipped += len(tasks) - len(todo)

    def close_point(point: str) -> None:
        if by_point and point not in finished and not missing[point]:
            parts = (store.read_table(store.fragment_path(output, job.name, table, t.key))
                     for t in tasks_of[point])
            store.write_table(pa.concat_tables(parts), path_of(point))

    for point in tasks_of:
        close_point(point)  # finished by an interrupted run before it could join them
    if todo:
        progress = Progress(f"{job.name} ({table})", len(todo))
        for call, result, error in runner(make_call(t) for t in todo.values()):
            task = todo[call.key]
            if error is not None:
                stats.failed.append(f"{call.name}-{call.key} ({_describe(task)}): "
                                    f"{type(error).__name__}: {error}")
                progress.advance(ok=False)
                continue
            store.write_table(make_fragment(task, result),
                              store.fragment_path(output, job.name, table, task.key))
            stats.run += 1
            stats.cpu_seconds += result["cpu_seconds"]
            point = task.point if by_point else task.key
            missing[point].discard(task.key)
            close_point(point)
            progress.advance()
        progress.close()
    return [path_of(point) for point in tasks_of]


def _count_call(task) -> Call:
    return Call("count", task.key, run_count_task,
                (task.problem, task.params, task.depth, task.stride, task.offset))


def _solutions_call(task) -> Call:
    return Call("solutions", task.key, run_solutions_task, (task.problem, task.params, task.prefix))


def _manifest(job: JobSpec, config_path: str | None, stats: TaskStats, wall: float,
              tables: list[str], complete: bool) -> dict:
    versions = {name: package_version(name)
                for name in ("boardsweep", "numba", "numpy", "dask", "distributed", "pyarrow")}
    versions["python"] = platform.python_version()
    return {
        "job": asdict(job), "config": config_path, "complete": complete, "tables": tables,
        "solver_version": solvers.get(job.problem).VERSION, "versions": versions,
        "tasks": stats.as_dict(), "wall_seconds": round(wall, 3),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "argv": sys.argv,
    }


def _run_count_tables(job: JobSpec, module, output: Path, runner: Runner, workers: int,
                      stats: TaskStats) -> Callable[[Path], list[str]]:
    """Run a count job's tasks; return the function that merges its tables into a folder."""
    count_tasks = plan_count_job(job, module, workers)
    count_paths = _run_into_fragments(
        job, output, "counts", count_tasks, _count_call,
        lambda t, r: results.counts_fragment(t.problem, module.outputs(t.params), r, t.key),
        runner, stats,
    )
    solution_paths = []
    if job.solutions:
        solution_tasks = []
        for params in module.points(job.spec):
            solution_tasks += plan_solutions(job, module, params)
        # solution tasks are keyed by point and prefix already; joining them would copy them all
        solution_paths = _run_into_fragments(
            job, output, "solutions", solution_tasks, _solutions_call,
            lambda t, r: r["table"], runner, stats, by_point=False,
        )

    def merge(folder: Path) -> list[str]:
        store.write_table(results.merge_counts(store.read_table(p) for p in count_paths),
                          folder / "counts.parquet")
        if not job.solutions:
            return ["counts.parquet"]
        store.stream_concat((store.read_table(p) for p in solution_paths),
                            results.SOLUTIONS, folder / "solutions.parquet")
        return ["counts.parquet", "solutions.parquet"]

    return merge


def _run_instance_tables(job: JobSpec, module, output: Path, runner: Runner, workers: int,
                         stats: TaskStats) -> Callable[[Path], list[str]]:
    """Run an instance job's tasks; return the function that merges its table into a folder."""
    source, options = instance_source(module, job.spec)
    batch = None
    if "generate" not in source:
        batch = datasets.read_set(job.problem, module, next(iter(source.values())))
    tasks = plan_instance_job(
        job, module, workers, options, batch,
        lambda lo, hi: datasets.batch_digest(datasets.slice_batch(module, batch, lo, hi)))

    def call(task) -> Call:
        part = None if batch is None else datasets.slice_batch(module, batch, task.lo, task.hi)
        return Call("solve", task.key, run_instance_task,
                    (task.problem, task.options, task.generate, part))

    table = module.RESULT_TABLE
    paths = _run_into_fragments(job, output, table, tasks, call, lambda t, r: r["table"], runner,
                                stats)

    def merge(folder: Path) -> list[str]:
        schema = store.read_table(paths[0]).schema if paths else pa.schema([])
        store.stream_concat((store.read_table(p) for p in paths), schema,
                            folder / f"{table}.parquet")
        return [f"{table}.parquet"]

    return merge


def run_job(job: JobSpec, output: str | Path, runner: Runner, workers: int,
            config_path: str | None = None) -> dict:
    """Run one job into ``<output>/<job.name>/`` and return its manifest.

    Raises :class:`JobError` (after writing a manifest marked incomplete) if any task failed.
    """
    start = time.monotonic()
    output = Path(output)
    module = solvers.get(job.problem)
    stats = TaskStats()
    run_tables = _run_count_tables if module.KIND == "count" else _run_instance_tables
    merge = run_tables(job, module, output, runner, workers, stats)
    folder = output / job.name
    complete = not stats.failed
    tables = merge(folder) if complete else []
    manifest = _manifest(job, config_path, stats, time.monotonic() - start, tables, complete)
    store.write_json(manifest, folder / "manifest.json")
    if not complete:
        raise JobError(
            f"job {job.name}: {len(stats.failed)} of {stats.planned} tasks failed, first: "
            f"{stats.failed[0]}; the {stats.run + stats.skipped} finished fragments are kept, "
            "run again to retry the rest"
        )
    log(f"{job.name}: {stats.run} tasks run, {stats.skipped} skipped, "
        f"{time.monotonic() - start:.1f} s -> {folder}")
    return manifest


def solve_count(problem: str, spec: dict, runner: Runner, workers: int) -> pa.Table:
    """Answer a count problem without writing anything: the merged counts table, exact."""
    module = solvers.get(problem)
    tasks = {t.key: t for t in plan_count_job(JobSpec("solve", problem, spec), module, workers)}
    fragments = []
    for call, result, error in runner(_count_call(t) for t in tasks.values()):
        if error is not None:
            raise JobError(f"task {call.key} failed: {type(error).__name__}: {error}")
        task = tasks[call.key]
        fragments.append(results.counts_fragment(problem, module.outputs(task.params), result,
                                                 task.key))
    return results.merge_counts(fragments)


def solve_solutions(problem: str, params: dict, runner: Runner, path: str | Path) -> int:
    """Enumerate every solution of ``params`` into one Parquet file in order; return the count."""
    module = solvers.get(problem)
    tasks = plan_solutions(JobSpec("solve", problem, {}), module, params)
    return store.stream_concat(_ordered_tables(runner, [_solutions_call(t) for t in tasks]),
                               results.SOLUTIONS, path)


def _ordered_tables(runner: Runner, calls: list[Call]):
    """Yield each call's ``table`` in call order as soon as all earlier ones have arrived."""
    index = {call.key: i for i, call in enumerate(calls)}
    pending: dict[int, pa.Table] = {}
    next_index = 0
    progress = Progress("tasks", len(calls))
    for call, result, error in runner(calls):
        if error is not None:
            raise JobError(f"task {call.key} failed: {type(error).__name__}: {error}")
        progress.advance()
        pending[index[call.key]] = result["table"]
        while next_index in pending:
            yield pending.pop(next_index)
            next_index += 1
    progress.close()


def generate_set(problem: str, spec: dict, runner: Runner, workers: int, path: str | Path) -> int:
    """Generate the instance set ``spec`` (generate_points keys) into one Parquet file."""
    module = solvers.get(problem)
    calls = []
    for kwargs in module.generate_points(spec):
        parts = max(1, min(kwargs["count"], TASKS_PER_WORKER * workers))
        step = -(-kwargs["count"] // parts)
        for lo in range(0, kwargs["count"], step):
            part = {**kwargs, "start": kwargs["start"] + lo,
                    "count": min(step, kwargs["count"] - lo)}
            calls.append(Call("generate", f"{len(calls)}-{part['start']}", run_generate_task,
                              (problem, part)))
    tables = _ordered_tables(runner, calls)
    first = next(tables)  # generate_points gives at least one point of count >= 1
    return store.stream_concat(itertools.chain([first], tables), first.schema, path)


def solve_set(problem: str, set_path: str, options: dict, runner: Runner, workers: int,
              path: str | Path) -> int:
    """Solve every instance of the set at ``set_path`` into the Parquet file ``path``."""
    module = solvers.get(problem)
    path = Path(path)
    job = JobSpec("solve", problem, {module.INPUT_KEY: {"ingest": set_path}, **options})
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".boardsweep-") as scratch:
        run_job(job, scratch, runner, workers)
        table = Path(scratch) / "solve" / f"{module.RESULT_TABLE}.parquet"
        rows = store.read_table(table).num_rows
        os.replace(table, path)
    return rows
