"""Random walled boards: each cell a wall with probability ``density``, from a counter hash.

A board is fixed by (seed, rows, cols, density, index) alone.  Its cells come from the
splitmix64 finaliser applied to a key chained from the seed, the board's shape, the density's
64 bits and its index: cell ``t`` of board ``index`` is a wall iff the top 53 bits of
``mix(board_key + (t + 1) * GOLDEN)`` fall below ``floor(density * 2**53)``.  So any split of
an index range into calls gives the same boards, a sweep that lists more sizes or densities,
or lists them in another order, leaves every other group's boards as they were, and raising
``count`` only adds boards.  Batch layout as in :mod:`solvers.max_rooks`; a board's id is its
index.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..schema import Integer, Number
from .tables import GRID

__all__ = ["generate", "group_key", "MAX_SIDE", "seconds_per_board"]

MAX_SIDE = 46340  # 46340**2 < 2**31: any rows x cols board of sides up to this indexes as int32

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, nogil=True)
def _mix(z):
    """The splitmix64 finaliser: a bijection of uint64 that scatters nearby inputs."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _chain(key, part):
    """The key ``key`` followed by ``part``: a new key."""
    return _mix(key ^ _mix(part + _GOLDEN))


@njit(cache=True, nogil=True)
def group_key(seed, rows, cols, density_bits):
    """The key of the boards of one (seed, rows, cols, density) group (all uint64)."""
    key = _mix(seed + _GOLDEN)
    key = _chain(key, rows)
    key = _chain(key, cols)
    return _chain(key, density_bits)


@njit(cache=True, nogil=True)
def _fill_random(cells, size, count, key, start, threshold):
    """Cell t of board start+b is a wall iff the top 53 bits of hash(key, board, t) < threshold."""
    for b in range(count):
        board_key = _mix(key ^ _mix(np.uint64(start + b) + _GOLDEN))
        for t in range(size):
            h = _mix(board_key + np.uint64(t + 1) * _GOLDEN)
            cells[b * size + t] = 1 if (h >> np.uint64(11)) < threshold else 0


def _integer(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """An integer parameter (numpy integers too) within lo..hi, or ParamError with its key."""
    if isinstance(value, np.integer):
        value = int(value)
    return Integer(lo, hi).check(value, (name,))


def generate(
    n: int, density: float, count: int, seed: int, start: int = 0, rows: int | None = None
) -> dict[str, np.ndarray]:
    """Random ``rows`` (default n) x n boards ``start..start+count-1``: each cell a wall with
    probability ``density``; board ``index`` depends on (seed, rows, n, density, index) alone."""
    cols = _integer("n", n, 1, MAX_SIDE)
    rows = cols if rows is None else _integer("rows", rows, 1, MAX_SIDE)
    count = _integer("count", count, 0)
    seed = _integer("seed", seed, 0, 2**64 - 1)
    start = _integer("start", start, 0, 2**62)
    if isinstance(density, np.floating):
        density = float(density)
    density = Number(0.0, 1.0).check(density, ("density",)) + 0.0  # -0.0 is 0.0
    threshold = np.uint64(math.floor(density * 2.0**53))
    bits = np.array([density], dtype=np.float64).view(np.uint64)[0]
    key = np.uint64(group_key(np.uint64(seed), np.uint64(rows), np.uint64(cols), bits))
    size = rows * cols
    cells = np.empty(count * size, dtype=np.uint8)
    _fill_random(cells, size, count, key, start, threshold)
    return GRID.generated(start, count, rows, cols, cells)


def seconds_per_board(rows: int, cols: int) -> float:
    """Estimated seconds to generate one rows x cols board (a few ns per cell)."""
    return 2e-7 + 4e-9 * rows * cols
