"""The rules of the symmetric N-queens search (numba): which columns each row may use, and how a
side-search board compares with its rotations.  The search itself and its notation are in
:mod:`.kernel`; these rules are shared by its walks and by the prefix walks of :mod:`.tree`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import ctz
from .bits import SLOTS

__all__: list[str] = []  # private to solvers.nqueens

# Arguments that jitted callers pass as constants are numpy scalars: numba types a Python
# constant as a literal and compiles the function it is passed to once more for each literal
# (cmp_rotation once per turn, row_masks and row_avail once per search), as in solvers.slant.
CORNER = np.bool_(True)  # row_masks / row_avail: the corner search
SIDE = np.bool_(False)  # the side search
QUARTER, HALF, THREE_QUARTERS = np.int64(1), np.int64(2), np.int64(3)  # cmp_rotation's turns


@njit(cache=True, nogil=True)
def row_of(board, n, bit):
    """Row of the queen whose bit is ``bit`` (-1 if none)."""
    for r in range(n):
        if board[r] == bit:
            return r
    return -1


@njit(cache=True, nogil=True)
def cmp_rotation(board, n, k):
    """Sign of (R - S) in lexicographic order, R = S turned k quarter turns clockwise."""
    top = n - 1
    for i in range(n):
        if k == 1:  # (r, c) -> (c, top - r): R[i] = top - row of column i
            v = np.int64(1) << (top - row_of(board, n, np.int64(1) << i))
        elif k == 2:  # (r, c) -> (top - r, top - c): R[i] = top - S[top - i]
            v = (np.int64(1) << top) >> ctz(board[top - i])
        else:  # (r, c) -> (top - c, r): R[i] = row of column top - i
            v = np.int64(1) << row_of(board, n, np.int64(1) << (top - i))
        if v != board[i]:
            return -1 if v < board[i] else 1
    return 0


@njit(cache=True, nogil=True)
def row_masks(n, corner, b1):
    """Per-row allowed columns before the diagonal/column test (rows < b1, last-row rule)."""
    mask = (np.int64(1) << n) - 1
    last = n - 1
    rm = np.empty(SLOTS, np.int64)
    if corner:
        for i in range(SLOTS):
            rm[i] = (mask & ~np.int64(2)) if i < b1 else mask
    else:
        side = np.int64(1) | (np.int64(1) << last)
        for i in range(SLOTS):
            rm[i] = (mask & ~side) if i < b1 else mask
        lastmask = np.int64(0)
        for k in range(b1):
            lastmask |= (np.int64(1) << k) | (np.int64(1) << (last - k))
        rm[last] = mask & ~lastmask
    return rm


@njit(cache=True, nogil=True, inline="always")
def side_rule(avail, cd, side):
    """Row b2 of the side search: both side columns must be taken by the end of this row."""
    s = cd & side
    if s != side:
        avail = (avail & side) if s != 0 else np.int64(0)
    return avail


@njit(cache=True, nogil=True)
def row_avail(n, corner, b1, rm, row, ld, cd, rd):
    """Columns the symmetric search may use in ``row`` (corner: row >= 2; side: row >= 1)."""
    avail = ~(ld | cd | rd) & rm[row & 63]
    if not corner and row == n - 1 - b1:
        avail = side_rule(avail, cd, np.int64(1) | (np.int64(1) << (n - 1)))
    return avail


@njit(cache=True, nogil=True)
def top_choices(n):
    """Row-0 columns of the symmetric search, in order: 0 (corner, n >= 4), then 1..(n-2)//2."""
    if n == 1:
        return np.zeros(1, np.int64)
    k = (n - 2) // 2 if n >= 4 else 0
    out = np.empty(k + (1 if n >= 4 else 0), np.int64)
    j = 0
    if n >= 4:
        out[0] = 0
        j = 1
    for b1 in range(1, k + 1):
        out[j] = b1
        j += 1
    return out
