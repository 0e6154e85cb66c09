"""N-queens kernels: the numba searches behind :mod:`solvers.nqueens` (Q(n) and every solution).

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
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__: list[str] = []  # every kernel is private: solvers.nqueens is the public face

_SLOTS = 64  # stack rows per kernel (>= MAX_N + 1 = 33); indices are taken `& 63`, never negative


# --------------------------------------------------------------------------------------------
# small numba helpers


@intrinsic
def _ctz(typingctx, x):
    """Trailing zero count of a nonzero int64 (the column of a queen bit)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@intrinsic
def _popcount(typingctx, x):
    """Set bits of an int64."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@njit(cache=True, nogil=True)
def _row_of(board, n, bit):
    """Row of the queen whose bit is ``bit`` (-1 if none)."""
    for r in range(n):
        if board[r] == bit:
            return r
    return -1


@njit(cache=True, nogil=True)
def _cmp_rotation(board, n, k):
    """Sign of (R - S) in lexicographic order, R = S turned k quarter turns clockwise."""
    top = n - 1
    for i in range(n):
        if k == 1:  # (r, c) -> (c, top - r): R[i] = top - row of column i
            v = np.int64(1) << (top - _row_of(board, n, np.int64(1) << i))
        elif k == 2:  # (r, c) -> (top - r, top - c): R[i] = top - S[top - i]
            v = (np.int64(1) << top) >> _ctz(board[top - i])
        else:  # (r, c) -> (top - c, r): R[i] = row of column top - i
            v = np.int64(1) << _row_of(board, n, np.int64(1) << (top - i))
        if v != board[i]:
            return -1 if v < board[i] else 1
    return 0


@njit(cache=True, nogil=True)
def _class_size(board, n, b1):
    """What a side-search leaf adds: 0 (not its class's representative), 2, 4 or 8."""
    last = n - 1
    b2 = last - b1
    # a rotation can tie with S on row 0 only if the edge it brings to the top holds a queen
    # at distance b1 from the matching corner; otherwise S < rotation already on row 0
    if board[b2] == 1:
        c = _cmp_rotation(board, n, 1)
        if c < 0:
            return 0
        if c == 0:
            return 2
    if board[last] == np.int64(1) << b2:
        c = _cmp_rotation(board, n, 2)
        if c < 0:
            return 0
        if c == 0:
            return 4
    if board[b1] == np.int64(1) << last:
        if _cmp_rotation(board, n, 3) < 0:
            return 0
    return 8


@njit(cache=True, nogil=True)
def _row_masks(n, corner, b1):
    """Per-row allowed columns before the diagonal/column test (rows < b1, last-row rule)."""
    mask = (np.int64(1) << n) - 1
    last = n - 1
    rm = np.empty(_SLOTS, np.int64)
    if corner:
        for i in range(_SLOTS):
            rm[i] = (mask & ~np.int64(2)) if i < b1 else mask
    else:
        side = np.int64(1) | (np.int64(1) << last)
        for i in range(_SLOTS):
            rm[i] = (mask & ~side) if i < b1 else mask
        lastmask = np.int64(0)
        for k in range(b1):
            lastmask |= (np.int64(1) << k) | (np.int64(1) << (last - k))
        rm[last] = mask & ~lastmask
    return rm


@njit(cache=True, nogil=True)
def _row_avail(n, corner, b1, rm, row, ld, cd, rd):
    """Columns the symmetric search may use in ``row`` (corner: row >= 2; side: row >= 1)."""
    avail = ~(ld | cd | rd) & rm[row & 63]
    if not corner and row == n - 1 - b1:
        # row b2: both side columns must be taken by the end of this row
        side = np.int64(1) | (np.int64(1) << (n - 1))
        s = cd & side
        if s != side:
            avail = (avail & side) if s != 0 else np.int64(0)
    return avail


# --------------------------------------------------------------------------------------------
# hot kernels: iterative DFS over an explicit stack of *frames*
#
# A frame (avail, ld, cd, rd, row) is a row whose untried columns are ``avail``.  Each pass of the
# loop places exactly one queen (so one pass = one node): take the lowest bit of ``avail``, push
# the frame with the bits left (the push is a store and ``sp += rest != 0``, so a row with no
# column left is never stacked), then step down to the child row; when the child has no free
# column (a dead end, or the board is full) pop the newest frame instead.  Popping therefore
# skips every exhausted row at once, and the loop has one data-dependent branch per node.


@njit(cache=True, nogil=True)
def _corner_walk(n, b1, row, ld, cd, rd):
    """(weighted count, classes, nodes) below a corner-search state at ``row`` (2 <= row <= n-1).

    Every leaf is one class of 8 (a corner queen rules out a symmetric solution), so the
    classes are the leaves and the hot loop needs no second counter.

    Invariant at the loop head: rows < ``row`` hold queens, (ld, cd, rd) describe ``row`` and
    ``avail`` (nonzero) is the set of its columns not yet tried; the frames below ``sp`` are the
    rows above with columns still to try.
    """
    mask = (np.int64(1) << n) - 1
    rm = _row_masks(n, True, b1)
    stk = np.empty(8 * _SLOTS, np.int64)
    avail = ~(ld | cd | rd) & rm[row & 63]
    leaves = 0
    nodes = 0
    sp = 0
    if avail == 0:
        return 0, 0, 0
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        nodes += 1
        i = (sp & 63) << 3
        stk[i] = rest
        stk[i + 1] = ld
        stk[i + 2] = cd
        stk[i + 3] = rd
        stk[i + 4] = row
        sp += rest != 0
        ld = (ld | bit) << 1
        cd = cd | bit
        rd = (rd | bit) >> 1
        row += 1
        avail = ~(ld | cd | rd) & rm[row & 63]  # 0 once the board is full
        leaves += cd == mask
        if avail == 0:
            if sp == 0:
                break
            sp -= 1
            i = (sp & 63) << 3
            avail = stk[i]
            ld = stk[i + 1]
            cd = stk[i + 2]
            rd = stk[i + 3]
            row = stk[i + 4]
    return 8 * leaves, leaves, nodes


@njit(cache=True, nogil=True)
def _side_walk(n, b1, row, ld, cd, rd, board):
    """(weighted count, classes, nodes) below a side-search state at ``row`` (1 <= row <= n-1).

    ``board[r]`` holds the queen bit of each row r < ``row``; ``brd`` extends it along the
    current path.  Same loop and invariant as :func:`_corner_walk`; a leaf that represents its
    class (class size 2, 4 or 8, not 0) adds 1 to ``classes``, off the hot path (leaves only).
    """
    mask = (np.int64(1) << n) - 1
    last = n - 1
    b2 = last - b1
    side = np.int64(1) | (np.int64(1) << last)
    topbit = np.int64(1) << last
    endbit = np.int64(1) << b2
    rm = _row_masks(n, False, b1)
    stk = np.empty(8 * _SLOTS, np.int64)
    brd = np.zeros(_SLOTS, np.int64)
    for i in range(row):
        brd[i] = board[i]
    avail = _row_avail(n, False, b1, rm, row, ld, cd, rd)
    count = 0
    classes = 0
    nodes = 0
    sp = 0
    if avail == 0:
        return 0, 0, 0
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        nodes += 1
        brd[row & 63] = bit
        i = (sp & 63) << 3
        stk[i] = rest
        stk[i + 1] = ld
        stk[i + 2] = cd
        stk[i + 3] = rd
        stk[i + 4] = row
        sp += rest != 0
        ld = (ld | bit) << 1
        cd = cd | bit
        rd = (rd | bit) >> 1
        row += 1
        avail = ~(ld | cd | rd) & rm[row & 63]
        if row == b2:
            # both side columns must be taken by the end of row b2
            s = cd & side
            if s != side:
                avail = (avail & side) if s != 0 else np.int64(0)
        if cd == mask:
            # a leaf (rm[last] applied the last-row rule); rotations can only tie on row 0
            # when one of these three queens sits at distance b1 from its corner
            if (brd[b2] == 1) | (bit == endbit) | (brd[b1] == topbit):
                size = _class_size(brd, n, b1)
                count += size
                classes += size != 0
            else:
                count += 8
                classes += 1
        if avail == 0:
            if sp == 0:
                break
            sp -= 1
            i = (sp & 63) << 3
            avail = stk[i]
            ld = stk[i + 1]
            cd = stk[i + 2]
            rd = stk[i + 3]
            row = stk[i + 4]
    return count, classes, nodes


@njit(cache=True, nogil=True)
def _plain_count(n, ld, cd, rd):
    """(solutions, nodes) below a plain state (no symmetry); the row is implied by ``cd``."""
    mask = (np.int64(1) << n) - 1
    stk = np.empty(4 * _SLOTS, np.int64)
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
        i = (sp & 63) << 2
        stk[i] = rest
        stk[i + 1] = ld
        stk[i + 2] = cd
        stk[i + 3] = rd
        sp += rest != 0
        ld = (ld | bit) << 1
        cd = cd | bit
        rd = (rd | bit) >> 1
        avail = ~(ld | cd | rd) & mask
        found += cd == mask
        if avail == 0:
            if sp == 0:
                break
            sp -= 1
            i = (sp & 63) << 2
            avail = stk[i]
            ld = stk[i + 1]
            cd = stk[i + 2]
            rd = stk[i + 3]
    return found, nodes


@njit(cache=True, nogil=True)
def _plain_fill(n, row, ld, cd, rd, cols, out):
    """Write every solution below a plain state at ``row`` into ``out`` (int8), lexicographically.

    ``cols`` holds the columns of rows < ``row``; returns the number written.
    """
    mask = (np.int64(1) << n) - 1
    stk = np.empty(8 * _SLOTS, np.int64)
    col = np.zeros(_SLOTS, np.int64)
    for i in range(row):
        col[i] = cols[i]
    avail = ~(ld | cd | rd) & mask
    found = 0
    sp = 0
    if avail == 0:
        return 0
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        col[row & 63] = _ctz(bit)
        i = (sp & 63) << 3
        stk[i] = rest
        stk[i + 1] = ld
        stk[i + 2] = cd
        stk[i + 3] = rd
        stk[i + 4] = row
        sp += rest != 0
        ld = (ld | bit) << 1
        cd = cd | bit
        rd = (rd | bit) >> 1
        row += 1
        avail = ~(ld | cd | rd) & mask
        if cd == mask:
            for j in range(n):
                out[found, j] = col[j]
            found += 1
        if avail == 0:
            if sp == 0:
                break
            sp -= 1
            i = (sp & 63) << 3
            avail = stk[i]
            ld = stk[i + 1]
            cd = stk[i + 2]
            rd = stk[i + 3]
            row = stk[i + 4]
    return found


# --------------------------------------------------------------------------------------------
# the symmetric search tree: its top rows, prefix replay and enumeration


@njit(cache=True, nogil=True)
def _top_choices(n):
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


@njit(cache=True, nogil=True)
def _replay(n, prefix, board):
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
    ld = bit << 1
    cd = bit
    rd = bit >> 1
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
        ld = (ld | bit) << 1
        cd |= bit
        rd = (rd | bit) >> 1
        start = 2
    rm = _row_masks(n, corner, b1)
    for r in range(start, d):
        c = prefix[r]
        if c < 0 or c >= n:
            return False, False, z, z, z, z
        bit = np.int64(1) << c
        if not _row_avail(n, corner, b1, rm, r, ld, cd, rd) & bit & mask:
            return False, False, z, z, z, z
        board[r] = bit
        ld = (ld | bit) << 1
        cd |= bit
        rd = (rd | bit) >> 1
    return True, corner, b1, ld, cd, rd


_NEVER = 1 << 62  # a path number no walk reaches


@njit(cache=True, nogil=True, inline="always")
def _take(cols, depth, wanted, kept, out):
    """Write the path ``cols`` as row ``kept`` of ``out``; (paths kept, next path wanted)."""
    for j in range(depth):
        out[kept, j] = cols[j]
    kept += 1
    return kept, wanted[kept] if kept < wanted.shape[0] else _NEVER


@njit(cache=True, nogil=True)
def _select(n, depth, wanted, cap, out):
    """Walk the paths of ``depth`` >= 1 rows of the symmetric search (n >= 2), keeping some.

    The walk is depth-first in the order the tree lists the paths (row 0 by
    :func:`_top_choices`, then columns ascending), numbering them 0, 1, ...; path number
    ``wanted[j]`` is written to ``out[j]`` (``wanted`` ascending and distinct, ``out`` one row
    per entry: nothing else is stored).  On the last row the columns left are counted at once
    while no wanted path is among them, so the walk costs little more than the rows above it.
    It stops once it has passed ``cap`` paths.  Returns (paths walked: all of them, or
    ``cap`` < walked < ``cap`` + 64 if it stopped; paths kept).
    """
    walked = 0
    kept = 0
    nxt = wanted[0] if wanted.shape[0] > 0 else _NEVER
    cols = np.zeros(_SLOTS, np.int64)
    stk = np.empty(4 * _SLOTS, np.int64)
    for c0 in _top_choices(n):
        cols[0] = c0
        if depth == 1:
            if walked == nxt:
                kept, nxt = _take(cols, depth, wanted, kept, out)
            walked += 1
            if walked > cap:
                return walked, kept
            continue
        corner = c0 == 0
        bit0 = np.int64(1) << c0
        first = 2 if corner else c0  # a corner's row 1 ranges over b1 = 2..n-2
        last = n - 2 if corner else c0
        for b1 in range(first, last + 1):
            if corner:
                bit1 = np.int64(1) << b1
                cols[1] = b1
                row = 2
                ld = ((bit0 << 1) | bit1) << 1
                cd = bit0 | bit1
                rd = ((bit0 >> 1) | bit1) >> 1
            else:
                row = 1
                ld = bit0 << 1
                cd = bit0
                rd = bit0 >> 1
            if row == depth:
                if walked == nxt:
                    kept, nxt = _take(cols, depth, wanted, kept, out)
                walked += 1
                if walked > cap:
                    return walked, kept
                continue
            rm = _row_masks(n, corner, b1)
            base = row
            avail = _row_avail(n, corner, b1, rm, row, ld, cd, rd)
            while True:
                if avail and row == depth - 1:
                    # the last row: each column left ends one path
                    left = _popcount(avail)
                    if walked + left <= nxt:
                        walked += left
                    else:
                        while avail:
                            bit = avail & -avail
                            avail ^= bit
                            if walked == nxt:
                                cols[row] = _ctz(bit)
                                kept, nxt = _take(cols, depth, wanted, kept, out)
                            walked += 1
                    avail = 0
                    if walked > cap:
                        return walked, kept
                elif avail:
                    bit = avail & -avail
                    avail ^= bit
                    cols[row] = _ctz(bit)
                    i = (row & 63) << 2
                    stk[i] = avail
                    stk[i + 1] = ld
                    stk[i + 2] = cd
                    stk[i + 3] = rd
                    row += 1
                    ld = (ld | bit) << 1
                    cd = cd | bit
                    rd = (rd | bit) >> 1
                    avail = _row_avail(n, corner, b1, rm, row, ld, cd, rd)
                else:
                    if row == base:
                        break
                    row -= 1
                    i = (row & 63) << 2
                    avail = stk[i]
                    ld = stk[i + 1]
                    cd = stk[i + 2]
                    rd = stk[i + 3]
    return walked, kept


@njit(cache=True, nogil=True)
def _whole(n):
    """(Q(n), U(n), nodes) of the whole symmetric search (U: classes, the fundamental ones)."""
    if n == 1:
        return np.int64(1), np.int64(1), np.int64(1)
    count = np.int64(0)
    classes = np.int64(0)
    nodes = np.int64(0)
    board = np.zeros(_SLOTS, np.int64)
    if n >= 4:
        nodes += 1  # the corner queen
        for b1 in range(2, n - 1):
            bit = np.int64(1) << b1
            c, u, k = _corner_walk(n, b1, 2, (2 | bit) << 1, 1 | bit, bit >> 1)
            count += c
            classes += u
            nodes += k + 1
    for b1 in range(1, (n - 2) // 2 + 1):
        bit = np.int64(1) << b1
        board[0] = bit
        c, u, k = _side_walk(n, b1, 1, bit << 1, bit, bit >> 1, board)
        count += c
        classes += u
        nodes += k + 1
    return count, classes, nodes


@njit(cache=True, nogil=True)
def _count_batch(n, choices, counts, classes, nodes):
    """Fill counts[i] (weighted leaves), classes[i] (leaves that represent a class, so that
    they sum to U(n)) and nodes[i] (queens placed) below each prefix row."""
    k, d = choices.shape
    board = np.zeros(_SLOTS, np.int64)
    for i in range(k):
        counts[i] = 0
        classes[i] = 0
        nodes[i] = 0
        if d == 0:
            counts[i], classes[i], nodes[i] = _whole(n)
            continue
        if n == 1:
            counts[i] = 1 if choices[i, 0] == 0 else 0
            classes[i] = counts[i]
            continue
        ok, corner, b1, ld, cd, rd = _replay(n, choices[i], board)
        if not ok:
            continue
        if corner and d == 1:  # row 0 only: the corner search over every b1
            for b in range(2, n - 1):
                bit = np.int64(1) << b
                c, u, m = _corner_walk(n, b, 2, (ld | bit) << 1, cd | bit, (rd | bit) >> 1)
                counts[i] += c
                classes[i] += u
                nodes[i] += m + 1
        elif d == n:
            counts[i] = 8 if corner else _class_size(board, n, b1)
            classes[i] = 1 if counts[i] != 0 else 0
        elif corner:
            counts[i], classes[i], nodes[i] = _corner_walk(n, b1, d, ld, cd, rd)
        else:
            counts[i], classes[i], nodes[i] = _side_walk(n, b1, d, ld, cd, rd, board)


@njit(cache=True, nogil=True)
def _plain_state(n, cols):
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
        ld = (ld | bit) << 1
        cd |= bit
        rd = (rd | bit) >> 1
    return True, ld, cd, rd


@njit(cache=True, nogil=True)
def _plain_run(n, cols, out):
    """Count (``out`` with no rows) or write the solutions extending ``cols``; -1 if invalid."""
    ok, ld, cd, rd = _plain_state(n, cols)
    if not ok:
        return np.int64(-1)
    d = cols.shape[0]
    if d == n:
        if out.shape[0] > 0:
            for j in range(n):
                out[0, j] = cols[j]
        return np.int64(1)
    if out.shape[0] > 0:
        return np.int64(_plain_fill(n, d, ld, cd, rd, cols, out))
    found, _ = _plain_count(n, ld, cd, rd)
    return np.int64(found)
