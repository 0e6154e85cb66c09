"""The whole-row kernel of queens and rooks: permutations histogrammed by free pieces.

Notation and the reduction are in :mod:`.kernel`; :func:`_free_search` is the search, with its
branch-free piece update (:func:`_place_free`) and the bulk count of the last five rows
(:func:`_tail`) where the seven-row tail (:mod:`.tail_seven`, several times faster) does not
apply.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from ..bitops import clz, ctz, popcount
from . import tail_seven
from .bits import _LOW32, _U1, _row_candidates, _row_order

__all__: list[str] = []  # private: reached through solvers.queens_rooks


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
    i = ctz(bs)
    j = ctz(bt)
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
    return k + (1 if new else 0) - (1 if (iso_s & bs) != 0 else 0) - (1 if (iso_t & bt) != 0 else 0)


TAIL = 5  # rows finished in bulk by :func:`_tail` (its loops are written for five)
_TAIL_NODES = 5 + 20 + 60 + 120 + 120  # the placements of five rows into five columns
_NIBBLES = uint64(0x0F0F0F0F0F0F0F0F)
_SPREAD = 10  # most free pieces a five-row completion can take away: two per piece
_TOP = uint64(1) << uint64(63)  # keeps ctz of a partner defined where it is not read
_SHIFT = uint64(63)


@njit(cache=True, nogil=True, inline="always")
def _three(k1, c1, l1, j2, ja, jb, work):
    """Nibbles of the two completions with row 2 in column j2, rows 3-4 in ja < jb and jb, ja.

    The masks of rows 0-2 are doubled (the same in both 32-bit halves), the pair table holds
    (ja, jb) in the low half and (jb, ja) in the high one: both completions in one pass."""
    x2 = 10 + j2
    pair = 5 * ja + jb
    kf = k1 | work[0, x2] | work[6, pair]
    v = (l1 | work[1, x2] | work[7, pair]) & ~(c1 | work[2, x2] | work[8, pair])
    lone_low = popcount(v & _LOW32)
    kill_low = popcount(kf & _LOW32)
    low = uint64(_SPREAD) + lone_low - kill_low
    high = uint64(_SPREAD) + (popcount(v) - lone_low) - (popcount(kf) - kill_low)
    return (_U1 << (low << uint64(2))) + (_U1 << (high << uint64(2)))


@njit(cache=True, nogil=True, inline="always")
def _tail(
    n, rows, rest, occ_s, occ_t, iso_s, iso_t, k, partner_s, partner_t, work, on_s, on_t, wide
):
    """Add the 120 ways to finish five open ``rows`` in the five columns of ``rest`` to ``wide``.

    The pieces already placed have diagonals ``occ_*``, free ones ``iso_*`` (``k`` of them,
    ``partner_*`` as in :func:`_place_free`).  Per cell x of the 5 x 5 group (row i, column j,
    ``x = 5 i + j``): ``work[0, x]`` (*kill*) marks, by their rows (a free piece's row is half
    of ``s - t + n - 1`` for its diagonals s and t, so every mask fits in 32 bits up to n = 32),
    the free pieces a piece on x would make non-free; ``work[1, x]`` (*lone*) is bit x when
    both diagonals of x are empty, so a piece there is free unless another piece of the group
    shares a diagonal, and ``work[2, x]`` (*clash*) marks the cells of the group that share
    one.  A completion (one cell per row and column) then has ``k + |lone| - |kill| -
    |clash & lone|`` free pieces, each mask OR-ed over its five cells (a free piece hit twice
    counts once).  Rows 3 and 4 are pre-combined per column pair, both orders in the two
    32-bit halves of a word (rows 0-2 doubled to match), so one pass of :func:`_three` scores
    two completions.  The change from ``k`` lies in ``-10..5``: its counts (at most 6, then at
    most 120) are summed in 4-bit, then 8-bit fields, then added to
    ``wide[k + _SPREAD + change]``.  ``work`` is scratch (uint64 [9, 25]); ``on_s``/``on_t``
    are zeroed scratch (cells of the group per diagonal), left zeroed.
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
            s = ctz(bs)
            t = ctz(bt)
            # the free pieces a piece here takes away, by their rows: the free piece on sum
            # diagonal s (or difference diagonal t) has the row (s - t' + n - 1) / 2, t' its
            # other diagonal (its partner); branch-free, every shift kept below 64
            hit_s = uint64(0) - uint64(1 if (iso_s & bs) != 0 else 0)
            hit_t = uint64(0) - uint64(1 if (iso_t & bt) != 0 else 0)
            row_s = (s + uint64(n - 1) - ctz(partner_t[s] | _TOP)) >> uint64(1)
            row_t = (ctz(partner_s[t] | _TOP) + uint64(n - 1) - t) >> uint64(1)
            work[0, x] = ((_U1 << (row_s & _SHIFT)) & hit_s) | ((_U1 << (row_t & _SHIFT)) & hit_t)
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
                    (work[w, 15 + b] | work[w, 20 + a]) << uint64(32)
                )
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
            a1 = a0 ^ (_U1 << uint64(j1))  # three column indices left: ca < cb < cc
            ca = np.int64(ctz(a1))
            cb = np.int64(ctz(a1 & (a1 - _U1)))
            cc = np.int64(63) - np.int64(clz(a1))
            nibbles = (
                _three(k1, c1, l1, ca, cb, cc, work)
                + _three(k1, c1, l1, cb, ca, cc, work)
                + _three(k1, c1, l1, cc, ca, cb, work)
            )  # 4-bit counts of these six completions
            even += nibbles & _NIBBLES
            odd += (nibbles >> uint64(4)) & _NIBBLES
    for f in range(8):  # wide[k + d] counts the completions with k - _SPREAD + d free pieces
        shift = uint64(8 * f)
        wide[k + 2 * f] += (even >> shift) & uint64(255)
        wide[k + 2 * f + 1] += (odd >> shift) & uint64(255)


