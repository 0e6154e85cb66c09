"""N-queens by *constellations* (numba): the queens of the four border lines placed first.

Notation as in :mod:`.kernel` (rows top to bottom, columns left to right, a queen in column c is
the bit ``1 << c``, ``last = n - 1``).  Every solution has exactly one queen on each border
line: row 0 in column ``t``, row ``last`` in column ``b``, column 0 in row ``left``, column
``last`` in row ``right``; the tuple ``(t, b, left, right)`` is its *constellation* (a corner
queen lies on two lines, so ``t == 0`` iff ``left == 0``, and so on).  The 8 symmetries of the
square map solutions to solutions and constellations to constellations, so the search takes
one constellation per orbit, the *canonical* one (least code
``((t * n + b) * n + left) * n + right`` among its 8 images), and counts the solutions with
exactly that border:

* Q: an orbit of constellations has ``8 / |H|`` members (H the constellation's stabilizer), all
  with as many solutions, so each leaf adds ``8 / |H|``.
* U (classes of solutions, OEIS A002562): the solutions in one class that have constellation C
  form one H-orbit, so a leaf adds 1 exactly when its board is the lexicographically least of
  its images under H (a board is the column of each row).  For n >= 2 H is {identity}, the
  half turns or the quarter turns (a reflection would put two border queens on one line); when
  H is the identity every leaf adds 1 and the hot walk needs no board.

All 8 images of a constellation have as many solutions, so each is searched in the image
whose walk is expected shortest (:func:`walk_score`, a linear score of where the border queens
and their diagonals fall in the walk, fitted to the nodes of every image at n = 13..16 by
``benchmarks/nqueens_images.py``, which prints its nodes against the least-code image's, the
best image's and the rule it replaced, bottom queen nearest its corner).  Below it the search
fills the *inner* rows (those without a border queen) top to bottom, with the border queens'
columns taken from the start and their diagonals given per inner row (``fb``); the walk jumps
over the border queens' rows by shifting its diagonal masks by the distance to the next inner
row (``sh``), and scores the last five inner rows at once by table (:mod:`.tail`,
:func:`walk`).

A *unit* is a constellation (in its searched image) and the columns of its first ``depth``
inner rows (``depth = 0``: the constellation alone); units are the pipeline's work items
(:func:`select` finds some by number without listing the rest), and each counts its own leaves,
so over the units of any depth the counts sum to Q(n) and the classes to U(n).  ``nodes``
counts the queens placed one by one (one per search-tree edge below the unit, dead ends
included), which are those above the table tail where the walk has one.

Against :mod:`.tree` (takaken's class of D4 search): fewer nodes and less time
(``benchmarks/nqueens_peers.py``; the figures are on the manual's speed page,
docs/speed.md).  The row search of :mod:`.tree` and :mod:`.kernel` is also the second method
that cross-checks this one (the problem's ``crosscheck``), so the two share no code on purpose:
their walks to a depth (:func:`select`) and their plain leaf counts are alike in shape, and each
stays its own.

This module is long because the constellation search, its planning walk and its symmetry
bookkeeping are numba functions that call one another and compile as one unit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import ctz, popcount
from . import tail
from .bits import SLOTS, pop, push, store
from .numbering import NEVER, keep, last_row, wanted_after

__all__: list[str] = []  # private to solvers.nqueens


@njit(cache=True, nogil=True, inline="always")
def turn(n, g, r, c):
    """Cell (r, c) under symmetry ``g`` (0..7): transposed if g >= 4, then g % 4 quarter turns
    clockwise ((r, c) -> (c, n - 1 - r))."""
    if g >= 4:
        r, c = c, r
    for _ in range(g & 3):
        r, c = c, n - 1 - r
    return r, c


@njit(cache=True, nogil=True)
def border(n, t, b, left, right):
    """The border queens of constellation (t, b, left, right): (rows, cols, count), a corner
    queen once."""
    rows = np.empty(4, np.int64)
    cols = np.empty(4, np.int64)
    k = 0
    for qr, qc in ((0, t), (n - 1, b), (left, 0), (right, n - 1)):
        seen = False
        for j in range(k):
            seen |= (rows[j] == qr) & (cols[j] == qc)
        if not seen:
            rows[k] = qr
            cols[k] = qc
            k += 1
    return rows, cols, k


@njit(cache=True, nogil=True)
def decode(n, code):
    """The constellation (t, b, left, right), int64 [4], of ``code`` ``((t * n + b) * n + left)
    * n + right``."""
    return np.array([code // (n * n * n), code // (n * n) % n, code // n % n, code % n], np.int64)


@njit(cache=True, nogil=True)
def image_code(n, g, rows, cols, k):
    """The code of the constellation of queens (rows, cols)[:k] under symmetry ``g``."""
    t = b = left = right = np.int64(0)
    for j in range(k):
        qr, qc = turn(n, g, rows[j], cols[j])
        if qr == 0:
            t = qc
        if qr == n - 1:
            b = qc
        if qc == 0:
            left = qr
        if qc == n - 1:
            right = qr
    return ((t * n + b) * n + left) * n + right


@njit(cache=True, nogil=True)
def setup(n, con):
    """The inner rows of constellation ``con`` (t, b, left, right, ...): (rows, fb, sh, D, cd).

    ``rows[d]`` is inner row d (d < D), ``fb[d]`` the columns the border queens' diagonals take
    in it (``fb[D]`` every column: no row after the last), ``sh[d]`` the distance to inner row
    d + 1, and ``cd`` the border queens' columns.
    """
    qr, qc, k = border(n, con[0], con[1], con[2], con[3])
    full = (np.int64(1) << n) - 1
    used = np.zeros(n, np.bool_)
    cd = np.int64(0)
    for j in range(k):
        used[qr[j]] = True
        cd |= np.int64(1) << qc[j]
    rows = np.empty(SLOTS, np.int64)
    fb = np.zeros(SLOTS, np.int64)
    sh = np.zeros(SLOTS, np.int64)
    D = 0
    for row in range(n):
        if used[row]:
            continue
        m = np.int64(0)
        for j in range(k):
            e = row - qr[j]  # the queen's diagonals cross this row at qc +- e
            for c in (qc[j] + e, qc[j] - e):
                if 0 <= c < n:
                    m |= np.int64(1) << c
        rows[D] = row
        fb[D] = m
        D += 1
    fb[D] = full
    for d in range(D - 1):
        sh[d] = rows[d + 1] - rows[d]
    return rows, fb, sh, D, cd


POWERS = 5  # the features weigh a row by x ** k, k < POWERS, x its place in the walk

# The weights of image_features in an image's score, fitted (rounded to 4 decimals) by
# ``python benchmarks/nqueens_images.py``, which prints them: least squares of the log of each
# image's walk nodes at n = 13..16; it checks the choice against every image at n = 17.  The
# weight of feature 1 is 0: the cells it counts are as many in every image.
IMAGE_WEIGHTS = np.array(
    [
        0.6953,
        0.0,
        2.0413,
        -20.5441,
        46.8894,
        -26.7274,
        0.4654,
        0.2605,
        2.3514,
        -54.0693,
        54.2751,
    ]
)


@njit(cache=True, nogil=True)
def image_features(n, code):
    """What an image of a constellation (by ``code``) looks like to the walk, as 2 * POWERS + 1
    numbers: [0] the bottom queen's distance to its nearest corner, over n - 1; [1 + k] the
    sum over inner rows d of (the columns the border queens' diagonals take in the row, their
    columns aside) / n * x ** k, x = (d + 1/2) / D its place in the walk; [1 + POWERS + k] the
    sum of x ** k / n over the inner rows the walk leaves by a jump (a border row next).  Only
    +, * and / of floats, in a fixed order: the same bits on every machine."""
    con = decode(n, code)
    rows, fb, sh, D, cd = setup(n, con)
    f = np.zeros(2 * POWERS + 1, np.float64)
    f[0] = min(con[1], n - 1 - con[1]) / max(n - 1, 1)
    full = (np.int64(1) << n) - 1
    for d in range(D):
        x = (d + 0.5) / D
        blocked = popcount(fb[d] & ~cd & full) / n
        jump = 1.0 / n if d < D - 1 and sh[d] > 1 else 0.0
        p = 1.0
        for k in range(POWERS):
            f[1 + k] += blocked * p
            f[1 + POWERS + k] += jump * p
            p *= x
    return f


@njit(cache=True, nogil=True)
def walk_score(n, code):
    """How long the walk of an image of a constellation (by ``code``) is expected to be, in
    log nodes up to a constant of the constellation: image_features weighted by IMAGE_WEIGHTS.
    All 8 images have as many solutions; the one with the least score is searched (ties: the
    least code).  ``benchmarks/nqueens_images.py`` prints its nodes against the old rule's
    (bottom queen nearest its corner, side queens lowest) and the best image's."""
    f = image_features(n, code)
    score = 0.0
    for j in range(f.shape[0]):
        score += f[j] * IMAGE_WEIGHTS[j]
    return score


