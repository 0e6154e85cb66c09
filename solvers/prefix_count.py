"""The work units of a count problem: its split depth, the prefixes of a unit range, and counts
summed chunk by chunk.

A point's search is cut at the shallowest depth that gives at least ``max(min_units, cost /
UNIT_SECONDS)`` prefixes, never at one with more than ``max_units`` (:func:`plan`); with none
that reaches the target, the depth with the most prefixes.  Its P prefixes there, numbered in
the search's order, are its work units, interleaved: unit u is prefix ``(u * g) mod P``
(:func:`solvers.prefixes.interleave`), so a contiguous range of units is a pseudo-random sample
of the search and ranges of equal length cost about the same.  A task lists only its own
prefixes (:func:`sorted_prefix_numbers`) and counts them a chunk of units at a time
(:func:`count_units`).

What differs between problems comes in as arguments: the depths to try and the prefixes at
each, the cost estimate, the limits, and how one chunk of units is counted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from .prefixes import prefix_numbers

__all__ = ["UNIT_SECONDS", "plan", "check_range", "sorted_prefix_numbers", "count_units"]

UNIT_SECONDS = 0.05  # the estimated seconds of one work unit a plan aims at


def plan(
    seconds: float,
    depths: Iterable[int],
    prefixes_at: Callable[[int, int], int],
    min_units: int,
    max_units: int,
) -> tuple[int, int]:
    """``(depth, units)``: the first of ``depths`` whose prefix count reaches the target.

    ``seconds`` is the point's estimated cost, ``prefixes_at(depth, cap)`` the number of
    prefixes at ``depth`` (any number above ``cap`` may stand for "more than ``cap``").  The
    walk stops at the first depth with more than ``max_units``; if no depth reaches the target
    it keeps the one with the most prefixes, and ``(0, 1)`` if none has more than one.
    """
    target = max(min_units, math.ceil(seconds / UNIT_SECONDS))
    depth, units = 0, 1
    for d in depths:
        found = prefixes_at(d, max_units)
        if found > max_units:
            break
        if found > units:  # small boards: the depth with the most units if none reaches target
            depth, units = d, found
        if found >= target:
            break
    return depth, units


def check_range(units: int, lo: int, hi: int) -> None:
    """ValueError unless ``0 <= lo <= hi <= units``."""
    if not 0 <= lo <= hi <= units:
        raise ValueError(f"unit range {lo}..{hi} is not within 0..{units}")


def sorted_prefix_numbers(units: int, lo: int, hi: int) -> np.ndarray:
    """The prefix numbers of units ``lo..hi-1`` in the search's order (int64, ascending)."""
    return np.sort(prefix_numbers(units, lo, hi))


def count_units(
    units: int,
    lo: int,
    hi: int,
    chunk: int,
    width: int,
    count_chunk: Callable[[int, int], Sequence[int]],
) -> list[int]:
    """The ``width`` exact sums of ``count_chunk(a, b)`` over chunks ``a..b-1`` of ``lo..hi-1``.

    Each chunk holds at most ``chunk`` units; ``count_chunk`` returns ``width`` ints for one.
    """
    check_range(units, lo, hi)
    totals = [0] * width
    for start in range(lo, hi, chunk):
        part = count_chunk(start, min(hi, start + chunk))
        totals = [t + int(p) for t, p in zip(totals, part, strict=True)]
    return totals
