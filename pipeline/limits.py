"""Limits before allocation: an instance that cannot fit in a worker's memory is refused with
its estimate before anything is generated or solved.

The cap is 80% of this machine's memory (``BOARDSWEEP_MEMORY_LIMIT`` sets another, in bytes or
with a unit: ``4GB``); the estimate is the problem's own (``InstanceSet.memory``, or
``Exhaustive.memory`` for a search over every instance of a shape).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import numpy as np

from boardsweep.solvers.contract import EVERY, GENERATE, InstanceProblem

from .errors import InputError

__all__ = [
    "memory_cap",
    "too_big",
    "over_cap",
    "human_bytes",
    "peak_memory",
    "job_memory",
    "check_worker_memory",
    "ENV",
]

ENV = "BOARDSWEEP_MEMORY_LIMIT"
_UNITS = {
    "": 1,
    "B": 1,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "KIB": 2**10,
    "MIB": 2**20,
    "GIB": 2**30,
    "TIB": 2**40,
}


def memory_cap() -> float:
    """Bytes one instance may need at most: ``$BOARDSWEEP_MEMORY_LIMIT``, else 80% of RAM."""
    text = os.environ.get(ENV, "").strip()
    if text:
        match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)", text)
        if not match or match.group(2).upper() not in _UNITS or float(match.group(1)) <= 0:
            raise InputError(
                f"{ENV}={text!r}: expected a size in bytes or with a unit, such as "
                f"4GB or 512MiB (units: {', '.join(u for u in _UNITS if u)})"
            )
        return float(match.group(1)) * _UNITS[match.group(2).upper()]
    return 0.8 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def human_bytes(value: float) -> str:
    """``6.5 GB``: bytes in decimal units, two or three digits."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


def peak_memory(
    problem: InstanceProblem, columns: Mapping[str, np.ndarray], options: Mapping
) -> float:
    """The most bytes any one of these instances needs (the problem's estimate)."""
    need = np.asarray(problem.instances.memory(columns, options), dtype=np.float64)
    return float(need.max()) if need.size else 0.0


def job_memory(job) -> float:
    """The most bytes one instance of ``job`` needs (for ``{all:}``, its largest shape's
    search; 0 for a count problem)."""
    problem = job.problem
    if problem.instances is None:
        return 0.0
    if job.source is not None:
        return job.source.memory
    kind, value = job.params.get(problem.instances.key, (None, None))
    if kind == EVERY:
        return float(problem.exhaustive.memory(value))
    if kind != GENERATE:
        return 0.0
    groups = problem.points(job.params, problem.instances.table.name)
    if not groups:
        return 0.0
    return peak_memory(problem, problem.instances.shape(groups), problem.option_values(job.params))


def check_worker_memory(job, limit: float | None) -> None:
    """:class:`InputError` before any work if one instance of ``job`` needs more memory than
    a worker of the cluster may use (``limit``, its smallest ``memory_limit``; None: none)."""
    need = job_memory(job)
    if limit and need > limit:
        raise InputError(
            f"job {job.name}: one instance needs about {human_bytes(need)} of "
            f"memory, more than the {human_bytes(limit)} a worker of this cluster "
            "may use (its memory_limit); ask the job for less memory, or give "
            "the workers more"
        )


def too_big(
    problem: InstanceProblem, columns: Mapping[str, np.ndarray], options: Mapping
) -> tuple[int, str] | None:
    """``(index, message)`` of the first instance whose memory estimate exceeds the cap."""
    need = np.asarray(problem.instances.memory(columns, options), dtype=np.float64)
    cap = memory_cap()
    over = np.flatnonzero(need > cap)
    if not over.size:
        return None
    i = int(over[0])
    shape = " x ".join(str(int(columns[c][i])) for c in problem.instances.cost_columns)
    return i, over_cap(f"{shape}: one instance", need[i])


def over_cap(what: str, need: float) -> str | None:
    """The message that ``what`` needs more than the cap (:func:`memory_cap`), None if not."""
    cap = memory_cap()
    if need <= cap:
        return None
    return (
        f"{what} needs about {human_bytes(need)} of memory, more than "
        f"the {human_bytes(cap)} a worker may use ({_cap_source()})"
    )


def _cap_source() -> str:
    """Where :func:`memory_cap` took its figure from, for a message."""
    if os.environ.get(ENV, "").strip():
        return f"{ENV} sets it"
    return f"80% of this machine's memory; {ENV} sets another"
