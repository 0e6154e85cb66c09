"""The one loop: tasks -> bundles -> a runner (Dask or this process) -> records in the store.

Every command that computes goes through :func:`execute`: ``run``, ``solve``, ``generate`` and
``judge`` alike.  The loop keeps a bounded window of bundles in flight (a few per worker
thread), so the scheduler never holds millions of tasks; it packs short tasks into one bundle
(one Dask task) until the bundle is worth Dask's per-task cost, using the ratio of measured to
estimated seconds of the tasks done so far; it hands each finished task to the store as a
record, counts progress by estimated cost, and collects failures by task.  A bundle whose
worker died is split and its tasks retried one by one, so a crashing task fails alone.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from . import stopping
from .plan import JobPlan, Task
from .progress import Progress, warn
from .store import Record, Store
from .work import Item, Outcome, run_bundle, versions

__all__ = [
    "Bundle",
    "BundleSource",
    "Runner",
    "local_runner",
    "dask_runner",
    "DaskRunner",
    "execute",
    "RunStats",
    "WorkerLost",
    "refusal",
    "BUNDLE_SECONDS",
    "MAX_BUNDLE",
]

BUNDLE_SECONDS = 0.25  # a bundle should hold at least this much work (Dask's cost per task:
# benchmarks/driver_cost.py, figures on the speed page, docs/speed.md)
SCHEDULER_SECONDS = 0.005  # ... and per worker thread this much more: a scheduler handles a few
# hundred tasks a second, so 1000 workers need bundles of 5 s of work to stay busy
MAX_BUNDLE = 1000  # tasks in one bundle at most
MAX_REFUSED = 3  # outcomes of one task refused (a banned or refusing worker ran it) before
# it fails
WINDOW_PER_THREAD = 3  # bundles in flight per worker thread
TAIL_SHARE = 2  # toward the end a bundle holds at most 1 / (TAIL_SHARE * threads) of the work
# still unpacked, so the last bundles are short and the threads finish together (guided
# self-scheduling); a bundle never holds less than one task


class WorkerLost(RuntimeError):
    """Every worker that ran a bundle died, more often than the scheduler allows."""


@dataclass
class Bundle:
    """Tasks sent to a worker together (a task retried after a lost worker goes alone)."""

    id: int
    problem: str
    version: str
    tasks: list[Task]
    rows: list[Any]
    avoid: frozenset[str] = frozenset()  # workers that must not compute it (verification)

    def call(self) -> tuple:
        """``(function, *args)`` to run on a worker."""
        items = [
            Item(replace(t.plan.point, costs=None), t.plan.point_id, t.lo, t.hi, r)
            for t, r in zip(self.tasks, self.rows, strict=True)
        ]
        return run_bundle, self.problem, self.version, items


class BundleSource:
    """Where a runner takes bundles from: ``next()`` gives one, or None when there is none
    now (more may come while bundles are in flight: retries after a lost worker)."""

    def next(self) -> Bundle | None:  # pragma: no cover - interface
        raise NotImplementedError


# a runner takes a bundle source and yields batches of (bundle, outcomes, error), each batch
# the bundles that finished since the last one (the loop commits its records per batch)
Done = tuple[Bundle, list[Outcome] | None, BaseException | None]
Runner = Callable[[BundleSource], Iterator[list[Done]]]


def local_runner(source: BundleSource) -> Iterator[list[Done]]:
    """Run every bundle here, one after another (small jobs, judge, tests)."""
    while (bundle := source.next()) is not None:
        func, *args = bundle.call()
        try:
            yield [(bundle, func(*args), None)]
        except Exception as exc:
            yield [(bundle, None, exc)]


class DaskRunner:
    """A runner on a Dask client keeping ``WINDOW_PER_THREAD`` bundles per thread in flight.

    A bundle whose workers all died (``allowed-failures`` exceeded) comes back as
    :class:`WorkerLost`.  Workers in :attr:`banned` (they computed wrongly) are given no more
    bundles, and a bundle's ``avoid`` workers are passed over, preferring workers on another
    host than theirs; both are loose restrictions (a bundle never waits for a worker that is
    gone), so the caller checks who computed each outcome.  Each bundle carries the driver's
    library versions, and a worker with others refuses it (:func:`refusal`).
    """

    def __init__(self, client, threads: int):
        self.client = client
        self.threads = threads
        self.banned: set[str] = set()
        self.versions = versions()  # sent with every bundle: a worker of others refuses it
        self._seen: tuple[float, dict[str, dict]] = (-1.0, {})

    def _info(self) -> dict[str, dict]:
        """The scheduler's ``{address: worker info}`` (asked at most once a second)."""
        asked, info = self._seen
        if time.monotonic() - asked > 1.0:
            info = self.client.scheduler_info(n_workers=-1).get("workers", {})
            self._seen = (time.monotonic(), info)
        return info

    def workers(self) -> dict[str, str]:
        """``{address: host}`` of the workers connected now."""
        return {address: str(w.get("host") or address) for address, w in self._info().items()}

    def memory_limit(self) -> float | None:
        """The smallest ``memory_limit`` of the workers connected now (None: none set)."""
        limits = [w.get("memory_limit") or 0 for w in self._info().values()]
        return float(min(limits)) if limits and min(limits) > 0 else None

    def allowed(self, avoid: frozenset[str]) -> list[str] | None:
        """The workers a bundle avoiding ``avoid`` may go to (None: any)."""
        if not avoid and not self.banned:
            return None
        workers = self.workers()
        fit = [w for w in workers if w not in avoid and w not in self.banned]
        hosts = {workers.get(a, a) for a in avoid}
        elsewhere = [w for w in fit if workers[w] not in hosts]
        return elsewhere or fit or None

    def __call__(self, source: BundleSource) -> Iterator[list[Done]]:
        """Run the bundles of ``source``, yielding each batch that finished."""
        return _dask_run(self, source)


