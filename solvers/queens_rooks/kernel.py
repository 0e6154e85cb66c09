"""Queens-and-rooks kernels: the numba searches behind :mod:`solvers.queens_rooks`.

Notation.  Rows ``r`` and columns ``c`` run 0..n-1; ``m = n - 1``.  A piece at ``(r, c)`` lies on
the *sum diagonal* ``s = r + c`` and the *difference diagonal* ``t = c - r + m`` (both 0..2m).  A
diagonal mask is a uint64 with bit ``s`` (or ``t``) set per occupied diagonal; a column mask has
bit ``c`` set.  Masks need 2n - 1 <= 63 bits, hence ``n <= MAX_TOTAL = 32``.

The reduction.  Queens and rooks both attack along rows and columns, and n pieces fill n rows, so
every placement puts one piece in each row and column: it is a permutation ``p`` (row r holds its
piece in column ``p[r]``) with a type per piece.  Call a piece of ``p`` *free* when no other piece
of ``p`` shares one of its diagonals, and let ``k(p)`` count them.  Queens must be free and rooks
never attack diagonally, so the placements over ``p`` are the choices of M queens among the k(p)
free pieces, and with ``H[k]`` the number of permutations having exactly k free pieces::

    placements(M, n - M) = sum_p C(k(p), M) = sum_k H[k] * C(k, M)

so one pass that histograms ``k`` answers the whole row M = 0..n.  ``H`` sums to n!, which is the
M = 0 answer (proved, and checked against the search wherever the search runs).

Kernels (both iterative DFS over rows with explicit stacks, counting their nodes):

- *free* (the whole row): enumerates permutations, carrying ``k`` and the masks of occupied
  diagonals and of the diagonals of currently free pieces; a piece landing on a free piece's
  diagonal makes that piece (found through a per-diagonal partner table) non-free.  The update is
  branch-free.  When the last five rows are open (n >= 6, and in almost every search) they are
  counted in bulk by :func:`_tail`: three masks per cell of the 5 x 5 group of remaining rows and
  columns (free pieces it takes away, whether it is free of the placed pieces, the group's cells
  sharing a diagonal with it) make each of the 120 completions a few ORs and two popcounts.
  Otherwise the last two rows (two columns left, two leaves) are finished in place.  Leaves:
  H[k] += 1.  n = 13 takes ~4 s, n = 14 ~48 s on one core here, under load (before the bulk tail:
  ~14 s and ~175 s).
- *typed* (few rooks wanted): places a queen or a rook in each row, seed-style, pruned by the
  queens' diagonals (a rook avoids them), all pieces' diagonals (a queen avoids them) and the
  bounds ``rooks <= rook_max``, ``queens <= queen_max``.  Leaves: histogram of the queens placed.
  Its tree shrinks fast as M grows (M = n is N-queens), so it wins when only large M are wanted.

Symmetry and prefixes are in :mod:`.symmetry`, the count problem in :mod:`solvers.queens_rooks`.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.extending import intrinsic

__all__: list[str] = []  # every kernel is private: solvers.queens_rooks is the public face

_U1 = uint64(1)
_LOW32 = uint64(0xFFFFFFFF)


# --------------------------------------------------------------------------------------------
# kernels
# --------------------------------------------------------------------------------------------

@intrinsic
def _cttz(typingctx, x):
    """Index of the lowest set bit of a uint64 (LLVM ``cttz``; x must be nonzero)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    """Number of leading zero bits of a uint64 (LLVM ``ctlz``; x must be nonzero)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _popc(typingctx, x):
    """Number of set bits of a uint64 (LLVM ``ctpop``)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


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