@njit(cache=True, nogil=True)
def canonical(n):
    """The canonical constellations of side n, by code, each as the image the walk searches
    (the least :func:`walk_score`): int64 [m, 5] rows (t, b, left, right, stab), stab the bit
    set of the symmetries that fix the constellation (bit 0, the identity, always set; its
    images have the same, as every stabilizer is a group of rotations, or all of D4 for
    n = 1)."""
    out = np.empty((n**4, 5), np.int64)
    m = 0
    for t in range(n):
        for b in range(n):
            for left in range(n):
                for right in range(n):
                    rows, cols, k = border(n, t, b, left, right)
                    ok = True
                    for i in range(k):  # border queens pairwise apart (one per line follows)
                        for j in range(i):
                            ok &= (rows[i] != rows[j]) & (cols[i] != cols[j])
                            ok &= rows[i] - cols[i] != rows[j] - cols[j]
                            ok &= rows[i] + cols[i] != rows[j] + cols[j]
                    if not ok:
                        continue
                    code = ((t * n + b) * n + left) * n + right
                    stab = 0
                    for g in range(8):
                        c = image_code(n, g, rows, cols, k)
                        if c < code:
                            ok = False
                            break
                        if c == code:
                            stab |= 1 << g
                    if ok:
                        pick = code
                        best = walk_score(n, code)
                        for g in range(1, 8):
                            c = image_code(n, g, rows, cols, k)
                            score = walk_score(n, c)
                            if score < best or (score == best and c < pick):
                                best = score
                                pick = c
                        out[m, :4] = decode(n, pick)
                        out[m, 4] = stab
                        m += 1
    return out[:m].copy()


