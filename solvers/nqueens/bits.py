"""Bit helpers of the N-queens kernels (numba): the stack frame with its push and pop, one
queen's move and the dead columns, written once and inlined into every search of :mod:`.kernel`,
:mod:`.constellations` and :mod:`.tree` (the bit intrinsics are :mod:`solvers.bitops`).

The masks (``ld``, ``cd``, ``rd``) and the notation are described in :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import clz

__all__: list[str] = []  # private to solvers.nqueens

SLOTS = 64  # stack rows per kernel (>= MAX_N + 1 = 33); indices are taken `& 63`, never negative


@njit(cache=True, nogil=True, inline="always")
def place(ld, cd, rd, bit):
    """The masks of the next row after a queen ``bit`` in this one: (ld, cd, rd)."""
    return (ld | bit) << 1, cd | bit, (rd | bit) >> 1


@njit(cache=True, nogil=True, inline="always")
def store(stk, k, avail, ld, cd, rd, row):
    """Write frame ``k`` of ``stk`` (int64 [8 * SLOTS]): a row and its untried columns."""
    i = (k & 63) << 3
    stk[i] = avail
    stk[i + 1] = ld
    stk[i + 2] = cd
    stk[i + 3] = rd
    stk[i + 4] = row


@njit(cache=True, nogil=True, inline="always")
def load(stk, k):
    """Frame ``k`` of ``stk``: (avail, ld, cd, rd, row) as :func:`store` wrote it."""
    i = (k & 63) << 3
    return stk[i], stk[i + 1], stk[i + 2], stk[i + 3], stk[i + 4]


@njit(cache=True, nogil=True, inline="always")
def push(stk, sp, rest, ld, cd, rd, row):
    """Store a row with its untried columns ``rest`` at the top ``sp`` of the stack ``stk``;
    returns the new top: ``sp + 1``, or ``sp`` (the frame left to be overwritten) when
    ``rest`` is empty, so the loop does not branch on it."""
    store(stk, sp, rest, ld, cd, rd, row)
    return sp + (rest != 0)


@njit(cache=True, nogil=True, inline="always")
def pop(stk, sp):
    """Take the top frame off the stack (``sp`` > 0): (new top, avail, ld, cd, rd, row)."""
    sp -= 1
    avail, ld, cd, rd, row = load(stk, sp)
    return sp, avail, ld, cd, rd, row


@njit(cache=True, nogil=True, inline="always")
def dead(free):
    """The columns of a row whose queen would leave no cell of ``free`` (the next row's free
    cells before that queen) open: every column if ``free`` is empty, else those within one
    column of both its lowest and its highest cell (a queen covers its own column and the two
    diagonal neighbours in the next row), so at most three."""
    lo = free & -free
    hi = np.int64(1) << (63 - clz(free | 1))
    near = ((lo << 1) | lo | (lo >> 1)) & ((hi << 1) | hi | (hi >> 1))
    return near | -np.int64(free == 0)
