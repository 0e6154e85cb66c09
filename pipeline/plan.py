"""Planning: a job's points -> their fixed work units -> tasks sized by time, made lazily.

Work units belong to the problem and depend on a point alone (:class:`solvers.contract.Point`),
so the store can say which unit ranges of each point are done whatever split made them; the
plan covers only the gaps.  A task is a run of consecutive units whose estimated cost is about
the target task duration (``task_seconds``, cut smaller when a job is too small to give every
worker several tasks).  Tasks are yielded one at a time, largest points first, so a plan of
millions of tasks starts at once and holds only its points in memory.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from boardsweep.solvers.contract import Point

from .progress import ticking
from .spec import Job
from .store import Store, point_id

__all__ = [
    "PointPlan",
    "JobPlan",
    "Task",
    "plan_job",
    "tile",
    "TASKS_PER_WORKER",
    "MIN_TASK_SECONDS",
    "MAX_TASK_ROWS",
]

TASKS_PER_WORKER = 8  # a small job is cut so every worker gets about this many tasks
MIN_TASK_SECONDS = 0.05  # never cut finer than this for balance alone
MAX_TASK_ROWS = 200_000  # rows a task of a rows table returns at most (driver memory)
_CHUNK = 1 << 20  # units whose cost estimates are read at once (sets)


@dataclass
class PointPlan:
    """One point of one table: its units, those done, and the gaps still to compute."""

    table: str
    point: Point
    point_id: str
    done: int
    gaps: list[tuple[int, int]]
    max_units: int | None = None  # units a task may hold at most (rows tables: its rows)

    @property
    def per_unit(self) -> float:
        """Estimated seconds of one unit (the mean, for non-uniform costs)."""
        return self.point.seconds / self.point.units if self.point.units else 0.0

    @property
    def todo(self) -> int:
        """Units without a record."""
        return sum(b - a for a, b in self.gaps)

    def seconds(self, lo: int, hi: int) -> float:
        """Estimated seconds of units ``lo..hi-1``."""
        if self.point.costs is None:
            return (hi - lo) * self.per_unit
        return float(self.point.costs(lo, hi).sum())

    def todo_seconds(self) -> float:
        """Estimated seconds of the units still to compute."""
        return sum((self.seconds(a, b) for a, b in self.gaps), 0.0)

    def cuts(self, task_seconds: float) -> Iterator[tuple[int, int, float]]:
        """``(lo, hi, estimated seconds)`` of the tasks covering the gaps."""
        for a, b in self.gaps:
            if self.point.costs is None:
                step = b - a if self.per_unit <= 0 else max(1, int(task_seconds / self.per_unit))
                step = min(step, self.max_units or step)
                for lo in range(a, b, step):
                    hi = min(lo + step, b)
                    yield lo, hi, (hi - lo) * self.per_unit
                continue
            lo, acc = a, 0.0  # acc: estimated seconds of lo..c-1
            for c in range(a, b, _CHUNK):
                total = acc + np.cumsum(self.point.costs(c, min(c + _CHUNK, b)))
                base = 0.0  # total[k] - base: seconds of lo..c+k
                while True:
                    k = int(np.searchsorted(total, base + task_seconds, "left"))
                    if self.max_units and c + k + 1 - lo > self.max_units:
                        k = lo + self.max_units - c - 1
                    if k >= len(total):
                        break
                    hi = c + k + 1
                    yield lo, hi, float(total[k] - base)
                    lo, base = hi, float(total[k])
                acc = float(total[-1]) - base
            if lo < b:
                yield lo, b, acc


@dataclass(frozen=True)
class Task:
    """Units ``lo..hi-1`` of one point: what one record will hold."""

    plan: PointPlan
    lo: int
    hi: int
    seconds: float


@dataclass
class JobPlan:
    """Everything a job must compute now, and what earlier runs already did."""

    job: Job
    version: str
    points: list[PointPlan]

    @property
    def units(self) -> int:
        """Work units of every point of every table."""
        return sum(p.point.units for p in self.points)

    @property
    def units_done(self) -> int:
        """Units an earlier run already computed (reused now)."""
        return sum(p.done for p in self.points)

    def todo_seconds(self) -> float:
        """Estimated CPU seconds still to compute."""
        return sum(p.todo_seconds() for p in self.points)

    def task_seconds(self, target: float, workers: int) -> float:
        """The task length to cut at: ``target``, or less when the job is small."""
        todo = self.todo_seconds()
        balanced = todo / max(1, workers * TASKS_PER_WORKER)
        return max(MIN_TASK_SECONDS, min(target, balanced)) if todo > 0 else target

    def tasks(self, task_seconds: float) -> Iterator[Task]:
        """Every task, largest points first; made as they are asked for."""
        for plan in sorted(self.points, key=lambda p: -p.point.seconds):
            for lo, hi, seconds in plan.cuts(task_seconds):
                yield Task(plan, lo, hi, seconds)

    def count_tasks(self, task_seconds: float) -> int:
        """How many tasks :meth:`tasks` yields (counted without making them when costs are
        uniform)."""
        total = 0
        for plan in self.points:
            if plan.point.costs is None:
                step = None if plan.per_unit <= 0 else max(1, int(task_seconds / plan.per_unit))
                if plan.max_units:
                    step = min(step or plan.max_units, plan.max_units)
                total += sum(1 if step is None else math.ceil((b - a) / step) for a, b in plan.gaps)
            else:
                total += sum(1 for _ in plan.cuts(task_seconds))
        return total


def tile(spans: Iterable[tuple[int, int]], units: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The records that make up a point of ``units`` units, and the gaps left between them.

    ``spans`` are the ``(lo, hi)`` of the point's records (one per ``lo``).  From unit 0 each
    next record is the one that starts where the last one ended; a record reaching past
    ``units`` (the point shrank: a lower ``count``) or starting inside the chain is not used,
    and stays in the store for a sweep that grows again.  Where no record starts, a gap runs to
    the next record that fits.  Returns the chain's ``lo`` values and the gaps, both in order;
    the plan computes exactly the gaps, and the merge publishes exactly the chain.
    """
    usable = sorted((lo, hi) for lo, hi in spans if 0 <= lo < hi <= units)
    ends = dict(usable)
    starts = [lo for lo, _ in usable]
    chain: list[int] = []
    gaps: list[tuple[int, int]] = []
    at = 0
    while at < units:
        if at in ends:
            chain.append(at)
            at = ends[at]
            continue
        index = bisect_right(starts, at)
        following = starts[index] if index < len(starts) else units
        gaps.append((at, following))
        at = following
    return chain, gaps