@njit(cache=True, nogil=True, inline="always")
def _row_and_tail(ld, cd, rd, avail, s, full, k, clash_free, tabs):
    """The leaves of each queen of ``avail`` in the row above the tail (masks ld, cd, rd; ``s``
    the distance to the tail's first row), each scored by :func:`.tail.score`."""
    leaves = np.int64(0)
    while avail:
        bit = avail & -avail
        avail ^= bit
        ld1 = (ld | bit) << s
        rd1 = (rd | bit) >> s
        leaves += tail.score(
            ld1, cd | bit, rd1, full, k, clash_free, tabs.cells01, tabs.cells23, tabs.cells4
        )
    return leaves


@njit(cache=True, nogil=True, inline="always")
def _two_rows_and_tail(ld, cd, rd, avail, s, fb_next, s_next, full, k, clash_free, tabs):
    """(leaves, nodes) of each queen of ``avail`` two rows above the tail (masks ld, cd, rd,
    ``s`` the distance to the next inner row, whose border diagonals are ``fb_next``), then of
    each queen in that row (:func:`_row_and_tail`); the nodes are the next row's queens."""
    leaves = nodes = np.int64(0)
    while avail:
        bit = avail & -avail
        avail ^= bit
        ld1 = (ld | bit) << s
        cd1 = cd | bit
        rd1 = (rd | bit) >> s
        below = ~(ld1 | cd1 | rd1 | fb_next) & full
        nodes += popcount(below)
        leaves += _row_and_tail(ld1, cd1, rd1, below, s_next, full, k, clash_free, tabs)
    return leaves, nodes