@njit(cache=True, nogil=True, inline="always")
def _place_free(n, r, b, occ_s, occ_t, iso_s, iso_t, k, partner_s, partner_t, remember):
    """Put a piece in row r, column bit b; return the new (occ_s, occ_t, iso_s, iso_t, k).

    ``iso_s``/``iso_t`` hold the diagonals of the free pieces, ``k`` their number;
    ``partner_t[s]`` is the difference-diagonal bit of the free piece on sum diagonal s (and
    ``partner_s[t]`` the converse), written when that piece was placed on two empty diagonals.
    Rules: (1) a piece on two empty diagonals is free; (2) a piece on a free piece's sum
    diagonal makes it non-free; (3) likewise on its difference diagonal (never the same free
    piece as in (2): two cells share at most one diagonal).  Branch-free: the three cases mix
    unpredictably and mispredicted branches cost more than the masks.
    """
    bs = b << uint64(r)
    bt = (b << uint64(n - 1)) >> uint64(r)
    i = _cttz(bs)
    j = _cttz(bt)
    new = ((occ_s & bs) | (occ_t & bt)) == 0
    hit_s = (iso_s & bs) != 0
    hit_t = (iso_t & bt) != 0
    m_new = uint64(0) - uint64(1 if new else 0)
    m_s = uint64(0) - uint64(1 if hit_s else 0)
    m_t = uint64(0) - uint64(1 if hit_t else 0)
    mate_t = partner_t[i]  # meaningful only when hit_s
    mate_s = partner_s[j]  # meaningful only when hit_t
    iso_s = (iso_s & ~(bs & m_s) & ~(mate_s & m_t)) | (bs & m_new)
    iso_t = (iso_t & ~(mate_t & m_s) & ~(bt & m_t)) | (bt & m_new)
    if remember:  # off when no later piece can ask for this piece's partner
        partner_t[i] = (bt & m_new) | (mate_t & ~m_new)
        partner_s[j] = (bs & m_new) | (mate_s & ~m_new)
    k += (1 if new else 0) - (1 if hit_s else 0) - (1 if hit_t else 0)
    return occ_s | bs, occ_t | bt, iso_s, iso_t, k


@njit(cache=True, nogil=True, inline="always")
def _last_free(n, r, b, occ_s, occ_t, iso_s, iso_t, k):
    """``k`` after a last piece in row r, column bit b (rules 1-3; nothing else is needed)."""
    bs = b << uint64(r)
    bt = (b << uint64(n - 1)) >> uint64(r)
    new = ((occ_s & bs) | (occ_t & bt)) == 0
    return (k + (1 if new else 0) - (1 if (iso_s & bs) != 0 else 0)
            - (1 if (iso_t & bt) != 0 else 0))


TAIL = 5  # rows finished in bulk by :func:`_tail` (its loops are written for five)
_TAIL_NODES = 5 + 20 + 60 + 120 + 120  # the placements of five rows into five columns
_NIBBLES = uint64(0x0F0F0F0F0F0F0F0F)
_SPREAD = 10  # most free pieces a five-row completion can take away: two per piece


@njit(cache=True, nogil=True, inline="always")
def _three(k1, c1, l1, j2, ja, jb, work):
    """Nibbles of the two completions with row 2 in column j2, rows 3-4 in ja < jb and jb, ja.

    The masks of rows 0-2 are doubled (the same in both 32-bit halves), the pair table holds
    (ja, jb) in the low half and (jb, ja) in the high one: both completions in one pass."""
    x2 = 10 + j2
    pair = 5 * ja + jb
    kf = k1 | work[0, x2] | work[6, pair]
    v = (l1 | work[1, x2] | work[7, pair]) & ~(c1 | work[2, x2] | work[8, pair])
    lone_low = _popc(v & _LOW32)
    kill_low = _popc(kf & _LOW32)
    low = uint64(_SPREAD) + lone_low - kill_low
    high = uint64(_SPREAD) + (_popc(v) - lone_low) - (_popc(kf) - kill_low)
    return (_U1 << (low << uint64(2))) + (_U1 << (high << uint64(2)))