def plan_job(job: Job, store: Store | None) -> JobPlan:
    """The job's points for each of its tables, minus the unit ranges ``store`` holds (a line
    every few seconds while that takes long: on a first run, planning compiles kernels)."""
    from .warm import cache_misses

    def line(seconds: float) -> str:
        compiled = cache_misses(job.problem) - before
        if compiled:
            return (
                f"{job.name}: planning: compiling {job.problem.name} kernels (first run "
                f"on this machine): {compiled} functions compiled, {seconds:.0f} s"
            )
        return f"{job.name}: planning, {seconds:.0f} s"

    before = cache_misses(job.problem)
    with ticking(line):
        return _plan_job(job, store)


def _plan_job(job: Job, store: Store | None) -> JobPlan:
    problem = job.problem
    version = problem.version
    points = []
    for table in job.outputs():
        seen: set[str] = set()
        for point in job.points(table):
            pid = point_id(problem.name, version, point.key)
            if pid in seen:
                raise ValueError(f"{problem.name}: point {point.label} appears twice")
            seen.add(pid)
            spans = store.spans(job.name, table, pid) if store is not None else []
            _, gaps = tile(spans, point.units)
            finished = point.units - sum(b - a for a, b in gaps)
            cap = None
            if problem.table(table).merge == "rows" or job.source is not None:
                # a rows table's tasks return their rows; a set's tasks carry theirs
                per = (point.rows if point.rows is not None else point.units) / max(point.units, 1)
                cap = max(1, int(MAX_TASK_ROWS / per)) if per > 0 else None
            points.append(PointPlan(table, point, pid, finished, gaps, cap))
    return JobPlan(job, version, points)
