"""Exact placement counts on walled boards: a frontier dynamic program over open cells (numba).

Notation as in :mod:`solvers.max_rooks.match` (cells row-major, 1 = wall; row and column
segments).  The program visits the open cells of the board in row-major order, or of its
transpose when that keeps the frontier narrower (placements are the same either way).

State.  After some cells have been decided, what the rest of the board needs to know is which
*open* segments already hold a rook: a column segment is open from its top cell until its
bottom cell has been decided, the current row segment until its last cell.  Each open column
segment of two or more cells holds a *slot*, a bit of a 64-bit key, assigned when its top cell
is reached and freed at its bottom cell (the lowest free bit; greedy interval colouring, so the
number of slots is the widest frontier).  Bit 63 is the row bit.  A bit is 1 when its segment
holds a rook; bits of closed segments are always 0, so equal futures have equal keys.

Cell rule, for open cell x with column bit ``cb`` (0 for a one-cell column segment):
skip keeps the key; place needs ``key & (cb | ROW) == 0`` and sets the bits of the segments of
x that stay open.  Then the bits of segments that close at x are cleared in both successors.

Values, per key, in the semiring of counts paired with (max, number reaching it):
``tot`` = number of partial placements reaching the key, ``best`` = the most rooks among them,
``bc`` = how many of them hold ``best`` rooks.  Merging two keys adds ``tot`` and keeps the
larger ``best`` (adding ``bc`` on a tie).  After the last cell one key is left (0): its ``tot``
counts every legal placement (the empty one included), ``best`` is the maximum and ``bc`` the
number of maximum placements.  One pass gives both answers.

Exactness.  Counts are multi-limb unsigned integers, ``L = open // 64 + 1`` uint64 limbs little
end first, with carries: every value is at most 2**open < 2**(64 L), so nothing wraps.
Keys live in an open-addressing hash table (linear probing), rebuilt at every cell.

Work (``nodes``) counts (cell, key) expansions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "ROW_BIT",
    "MAX_SLOTS",
    "LAYER_WORDS",
    "frontier_plan",
    "count_batch",
    "limbs_to_int",
]

ROW_BIT = np.uint64(1 << 63)
MAX_SLOTS = 63  # column bits 0..62; bit 63 is the row bit
LAYER_WORDS = 1 << 23  # default memory limit: 64-bit words one layer of keys may take (64 MiB)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_MIX = np.uint64(0x9E3779B97F4A7C15)
# constants passed to jitted functions are numpy scalars: numba types a Python constant as a
# literal and compiles the function it is passed to once more for each (as in solvers.slant)
_TRANSPOSED = np.bool_(True)
_STRAIGHT = np.bool_(False)
_AT0 = np.int64(0)

# per open cell flags in the plan
_COL_LAST = 1
_ROW_LAST = 2


@njit(cache=True, nogil=True)
def _wall(cells, base, c, transpose, i, j):
    """Whether oriented cell (i, j) is a wall (``transpose``: (i, j) means original (j, i))."""
    if transpose:
        return cells[base + j * c + i] != 0
    return cells[base + i * c + j] != 0


@njit(cache=True, nogil=True)
def frontier_plan(cells, base, r, c, transpose, slot, flags, colslot):
    """Slots and closing flags of the open cells in visiting order; return (open cells, width).

    Width is the number of slots used; MAX_SLOTS + 1 means the frontier is too wide."""
    # int64 indices: with int32 ones, i - 1 and i + 1 are int64 and _wall compiles once more
    rr, cc = (np.int64(c), np.int64(r)) if transpose else (np.int64(r), np.int64(c))
    used = _ZERO
    width = 0
    n = 0
    for i in range(rr):
        for j in range(cc):
            if _wall(cells, base, c, transpose, i, j):
                continue
            first = i == 0 or _wall(cells, base, c, transpose, i - 1, j)
            last = i == rr - 1 or _wall(cells, base, c, transpose, i + 1, j)
            row_last = j == cc - 1 or _wall(cells, base, c, transpose, i, j + 1)
            s = -1
            if first and not last:
                s = 0
                while s < MAX_SLOTS and (used >> np.uint64(s)) & _ONE:
                    s += 1
                if s == MAX_SLOTS:
                    return n, MAX_SLOTS + 1
                used |= _ONE << np.uint64(s)
                colslot[j] = s
                width = max(width, s + 1)
            elif not first:
                s = colslot[j]
                if last:
                    used &= ~(_ONE << np.uint64(s))
            slot[n] = s
            flags[n] = (_COL_LAST if last else 0) | (_ROW_LAST if row_last else 0)
            n += 1
    return n, width


@njit(cache=True, nogil=True)
def _add(dst, d, src, s, nl):
    """dst[d:d+nl] += src[s:s+nl] as one multi-limb integer (carries propagate upward)."""
    carry = _ZERO
    for q in range(nl):
        a = dst[d + q]
        t = a + src[s + q]
        c1 = t < a
        u = t + carry
        c2 = u < t
        dst[d + q] = u
        carry = _ONE if (c1 or c2) else _ZERO


@njit(cache=True, nogil=True)
def _copy(dst, d, src, s, nl):
    """dst[d:d+nl] = src[s:s+nl]."""
    for q in range(nl):
        dst[d + q] = src[s + q]


@njit(cache=True, nogil=True, inline="always")
def _probe(table, nkey, key, hmask):
    """Linear probing for ``key``: return (position, entry there or -1 if the key is new)."""
    pos = np.int64((key * _MIX) >> np.uint64(32)) & hmask
    while True:
        idx = table[pos]
        if idx < 0 or nkey[idx] == key:
            return pos, idx
        pos = (pos + 1) & hmask


@njit(cache=True, nogil=True)
def _layer_1(n, test, setb, keep, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table):
    """One cell's step with one-limb counts (open < 64: no value reaches 2**64); return m."""
    return _layer(
        n, test, setb, keep, 1, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table, True
    )