@njit(cache=True, nogil=True)
def walk(n, d, D, ld, cd, rd, fb, sh, rows, tabs):
    """(leaves, nodes) below inner row ``d`` of a constellation (masks of row ``rows[d]``;
    ``tabs`` the tail's :func:`.tail.tables`).

    Invariant at the loop head: inner rows < d hold queens, (ld, cd, rd) describe inner row d
    (the diagonals of the queens placed in the walk, shifted to that row), ``avail`` (nonzero)
    its columns not yet tried; the frames below ``sp`` are the rows above with columns left.
    Each pass places one queen, as in :mod:`.kernel` (push the row's other columns, step down,
    pop when the child has none).  The last five inner rows (from ``e = D - 5``) are scored at
    once by table (:mod:`.tail`), and the two rows above them are placed by two nested loops
    without the stack (:func:`_two_rows_and_tail`): the stack's push, pop and the branch on an
    empty child cost more there than the queens.  ``nodes`` counts the queens placed one by one
    (those of the rows above the tail).  Row indices are taken ``& 63`` (never negative), which
    spares numba's wraparound test on every load.  A walk that starts in those last seven rows
    (a deep unit of a small board) or has fewer than five inner rows is :func:`plain_walk`,
    which places every queen one by one; the tail and the loops are then compiled once, at
    one place.

    The loop is written out again in :func:`plain_walk` (and :func:`sym_walk`), without the
    ending, on purpose: it is the search's hot loop.  One loop for both would test for the
    ending at every node; one body inlined into each with the ending a constant (as
    :func:`.kernel._walk` does) compiled to the same instructions but measured slower here, as
    code placement can make a loop this short.
    """
    pattern, k = tail.setup(rows, D, fb, tabs.pattern)
    g = D - tail.TAIL_ROWS - 2  # two rows above the tail: the walk hands them to the loops
    if pattern < 0 or d >= g:
        return plain_walk(n, d, D, ld, cd, rd, fb, sh)
    clash_free = tabs.clash_free[pattern]
    full = (np.int64(1) << n) - 1
    s_f = sh[(g + 1) & 63]  # from the row above the tail to the tail
    s_g = sh[g & 63]
    fb_f = fb[(g + 1) & 63]
    avail = ~(ld | cd | rd | fb[d & 63]) & full
    nodes = popcount(avail)
    leaves = np.int64(0)
    stk = np.empty(8 * SLOTS, np.int64)
    sp = 0
    if avail == 0:
        return leaves, nodes
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        sp = push(stk, sp, rest, ld, cd, rd, d)
        s = sh[d & 63]
        ld = (ld | bit) << s
        rd = (rd | bit) >> s
        cd |= bit
        d += 1
        avail = ~(ld | cd | rd | fb[d & 63]) & full
        nodes += popcount(avail)
        if d == g:
            found, more = _two_rows_and_tail(
                ld, cd, rd, avail, s_g, fb_f, s_f, full, k, clash_free, tabs
            )
            leaves += found
            nodes += more
            avail = 0
        if avail == 0:
            if sp == 0:
                break
            sp, avail, ld, cd, rd, d = pop(stk, sp)
    return leaves, nodes


@njit(cache=True, nogil=True)
def plain_walk(n, d, D, ld, cd, rd, fb, sh):
    """:func:`walk` without its tail: (leaves, nodes) below inner row ``d``, every queen placed
    one by one."""
    full = (np.int64(1) << n) - 1
    stk = np.empty(8 * SLOTS, np.int64)
    if d == D:
        return np.int64(1), np.int64(0)
    avail = ~(ld | cd | rd | fb[d & 63]) & full
    nodes = popcount(avail)
    leaves = np.int64(0)
    sp = 0
    if avail == 0:
        return leaves, nodes
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        sp = push(stk, sp, rest, ld, cd, rd, d)
        s = sh[d & 63]
        ld = (ld | bit) << s
        rd = (rd | bit) >> s
        cd |= bit
        d += 1
        avail = ~(ld | cd | rd | fb[d & 63]) & full  # 0 once the board is full (fb[D])
        nodes += popcount(avail)
        leaves += cd == full
        if avail == 0:
            if sp == 0:
                break
            sp, avail, ld, cd, rd, d = pop(stk, sp)
    return leaves, nodes