def dask_runner(client, threads: int) -> DaskRunner:
    """A :class:`DaskRunner` on ``client`` with ``threads`` worker threads."""
    return DaskRunner(client, threads)


def _dask_run(runner: DaskRunner, source: BundleSource) -> Iterator[list[Done]]:
    from distributed import KilledWorker, as_completed

    client = runner.client
    window = max(4, WINDOW_PER_THREAD * runner.threads)

    def plain(error: BaseException) -> BaseException:
        if not isinstance(error, KilledWorker):
            return error
        return WorkerLost(
            f"every worker that ran it died ({error.allowed_failures + 1} in a row, last "
            f"{error.last_worker.address}); distributed.scheduler.allowed-failures = "
            f"{error.allowed_failures}. It may exhaust memory or crash the kernel: see the "
            "worker logs"
        )

    flying: dict = {}
    done = as_completed()

    def refill() -> None:
        while len(flying) < window:
            bundle = source.next()
            if bundle is None:
                return
            func, *args = bundle.call()
            allowed = runner.allowed(bundle.avoid)
            where = {} if allowed is None else {"workers": allowed, "allow_other_workers": True}
            future = client.submit(
                func,
                *args,
                runner.versions,
                key=f"bundle-{bundle.id}-{time.time_ns()}",
                pure=False,
                retries=1,
                **where,
            )
            flying[future] = bundle
            done.add(future)

    refill()
    while flying:
        batch = []
        for future in done.next_batch(block=True):
            bundle = flying.pop(future)
            if future.status == "error":
                batch.append((bundle, None, plain(future.exception())))
            else:
                batch.append((bundle, future.result(), None))
            future.release()
        refill()  # the workers get more before the driver stores what came back
        yield batch
        refill()  # and what the driver queued while it took the batch (retried tasks)


@dataclass
class RunStats:
    """What a run did: tasks and units run now, estimated and measured CPU seconds, failures."""

    tasks: int = 0
    units: int = 0
    bundles: int = 0
    cpu_seconds: float = 0.0
    failures: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    # the worker that computed each record stored now: (table, point, lo) -> address
    origins: dict[tuple[str, str, int], str] = field(default_factory=dict)
    verified: int = 0  # records computed again on another worker and found equal
    disagreements: dict[str, int] = field(default_factory=dict)  # worker -> records it lost
    hosts: dict[str, str] = field(default_factory=dict)  # worker address -> host

    def add(self, other: RunStats) -> None:
        """Count ``other``'s work into this."""
        self.tasks += other.tasks
        self.units += other.units
        self.bundles += other.bundles
        self.cpu_seconds += other.cpu_seconds
        self.failures += other.failures
        self.details += other.details
        self.origins.update(other.origins)
        self.verified += other.verified
        for worker, count in other.disagreements.items():
            self.disagreements[worker] = self.disagreements.get(worker, 0) + count
        self.hosts.update(other.hosts)


class _Packer(BundleSource):
    """Makes bundles from tasks, sized by estimated seconds corrected by measured ones, and
    shorter toward the end of the job (:data:`TAIL_SHARE`)."""

    def __init__(
        self,
        plan: JobPlan,
        tasks: Iterator[Task],
        rows: Callable[[Task], Any],
        least: float,
        threads: int,
        left: float,
    ):
        self.plan, self.tasks, self.rows, self.least = plan, tasks, rows, least
        self.threads = max(1, threads)
        self.left = left  # estimated seconds of the tasks not packed yet
        self.ratio = 1.0  # measured / estimated seconds, running
        self.retries: list[Task] = []
        self.ids = itertools.count()
        self._refused: dict[tuple[str, int], int] = {}

    def refused(self, task: Task) -> int:
        """Count one more outcome of ``task`` refused (a banned or refusing worker ran it);
        the count."""
        key = (task.plan.point_id, task.lo)
        self._refused[key] = self._refused.get(key, 0) + 1
        return self._refused[key]

    def learn(self, estimated: float, measured: float) -> None:
        """Update the measured/estimated ratio with a finished bundle."""
        if estimated > 0:
            self.ratio = 0.7 * self.ratio + 0.3 * max(measured / estimated, 1e-6)

    def goal(self) -> float:
        """Estimated seconds the next bundle should hold: worth ``least`` measured seconds,
        or toward the end of the job its share of the work left."""
        return min(self.least / self.ratio, self.left / (TAIL_SHARE * self.threads))

    def next(self) -> Bundle | None:
        """The next bundle: a retried task alone, else tasks worth :meth:`goal`."""
        problem, version = self.plan.job.problem.name, self.plan.version
        if self.retries:
            task = self.retries.pop()
            return Bundle(next(self.ids), problem, version, [task], [self.rows(task)])
        batch: list[Task] = []
        seconds = 0.0  # estimated, as the goal
        goal = self.goal()
        for task in self.tasks:
            batch.append(task)
            self.left -= task.seconds
            seconds += task.seconds
            if seconds >= goal or len(batch) >= MAX_BUNDLE:
                break
        if not batch:
            return None
        return Bundle(next(self.ids), problem, version, batch, [self.rows(t) for t in batch])