@njit(cache=True, nogil=True)
def _layer_n(n, test, setb, keep, nl, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table):
    """One cell's step with ``nl``-limb counts (entry i's limbs at ``i * nl``); return m."""
    return _layer(
        n, test, setb, keep, nl, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table, False
    )


@njit(cache=True, nogil=True, inline="always")
def _layer(
    n, test, setb, keep, nl, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table, one
):
    """The loop of :func:`_layer_1` (``one``) and :func:`_layer_n`.  ``table`` is the
    open-addressing index of the new keys, a power of two long.

    It is the counting program's hot loop.  ``one`` is a constant at each of the two callers,
    and this body is inlined into each, so each compiles to its own loop: the common case, one
    limb, adds its counts plainly, without the limb loops or a test for them (a runtime test
    of ``nl == 1`` in one shared loop measured clearly slower on one-limb boards)."""
    hmask = table.shape[0] - 1
    m = 0
    for src in range(n):
        key = ckey[src]
        for inc in range(2):
            if inc == 0:
                nk = key & keep
            elif key & test == _ZERO:
                nk = (key | setb) & keep
            else:
                break
            pos, idx = _probe(table, nkey, nk, hmask)
            b = cbest[src] + inc
            if idx < 0:
                table[pos] = m
                npos[m] = pos
                nkey[m] = nk
                nbest[m] = b
                if one:
                    ntot[m] = ctot[src]
                    nbc[m] = cbc[src]
                else:
                    _copy(ntot, m * nl, ctot, src * nl, nl)
                    _copy(nbc, m * nl, cbc, src * nl, nl)
                m += 1
            else:
                if one:
                    ntot[idx] += ctot[src]
                else:
                    _add(ntot, idx * nl, ctot, src * nl, nl)
                if b > nbest[idx]:
                    nbest[idx] = b
                    if one:
                        nbc[idx] = cbc[src]
                    else:
                        _copy(nbc, idx * nl, cbc, src * nl, nl)
                elif b == nbest[idx]:
                    if one:
                        nbc[idx] += cbc[src]
                    else:
                        _add(nbc, idx * nl, cbc, src * nl, nl)
    return m


@njit(cache=True, nogil=True)
def _count_board(
    nopen,
    slot,
    flags,
    nl,
    ckey,
    ctot,
    cbest,
    cbc,
    nkey,
    ntot,
    nbest,
    nbc,
    npos,
    table,
    out_tot,
    out_bc,
    b,
):
    """Run the frontier program over one planned board; return (status, best, nodes).

    Status 4 means the arrays hold fewer keys than a layer needs (then ``best`` is that need)."""
    n = np.int64(1)  # not a literal 1: _layer_1 and _layer_n would compile for it once more
    ckey[0] = _ZERO
    cbest[0] = 0
    for q in range(nl):
        ctot[q] = _ZERO
        cbc[q] = _ZERO
    ctot[0] = _ONE
    cbc[0] = _ONE
    nodes = 0
    cap = ckey.shape[0]
    for x in range(nopen):
        if 2 * n > cap:
            return 4, 2 * n, nodes  # the caller grows the arrays and runs the board again
        s = slot[x]
        cb = (_ONE << np.uint64(s)) if s >= 0 else _ZERO
        col_last = (flags[x] & _COL_LAST) != 0
        row_last = (flags[x] & _ROW_LAST) != 0
        test = cb | ROW_BIT
        keep = ~((cb if col_last else _ZERO) | (ROW_BIT if row_last else _ZERO))
        setb = (_ZERO if col_last else cb) | (_ZERO if row_last else ROW_BIT)
        if nl == 1:
            m = _layer_1(
                n, test, setb, keep, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table
            )
        else:
            m = _layer_n(
                n, test, setb, keep, nl, ckey, ctot, cbest, cbc, nkey, ntot, nbest, nbc, npos, table
            )
        nodes += n
        for q in range(m):
            table[npos[q]] = -1
        ckey, nkey = nkey, ckey
        ctot, ntot = ntot, ctot
        cbest, nbest = nbest, cbest
        cbc, nbc = nbc, cbc
        n = m
    if n != 1 or ckey[0] != _ZERO:
        return 3, 0, nodes
    _copy(out_tot[b], _AT0, ctot, _AT0, nl)
    _copy(out_bc[b], _AT0, cbc, _AT0, nl)
    return 0, cbest[0], nodes