@njit(cache=True, nogil=True)
def least(n, board, stab, img):
    """Whether ``board`` (column per row) is no larger than its image under each symmetry in
    the bit set ``stab`` (lexicographically; ``img`` is scratch)."""
    for g in range(1, 8):
        if not (stab >> g) & 1:
            continue
        for row in range(n):
            rr, cc = turn(n, g, row, board[row])
            img[rr] = cc
        for row in range(n):
            if img[row] != board[row]:
                if img[row] < board[row]:
                    return False
                break
    return True


@njit(cache=True, nogil=True)
def sym_walk(n, d, D, ld, cd, rd, fb, sh, rows, board, stab):
    """(leaves, classes, nodes) below inner row ``d`` of a constellation with stabilizer
    ``stab`` (bit set): :func:`plain_walk` keeping the board (``board`` holds the border queens and
    inner rows < d), a leaf adding a class when it is least among its images (:func:`least`).
    Constellations with symmetry are few, so this walk is off the hot path."""
    full = (np.int64(1) << n) - 1
    img = np.empty(n, np.int64)
    stk = np.empty(8 * SLOTS, np.int64)
    if d == D:
        return np.int64(1), np.int64(least(n, board, stab, img)), np.int64(0)
    avail = ~(ld | cd | rd | fb[d]) & full
    nodes = popcount(avail)
    leaves = np.int64(0)
    classes = np.int64(0)
    sp = 0
    if avail == 0:
        return leaves, classes, nodes
    while True:
        bit = avail & -avail
        rest = avail ^ bit
        board[rows[d]] = ctz(bit)
        sp = push(stk, sp, rest, ld, cd, rd, d)
        s = sh[d]
        ld = (ld | bit) << s
        rd = (rd | bit) >> s
        cd |= bit
        d += 1
        avail = ~(ld | cd | rd | fb[d]) & full
        nodes += popcount(avail)
        if cd == full:
            leaves += 1
            classes += least(n, board, stab, img)
        if avail == 0:
            if sp == 0:
                break
            sp, avail, ld, cd, rd, d = pop(stk, sp)
    return leaves, classes, nodes


@njit(cache=True, nogil=True)
def count_unit(n, unit, stab, tabs):
    """(Q part, U part, nodes) below ``unit``: (t, b, left, right, then the columns of its first
    inner rows, -1 for none), a constellation as :func:`canonical` lists it (in the image it is
    searched in) with stabilizer ``stab`` (bit set); (0, 0, 0) if the columns clash.  ``tabs``:
    :func:`.tail.tables`."""
    rows, fb, sh, D, cd = setup(n, unit)
    full = (np.int64(1) << n) - 1
    z = np.int64(0)
    board = np.zeros(n, np.int64)
    board[0] = unit[0]
    board[n - 1] = unit[1]
    board[unit[2]] = 0
    board[unit[3]] = n - 1
    ld = rd = z
    depth = 0
    while depth < unit.shape[0] - 4 and unit[4 + depth] >= 0:
        depth += 1
    for d in range(depth):  # replay the unit's inner rows
        bit = np.int64(1) << unit[4 + d]
        if not ~(ld | cd | rd | fb[d]) & full & bit:
            return z, z, z
        board[rows[d]] = unit[4 + d]
        ld = (ld | bit) << sh[d]
        rd = (rd | bit) >> sh[d]
        cd |= bit
    weight = 8 // popcount(np.int64(stab))
    if stab == 1:
        leaves, nodes = walk(n, depth, D, ld, cd, rd, fb, sh, rows, tabs)
        return weight * leaves, leaves, nodes
    leaves, classes, nodes = sym_walk(n, depth, D, ld, cd, rd, fb, sh, rows, board, stab)
    return weight * leaves, classes, nodes


