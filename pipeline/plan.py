"""Planning: a pure function from a job and a worker count to the list of tasks to run.

A count point (one parameter set, e.g. ``n = 16``) is split by the solver's prefixes (partial
placements of the first ``depth`` rows).  Prefixes differ wildly in cost, so a task takes every
``stride``-th prefix starting at ``offset`` (round robin), which balances tasks without knowing
the cost of each prefix.  The depth is the shallowest one that gives enough prefixes for the
number of tasks wanted, and that number comes from the solver's cost estimate and the worker
count: every worker gets several tasks, none much below ``MIN_TASK_SECONDS``.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from .config import JobSpec

__all__ = ["CountTask", "SolutionsTask", "InstanceTask", "plan_count_job", "plan_solutions",
           "plan_instance_job", "task_count_for", "MIN_TASK_SECONDS", "MAX_TASK_SECONDS"]

MIN_TASK_SECONDS = 0.1  # below this, Dask's ~5 ms per task and numba start-up start to show
MAX_TASK_SECONDS = 2.0  # above this, a lost worker or an interrupted run loses too much
TASKS_PER_WORKER = 8  # enough to even out unequal prefixes and the tail of the run
MAX_TASKS_PER_POINT = 20_000
PREFIXES_PER_TASK = 32  # so round robin averages unequal prefixes out


def _key(*parts: object) -> str:
    """A short stable hash of the JSON of ``parts``: the task's identity across runs."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:20]


@dataclass(frozen=True)
class CountTask:
    """Count the completions of prefixes ``offset::stride`` at ``depth`` for one point.

    ``point`` names the point whatever the split, so a finished point is reused by any later
    run, with any worker count.
    """

    job: str
    problem: str
    params: dict
    depth: int
    stride: int
    offset: int
    key: str
    point: str


@dataclass(frozen=True)
class SolutionsTask:
    """Enumerate every solution of one point below the fixed first rows ``prefix``."""

    job: str
    problem: str
    params: dict
    prefix: tuple[int, ...]
    index: int
    key: str


def task_count_for(cost_seconds: float, workers: int) -> int:
    """How many tasks to split a point estimated at ``cost_seconds`` of one core into."""
    if cost_seconds < 2 * MIN_TASK_SECONDS:
        return 1
    wanted = max(TASKS_PER_WORKER * workers, math.ceil(cost_seconds / MAX_TASK_SECONDS))
    return max(1, min(wanted, int(cost_seconds / MIN_TASK_SECONDS), MAX_TASKS_PER_POINT))


def _split(module: ModuleType, params: dict, tasks: int) -> tuple[int, int]:
    """Choose (depth, stride): the shallowest depth with PREFIXES_PER_TASK prefixes per task.

    Prefix costs differ by orders of magnitude; round robin evens them out only when each
    task draws many (N-queens n = 16, 16 tasks: the heaviest task is 1.24x the mean at 6
    prefixes per task, 1.05x at 54).
    """
    if tasks <= 1:
        return 0, 1
    deepest = module.max_depth(params)
    for depth in range(1, deepest + 1):
        available = len(module.prefixes(params, depth))
        if available >= PREFIXES_PER_TASK * tasks or depth == deepest:
            return depth, max(1, min(tasks, available))
    return 0, 1


def plan_count_job(job: JobSpec, module: ModuleType, workers: int) -> list[CountTask]:
    """Every task of a count job, in submission order (largest points first)."""
    tasks: list[CountTask] = []
    points = module.points(job.spec)
    cost = getattr(module, "cost", lambda params: 1.0)
    for params in sorted(points, key=cost, reverse=True):
        depth, stride = _split(module, params, task_count_for(cost(params), workers))
        point = _key(job.problem, params, module.VERSION)
        for offset in range(stride):
            key = _key(job.problem, params, depth, stride, offset, module.VERSION)
            tasks.append(CountTask(job.name, job.problem, params, depth, stride, offset, key,
                                   point))
    return tasks


def plan_solutions(job: JobSpec, module: ModuleType, params: dict) -> list[SolutionsTask]:
    """Tasks that enumerate every solution of ``params``, one per first-row column, in order.

    Concatenating their results in task order gives the solutions in lexicographic order.
    """
    n = params["n"]
    prefixes: list[tuple[int, ...]] = [()] if n < 8 else [(c,) for c in range(n)]
    return [
        SolutionsTask(
            job.name, job.problem, params, prefix, i,
            _key("solutions", job.problem, params, prefix, module.VERSION),
        )
        for i, prefix in enumerate(prefixes)
    ]


@dataclass(frozen=True)
class InstanceTask:
    """Solve a run of instances: generated (``generate`` keywords) or ``lo..hi`` of a set.

    ``point`` names the generated point or the whole set, whatever the split.
    """

    job: str
    problem: str
    options: dict
    index: int
    key: str
    point: str
    generate: dict | None = None
    lo: int = 0
    hi: int = 0


def _cost_ranges(costs: np.ndarray, tasks: int) -> list[tuple[int, int]]:
    """Cut instances into ``tasks`` consecutive ranges of about equal total cost."""
    k = costs.shape[0]
    if k == 0:
        return []
    cumulative = np.cumsum(costs)
    cuts = np.searchsorted(cumulative, cumulative[-1] * np.arange(1, tasks) / tasks, "right")
    bounds = sorted({0, k, *(int(c) for c in cuts if 0 < c < k)})
    return list(zip(bounds[:-1], bounds[1:], strict=False))


def plan_instance_job(job: JobSpec, module: ModuleType, workers: int, options: dict,
                      batch: dict | None = None, digest=None) -> list[InstanceTask]:
    """Tasks of an instance job over a generated set (``batch`` None) or a given ``batch``.

    ``digest(lo, hi)`` names the contents of a slice of ``batch`` in the task key, so a changed
    input file never reuses old fragments.
    """
    tasks: list[InstanceTask] = []
    if batch is None:
        for kwargs in module.generate_points(job.spec[module.INPUT_KEY]["generate"]):
            side = np.array([kwargs.get("rows", kwargs["n"])], dtype=np.int32)
            cols = np.array([kwargs["n"]], dtype=np.int32)
            each = float(module.instance_cost(side, cols, options)[0])
            count = kwargs["count"]
            parts = task_count_for(each * count, workers)
            point = _key(job.problem, "generate", kwargs, options, module.VERSION)
            for lo, hi in _cost_ranges(np.full(count, each), parts):
                part = {**kwargs, "start": kwargs["start"] + lo, "count": hi - lo}
                key = _key(job.problem, "generate", part, options, module.VERSION)
                tasks.append(InstanceTask(job.name, job.problem, options, len(tasks), key, point,
                                          part))
        return tasks
    costs = module.instance_cost(batch["rows"], batch["cols"], options)
    point = _key(job.problem, "set", digest(0, costs.shape[0]), options, module.VERSION)
    for lo, hi in _cost_ranges(costs, task_count_for(float(costs.sum()), workers)):
        key = _key(job.problem, "set", digest(lo, hi), options, module.VERSION)
        tasks.append(InstanceTask(job.name, job.problem, options, len(tasks), key, point, None,
                                  lo, hi))
    return tasks