@njit(cache=True, nogil=True, inline="always")
def _tail(n, rows, rest, occ_s, occ_t, iso_s, iso_t, k, partner_s, work, on_s, on_t, wide):
    """Add the 120 ways to finish five open ``rows`` in the five columns of ``rest`` to ``wide``.

    The pieces already placed have diagonals ``occ_*``, free ones ``iso_*`` (``k`` of them,
    ``partner_s`` as in :func:`_place_free`).  Per cell x of the 5 x 5 group (row i, column j,
    ``x = 5 i + j``): ``work[0, x]`` (*kill*) marks, by their sum-diagonal bits, the free pieces
    a piece on x would make non-free; ``work[1, x]`` (*lone*) is bit x when both diagonals of x
    are empty, so a piece there is free unless another piece of the group shares a diagonal, and
    ``work[2, x]`` (*clash*) marks the cells of the group that share one.  A completion (one cell
    per row and column) then has ``k + |lone| - |kill| - |clash & lone|`` free pieces, each mask
    OR-ed over its five cells (a free piece hit twice counts once).  Rows 3 and 4 are
    pre-combined per column pair, both orders in the two 32-bit halves of a word (rows 0-2 doubled
    to match), so one pass of :func:`_three` scores two completions.  The change from ``k`` lies
    in ``-10..5``: its counts (at most 6, then at most 120) are summed in 4-bit, then 8-bit fields,
    then added to ``wide[k + _SPREAD + change]``.  ``work`` is scratch (uint64 [9, 25]);
    ``on_s``/``on_t`` are zeroed scratch (cells of the group per diagonal), left zeroed.
    """
    left = rest
    for j in range(5):
        b = left & (~left + _U1)
        work[5, j] = b
        left ^= b
    for i in range(5):
        r = uint64(rows[i])
        for j in range(5):
            x = 5 * i + j
            bs = work[5, j] << r
            bt = (work[5, j] << uint64(n - 1)) >> r
            s = _cttz(bs)
            t = _cttz(bt)
            hit_t = uint64(0) - uint64(1 if (iso_t & bt) != 0 else 0)
            work[0, x] = (iso_s & bs) | (partner_s[t] & hit_t)
            work[1, x] = uint64(1 if ((occ_s & bs) | (occ_t & bt)) == 0 else 0) << uint64(x)
            work[3, x] = s
            work[4, x] = t
            on_s[s] |= _U1 << uint64(x)
            on_t[t] |= _U1 << uint64(x)
    for x in range(25):
        work[2, x] = (on_s[work[3, x]] | on_t[work[4, x]]) & ~(_U1 << uint64(x))
    for x in range(25):
        on_s[work[3, x]] = 0
        on_t[work[4, x]] = 0
    for a in range(5):  # rows 3, 4 in columns a, b (low half) and b, a (high half), a < b
        for b in range(a + 1, 5):
            for w in range(3):
                work[6 + w, 5 * a + b] = (work[w, 15 + a] | work[w, 20 + b]) | (
                    (work[w, 15 + b] | work[w, 20 + a]) << uint64(32))
    for x in range(15):  # rows 0-2: the same masks in both halves
        for w in range(3):
            work[w, x] |= work[w, x] << uint64(32)
    even = uint64(0)  # byte f: completions whose free count is k - _SPREAD + 2 f
    odd = uint64(0)  # byte f: ... k - _SPREAD + 2 f + 1
    for j0 in range(5):
        k0, c0, l0 = work[0, j0], work[2, j0], work[1, j0]
        a0 = uint64(31) ^ (_U1 << uint64(j0))  # column indices left for rows 1..4
        for j1 in range(5):
            if j1 == j0:
                continue
            x1 = 5 + j1
            k1, c1, l1 = k0 | work[0, x1], c0 | work[2, x1], l0 | work[1, x1]
            a1 = a0 ^ (_U1 << uint64(j1))  # three columns left: p < q < r
            p = np.int64(_cttz(a1))
            q = np.int64(_cttz(a1 & (a1 - _U1)))
            r = np.int64(63 - _ctlz(a1))
            nibbles = _three(k1, c1, l1, p, q, r, work) + _three(k1, c1, l1, q, p, r, work) \
                + _three(k1, c1, l1, r, p, q, work)  # 4-bit counts of these six completions
            even += nibbles & _NIBBLES
            odd += (nibbles >> uint64(4)) & _NIBBLES
    for f in range(8):  # wide[k + d] counts the completions with k - _SPREAD + d free pieces
        shift = uint64(8 * f)
        wide[k + 2 * f] += (even >> shift) & uint64(255)
        wide[k + 2 * f + 1] += (odd >> shift) & uint64(255)


