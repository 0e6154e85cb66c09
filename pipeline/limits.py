"""Limits before allocation: an instance that cannot fit in a worker's memory is refused with
its estimate before anything is generated or solved.

The cap is 80% of this machine's memory (``BOARDSWEEP_MEMORY_LIMIT`` sets another, in bytes or
with a unit: ``4GB``); the estimate is the problem's own (``InstanceProblem.memory``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import numpy as np

from boardsweep.solvers.contract import InstanceProblem

from .errors import InputError

__all__ = ["memory_cap", "too_big", "human_bytes", "ENV"]

ENV = "BOARDSWEEP_MEMORY_LIMIT"
_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def memory_cap() -> float:
    """Bytes one instance may need at most: ``$BOARDSWEEP_MEMORY_LIMIT``, else 80% of RAM."""
    text = os.environ.get(ENV, "").strip()
    if text:
        match = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)", text)
        if not match or match.group(2).upper() not in _UNITS or float(match.group(1)) <= 0:
            raise InputError(f"{ENV}={text!r}: expected a size in bytes or with a unit, such as "
                             f"4GB or 512MiB (units: {', '.join(u for u in _UNITS if u)})")
        return float(match.group(1)) * _UNITS[match.group(2).upper()]
    return 0.8 * os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def human_bytes(value: float) -> str:
    """``6.5 GB``: bytes in decimal units, two or three digits."""
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if value >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} B"


def too_big(problem: InstanceProblem, columns: Mapping[str, np.ndarray],
            options: Mapping) -> tuple[int, str] | None:
    """``(index, message)`` of the first instance whose memory estimate exceeds the cap."""
    need = np.asarray(problem.memory(columns, options), dtype=np.float64)
    cap = memory_cap()
    over = np.flatnonzero(need > cap)
    if not over.size:
        return None
    i = int(over[0])
    shape = " x ".join(str(int(columns[c][i])) for c in problem.cost_columns)
    return i, (f"{shape}: one instance needs about {human_bytes(need[i])} of memory, more than "
               f"the {human_bytes(cap)} a worker may use (80% of this machine's memory; "
               f"{ENV} sets another)")
