"""Prefixes and per-prefix counts: how the count problems cut a search into pieces.

A count problem's search tree is cut at a *depth*: a prefix is the first ``depth`` decisions
on one path of the tree (``choices[i, j]``, the j-th decision of prefix i) and its ``weight`` is
how many symmetric copies of the subtree below it it stands for.  ``count`` answers each prefix
with a :class:`CountResult`; for every depth, ``sum(weight[i] * counts[i, j])`` is the exact
answer of output j.  Problems then number their prefixes as fixed work units (see each
problem's ``unit_plan``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Prefixes", "CountResult", "interleave", "prefix_numbers"]


@dataclass(frozen=True)
class Prefixes:
    """Partial placements of the first ``depth`` decisions: ``choices[i, j]`` is decision j."""

    choices: np.ndarray  # int16 [k, depth]
    weight: np.ndarray  # int64 [k], symmetry multiplicity of each prefix

    def __len__(self) -> int:
        return int(self.weight.shape[0])

    def take(self, index: np.ndarray | slice) -> Prefixes:
        """Return the prefixes selected by ``index`` (a slice or an index array)."""
        return Prefixes(self.choices[index], self.weight[index])


@dataclass(frozen=True)
class CountResult:
    """Per-prefix completion counts (``counts[i, j]``, exact) and search nodes (``nodes[i]``).

    ``counts`` is uint64 where the kernel proves every value fits, else a numpy object array of
    Python ints.
    """

    counts: np.ndarray  # [k, m] uint64 or object (Python ints)
    nodes: np.ndarray  # int64 [k]


# ----------------------------------------------------------------------------- work units
#
# A point's prefixes at its depth are numbered 0..P-1 in the order the search lists them; its
# work units are the same P numbers, *interleaved*: unit u is prefix (u * g) mod P, g coprime
# with P near P / phi.  Neighbouring prefixes (one subtree's siblings, of similar size) land
# far apart, so a contiguous range of units is a pseudo-random sample of the prefixes and tasks
# of equal unit count cost about the same.

_GOLDEN = 0.6180339887498949  # 1 / phi: the multiples of g mod P spread most evenly


def interleave(units: int) -> tuple[int, int]:
    """``(g, g_inv)``: the multiplier coprime with ``units`` nearest ``0.618 * units`` and its
    inverse mod ``units`` (prefix ``p`` is unit ``p * g_inv mod units``)."""
    if units < 1:
        raise ValueError(f"a point has at least one unit, not {units}")
    if units <= 2:
        return 1, 1 % units
    start = round(_GOLDEN * units)
    for delta in range(units):
        for g in (start + delta, start - delta):
            if 0 < g < units and math.gcd(g, units) == 1:
                return g, pow(g, -1, units)
    raise AssertionError("unreachable: 1 is coprime with every number")


def prefix_numbers(units: int, lo: int, hi: int) -> np.ndarray:
    """The prefix numbers of units ``lo..hi-1`` (int64, in unit order): ``u * g mod units``."""
    if not 0 <= lo <= hi <= units:
        raise ValueError(f"unit range {lo}..{hi} is not within 0..{units}")
    g, _ = interleave(units)
    if units < 2**31:  # u * g < 2**62: exact in int64
        return np.arange(lo, hi, dtype=np.int64) * g % units
    return np.array([u * g % units for u in range(lo, hi)], np.int64)
