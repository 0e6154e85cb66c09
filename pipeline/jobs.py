"""The one execution path: plan -> run -> merge, for every command that computes.

``run`` publishes each job into its results folder (:func:`run_job`); ``solve``, ``generate``
and ``judge`` run the same plan and loop against a temporary store and stream the merged
tables to a file or to stdout (:func:`run_once`).  Which runner executes the tasks (a Dask
cluster, or this process for small work and for ``judge``) is chosen by the caller.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa

from . import stopping
from .errors import JobError
from .limits import check_worker_memory
from .merge import TableMerge
from .plan import JobPlan, plan_job
from .progress import log, ticking, warn
from .publish import Recompute, RunInfo, check_job_folder, publish
from .replicate import verify_job
from .run import Runner, RunStats, dask_runner, execute, local_runner
from .spec import ClusterSpec, Job
from .store import Store, StoreDamaged
from .warm import warm_workers

__all__ = ["run_job", "run_once", "open_runner", "Runners", "LOCAL_SECONDS", "MAX_VERIFY_ROUNDS"]

LOCAL_SECONDS = 2.0  # one-shot work estimated below this runs in this process, no cluster
MAX_VERIFY_ROUNDS = 3  # merges retried after dropping records that failed verification
MAX_BANS = 8  # workers found computing wrongly in one job before it fails


@contextmanager
def open_runner(
    spec: ClusterSpec | None,
    problems: list[str],
    *,
    local: bool = False,
    workers: int | None = None,
    keys: Path | None = None,
    client=None,
) -> Iterator[tuple[Runner, int]]:
    """``(runner, worker threads)``: this process when ``local``, else a Dask cluster whose
    workers have loaded the problems' kernels: ``client`` (one the caller made and keeps
    open), or one opened for ``spec`` (``keys``: where a batch cluster's TLS files go)."""
    if local:
        yield _saying_compiles(local_runner, problems), 1
        return
    from .cluster import open_client  # Dask: imported by the runs that use it

    with contextlib.ExitStack() as stack:
        if client is None:
            client = stack.enter_context(
                open_client(spec or ClusterSpec(), workers=workers, keys=keys)
            )
        ready = warm_workers(client, problems)
        threads = sum(client.nthreads().values())
        compiled = sum(
            1 for r in ready.values() if any(p["compiled"] for p in r["problems"].values())
        )
        log(
            f"{len(ready)} workers ready ({threads} threads; kernel warm-up "
            f"{max((r['seconds'] for r in ready.values()), default=0):.2f} s"
            + (f", {compiled} of them compiled kernels" if compiled else "")
            + ")"
        )
        yield dask_runner(client, threads), threads


def _saying_compiles(runner: Runner, problems: list[str]) -> Runner:
    """``runner`` (one that computes in this process) saying every few seconds, while its
    tasks compile the problems' kernels (a machine's first run), how many functions it has
    compiled so far; silent otherwise."""

    def run(source):
        from boardsweep import solvers

        from .warm import cache_misses

        found = [solvers.get(name) for name in problems]
        before = sum(cache_misses(problem) for problem in found)

        def line(seconds: float) -> str | None:
            compiled = sum(cache_misses(problem) for problem in found) - before
            if not compiled:
                return None
            return (
                f"compiling {', '.join(problems)} kernels (first run on this machine): "
                f"{compiled} functions compiled, {seconds:.0f} s"
            )

        with ticking(line):
            yield from runner(source)

    return run


class Runners:
    """A runner opened on first need: a run with nothing left to compute starts no cluster.

    ``open()`` is a context manager giving ``(runner, threads)``; :meth:`get` enters it once.
    """

    def __init__(self, open_) -> None:
        self._open = open_
        self._stack = contextlib.ExitStack()
        self.pair: tuple[Runner, int] | None = None

    def get(self) -> tuple[Runner, int]:
        """``(runner, threads)``, opening the cluster the first time."""
        if self.pair is None:
            self.pair = self._stack.enter_context(self._open())
        return self.pair

    @property
    def threads(self) -> int:
        """Worker threads of the opened runner (0 while none is open)."""
        return self.pair[1] if self.pair else 0

    def __enter__(self) -> Runners:
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()


def _failed(job: Job, stats: RunStats, plan: JobPlan, kept: bool = True) -> JobError:
    first = stats.failures[0]
    failed = len(stats.failures)
    what = (
        (
            f"the {stats.tasks} tasks that finished are kept in the store, and a rerun "
            "computes only what is missing"
        )
        if kept
        else "nothing of it is kept"
    )
    return JobError(
        f"job {job.name}: {failed} task{'s' * (failed != 1)} failed, first: {first}; {what}"
    )


def run_job(
    job: Job,
    output: Path,
    state: Path,
    store: Store,
    runner: Runner | Runners,
    threads: int,
    task_seconds: float,
    command: str,
    share: float = 0.0,
) -> dict:
    """Compute what ``job`` lacks and publish it as a new generation; return its manifest.

    ``runner`` is a runner with ``threads`` worker threads, or :class:`Runners` (opened only
    if there is something to compute).  ``share``: the records verified on a second worker
    before publication (:mod:`pipeline.replicate`).  :class:`JobError` (the published
    generation unchanged, finished records kept) if any task failed.
    """
    started = time.time()
    check_job_folder(output / job.name)
    runners = runner if isinstance(runner, Runners) else None
    stats = RunStats()

    def cluster() -> Runner:
        return runners.get()[0] if runners is not None else runner

    for _ in range(MAX_VERIFY_ROUNDS):
        try:
            for _round in range(MAX_BANS + 1):  # once, and again after each worker banned
                plan = plan_job(job, store)
                gaps = any(p.gaps for p in plan.points)
                if runners is not None:
                    if gaps:
                        runner, threads = runners.get()
                    else:
                        runner, threads = local_runner, max(runners.threads, 1)
                if gaps and hasattr(runner, "memory_limit"):
                    check_worker_memory(job, runner.memory_limit())
                length = plan.task_seconds(task_seconds, threads)
                stats.add(execute(plan, runner, store, length, job.name, threads))
                if stats.failures:
                    raise _failed(job, stats, plan)
                done = plan_job(job, store)  # what is published (a verified record that lost
                # is replaced in place: the same units, so the same plan)
                if share <= 0 or not verify_job(done, cluster, store, share, stats):
                    break
            else:
                raise JobError(
                    f"job {job.name}: more than {MAX_BANS} workers computed "
                    "wrongly; nothing is published"
                )
            workers = runners.threads if runners is not None else threads
            stopping.check()  # nothing is published after a signal, even a swallowed one
            manifest = publish(
                done, store, output, state, RunInfo(started, workers, command, share), stats
            )
        except Recompute as exc:
            warn(
                f"{job.name}: {len(exc.bad)} stored results failed verification ("
                f"{exc.bad[0].reason}); computing them again"
            )
            continue
        except StoreDamaged as exc:  # moved aside: every result of the job is computed again
            store.set_aside(str(exc))
            continue
        reused = plan.units_done
        log(
            f"{job.name}: {stats.tasks} tasks run ({stats.units} units), {reused} of "
            f"{plan.units} units reused, {time.time() - started:.1f} s -> {output / job.name}"
        )
        return manifest
    raise JobError(
        f"job {job.name}: stored results keep failing verification; remove {state} and run again"
    )


SCRATCH = "boardsweep-"  # $TMPDIR/boardsweep-<pid>-*: a one-shot command's store


def _sweep_scratch() -> None:
    """Remove the scratch stores of one-shot commands whose process is gone (killed)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH}*-*"):
        pid = folder.name[len(SCRATCH) :].split("-")[0]
        if not pid.isdigit() or not folder.is_dir() or folder.is_symlink():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:  # another user's process, alive
            continue


@contextmanager
def run_once(job: Job, runner_for, task_seconds: float) -> Iterator[dict[str, Iterator[pa.Table]]]:
    """Compute ``job`` into a temporary store; yield ``{table: pieces}`` streaming its merge.

    ``runner_for(estimated seconds)`` is a context manager giving ``(runner, threads)``.
    """
    _sweep_scratch()
    scratch = Path(tempfile.mkdtemp(prefix=f"{SCRATCH}{os.getpid()}-"))
    store = Store(scratch / "store.sqlite", keeps=False)
    try:
        plan = plan_job(job, store)
        todo = plan.todo_seconds()
        if todo > 30:
            log(
                f"{job.name}: about {todo / 3600:.3g} CPU-hours of work estimated"
                if todo > 3600
                else f"{job.name}: about {todo:.0f} CPU-seconds of work estimated"
            )
        with runner_for(todo) as (runner, threads):
            stats = execute(
                plan, runner, store, plan.task_seconds(task_seconds, threads), job.name, threads
            )
        if stats.failures:
            raise _failed(job, stats, plan, kept=False)
        plan = plan_job(job, store)

        def pieces(name: str) -> Iterator[pa.Table]:
            merge = TableMerge(plan, name, store, None)
            yield from merge
            if merge.bad:
                raise JobError(f"{name}: a result failed verification: {merge.bad[0].reason}")

        yield {name: pieces(name) for name in job.outputs()}
    finally:
        with contextlib.suppress(Exception):
            store.close()
        shutil.rmtree(scratch, ignore_errors=True)