@njit(cache=True, nogil=True)
def _free_search(n: int, fixed: np.ndarray, hist: np.ndarray) -> int:
    """Add to ``hist[k]`` the permutations extending ``fixed`` with k free pieces; return nodes.

    Invariant at level t (t pieces placed, rows ``order[:t]``): ``used[t]`` their columns,
    ``occ_*[t]`` their diagonals, ``iso_*[t]``/``kk[t]`` the diagonals and number of those free
    among them; ``cand[t]`` the columns row ``order[t]`` has still to try.  The last five rows,
    when open, are counted in bulk by :func:`_tail` (nodes counted as the full tree's); else the
    last two (when open) are finished in place: two columns are left, so two leaves.
    """
    order = _row_order(fixed)
    full = (_U1 << uint64(n)) - _U1
    used = np.zeros(n, np.uint64)
    occ_s = np.zeros(n, np.uint64)
    occ_t = np.zeros(n, np.uint64)
    iso_s = np.zeros(n, np.uint64)
    iso_t = np.zeros(n, np.uint64)
    kk = np.zeros(n, np.int64)
    cand = np.zeros(n, np.uint64)
    partner_s = np.zeros(2 * n, np.uint64)
    partner_t = np.zeros(2 * n, np.uint64)
    on_s = np.zeros(2 * n, np.uint64)
    on_t = np.zeros(2 * n, np.uint64)
    work = np.zeros((9, 25), np.uint64)
    wide = np.zeros(n + 1 + 16, np.uint64)  # the tail's counts, free pieces + _SPREAD
    # the last five rows open, and every mask of the tail within 32 bits (2n - 1 <= 32)
    bulk = TAIL < n <= 16 and fixed[order[n - TAIL]] < 0
    rows = order[n - TAIL:].copy() if bulk else order[:0].copy()
    tail = n >= 3 and fixed[order[n - 2]] < 0 and fixed[order[n - 1]] < 0
    nodes = 0
    cand[0] = _row_candidates(fixed, order[0], full, uint64(0))
    t = 0
    while t >= 0:
        options = cand[t]
        if options == 0:
            t -= 1
            continue
        b = options & (~options + _U1)
        cand[t] = options ^ b
        nodes += 1
        os, ot, i_s, i_t, k = _place_free(n, order[t], b, occ_s[t], occ_t[t], iso_s[t],
                                           iso_t[t], kk[t], partner_s, partner_t, True)
        now_used = used[t] | b
        if bulk and t == n - TAIL - 1:
            _tail(n, rows, full & ~now_used, os, ot, i_s, i_t, k, partner_s, work, on_s, on_t,
                  wide)
            nodes += _TAIL_NODES
            continue
        if t == n - 1:
            hist[k] += _U1
            continue
        if tail and t == n - 3:  # two open rows, two columns u, v: leaves (u, v) and (v, u)
            rest = full & ~now_used
            u = rest & (~rest + _U1)
            v = rest ^ u
            r1 = order[n - 2]
            r2 = order[n - 1]
            s1, t1, is1, it1, k1 = _place_free(n, r1, u, os, ot, i_s, i_t, k,
                                               partner_s, partner_t, False)
            k1 = _last_free(n, r2, v, s1, t1, is1, it1, k1)
            s2, t2, is2, it2, k2 = _place_free(n, r1, v, os, ot, i_s, i_t, k,
                                               partner_s, partner_t, False)
            k2 = _last_free(n, r2, u, s2, t2, is2, it2, k2)
            hist[k1] += _U1
            hist[k2] += _U1
            nodes += 4
            continue
        if t == n - 2:  # the last row has one column left (or none): evaluate it here
            last = _row_candidates(fixed, order[n - 1], full, now_used)
            if last != 0:
                nodes += 1
                k = _last_free(n, order[n - 1], last, os, ot, i_s, i_t, k)
                hist[k] += _U1
            continue
        t += 1
        used[t] = now_used
        occ_s[t] = os
        occ_t[t] = ot
        iso_s[t] = i_s
        iso_t[t] = i_t
        kk[t] = k
        cand[t] = _row_candidates(fixed, order[t], full, now_used)
    for j in range(n + 1):
        hist[j] += wide[j + _SPREAD]
    for j in range(_SPREAD):  # below zero free pieces: nothing, or the tail is wrong
        if wide[j] != 0:
            raise AssertionError("a completion with fewer than no free pieces")
    for j in range(n + 1 + _SPREAD, n + 1 + 16):
        if wide[j] != 0:
            raise AssertionError("a completion with more than n free pieces")
    return nodes