@njit(cache=True, nogil=True)
def _free_search(n: int, fixed: np.ndarray, hist: np.ndarray, widest: int = 7) -> int:
    """Add to ``hist[k]`` the permutations extending ``fixed`` with k free pieces; return nodes.

    Invariant at level t (t pieces placed, rows ``order[:t]``): ``used[t]`` their columns,
    ``occ_*[t]`` their diagonals, ``iso_*[t]``/``kk[t]`` the diagonals and number of those free
    among them; ``cand[t]`` the columns row ``order[t]`` has still to try.  The last seven rows,
    when open and n <= ``tail_seven.MAX_N``, are counted in bulk by :mod:`.tail_seven`; else
    the last five, when open, by :func:`_tail`; else the last two (when open) are finished in
    place: two columns, two leaves.  A bulk tail counts its nodes as the full tree's.
    ``widest`` caps the bulk tail (7, 5, or 0 for none): the baselines of the benchmark and
    the tests.
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
    # the last seven rows open and n small enough for the kill field: the seven-row tail
    seven = tail_seven.applies(n, fixed, widest)
    position = np.zeros(64, np.int64)  # a placed row's place in the order (kill bits)
    for p in range(n):
        position[order[p]] = p
    numbers = tail_seven.set_numbers()
    work7 = tail_seven.scratch(n)
    tally = np.zeros((tail_seven.LANES, n + 1, tail_seven.TALLY), np.uint64)
    # else the last five rows open (every mask of the tail fits in 32 bits: n <= 32)
    bulk = widest >= TAIL and not seven and TAIL < n and fixed[order[n - TAIL]] < 0
    rows = order[n - TAIL :].copy() if bulk else order[:0].copy()
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
        os, ot, i_s, i_t, k = _place_free(
            n,
            order[t],
            b,
            occ_s[t],
            occ_t[t],
            iso_s[t],
            iso_t[t],
            kk[t],
            partner_s,
            partner_t,
            True,
        )
        now_used = used[t] | b
        if seven and t == n - tail_seven.ROWS - 1:
            rest = full & ~now_used
            tail_seven._tail_seven(
                n, order[t + 1 :], rest, os, ot, i_s, i_t, k, partner_s, partner_t, position,
                numbers, work7, tally,
            )  # fmt: skip
            nodes += tail_seven.NODES
            continue
        if bulk and t == n - TAIL - 1:
            rest = full & ~now_used
            _tail(n, rows, rest, os, ot, i_s, i_t, k, partner_s, partner_t, work, on_s, on_t, wide)
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
            s1, t1, is1, it1, k1 = _place_free(
                n, r1, u, os, ot, i_s, i_t, k, partner_s, partner_t, False
            )
            k1 = _last_free(n, r2, v, s1, t1, is1, it1, k1)
            s2, t2, is2, it2, k2 = _place_free(
                n, r1, v, os, ot, i_s, i_t, k, partner_s, partner_t, False
            )
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
    for lane in range(tail_seven.LANES):  # tally[., k, c]: k - _KILL_BITS + c free pieces
        for k in range(n + 1):
            for c in range(tail_seven.TALLY):
                j = k + c - tail_seven._KILL_BITS
                if 0 <= j <= n:
                    hist[j] += tally[lane, k, c]
                elif tally[lane, k, c] != 0:
                    raise AssertionError("a seven-row completion with a free count out of range")
    for j in range(_SPREAD):  # below zero free pieces: nothing, or the tail is wrong
        if wide[j] != 0:
            raise AssertionError("a completion with fewer than no free pieces")
    for j in range(n + 1 + _SPREAD, n + 1 + 16):
        if wide[j] != 0:
            raise AssertionError("a completion with more than n free pieces")
    return nodes
