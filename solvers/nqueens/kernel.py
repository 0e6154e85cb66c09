"""N-queens kernels: the numba walks behind :mod:`solvers.nqueens` (Q(n), U(n), every solution).

Notation
--------
Rows ``r = 0 .. n-1`` run top to bottom, columns ``c = 0 .. n-1`` left to right, ``last = n - 1``.
A queen in column ``c`` is the bit ``1 << c`` of an int64; a board is the column (or bit) of the
queen in each row.  A search state at row ``r`` holds three masks over that row: ``cd`` the
columns already taken, ``ld`` the cells attacked along ``\\`` diagonals from above (the mask moves
one column right, ``<< 1``, per row) and ``rd`` the cells attacked along ``/`` diagonals (``>> 1``
per row); the free cells are ``~(ld | cd | rd) & mask``.  A queen bit starts below bit 32 and
moves one place per row, so on every row of the board the masks stay in bits 0..62 of an int64:
1 <= n <= 32 needs no wider masks (bits shifted out to the right are never needed again).
``nodes`` counts queens placed (one per search-tree edge), the work measure every kernel returns.

The symmetric search (``count``, ``prefixes``, ``total``)
---------------------------------------------------------
The 8 symmetries of the square (rotations and reflections) act on the solutions.  For n >= 2 no
solution is mirror-symmetric, so a class holds 8 solutions, 4 (it equals its 180-degree turn) or
2 (it equals its 90-degree turn).  The search visits one representative per class and adds the
class size at its leaf (summing to Q(n)) and 1 (summing to U(n), the classes: OEIS A002562,
the *fundamental* solutions); it has two parts, told apart by row 0:

* corner (row 0 = column 0): a class with a corner queen has exactly two members with a queen at
  (0, 0), a board and its transpose.  Row 1's queen sits in column ``b1`` (2 <= b1 <= n-2); the
  search keeps the member whose column-1 queen lies below row ``b1`` (column 1 is barred in rows
  < b1).  Each leaf is worth 8.
* side (row 0 = column b1, 1 <= b1 < b2 = n-1-b1): no corner queen; each edge's queen has a
  distance to its nearest corner, and ``b1`` is the smallest, on the top edge, left half.  Rules:
  rows < b1 hold no queen in column 0 or n-1; both of those columns are taken by row b2; the last
  row's queen sits in columns b1..b2.  The members of a class that pass these rules are rotations
  of each other (a reflection would put two queens on one line), so a leaf counts only if its
  board is lexicographically no larger than each of its rotations; it adds 8, 4 or 2 as it
  differs from all of them, equals its 180-degree turn, or equals its 90-degree turn.

A *prefix* of depth d is the columns of rows 0..d-1 on one path of that search tree (so row 0 is
0 or b1 <= (n-2)//2, and a corner prefix's row 1 is b1); every prefix has weight 1 and
``count`` returns the class sizes summed over the leaves below it, and the leaves that
represent a class, so for every depth ``sum(weight * counts) == Q(n)`` and
``sum(weight * classes) == U(n)``: each class has exactly one representative leaf, below
exactly one prefix, whatever the depth.  n = 1 is its own one-node tree (weight-1 leaf ``(0,)``).

Plain functions (``completions``, ``solutions``) search without symmetry, in lexicographic order:
row by row, columns ascending.

Files: this module holds the hot walks and the leaf weights; :mod:`.symmetry` the rules of the
symmetric search (row masks, rotations), :mod:`.tree` its top rows, prefixes and the entry points
:mod:`solvers.nqueens` calls, and :mod:`.bits` the inlined stack frame and queen move (the bit
intrinsics, shared with queens and rooks, are :mod:`solvers.bitops`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import ctz, popcount
from .bits import SLOTS, dead, place, pop, push
from .symmetry import (
    CORNER,
    HALF,
    QUARTER,
    SIDE,
    THREE_QUARTERS,
    cmp_rotation,
    row_avail,
    row_masks,
    side_rule,
)

__all__: list[str] = []  # every kernel is private: solvers.nqueens is the public face


@njit(cache=True, nogil=True)
def class_size(board, n, b1):
    """What a side-search leaf adds: 0 (not its class's representative), 2, 4 or 8."""
    last = n - 1
    b2 = last - b1
    # a rotation can tie with S on row 0 only if the edge it brings to the top holds a queen
    # at distance b1 from the matching corner (row ``at`` holds ``queen``); otherwise
    # S < rotation already on row 0.  A tie with a rotation makes the class that small.
    rotations = (
        (QUARTER, b2, np.int64(1), 2),
        (HALF, last, np.int64(1) << b2, 4),
        (THREE_QUARTERS, b1, np.int64(1) << last, 8),
    )
    for turn, at, queen, tied in rotations:
        if board[at] == queen:
            c = cmp_rotation(board, n, turn)
            if c < 0:
                return 0
            if c == 0:
                return tied
    return 8


# --------------------------------------------------------------------------------------------
# hot kernels: iterative DFS over an explicit stack of *frames*
#
# A frame (avail, ld, cd, rd, row) is a row whose untried columns are ``avail``.  Each pass of the
# loop places one queen: take the lowest bit of ``avail``, push the frame with the bits left (a
# push stores and adds ``rest != 0`` to ``sp``, so a row with no column left is never stacked), then
# step down to the child row; when the child has no column left to try (a dead end, or the
# board is full) pop the newest frame instead.  Popping therefore skips every exhausted row at
# once, and the loop has one data-dependent branch per pass.
#
# Dead children are never visited: when a row's columns are computed, those whose queen would
# leave the next row no free cell are dropped from ``avail`` at once (:func:`.bits.dead`, all
# columns in a few bit operations).  Nodes still count every queen the search places, dead ones
# included (``popcount`` of each row's columns before the drop), so the tree and its node counts
# are those of the plain row-by-row search with the rules of :mod:`.symmetry`.


_NO_BOARD = np.zeros(1, np.int64)  # the corner search and the plain count keep no board
_NO_SOLUTIONS = np.zeros((0, 1), np.int8)  # the plain count writes none


@njit(cache=True, nogil=True, inline="always")
def _walk(n, b1, row, ld, cd, rd, board, corner):
    """(weighted count, classes, nodes) below a corner-search (``corner``) or side-search state
    at ``row`` (2 <= row <= n-1 for a corner, 1 <= row <= n-1 for a side).

    ``corner`` is a constant at each of the two callers, and this body is inlined into each, so
    each compiles to the loop of its own kind alone (an A/B of ``tree.whole`` at n = 15 and 16
    against the two loops written out found no difference).  A corner leaf is one class of 8 (a
    corner queen rules out a symmetric solution), so the corner loop keeps no board.  A side
    search keeps the queen bit of each row in ``brd`` (``board`` holds the rows above ``row``);
    a leaf that represents its class (class size 2, 4 or 8, not 0) adds 1 to ``classes``, off
    the hot path (leaves only).

    Invariant at the loop head: rows < ``row`` hold queens, (ld, cd, rd) describe ``row`` and
    ``avail`` (nonzero) is the set of its columns not yet tried; the frames below ``sp`` are the
    rows above with columns still to try.
    """
    mask = (np.int64(1) << n) - 1
    last = n - 1
    b2 = last - b1
    side = np.int64(1) | (np.int64(1) << last)
    topbit = np.int64(1) << last
    endbit = np.int64(1) << b2
    rm = row_masks(n, CORNER if corner else SIDE, b1)
    stk = np.empty(8 * SLOTS, np.int64)
    brd = _NO_BOARD if corner else np.zeros(SLOTS, np.int64)
    if corner:
        avail = ~(ld | cd | rd) & rm[row & 63]
    else:
        for i in range(row):
            brd[i] = board[i]
        avail = row_avail(n, SIDE, b1, rm, row, ld, cd, rd)
    count = 0
    classes = 0
    nodes = popcount(avail)
    if row < last:
        avail &= ~dead(~((ld << 1) | cd | (rd >> 1)) & rm[(row + 1) & 63])
    sp = 0
    if avail == 0:
        return 0, 0, nodes
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        if not corner:
            brd[row & 63] = bit
        sp = push(stk, sp, rest, ld, cd, rd, row)
        ld, cd, rd = place(ld, cd, rd, bit)
        row += 1
        avail = ~(ld | cd | rd) & rm[row & 63]
        if not corner and row == b2:
            avail = side_rule(avail, cd, side)
        nodes += popcount(avail)
        if row < last:
            avail &= ~dead(~((ld << 1) | cd | (rd >> 1)) & rm[(row + 1) & 63])
        if corner:
            classes += cd == mask
        elif cd == mask:
            # a leaf (rm[last] applied the last-row rule); rotations can only tie on row 0
            # when one of these three queens sits at distance b1 from its corner
            if (brd[b2] == 1) | (bit == endbit) | (brd[b1] == topbit):
                size = class_size(brd, n, b1)
                count += size
                classes += size != 0
            else:
                count += 8
                classes += 1
        if avail == 0:
            if sp == 0:
                break
            sp, avail, ld, cd, rd, row = pop(stk, sp)
    if corner:
        count = 8 * classes
    return count, classes, nodes


@njit(cache=True, nogil=True)
def corner_walk(n, b1, row, ld, cd, rd):
    """(weighted count, classes, nodes) below a corner-search state at ``row``."""
    return _walk(n, b1, row, ld, cd, rd, _NO_BOARD, True)


@njit(cache=True, nogil=True)
def side_walk(n, b1, row, ld, cd, rd, board):
    """(weighted count, classes, nodes) below a side-search state at ``row``."""
    return _walk(n, b1, row, ld, cd, rd, board, False)


@njit(cache=True, nogil=True)
def plain_count(n, ld, cd, rd):
    """(solutions, nodes) below a plain state (no symmetry); the row is implied by ``cd``."""
    return _plain(n, 0, ld, cd, rd, _NO_BOARD, _NO_SOLUTIONS, False)


@njit(cache=True, nogil=True)
def plain_fill(n, row, ld, cd, rd, cols, out):
    """Write every solution below a plain state at ``row`` into ``out`` (int8), lexicographically.

    ``cols`` holds the columns of rows < ``row``; returns the number written.
    """
    found, _ = _plain(n, row, ld, cd, rd, cols, out, True)
    return found


@njit(cache=True, nogil=True, inline="always")
def _plain(n, row, ld, cd, rd, cols, out, fill):
    """(solutions, nodes) below a plain state at ``row`` (no symmetry); with ``fill``, each
    solution is also written to the next row of ``out`` (int8), lexicographically, ``cols``
    holding the columns of the rows above.

    ``fill`` is a constant at each of the two callers, as ``corner`` is for :func:`_walk`, so
    the count compiles to a loop that keeps no board.
    """
    mask = (np.int64(1) << n) - 1
    stk = np.empty(8 * SLOTS, np.int64)
    col = np.zeros(SLOTS if fill else 1, np.int64)
    if fill:
        for i in range(row):
            col[i] = cols[i]
    avail = ~(ld | cd | rd) & mask
    found = 0
    nodes = 0
    sp = 0
    if avail == 0:
        return 0, 0
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        nodes += 1
        if fill:
            col[row & 63] = ctz(bit)
        sp = push(stk, sp, rest, ld, cd, rd, row)
        ld, cd, rd = place(ld, cd, rd, bit)
        row += 1
        avail = ~(ld | cd | rd) & mask
        if cd == mask:
            if fill:
                for j in range(n):
                    out[found, j] = col[j]
            found += 1
        if avail == 0:
            if sp == 0:
                break
            sp, avail, ld, cd, rd, row = pop(stk, sp)
    return found, nodes
