"""M queens and N rooks (seed b510): placements on an n x n board, n = M + N, no piece attacked.

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
  branch-free, and the last two rows (two columns left, two leaves) are finished in place.
  Leaves: H[k] += 1.  About 170 M placements/s per core here; n = 13 takes ~14 s, n = 14 ~3 min.
- *typed* (few rooks wanted): places a queen or a rook in each row, seed-style, pruned by the
  queens' diagonals (a rook avoids them), all pieces' diagonals (a queen avoids them) and the
  bounds ``rooks <= rook_max``, ``queens <= queen_max``.  Leaves: histogram of the queens placed.
  Its tree shrinks fast as M grows (M = n is N-queens), so it wins when only large M are wanted.

Symmetry.  The eight symmetries of the square (D4) map permutations to permutations and keep
diagonals diagonals, so ``k`` and the typed counts are invariant.  A permutation's *border* is
``(top, bottom, left, right)``: the column of row 0's piece, the column of row m's piece, the row of
column 0's piece, the row of column m's piece; D4 acts on borders.  The search visits only
permutations whose border is the least of its D4 images (lexicographic); each stands for its
border's orbit, ``8 / |stabiliser|`` borders (the *orbit weight*), which counts every permutation
exactly once (a permutation with border b maps onto the least border by exactly |stab(b)| of the
eight symmetries, and the fibres over equal borders are equinumerous).

Prefixes (the split for the pipeline).  A prefix of depth d is the first d *decisions*:
decisions 0-3 are ``top, bottom, left, right`` of a least border; decision 4 + i is the column of
the i-th *open* row (rows other than 0, m, left, right, ascending); -1 pads a prefix already
complete.  Depth 0 is the one empty prefix.  Weights: 1 below depth 4 (counts then include the
orbit weights of every border below the prefix), the border's orbit weight from depth 4 on.  Counts
per prefix are uint64 when every value fits, else an object array of Python ints.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.extending import intrinsic

from .interface import CountResult, ParamError, Prefixes, check_keys, int_values

__all__ = [
    "KIND", "VERSION", "MAX_TOTAL", "points", "outputs", "max_depth", "prefixes", "count",
    "placements", "row", "free_histogram", "border_table", "strategy", "cost", "warm_up",
]

KIND = "count"
VERSION = "1"
MAX_TOTAL = 32

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


@njit(cache=True, nogil=True)
def _free_search(n: int, fixed: np.ndarray, hist: np.ndarray) -> int:
    """Add to ``hist[k]`` the permutations extending ``fixed`` with k free pieces; return nodes.

    Invariant at level t (t pieces placed, rows ``order[:t]``): ``used[t]`` their columns,
    ``occ_*[t]`` their diagonals, ``iso_*[t]``/``kk[t]`` the diagonals and number of those free
    among them; ``cand[t]`` the columns row ``order[t]`` has still to try.  The last two rows
    (when open) are finished in place: two columns are left, so two leaves.
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


# --------------------------------------------------------------------------------------------
# symmetry: least borders and their orbit weights
# --------------------------------------------------------------------------------------------

