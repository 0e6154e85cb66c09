"""The symmetric N-queens search tree (numba): its top rows, prefix replay and enumeration, and
the entry points :mod:`solvers.nqueens` calls (the whole search, a batch of prefixes, the plain
search below a placement).  The search and its prefixes are described in :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import ctz, popcount
from .bits import SLOTS, load, place, store
from .kernel import class_size, corner_walk, plain_count, plain_fill, side_walk
from .numbering import keep, last_row, wanted_after
from .symmetry import row_avail, row_masks, top_choices

__all__: list[str] = []  # private to solvers.nqueens


@njit(cache=True, nogil=True)
def replay(n, prefix, board):
    """Follow ``prefix`` (depth >= 1, n >= 2) down the symmetric search.

    Returns (ok, corner, b1, ld, cd, rd) for the state after the prefix and fills ``board`` with
    its queen bits; ok is False when the prefix is not a path of the search (corner prefixes
    of depth 1 stop at row 0 and return b1 = 0).
    """
    d = prefix.shape[0]
    mask = (np.int64(1) << n) - 1
    z = np.int64(0)
    c0 = prefix[0]
    if c0 == 0 and n >= 4:
        corner = True
    elif 1 <= c0 <= (n - 2) // 2:
        corner = False
    else:
        return False, False, z, z, z, z
    bit = np.int64(1) << c0
    board[0] = bit
    ld, cd, rd = place(z, z, z, bit)
    b1 = c0
    start = 1
    if corner:
        if d == 1:
            return True, True, z, ld, cd, rd
        b1 = prefix[1]
        if not 2 <= b1 <= n - 2:
            return False, False, z, z, z, z
        bit = np.int64(1) << b1
        board[1] = bit
        ld, cd, rd = place(ld, cd, rd, bit)
        start = 2
    rm = row_masks(n, corner, b1)
    for r in range(start, d):
        c = prefix[r]
        if c < 0 or c >= n:
            return False, False, z, z, z, z
        bit = np.int64(1) << c
        if not row_avail(n, corner, b1, rm, r, ld, cd, rd) & bit & mask:
            return False, False, z, z, z, z
        board[r] = bit
        ld, cd, rd = place(ld, cd, rd, bit)
    return True, corner, b1, ld, cd, rd


# the first row below a corner / side root, as numpy scalars: a Python constant would be typed
# as a literal, and each walk compiled once more for it (see .symmetry)
_ROW1, _ROW2 = np.int64(1), np.int64(2)


@njit(cache=True, nogil=True)
def select(n, depth, wanted, cap, out):
    """Walk the paths of ``depth`` >= 1 rows of the symmetric search (n >= 2), keeping some.

    The walk is depth-first in the order the tree lists the paths (row 0 by
    :func:`top_choices`, then columns ascending), numbering them 0, 1, ...; path number
    ``wanted[j]`` is written to ``out[j]`` (``wanted`` ascending and distinct, ``out`` one row
    per entry: nothing else is stored).  On the last row the columns left are counted at once
    while no wanted path is among them, so the walk costs little more than the rows above it.
    It stops once it has passed ``cap`` paths.  Returns (paths walked: all of them, or
    ``cap`` < walked < ``cap`` + 64 if it stopped; paths kept).
    """
    walked = 0
    kept = 0
    nxt = wanted_after(wanted, 0)
    cols = np.zeros(SLOTS, np.int64)
    stk = np.empty(8 * SLOTS, np.int64)
    z = np.int64(0)
    for c0 in top_choices(n):
        cols[0] = c0
        corner = c0 == 0
        bit0 = np.int64(1) << c0
        # a corner's row 1 ranges over b1 = 2..n-2 (below depth 1: one path, b1 unused)
        first = 2 if corner and depth > 1 else c0
        last = n - 2 if corner and depth > 1 else c0
        for b1 in range(first, last + 1):
            ld, cd, rd = place(z, z, z, bit0)
            row = 1
            if corner and depth > 1:
                cols[1] = b1
                row = 2
                ld, cd, rd = place(ld, cd, rd, np.int64(1) << b1)
            if row == depth:
                if walked == nxt:
                    kept, nxt = keep(kept, cols, depth, wanted, out)
                walked += 1
                if walked > cap:
                    return walked, kept
                continue
            rm = row_masks(n, corner, b1)
            base = row
            avail = row_avail(n, corner, b1, rm, row, ld, cd, rd)
            while True:
                if avail and row == depth - 1:
                    # the last row: each column left ends one path
                    left = popcount(avail)
                    if walked + left <= nxt:
                        walked += left
                    else:
                        walked, kept, nxt = last_row(
                            avail, row, walked, kept, nxt, cols, wanted, out
                        )
                    avail = 0
                    if walked > cap:
                        return walked, kept
                elif avail:
                    bit = avail & -avail
                    avail ^= bit
                    cols[row] = ctz(bit)
                    store(stk, row, avail, ld, cd, rd, row)
                    row += 1
                    ld, cd, rd = place(ld, cd, rd, bit)
                    avail = row_avail(n, corner, b1, rm, row, ld, cd, rd)
                else:
                    if row == base:
                        break
                    row -= 1
                    avail, ld, cd, rd, _ = load(stk, row)
    return walked, kept


@njit(cache=True, nogil=True)
def whole(n):
    """(Q(n), U(n), nodes) of the whole symmetric search (U: classes, the fundamental ones)."""
    if n == 1:
        return np.int64(1), np.int64(1), np.int64(1)
    count = np.int64(0)
    classes = np.int64(0)
    nodes = np.int64(0)
    board = np.zeros(SLOTS, np.int64)
    z = np.int64(0)
    if n >= 4:
        nodes += 1  # the corner queen
        ld0, cd0, rd0 = place(z, z, z, np.int64(1))
        for b1 in range(2, n - 1):
            ld, cd, rd = place(ld0, cd0, rd0, np.int64(1) << b1)
            c, u, k = corner_walk(n, b1, _ROW2, ld, cd, rd)
            count += c
            classes += u
            nodes += k + 1
    for b1 in range(1, (n - 2) // 2 + 1):
        bit = np.int64(1) << b1
        board[0] = bit
        ld, cd, rd = place(z, z, z, bit)
        c, u, k = side_walk(n, b1, _ROW1, ld, cd, rd, board)
        count += c
        classes += u
        nodes += k + 1
    return count, classes, nodes


@njit(cache=True, nogil=True)
def count_batch(n, choices, counts, classes, nodes):
    """Fill counts[i] (weighted leaves), classes[i] (leaves that represent a class, so that
    they sum to U(n)) and nodes[i] (queens placed) below each prefix row."""
    k, d = choices.shape
    board = np.zeros(SLOTS, np.int64)
    for i in range(k):
        counts[i] = 0
        classes[i] = 0
        nodes[i] = 0
        if d == 0:
            counts[i], classes[i], nodes[i] = whole(n)
            continue
        if n == 1:
            counts[i] = 1 if choices[i, 0] == 0 else 0
            classes[i] = counts[i]
            continue
        ok, corner, b1, ld, cd, rd = replay(n, choices[i], board)
        if not ok:
            continue
        if corner and d == 1:  # row 0 only: the corner search over every b1
            for b in range(2, n - 1):
                nld, ncd, nrd = place(ld, cd, rd, np.int64(1) << b)
                c, u, m = corner_walk(n, b, _ROW2, nld, ncd, nrd)
                counts[i] += c
                classes[i] += u
                nodes[i] += m + 1
        elif d == n:
            counts[i] = 8 if corner else class_size(board, n, b1)
            classes[i] = 1 if counts[i] != 0 else 0
        elif corner:
            counts[i], classes[i], nodes[i] = corner_walk(n, b1, d, ld, cd, rd)
        else:
            counts[i], classes[i], nodes[i] = side_walk(n, b1, d, ld, cd, rd, board)


@njit(cache=True, nogil=True)
def plain_state(n, cols):
    """(ok, ld, cd, rd) after placing ``cols`` row by row with no symmetry rule."""
    ld = np.int64(0)
    cd = np.int64(0)
    rd = np.int64(0)
    mask = (np.int64(1) << n) - 1
    for r in range(cols.shape[0]):
        c = cols[r]
        if c < 0 or c >= n:
            return False, ld, cd, rd
        bit = np.int64(1) << c
        if (ld | cd | rd) & bit & mask:
            return False, ld, cd, rd
        ld, cd, rd = place(ld, cd, rd, bit)
    return True, ld, cd, rd


@njit(cache=True, nogil=True)
def plain_run(n, cols, out):
    """Count (``out`` with no rows) or write the solutions extending ``cols``; -1 if invalid."""
    ok, ld, cd, rd = plain_state(n, cols)
    if not ok:
        return np.int64(-1)
    d = cols.shape[0]
    if d == n:
        if out.shape[0] > 0:
            for j in range(n):
                out[0, j] = cols[j]
        return np.int64(1)
    if out.shape[0] > 0:
        return np.int64(plain_fill(n, d, ld, cd, rd, cols, out))
    found, _ = plain_count(n, ld, cd, rd)
    return np.int64(found)