def execute(
    plan: JobPlan, runner: Runner, store: Store, task_seconds: float, label: str, threads: int = 1
) -> RunStats:
    """Run every task of ``plan``; results are stored as records and committed each time a
    batch of bundles comes back, so a kill loses at most the bundles in flight."""
    stats = RunStats()
    banned = getattr(runner, "banned", set())
    job = plan.job
    todo = plan.todo_seconds()
    total_tasks = plan.count_tasks(task_seconds)
    if not total_tasks:
        return stats
    progress = Progress(label, todo, total_tasks)
    packer = _Packer(
        plan,
        plan.tasks(task_seconds),
        lambda t: job.rows(t.lo, t.hi) if job.source is not None else None,
        max(BUNDLE_SECONDS, SCHEDULER_SECONDS * threads),
        threads,
        todo,
    )
    try:
        for batch in runner(packer):
            for bundle, outcomes, error in batch:
                _take(bundle, outcomes, error, packer, store, stats, progress, plan, banned)
            store.commit()  # what came back is safe before the next wait
            stopping.check()  # a signal swallowed in a library callback still stops the run
    finally:
        store.commit()
        progress.close()
    return stats


def refusal(outcomes: list[Outcome] | None, banned: set[str]) -> bool:
    """Whether ``outcomes`` are a worker's refusal: it runs other problem code or library
    versions than the driver (:func:`pipeline.work.run_bundle`).  Its first refusal names it
    in the log and adds it to ``banned``, so it gets no more tasks in this run."""
    refused = next((o for o in outcomes or () if o.refused), None)
    if refused is None:
        return False
    if refused.worker not in banned:
        banned.add(refused.worker)
        warn(
            f"worker {refused.worker} refused its tasks: {refused.error}; it gets no more "
            "tasks in this run"
        )
    return True


def _take(
    bundle: Bundle,
    outcomes,
    error,
    packer: _Packer,
    store: Store,
    stats: RunStats,
    progress: Progress,
    plan: JobPlan,
    banned: set[str],
) -> None:
    """Store a finished bundle's records, count its tasks, note its failures."""
    stats.bundles += 1
    if error is None and refusal(outcomes, banned):  # its worker runs other code or libraries
        if max(packer.refused(t) for t in bundle.tasks) <= MAX_REFUSED:
            packer.retries.extend(bundle.tasks)
            return  # else only such workers were left: the tasks fail with the refusal
    elif error is None and banned and any(o.worker in banned for o in outcomes):
        # a worker found computing wrongly ran it after all (no other worker was free)
        if max(packer.refused(t) for t in bundle.tasks) <= MAX_REFUSED:
            packer.retries.extend(bundle.tasks)
            return
        outcomes = [
            Outcome(None, "", 0, 0.0, "only workers found computing wrongly were left to run it")
        ] * len(bundle.tasks)
    if error is not None:
        if isinstance(error, WorkerLost) and len(bundle.tasks) > 1:
            packer.retries.extend(bundle.tasks)  # find the task that kills workers
            return
        outcomes = [Outcome(None, "", 0, 0.0, f"{type(error).__name__}: {error}")] * len(
            bundle.tasks
        )
    measured = estimated = 0.0
    for task, outcome in zip(bundle.tasks, outcomes, strict=True):
        estimated += task.seconds
        measured += outcome.cpu
        progress.advance(task.seconds, ok=outcome.error is None)
        if outcome.error is not None:
            stats.failures.append(
                f"{task.plan.point.label} ({task.plan.table}, units "
                f"{task.lo}..{task.hi - 1}): {outcome.error}"
            )
            if outcome.detail:
                stats.details.append(outcome.detail)
            continue
        store.add(
            plan.job.name,
            Record(
                task.plan.table,
                task.plan.point_id,
                task.lo,
                task.hi,
                outcome.rows,
                outcome.cpu,
                outcome.checksum,
                plan.version,
                outcome.payload,
                outcome.content,
            ),
        )
        stats.origins[(task.plan.table, task.plan.point_id, task.lo)] = outcome.worker
        stats.tasks += 1
        stats.units += task.hi - task.lo
        stats.cpu_seconds += outcome.cpu
    packer.learn(estimated, measured)