@njit(cache=True, nogil=True)
def _layers(cap, lmax):
    """The two layers of ``cap`` keys (``lmax`` limbs a count) the counting program swaps
    between, and the index of the new one: (table, keys, best, npos, totals, best counts),
    the table twice the keys long (a power of two when ``cap`` is), every slot empty."""
    table = np.full(2 * cap, -1, np.int64)
    keys = (np.empty(cap, np.uint64), np.empty(cap, np.uint64))
    best = (np.empty(cap, np.int32), np.empty(cap, np.int32))
    npos = np.empty(cap, np.int64)
    tot = (np.empty(cap * lmax, np.uint64), np.empty(cap * lmax, np.uint64))
    bc = (np.empty(cap * lmax, np.uint64), np.empty(cap * lmax, np.uint64))
    return table, keys, best, npos, tot, bc


@njit(cache=True, nogil=True)
def count_batch(
    rows,
    cols,
    offsets,
    cells,
    nlimbs,
    out_tot,
    out_bc,
    out_best,
    out_nodes,
    out_status,
    out_need,
    layer_words,
):
    """Count every board of a batch (``nlimbs[b]`` limbs each) into ``out_*``.

    A layer of ``n`` keys takes ``n * (2 * limbs + 2)`` words; one that would need more than
    ``layer_words`` stops the board, and ``out_need[b]`` gets the words that layer asked for
    (what the board needed at least).  Status per board: 0 done, 1 frontier wider than
    MAX_SLOTS, 2 over the memory limit, 3 internal inconsistency (must not happen)."""
    k = rows.shape[0]
    most = 1
    widest = 1
    lmax = 1
    for b in range(k):
        most = max(most, rows[b] * cols[b])
        widest = max(widest, rows[b], cols[b])
        lmax = max(lmax, nlimbs[b])
    slot = np.empty(most, np.int8)
    flags = np.empty(most, np.uint8)
    colslot = np.empty(widest, np.int8)
    cap = 1 << 10
    table, keys, best, npos, tot, bc = _layers(cap, lmax)
    for b in range(k):
        r, c, base = rows[b], cols[b], offsets[b]
        nopen, w0 = frontier_plan(cells, base, r, c, _STRAIGHT, slot, flags, colslot)
        nopen, w1 = frontier_plan(cells, base, r, c, _TRANSPOSED, slot, flags, colslot)
        if w0 <= w1:
            nopen, w0 = frontier_plan(cells, base, r, c, _STRAIGHT, slot, flags, colslot)
        if min(w0, w1) > MAX_SLOTS:
            out_status[b] = 1
            continue
        spent = 0
        while True:
            status, top, nodes = _count_board(
                nopen,
                slot,
                flags,
                nlimbs[b],
                keys[0],
                tot[0],
                best[0],
                bc[0],
                keys[1],
                tot[1],
                best[1],
                bc[1],
                npos,
                table,
                out_tot,
                out_bc,
                b,
            )
            spent += nodes
            if status != 4:
                break
            grown = cap
            while grown < top:  # grow: the table stays a power of two, twice the key capacity
                grown *= 2
            if grown * (2 * lmax + 2) > layer_words:
                status = 2
                out_need[b] = grown * (2 * lmax + 2)
                break
            cap = grown
            table, keys, best, npos, tot, bc = _layers(cap, lmax)
        out_status[b] = status
        out_best[b] = top if status == 0 else 0
        out_nodes[b] = spent
    return 0


def limbs_to_int(limbs: np.ndarray) -> int:
    """The Python int whose little-endian uint64 limbs are ``limbs``."""
    value = 0
    for q in range(limbs.shape[0] - 1, -1, -1):
        value = (value << 64) | int(limbs[q])
    return value