@njit(cache=True, nogil=True)
def select(n, cons, depth, wanted, cap, out, stabs):
    """Walk the units of ``depth`` (inner rows fixed beyond the border) in order, keeping some.

    Units are listed by canonical constellation (``cons``, :func:`canonical`'s rows, passed in
    so that a caller of many selections computes them once), then by the columns of the first
    ``depth`` inner rows, depth-first with columns ascending, and numbered 0, 1, ...; unit
    number ``wanted[j]`` (ascending, distinct) is written to ``out[j]`` (int64 [k, 4 + depth]:
    t, b, left, right, columns) and its constellation's stabilizer bit set to ``stabs[j]``.
    A path that dies above ``depth`` is no unit (it has no leaf); a constellation with fewer
    than ``depth`` inner rows (tiny n) is one unit with every column -1 (none fixed).  The last
    fixed row's columns are counted at once while no wanted unit is among them.  Stops once it
    has passed ``cap`` units.  Returns (units walked: all of them, or more than ``cap`` if it
    stopped; units kept).
    """
    full = (np.int64(1) << n) - 1
    walked = 0
    kept = 0
    nxt = wanted_after(wanted, 0)
    cols = np.full(SLOTS, -1, np.int64)
    stk = np.empty(8 * SLOTS, np.int64)
    for i in range(cons.shape[0]):
        con = cons[i]
        first = kept
        rows, fb, sh, D, cd = setup(n, con)
        if depth == 0 or D < depth:
            if walked == nxt:
                kept, nxt = keep(kept, cols, depth, wanted, out)
            walked += 1
        else:
            d = 0
            ld = rd = np.int64(0)
            avail = ~(ld | cd | rd | fb[0]) & full
            sp = 0
            while True:  # depth-first over the first ``depth`` inner rows
                if avail != 0 and d == depth - 1:  # each column left ends one unit
                    left = popcount(avail)
                    if walked + left <= nxt:
                        walked += left
                    else:
                        walked, kept, nxt = last_row(avail, d, walked, kept, nxt, cols, wanted, out)
                    avail = np.int64(0)
                    if walked > cap:
                        break
                elif avail != 0:
                    bit = avail & -avail
                    avail ^= bit
                    cols[d] = ctz(bit)
                    store(stk, sp, avail, ld, cd, rd, d)
                    sp += 1
                    ld = (ld | bit) << sh[d]
                    rd = (rd | bit) >> sh[d]
                    cd |= bit
                    d += 1
                    avail = ~(ld | cd | rd | fb[d]) & full
                else:
                    if sp == 0:
                        break
                    sp, avail, ld, cd, rd, d = pop(stk, sp)
            cols[:depth] = -1
        for j in range(first, kept):  # the units kept from this constellation
            out[j, :4] = con[:4]
            stabs[j] = con[4]
        if walked > cap:
            return walked, kept
    return walked, kept


@njit(cache=True, nogil=True)
def units(n, depth):
    """Every unit of ``depth``: (int64 [m, 4 + depth] rows t, b, left, right, columns; int64 [m]
    stabilizer bit sets), in :func:`select`'s order.  Lists them all: for large boards use
    :func:`select` with the wanted unit numbers."""
    cons = canonical(n)
    none = np.zeros(0, np.int64)
    m, _ = select(n, cons, depth, none, NEVER, np.zeros((0, 4 + depth), np.int64), none)
    out = np.empty((m, 4 + depth), np.int64)
    stabs = np.empty(m, np.int64)
    select(n, cons, depth, np.arange(m), m, out, stabs)
    return out, stabs


@njit(cache=True, nogil=True)
def count_batch(n, unit_rows, stabs, counts, classes, nodes, tabs):
    """Fill counts[i] (Q part), classes[i] (U part) and nodes[i] below each unit row (``tabs``:
    :func:`.tail.tables`)."""
    for i in range(unit_rows.shape[0]):
        counts[i], classes[i], nodes[i] = count_unit(n, unit_rows[i], stabs[i], tabs)


@njit(cache=True, nogil=True)
def whole(n, tabs):
    """(Q(n), U(n), nodes) over every canonical constellation of side n (``tabs``:
    :func:`.tail.tables`)."""
    cons = canonical(n)
    q = u = nodes = np.int64(0)
    for i in range(cons.shape[0]):
        a, b, c = count_unit(n, cons[i, :4], cons[i, 4], tabs)
        q += a
        u += b
        nodes += c
    return q, u, nodes
