"""The application layer: what each command does, shared by the command line and the Python API.

The command line (:mod:`boardsweep.pipeline.cli`) parses its arguments and prints; the API
(:mod:`boardsweep.pipeline.api`) takes Python values and returns them.  Both call these
functions, which hold the policy: which config and jobs, where the output and its state are,
the output's claim and store, ``--fresh``, which cluster (or none for small work), the
performance report, and the per-job loop.  Nothing here prints to stdout or exits: failures
are exceptions of :mod:`boardsweep.pipeline.errors`, progress goes to the log.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from boardsweep import solvers
from boardsweep.solvers.contract import INGEST, PARQUET, Problem
from boardsweep.solvers.schema import ParamError

from . import stopping
from .claim import claim_output, output_id
from .errors import InputError, JobError
from .jobs import LOCAL_SECONDS, Runners, open_runner, run_job, run_once
from .plan import plan_job
from .progress import log, warn
from .publish import check_job_folder, prepare_state
from .spec import (
    ClusterSpec,
    Config,
    Job,
    config_from_mapping,
    load_config,
    state_folder,
    verify_share,
)
from .spec import task_seconds as default_task_seconds
from .store import Store, StoreDamaged, read_only
from .tables import is_parquet, read_file, writable_folder

__all__ = [
    "Where",
    "Session",
    "open_session",
    "run_session",
    "plan_session",
    "PlanRow",
    "one_shot",
    "dask_report",
    "problem",
    "set_source",
    "verify_results",
]


def problem(name: str, needs: str | None = None) -> Problem:
    """The registered problem ``name``, which must have the capability ``needs`` when given
    (a member named in :data:`boardsweep.solvers.contract.CAPABILITIES`); :class:`InputError`
    naming the ones there are otherwise."""
    from boardsweep.solvers.contract import CAPABILITIES

    try:
        found = solvers.get(name)
    except ParamError as exc:
        raise InputError(exc.message) from None
    if needs is not None and not found.has(needs):
        having = ", ".join(solvers.names(needs)) or "none"
        raise InputError(f"{name} has no {CAPABILITIES[needs]} (problems with one: {having})")
    return found


def set_source(path: str | Path) -> dict:
    """``{parquet: path}`` or ``{ingest: path}`` for an instance file, by its magic bytes."""
    path = str(path)
    start = read_file(path, "a seed-format text file or a Parquet set", 4)
    return {PARQUET if is_parquet(start) else INGEST: path}


@dataclass(frozen=True)
class Where:
    """Where tasks run: a local worker count, an existing scheduler, or a client one has."""

    workers: int | None = None
    spec: ClusterSpec | None = None
    client: Any = None  # a distributed.Client the caller made and keeps
    here: bool = False  # in this process whatever the work (judge)

    @property
    def chosen(self) -> bool:
        """Whether the caller asked for a cluster at all (else small work runs here)."""
        return self.workers is not None or self.spec is not None or self.client is not None


@dataclass(frozen=True)
class Session:
    """A config read and checked, the jobs chosen from it, and where they publish."""

    config: Config
    jobs: list[Job]
    output: Path
    state: Path


def open_session(
    config: str | Path | Mapping, job_names: tuple[str, ...] = (), output: str | Path | None = None
) -> Session:
    """Read ``config`` (a file, or a mapping of the YAML's shape, whose relative paths are
    relative to the working folder) and choose its jobs; :class:`InputError` if bad."""
    job_names = tuple(job_names)
    if isinstance(config, Mapping):
        cfg = config_from_mapping(config, job_names)
        where = "<config>"
    else:
        cfg = load_config(config, job_names)
        where = str(config)
    known = {job.name: job for job in cfg.jobs}
    for name in job_names:
        if name not in known:
            raise InputError(f"no job named '{name}': the jobs are {', '.join(known)}", where)
    jobs = [known[name] for name in job_names] if job_names else cfg.jobs
    out = Path(output).expanduser().absolute() if output else cfg.output
    state = state_folder(out) if output else cfg.state
    return Session(cfg, jobs, out, state)


@contextmanager
def dask_report(output: Path) -> Iterator[Path]:
    """Dask's performance report of this run, kept beside the others under
    ``<output>/_runs/<start time>/`` (BokehJS inline: it opens offline)."""
    from distributed import performance_report

    folder = output / "_runs" / f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "dask-performance.html"
    with performance_report(filename=str(path), mode="inline"):
        yield path


def run_session(
    session: Session,
    where: Where = Where(),
    *,
    fresh: bool = False,
    task_seconds: float | None = None,
    command: str | None = None,
    on_failure: Callable[[JobError], None] | None = None,
    verify: float | None = None,
) -> dict[str, dict]:
    """Run every job of ``session`` into its output; return each published job's manifest.

    ``verify``: the share of records verified on a second worker, for every job (else each
    job's ``verify:``, else the cluster's default).  A job that fails does not stop the
    others: each failure goes to ``on_failure`` (else the log), and :class:`JobError` is
    raised after the last job.
    """
    out, state, jobs = session.output, session.state, session.jobs
    writable_folder(out, folder=True)
    writable_folder(state, folder=True)
    task_seconds = default_task_seconds(session.config.cluster, task_seconds)
    command = command or " ".join(["boardsweep", *sys.argv[1:]])
    failures: list[JobError] = []
    manifests: dict[str, dict] = {}
    with claim_output(out, state) as ident:
        for job in jobs:  # a folder in the way stops the run before anything is written
            check_job_folder(out / job.name)
        prepare_state(out, state)
        store = Store(state / "store.sqlite", owner=ident)
        try:
            try:
                store.label(out)
                for job in jobs if fresh else ():
                    store.forget_job(job.name)
            except StoreDamaged as exc:  # moved aside: every result is computed again
                store.set_aside(str(exc))
            problems = sorted({job.problem.name for job in jobs})
            reports: list[Path] = []

            @contextmanager
            def cluster():
                with (
                    open_runner(
                        where.spec or session.config.cluster,
                        problems,
                        workers=where.workers,
                        keys=state / "keys",
                        client=where.client,
                    ) as pair,
                    dask_report(out) as report_path,
                ):
                    reports.append(report_path)
                    yield pair

            shares = {
                job.name: verify_share(job, _cluster_of(session, where), verify) for job in jobs
            }
            small = None if any(shares.values()) else _small_work(session, where, store)
            if small is not None:
                log(
                    f"small work (about {small:.2g} CPU-s estimated): computed in this "
                    "process, no cluster started (ask for one with --workers)"
                )

                @contextmanager
                def cluster():
                    with open_runner(None, problems, local=True) as pair:
                        yield pair

            with Runners(cluster) as runners:
                for job in jobs:
                    stopping.check()  # a signal swallowed in a library callback stops here
                    try:
                        manifests[job.name] = run_job(
                            job,
                            out,
                            state,
                            store,
                            runners,
                            0,
                            task_seconds,
                            command,
                            shares[job.name],
                        )
                    except JobError as exc:
                        (on_failure or (lambda e: warn(str(e))))(exc)
                        failures.append(exc)
            if reports:
                log(f"Dask performance report of this run: {reports[0]}")
            elif small is None:
                log("nothing to compute: every result is stored; no cluster was started")
        finally:
            store.close()
    if failures:
        raise JobError(f"{len(failures)} of {len(jobs)} jobs failed (see above)")
    return manifests


def _cluster_of(session: Session, where: Where) -> ClusterSpec:
    """The cluster a run uses, as far as its defaults go (a client one has is external)."""
    if where.spec is not None:
        return where.spec
    if where.client is not None:
        return ClusterSpec("address", {})
    return session.config.cluster


def _small_work(session: Session, where: Where, store: Store) -> float | None:
    """The estimated CPU seconds of what the run must compute, if that is under
    :data:`LOCAL_SECONDS` and nobody asked for a cluster (no ``--workers`` or scheduler, a
    local cluster whose config names no worker count); None otherwise.  A cluster's start
    costs seconds, more than such work itself."""
    cluster = session.config.cluster
    if where.chosen or cluster.kind != "local" or "workers" in cluster.options:
        return None
    seconds, gaps = 0.0, False
    try:
        for job in session.jobs:
            plan = plan_job(job, store)
            gaps = gaps or any(p.gaps for p in plan.points)
            seconds += plan.todo_seconds()
            if seconds >= LOCAL_SECONDS:
                return None
    except StoreDamaged:
        return None  # the run itself sets the store aside and plans again
    return seconds if gaps else None  # nothing to compute: no runner at all


@dataclass(frozen=True)
class PlanRow:
    """One table of one job in a plan: its size, what is done, and the work left."""

    job: str
    table: str
    points: int
    units: int
    done: int
    tasks: int
    task_seconds: float
    cpu_hours: float
    wall_hours: float  # tasks of equal length in rounds of ``threads`` at once
    verify: float = 0.0  # the share of records computed again on a second worker
    verify_cpu_hours: float = 0.0  # what that adds, estimated


def plan_session(
    session: Session,
    workers: int | None = None,
    task_seconds: float | None = None,
    verify: float | None = None,
) -> tuple[int, float, list[PlanRow]]:
    """``(workers, target task seconds, rows)``: what a run would compute, from the store
    opened read-only (a plan changes nothing); with the CPU that verifying a share of it on
    a second worker adds (``verify``, else each job's, else the cluster's default)."""
    out, state, jobs = session.output, session.state, session.jobs
    cluster = session.config.cluster
    task_seconds = default_task_seconds(cluster, task_seconds)
    threads = workers or cluster.options.get("workers") or os.cpu_count() or 1
    store, why = read_only(state / "store.sqlite", output_id(out))
    if store is None and (state / "store.sqlite").exists():
        warn(f"{state / 'store.sqlite'}: {why}; planned as if nothing were done")
    rows: list[PlanRow] = []
    try:
        for job in jobs:
            started = time.perf_counter()
            try:
                plan = plan_job(job, store)
            except StoreDamaged as exc:  # a run would move it aside and compute everything
                warn(
                    f"{state / 'store.sqlite'}: the result store cannot be read ({exc}); "
                    "planned as if nothing were done"
                )
                store.db.close()
                store = None
                plan = plan_job(job, store)
            length = plan.task_seconds(task_seconds, threads)
            for table in job.outputs():
                points = [p for p in plan.points if p.table == table]
                part = type(plan)(job, plan.version, points)
                seconds = part.todo_seconds()
                tasks = part.count_tasks(length)
                share = verify_share(job, cluster, verify)
                rows.append(
                    PlanRow(
                        job.name,
                        table,
                        len(points),
                        part.units,
                        part.units_done,
                        tasks,
                        seconds / tasks if tasks else 0.0,
                        seconds / 3600,
                        -(-tasks // threads) * seconds / tasks / 3600 if tasks else 0.0,
                        share,
                        share * seconds / 3600,
                    )
                )
            log(f"{job.name}: planned in {time.perf_counter() - started:.2f} s")
    finally:
        if store is not None:
            store.db.close()
    return threads, task_seconds, rows


@contextmanager
def one_shot(
    job: Job, where: Where = Where(), task_seconds: float = 60.0
) -> Iterator[dict[str, Iterator[pa.Table]]]:
    """Compute ``job`` apart from any output folder (``solve``, ``generate``, the API's
    ``count`` and ``solve``): in this process when it is small and no cluster was asked for,
    else on a cluster; yield ``{table: pieces}`` streaming its verified merge."""

    @contextmanager
    def choose(seconds: float):
        local = where.here or (seconds < LOCAL_SECONDS and not where.chosen)
        with open_runner(
            where.spec, [job.problem.name], local=local, workers=where.workers, client=where.client
        ) as pair:
            yield pair

    with run_once(job, choose, task_seconds) as tables:
        yield tables


def verify_results(
    results: str | Path,
    out: Any,
    sample: float | None = None,
    jobs: tuple[str, ...] = (),
    seed: int | None = None,
) -> Any:
    """Re-check a published results folder from its files alone (:mod:`.audit`): sha256s
    against manifests and a recomputed sample; lines to ``out``; returns the
    :class:`~boardsweep.pipeline.audit.Outcome` (:class:`InputError` for bad input)."""
    from .audit import DEFAULT_SAMPLE, audit

    return audit(Path(results), out, DEFAULT_SAMPLE if sample is None else sample, jobs, seed)
