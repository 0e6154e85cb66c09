"""Bit helpers of the queens-and-rooks kernels: mask constants and the row order (the bit
intrinsics are :mod:`solvers.bitops`).

Notation as in :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

__all__: list[str] = []  # private helpers of the kernels

_U1 = uint64(1)
_LOW32 = uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True)
def _row_order(fixed: np.ndarray) -> np.ndarray:
    """Rows in search order: rows with a forced column (``fixed[r] >= 0``) first, then the rest."""
    n = fixed.shape[0]
    order = np.empty(n, np.int64)
    t = 0
    for r in range(n):
        if fixed[r] >= 0:
            order[t] = r
            t += 1
    for r in range(n):
        if fixed[r] < 0:
            order[t] = r
            t += 1
    return order


@njit(cache=True, nogil=True)
def _row_candidates(fixed: np.ndarray, r: int, full: np.uint64, used: np.uint64) -> np.uint64:
    """Columns row r may take: its forced column or any column, minus the ``used`` ones."""
    if fixed[r] >= 0:
        return (_U1 << uint64(fixed[r])) & ~used
    return full & ~used