@njit(cache=True, nogil=True)
def _typed_options(n, r, free, occ_s, occ_t, q_s, q_t, rook_ok, queen_ok):
    """Options of row r: rook columns in bits 0-31, queen columns in bits 32-63."""
    full = (_U1 << uint64(n)) - _U1
    sh_s = uint64(r)
    sh_t = uint64(n - 1 - r)
    rooks = uint64(0)
    queens = uint64(0)
    if rook_ok:  # a rook avoids the queens' diagonals
        rooks = free & ~(((q_s >> sh_s) | (q_t >> sh_t)) & full)
    if queen_ok:  # a queen avoids every piece's diagonals
        queens = free & ~(((occ_s >> sh_s) | (occ_t >> sh_t)) & full)
    return rooks | (queens << uint64(32))


@njit(cache=True, nogil=True)
def _typed_search(n: int, fixed: np.ndarray, rook_max: int, queen_max: int,
                  hist: np.ndarray) -> int:
    """Add to ``hist[q]`` the legal typed placements extending ``fixed`` with q queens.

    Invariant at level t: ``used[t]``, ``occ_*[t]``, ``q_*[t]`` the columns, diagonals and queen
    diagonals of the pieces in rows ``order[:t]``, ``nq[t]`` their queens; ``opts[t]`` the
    (column, type) options row ``order[t]`` has still to try (see :func:`_typed_options`).
    """
    order = _row_order(fixed)
    full = (_U1 << uint64(n)) - _U1
    used = np.zeros(n, np.uint64)
    occ_s = np.zeros(n, np.uint64)
    occ_t = np.zeros(n, np.uint64)
    q_s = np.zeros(n, np.uint64)
    q_t = np.zeros(n, np.uint64)
    nq = np.zeros(n, np.int64)
    opts = np.zeros(n, np.uint64)
    nodes = 0
    opts[0] = _typed_options(n, order[0], _row_candidates(fixed, order[0], full, uint64(0)),
                             uint64(0), uint64(0), uint64(0), uint64(0), rook_max > 0,
                             queen_max > 0)
    t = 0
    while t >= 0:
        options = opts[t]
        if options == 0:
            t -= 1
            continue
        b = options & (~options + _U1)
        opts[t] = options ^ b
        nodes += 1
        queen = b > _LOW32
        if queen:
            b >>= uint64(32)
        r = order[t]
        bs = b << uint64(r)
        bt = (b << uint64(n - 1)) >> uint64(r)
        q = nq[t] + (1 if queen else 0)
        if t == n - 1:
            hist[q] += _U1
            continue
        t += 1
        used[t] = used[t - 1] | b
        occ_s[t] = occ_s[t - 1] | bs
        occ_t[t] = occ_t[t - 1] | bt
        q_s[t] = q_s[t - 1] | (bs if queen else uint64(0))
        q_t[t] = q_t[t - 1] | (bt if queen else uint64(0))
        nq[t] = q
        free = _row_candidates(fixed, order[t], full, used[t])
        opts[t] = _typed_options(n, order[t], free, occ_s[t], occ_t[t], q_s[t], q_t[t],
                                 t - q < rook_max, q < queen_max)
    return nodes


@njit(cache=True, nogil=True)
def _histograms(n: int, fixed: np.ndarray, typed: bool, rook_max: int, queen_max: int):
    """Run one kernel on every row of ``fixed`` (int16 [items, n]); return (hist, nodes)."""
    items = fixed.shape[0]
    hist = np.zeros((items, n + 1), np.uint64)
    nodes = np.zeros(items, np.int64)
    for i in range(items):
        if typed:
            nodes[i] = _typed_search(n, fixed[i], rook_max, queen_max, hist[i])
        else:
            nodes[i] = _free_search(n, fixed[i], hist[i])
    return hist, nodes