def _d4_images(n: int, r: np.ndarray, c: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The eight images of cells (r, c) under the symmetries of the n x n square."""
    m = n - 1
    return [(r, c), (r, m - c), (m - r, c), (m - r, m - c),
            (c, r), (c, m - r), (m - c, r), (m - c, m - r)]


@lru_cache(maxsize=8)
def border_table(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Least borders of n (int16 [k, 4]: top, bottom, left, right; sorted) and orbit weights."""
    if not 1 <= n <= MAX_TOTAL:
        raise ParamError(f"n = {n} is out of range: expected 1 <= n <= {MAX_TOTAL}")
    m = n - 1
    grid = np.indices((n, n, n, n)).reshape(4, -1).astype(np.int64)
    top, bottom, left, right = grid
    if n == 1:
        ok = np.ones(top.shape, bool)
    else:  # the four border pieces form a partial permutation (corner pieces shared)
        ok = ((top != bottom) & (left != right) & ((top == 0) == (left == 0))
              & ((top == m) == (right == 0)) & ((bottom == 0) == (left == m))
              & ((bottom == m) == (right == m)))
    top, bottom, left, right = top[ok], bottom[ok], left[ok], right[ok]
    rows = [np.zeros_like(top), np.full_like(top, m), left, right]
    cols = [top, bottom, np.zeros_like(top), np.full_like(top, m)]
    key = ((top * n + bottom) * n + left) * n + right
    least = key.copy()
    stab = np.zeros_like(key)
    for g in range(8):
        image = [_d4_images(n, rows[i], cols[i])[g] for i in range(4)]
        border = []
        for on_row, at in ((True, 0), (True, m), (False, 0), (False, m)):
            value = np.full_like(top, -1)
            for r, c in image:
                value = np.where((r if on_row else c) == at, c if on_row else r, value)
            border.append(value)
        g_key = ((border[0] * n + border[1]) * n + border[2]) * n + border[3]
        least = np.minimum(least, g_key)
        stab += g_key == key
    keep = least == key
    table = np.stack([top, bottom, left, right], axis=1)[keep].astype(np.int16)
    weight = (8 // stab[keep]).astype(np.int64)
    table.flags.writeable = False
    weight.flags.writeable = False
    return table, weight


def _border_keys(n: int, table: np.ndarray, width: int) -> np.ndarray:
    """Integer keys of the first ``width`` border entries (sorted when ``table`` is)."""
    key = np.zeros(table.shape[0], np.int64)
    for j in range(width):
        key = key * n + table[:, j]
    return key


def _fixed_from_decisions(n: int, choices: np.ndarray) -> np.ndarray:
    """Forced column per row (int16 [k, n], -1 open) of prefixes of depth >= 4."""
    k, depth = choices.shape
    m = n - 1
    fixed = np.full((k, n), -1, np.int16)
    idx = np.arange(k)
    fixed[idx, 0] = choices[:, 0]
    fixed[idx, m] = choices[:, 1]
    fixed[idx, choices[:, 2]] = 0
    fixed[idx, choices[:, 3]] = m
    for j in range(4, depth):
        col = choices[:, j]
        live = col >= 0
        row = np.argmax(fixed == -1, axis=1)
        fixed[idx[live], row[live]] = col[live]
    return fixed


# --------------------------------------------------------------------------------------------
# parameters
# --------------------------------------------------------------------------------------------

def _check_int(value: object, what: str) -> int:
    """``value`` as an int, or :class:`ParamError` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParamError(f"{what} must be a non-negative integer, not {value!r}")
    if value < 0:
        raise ParamError(f"{what} must be a non-negative integer, not {value}")
    return int(value)


def _check_total(n: int) -> int:
    """Raise :class:`ParamError` unless 1 <= n <= MAX_TOTAL."""
    if not 1 <= n <= MAX_TOTAL:
        raise ParamError(
            f"M + N = {n} is out of range: expected 1 <= M + N <= {MAX_TOTAL}"
            + (" (the empty board is not part of a sweep)" if n == 0 else ""))
    return n


def _point(params: Mapping) -> tuple[int, tuple[int, ...]]:
    """Validate a point ``{"n": n, "queens": [M, ...]}``; return (n, queens)."""
    check_keys(params, {"n", "queens"})
    if "n" not in params:
        raise ParamError("missing key 'n'")
    n = _check_total(_check_int(params["n"], "n"))
    raw = params.get("queens", list(range(n + 1)))
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence) or not raw:
        raise ParamError(f"'queens' must be a non-empty list of integers, not {raw!r}")
    queens = tuple(_check_int(q, "a queens value") for q in raw)
    for q in queens:
        if q > n:
            raise ParamError(f"queens = {q} is out of range for n = {n}: expected 0 <= M <= n")
    if len(set(queens)) != len(queens):
        raise ParamError(f"'queens' lists a value twice: {list(queens)}")
    return n, queens


def points(spec: Mapping) -> list[dict]:
    """Expand ``{"total": ...}`` or ``{"pairs": [[M, N], ...]}`` into one point per n = M + N."""
    check_keys(spec, {"total", "pairs"})
    if ("total" in spec) == ("pairs" in spec):
        raise ParamError("expected exactly one of 'total' (M + N values) or 'pairs' ([M, N] list)")
    if "total" in spec:
        return [{"n": n, "queens": list(range(n + 1))}
                for n in int_values(spec, "total", 1, MAX_TOTAL)]
    raw = spec["pairs"]
    if not isinstance(raw, list) or not raw:
        raise ParamError(f"'pairs' must be a non-empty list of [M, N] pairs, not {raw!r}")
    wanted: dict[int, set[int]] = {}
    for pair in raw:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ParamError(f"each entry of 'pairs' must be a pair [M, N], not {pair!r}")
        m = _check_int(pair[0], "M (queens)")
        r = _check_int(pair[1], "N (rooks)")
        wanted.setdefault(_check_total(m + r), set()).add(m)
    return [{"n": n, "queens": sorted(wanted[n])} for n in sorted(wanted)]


def outputs(params: Mapping) -> list[dict]:
    """Result rows of a point: ``{"n", "queens", "rooks"}`` per wanted M, in the point's order."""
    n, queens = _point(params)
    return [{"n": n, "queens": q, "rooks": n - q} for q in queens]


def _typed_rook_limit(n: int) -> int:
    """Most rooks for which the typed search beats the whole-row pass.

    Measured (CPU time, both with the D4 split): typed / free is about
    0.4 * 3.1**(j - 3) * 0.57**(n - 13) for j = n - M rooks, below 1 iff j <= (n - 6) / 2.
    """
    return (n - 6) // 2


def strategy(params: Mapping) -> str:
    """Which method answers a point: ``formula`` (M = 0 only), ``typed`` or ``free``."""
    n, queens = _point(params)
    positive = [q for q in queens if q > 0]
    if not positive:
        return "formula"
    return "typed" if n - min(positive) <= _typed_rook_limit(n) else "free"


_PERMS_PER_SECOND = 6.0e7  # least-border permutations per core-second, free kernel (n = 12..14)
_TYPED_RATIO_13 = (0.002, 0.013, 0.076, 0.40, 1.24, 3.74)  # typed / free at n = 13, j = 0..5


def cost(params: Mapping) -> float:
    """Estimated CPU seconds of a point on one core here (for the planner; 0 for the formula)."""
    n, queens = _point(params)
    how = strategy(params)
    if how == "formula":
        return 0.0
    seconds = math.factorial(n) / 8 / _PERMS_PER_SECOND
    if how == "typed":
        j = n - min(q for q in queens if q > 0)
        ratio = _TYPED_RATIO_13[j] if j < 6 else _TYPED_RATIO_13[5] * 3.1 ** (j - 5)
        seconds *= min(1.0, ratio * 0.5 ** (n - 13))
    return seconds


def warm_up() -> None:
    """Run both kernels on a small board: compiles them, or loads them from numba's cache."""
    row(6)
    placements(6, 0)


def max_depth(params: Mapping) -> int:
    """Deepest split: 0 for the formula, else 4 border decisions plus up to n - 2 open rows."""
    n, _ = _point(params)
    return 0 if strategy(params) == "formula" else 4 + max(n - 2, 0)


def prefixes(params: Mapping, depth: int) -> Prefixes:
    """The first ``depth`` decisions of every least-border permutation, with their weights."""
    n, _ = _point(params)
    deepest = max_depth(params)
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= deepest:
        raise ParamError(f"depth = {depth!r} is out of range: expected 0 <= depth <= {deepest}")
    if depth == 0:
        return Prefixes(np.zeros((1, 0), np.int16), np.ones(1, np.int64))
    table, weight = border_table(n)
    if depth < 4:
        choices = np.unique(table[:, :depth], axis=0).astype(np.int16)
        return Prefixes(choices, np.ones(choices.shape[0], np.int64))
    choices, weight = _extend(n, np.array(table, np.int16), weight, depth - 4)
    return Prefixes(choices, weight)


def _extend(n: int, choices: np.ndarray, weight: np.ndarray, levels: int):
    """Append ``levels`` open-row decisions to full-border prefixes (-1 once a prefix is full)."""
    weight = np.asarray(weight, np.int64).copy()
    for _ in range(levels):
        fixed = _fixed_from_decisions(n, choices)
        complete = ~(fixed == -1).any(axis=1)
        taken = np.zeros(fixed.shape, bool)
        who, row = np.nonzero(fixed >= 0)
        taken[who, fixed[who, row]] = True
        parent, col = np.nonzero(~taken & ~complete[:, None])
        kept = np.nonzero(complete)[0]
        parent = np.concatenate([kept, parent])
        col = np.concatenate([np.full(len(kept), -1, np.int64), col])
        order = np.lexsort((col, parent))
        parent, col = parent[order], col[order]
        choices = np.concatenate([choices[parent], col[:, None].astype(np.int16)], axis=1)
        weight = weight[parent]
    return choices, weight


def _items(n: int, choices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Searches below prefixes: forced columns (int16 [items, n]), owning prefix, orbit factor.

    Below depth 4 a prefix stands for every least border it starts, each searched on its own with
    its orbit weight as factor; from depth 4 on a prefix is one search with factor 1.
    """
    k, depth = choices.shape
    table, weight = border_table(n)
    if depth >= 4:
        keys = _border_keys(n, table, 4)
        want = _border_keys(n, choices.astype(np.int64), 4)
        spot = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        bad = np.nonzero(keys[spot] != want)[0]
        if len(bad):
            raise ParamError(f"prefix {choices[bad[0]].tolist()} does not start with a least "
                             f"border of n = {n}")
        rows = choices[:, 4:].astype(np.int64)
        padded = np.maximum.accumulate(rows < 0, axis=1)
        bad = np.nonzero(((rows < -1) | (rows >= n) | (padded & (rows >= 0))).any(axis=1))[0]
        fixed = _fixed_from_decisions(n, choices) if not len(bad) else None
        if fixed is not None:
            ordered = np.sort(fixed, axis=1)
            bad = np.nonzero(((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0))
                             .any(axis=1))[0]
        if len(bad):
            raise ParamError(f"prefix {choices[bad[0]].tolist()} is not a partial placement of "
                             f"n = {n} (a column twice, out of range, or a column after -1)")
        return fixed, np.arange(k), np.ones(k, np.int64)
    keys = _border_keys(n, table, depth)
    want = _border_keys(n, choices.astype(np.int64), depth)
    lo = np.searchsorted(keys, want, "left")
    hi = np.searchsorted(keys, want, "right")
    size = hi - lo
    owner = np.repeat(np.arange(k), size)
    index = np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size) + np.repeat(lo, size)
    return _fixed_from_decisions(n, table[index]), owner, weight[index]


def count(params: Mapping, prefixes: Prefixes) -> CountResult:
    """Placements below each prefix, one column per output row (see the module docstring)."""
    n, queens = _point(params)
    how = strategy(params)
    k, depth = prefixes.choices.shape
    if depth > max_depth(params):
        raise ParamError(f"prefix depth {depth} is beyond max_depth = {max_depth(params)}")
    if how == "formula":  # M = 0 only: the n! permutations, no search
        counts = np.full((k, len(queens)), math.factorial(n), dtype=object)
        return CountResult(_exact(counts), np.zeros(k, np.int64))
    fixed, owner, factor = _items(n, np.asarray(prefixes.choices))
    positive = [q for q in queens if q > 0]
    hist, nodes = _histograms(n, fixed, how == "typed", n - min(positive), max(queens))
    # exact arithmetic from here on: Python ints in object arrays
    factor = factor.astype(object)
    factorials = np.array([math.factorial(j) for j in range(n + 1)], dtype=object)
    weighted = hist.astype(object) * factor[:, None]
    perms_item = factor * factorials[(fixed < 0).sum(axis=1)]
    if depth >= 4:  # one search per prefix
        per_prefix, perms, node_sum = weighted, perms_item, nodes
    else:  # sum the searches of the borders below each prefix
        per_prefix = np.zeros((k, n + 1), dtype=object)
        perms = np.zeros(k, dtype=object)
        node_sum = np.zeros(k, np.int64)
        np.add.at(per_prefix, owner, weighted)
        np.add.at(perms, owner, perms_item)
        np.add.at(node_sum, owner, nodes)
    if how == "free":
        if not (per_prefix.sum(axis=1) == perms).all():
            raise AssertionError("free-piece histogram does not sum to the permutation count")
        counts = _choose_queens(per_prefix, perms, queens)
    else:
        counts = per_prefix[:, list(queens)]
    for col, q in enumerate(queens):
        if q == 0:
            counts[:, col] = perms
    return CountResult(_exact(counts), node_sum)


def _choose_queens(histogram: np.ndarray, perms: np.ndarray, queens: Sequence[int]) -> np.ndarray:
    """``sum_k histogram[i, k] * C(k, M)`` per row i and wanted M (object arrays, exact).

    Each sum is at most ``perms[i] * max C(k, M)``: below 2**63 the int64 product is exact.
    """
    binom = np.array([[math.comb(j, q) for q in queens] for j in range(histogram.shape[1])],
                     dtype=object)
    if len(perms) and perms.max() * binom.max() < 2**63:
        return (histogram.astype(np.int64) @ binom.astype(np.int64)).astype(object)
    return histogram @ binom


def _exact(counts: np.ndarray) -> np.ndarray:
    """uint64 when every count (Python ints, object array) fits, else the object array itself."""
    if counts.size == 0 or counts.max() < 2**64:
        return counts.astype(np.uint64)
    return counts


def _solve(n: int, queens: list[int]) -> list[int]:
    """Counts for one board size in a single search (depth 0)."""
    params = {"n": n, "queens": queens}
    result = count(params, prefixes(params, 0))
    return [int(v) for v in result.counts[0]]


def placements(m: int, n_rooks: int) -> int:
    """Placements of ``m`` queens and ``n_rooks`` rooks on the (m + n_rooks)-square board."""
    m = _check_int(m, "M (queens)")
    n_rooks = _check_int(n_rooks, "N (rooks)")
    if m + n_rooks == 0:
        return 1  # the empty board holds the empty placement
    return _solve(_check_total(m + n_rooks), [m])[0]


def row(n: int) -> list[int]:
    """``[placements(M, n - M) for M in 0..n]`` from one whole-row search."""
    n = _check_total(_check_int(n, "n"))
    return _solve(n, list(range(n + 1)))


def free_histogram(n: int) -> list[int]:
    """``H[k]``: the permutations of n with exactly k free pieces, k = 0..n."""
    n = _check_total(_check_int(n, "n"))
    fixed, _, factor = _items(n, np.zeros((1, 0), np.int16))
    hist, _ = _histograms(n, fixed, False, n, n)
    total = [0] * (n + 1)
    for f, h in zip(factor.tolist(), hist.tolist(), strict=True):
        for j in range(n + 1):
            total[j] += f * h[j]
    return total
