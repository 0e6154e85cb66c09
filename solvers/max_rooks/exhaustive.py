"""Exact distributions over every wall pattern of a board size: a dynamic program over cells.

For an ``rows`` x ``cols`` board, :func:`distribution` counts, for every number of walls ``w``
and every ``m``, how many of the ``2**(rows*cols)`` wall patterns have ``w`` walls and a
maximum of exactly ``m`` rooks.  From that table, ``P(max = m | p) = sum_w boards[w, m] p**w
(1-p)**(cells-w)`` exactly (:mod:`solvers.max_rooks.exact`).

Method.  Cells are decided one at a time, row-major, over the board turned so that its rows
are the longer side (the maximum does not change when a board is transposed).  For one wall
pattern of the cells decided so far, let ``f(S, r)`` be the most rooks a legal placement on
them can hold when the columns whose *current* segment (the run of open cells reaching the
row being filled) already holds a rook are exactly ``S``, and ``r`` says whether the current
row segment holds one.  A placement with fewer such rooks is never worse for the cells to
come, so the program keeps the upward closure ``g(S, r) = max f(S', r')`` over ``S' <= S``,
``r' <= r``: a monotone function over ``2**(cols+1)`` arguments.  Patterns with equal ``g``
have equal futures, so they share one *state*, which holds a polynomial in the wall count:
``count[w]`` patterns reach it with ``w`` walls.  Per cell, with column bit ``c`` and row bit
``R``:

- wall: ``g'(x) = g(x | c | R)`` (the column segment and the row segment end);
- open: ``g'(x) = max(g(x), g(x & ~c & ~R) + 1)`` where ``x`` has both ``c`` and ``R`` (a rook
  here), else ``g(x)``;
- after a row's last cell ``g'(x) = g(x | R)`` (a new row segment starts).

After the last cell the maximum of a pattern is ``g(all columns, R)``.  Cross-checked against
the matching kernel over every pattern at small sizes (tests).

Compact states.  Removing one rook from a placement leaves a legal one, so adding one
argument to ``x`` raises ``g`` by 0 or 1.  A state is therefore stored as its *steps*, one bit
per argument (``g(x) - g(x - h)``, ``h`` the highest bit of ``x``), and its base ``g(0)``:
``2**(cols+1)`` bits and one word (:func:`_encode`), an eighth of the bytes of ``g`` itself.
Steps along the highest bit put the arguments ``h..2h-1`` against ``0..h-1``, so from ``h = 8``
on eight entries of ``g`` are read or written as one 64-bit word (:func:`_decode`,
:func:`_encode`, :func:`_child`).  A state's counts are nonzero only on a run of wall counts,
much shorter than the board's cells, and are stored as that run alone: each layer is decided
in three passes, the states first (which child each state gives), then the runs of the
children, then the counts (:func:`_expand`, :func:`_runs`, :func:`_spread`).  Counts take one
uint64 limb while no count can reach ``2**64`` and two after (:func:`wide`).

Symmetry.  A board and its left-right mirror have equal maxima.  At the end of each row the
program keeps the smaller of a state and its mirror (its columns reversed): the two have
mirrored futures, so the same distribution of what follows.  The first row's wall patterns
are taken up to the same mirror: pattern ``u`` is the ``u``-th canonical one in increasing
order, counted twice when it is not its own mirror.  :func:`distribution_units` runs any range
of them as one program (they share every state from the second row on).  Counts are at most
two uint64 limbs (exact below ``2**128``), so boards have at most :data:`MAX_CELLS` cells.

This module is long because the program's numba passes (the key's codec, a cell's two
children, the three passes of a layer) share one notation and compile as one unit.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np
from numba import njit

__all__ = [
    "MAX_CELLS",
    "MAX_NARROW",
    "oriented",
    "first_rows",
    "key_words",
    "wide",
    "distribution",
    "distribution_units",
]

MAX_CELLS = 127  # two 64-bit limbs hold 2**cells exactly
MAX_NARROW = 9  # the narrow side: a state has 2**(narrow+1) arguments
_EMPTY = -1


def oriented(rows: int, cols: int) -> tuple[int, int]:
    """``(long side, narrow side)``: the program fills rows of the narrow side's width."""
    return (rows, cols) if rows >= cols else (cols, rows)


def first_rows(width: int) -> tuple[np.ndarray, np.ndarray]:
    """Canonical first-row wall patterns (bit ``j`` = column ``j`` is a wall) under the
    left-right mirror, increasing, and the number of patterns each stands for (1 or 2)."""
    patterns = np.arange(1 << width, dtype=np.int64)
    mirrors = np.zeros_like(patterns)
    for j in range(width):
        mirrors |= ((patterns >> j) & 1) << (width - 1 - j)
    keep = patterns <= mirrors
    return patterns[keep], np.where(patterns[keep] == mirrors[keep], 1, 2).astype(np.int64)


def _mirror(width: int) -> np.ndarray:
    """``x`` with its column bits reversed and its row bit kept: a state's arguments under
    the left-right mirror."""
    x = np.arange(1 << (width + 1), dtype=np.int64)
    out = x & (1 << width)
    for j in range(width):
        out |= ((x >> j) & 1) << (width - 1 - j)
    return out


def key_words(width: int) -> int:
    """uint64 words of one key: the steps of ``2**(width+1)`` arguments, then the base."""
    return max(1, (1 << (width + 1)) // 64) + 1


_ONES = np.uint64(0x0101010101010101)
_PACK = np.uint64(0x0102040810204080)  # eight 0/1 bytes -> one byte of bits, by a product
_SPREAD = np.array(  # one byte of bits -> eight 0/1 bytes
    [sum(((b >> i) & 1) << (8 * i) for i in range(8)) for b in range(256)], np.uint64
)
_HAS = np.array(  # the bytes of a word whose index within it holds bit 1, 2 or 4
    [0, 0xFF00FF00FF00FF00, 0xFFFF0000FFFF0000, 0, 0xFFFFFFFF00000000], np.uint64
)


@njit(cache=True, nogil=True, inline="always")
def _byte(key, q):
    """Steps ``8q..8q+7`` of a key: its byte ``q``."""
    return (key[q >> 3] >> np.uint64((q & 7) << 3)) & np.uint64(0xFF)


@njit(cache=True, nogil=True)
def _decode(key, g, n):
    """``g[:n]`` from a key: ``g[0]`` is the base and ``g[x] = g[x - h] + step x`` where
    ``h`` is the highest bit of ``x``; eight entries at a time from ``h = 8`` on."""
    g[0] = key[key.shape[0] - 1]
    h = 1
    while h < min(n, 8):
        for x in range(h, 2 * h):
            g[x] = g[x - h] + np.int64((key[0] >> np.uint64(x)) & np.uint64(1))
        h <<= 1
    words = g.view(np.uint64)
    while h < n:
        for q in range(h >> 3, h >> 2):
            words[q] = words[q - (h >> 3)] + _SPREAD[_byte(key, q)]
        h <<= 1


@njit(cache=True, nogil=True)
def _encode(g, key, n):
    """The key of ``g[:n]``: bit ``x`` of the step words is ``g[x] - g[x - h]`` (0 or 1),
    ``h`` the highest bit of ``x``; the last word ``g[0]``."""
    for k in range(key.shape[0] - 1):
        key[k] = 0
    h = 1
    while h < min(n, 8):
        for x in range(h, 2 * h):
            key[0] |= np.uint64(g[x] - g[x - h]) << np.uint64(x)
        h <<= 1
    words = g.view(np.uint64)
    while h < n:
        for q in range(h >> 3, h >> 2):
            bits = ((words[q] - words[q - (h >> 3)]) * _PACK) >> np.uint64(56)
            key[q >> 3] |= bits << np.uint64((q & 7) << 3)
        h <<= 1
    key[key.shape[0] - 1] = np.uint64(g[0])


@njit(cache=True, nogil=True)
def _hash(key):
    """A mixed 64-bit hash of one key."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in key:
        h = (h ^ w) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, nogil=True)
def _insert(keys, m, table, key):
    """Index of ``key`` in ``keys[:m]`` (added at ``m`` if new); -1 if ``keys`` is full.
    Returns (index, new m)."""
    mask = table.shape[0] - 1
    slot = np.int64(_hash(key) & np.uint64(mask))
    while True:
        at = table[slot]
        if at == _EMPTY:
            if m >= keys.shape[0]:
                return -1, m
            keys[m, :] = key
            table[slot] = m
            return m, m + 1
        same = True
        for k in range(key.shape[0]):
            if keys[at, k] != key[k]:
                same = False
                break
        if same:
            return at, m
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def _child(g, child, wall, cbit, rbit, last):
    """``child``: ``g`` after one cell (column bit ``cbit``) is a wall or open; ``last``:
    the row's last cell.  Eight entries at a time once the row bit is a whole word's."""
    n = 2 * rbit
    if rbit < 8:
        _child_small(g, child, wall, cbit, rbit, last, n)
        return
    src, out = g.view(np.uint64), child.view(np.uint64)
    r8, c8, words = rbit >> 3, cbit >> 3, n >> 3
    if wall:  # g(x | c | R)
        for q in range(words):
            out[q] = src[q | c8 | r8]
        if c8 == 0:  # within each word, the bytes with c take the place of those without
            for q in range(words):
                v = out[q] & _HAS[cbit]
                out[q] = v | (v >> np.uint64(8 * cbit))
        return
    out[:r8] = src[:r8]
    if c8:  # max(g(x), g(x - c - R) + 1) where x holds c and R: g(x) + (the two equal)
        for start in range(r8, words, 2 * c8):
            for q in range(start, start + c8):
                out[q] = src[q]
            for q in range(start + c8, start + 2 * c8):
                a = src[q]
                e = a - src[q - c8 - r8]
                out[q] = a + (((e | (e >> np.uint64(1))) & _ONES) ^ _ONES)
    else:  # the bytes with c of each word, against those without it in the word below
        has = _HAS[cbit]
        inc = has & _ONES
        for q in range(r8, words):
            a = src[q]
            e = (a & has) - ((src[q - r8] << np.uint64(8 * cbit)) & has)
            out[q] = a + ((((e | (e >> np.uint64(1))) & _ONES) ^ _ONES) & inc)
    if last:  # a new row segment starts: child(x) = child(x | R)
        out[:r8] = out[r8:words]


@njit(cache=True, nogil=True)
def _child_small(g, child, wall, cbit, rbit, last, n):
    """:func:`_child` one entry at a time (boards of 1 or 2 columns)."""
    for x in range(n):
        y = x | rbit if last else x
        if wall:
            child[x] = g[y | cbit | rbit]
        else:
            v = g[y]
            if (y & cbit) and (y & rbit):
                u = g[y & ~cbit & ~rbit] + 1
                if u > v:
                    v = u
            child[x] = v


@njit(cache=True, nogil=True)
def _place(child, last, mirror, flip, key, other, keys, m, table):
    """Insert ``child`` (the smaller of it and its mirror at a row's end) into ``keys[:m]``;
    returns (index, new m), index -1 when ``keys`` is full."""
    n = mirror.shape[0]
    _encode(child, key, n)
    if last:
        for x in range(n):
            flip[x] = child[mirror[x]]
        _encode(flip, other, n)
        for k in range(key.shape[0]):
            if other[k] != key[k]:
                if other[k] < key[k]:
                    key[:] = other
                break
    return _insert(keys, m, table, key)


@njit(cache=True, nogil=True)
def _scratch(n, words):
    """A pass's workspace: ``g``, a child and its mirror (int8, room for one word when
    ``n < 8``), and two keys."""
    size = max(n, 8)
    g, child, flip = np.zeros(size, np.int8), np.zeros(size, np.int8), np.zeros(size, np.int8)
    return g, child, flip, np.empty(words, np.uint64), np.empty(words, np.uint64)


@njit(cache=True, nogil=True)
def _seed(patterns, width, mirror, keys, table, child_of):
    """Pass one for the first row: ``child_of[i, 0]``, the state after the whole first row
    of wall pattern ``patterns[i]``; returns the number of states (-1: ``keys`` is full)."""
    n = mirror.shape[0]
    g, child, flip, key, other = _scratch(n, keys.shape[1])
    table[:] = _EMPTY
    out = 0
    for i in range(patterns.shape[0]):
        g[:] = 0
        for col in range(width):
            _child(g, child, (patterns[i] >> col) & 1, 1 << col, 1 << width, col == width - 1)
            g[:] = child
        j, out = _place(g, True, mirror, flip, key, other, keys, out, table)
        if j < 0:
            return -1
        child_of[i, 0] = j
    return out


@njit(cache=True, nogil=True)
def _expand(keys, m, col, width, last, mirror, nkeys, table, child_of):
    """Pass one of a cell: ``child_of[i, wall]``, the state that ``keys[i]`` becomes when the
    cell in column ``col`` is open (0) or a wall (1); returns the number of states of the
    next layer ``nkeys`` (-1: it is full)."""
    n = mirror.shape[0]
    g, child, flip, key, other = _scratch(n, keys.shape[1])
    table[:] = _EMPTY
    out = 0
    for i in range(m):
        _decode(keys[i], g, n)
        for wall in range(2):
            _child(g, child, wall, 1 << col, 1 << width, last)
            j, out = _place(child, last, mirror, flip, key, other, nkeys, out, table)
            if j < 0:
                return -1
            child_of[i, wall] = j
    return out


@njit(cache=True, nogil=True)
def _runs(child_of, low, top, size, nlow, ntop, noff):
    """Pass two: the run of wall counts ``nlow[j]..ntop[j]-1`` each child can hold (a
    parent's run, one higher through a wall), and the children's offsets into one array."""
    nlow[:size] = 1 << 30
    ntop[:size] = 0
    for i in range(child_of.shape[0]):
        for shift in range(2):
            j = child_of[i, shift]
            if j >= 0:
                nlow[j] = min(nlow[j], low[i] + shift)
                ntop[j] = max(ntop[j], top[i] + shift)
    noff[0] = 0
    for j in range(size):
        noff[j + 1] = noff[j] + ntop[j] - nlow[j]


@njit(cache=True, nogil=True)
def _spread(child_of, low, top, off, lo, nlow, noff, nlo):
    """Pass three, one limb: every parent's counts added into its children's (one wall more
    through a wall).  Exact while no count can reach ``2**64`` (:func:`wide`)."""
    for i in range(child_of.shape[0]):
        for shift in range(2):
            j = child_of[i, shift]
            if j >= 0:
                at = noff[j] + low[i] + shift - nlow[j]
                for k in range(top[i] - low[i]):
                    nlo[at + k] += lo[off[i] + k]


@njit(cache=True, nogil=True)
def _spread_wide(child_of, low, top, off, lo, hi, nlow, noff, nlo, nhi):
    """:func:`_spread` in two limbs."""
    for i in range(child_of.shape[0]):
        for shift in range(2):
            j = child_of[i, shift]
            if j < 0:
                continue
            at = noff[j] + low[i] + shift - nlow[j]
            for k in range(top[i] - low[i]):
                a = lo[off[i] + k]
                s = nlo[at + k] + a
                carry = np.uint64(1) if s < a else np.uint64(0)
                nlo[at + k] = s
                nhi[at + k] += hi[off[i] + k] + carry


def wide(decided: int) -> bool:
    """Whether a count of ``decided`` cells can reach ``2**64``: the patterns with ``w``
    walls number ``C(decided, w)`` in all, over every state."""
    return comb(decided, decided // 2) >= 1 << 64


@njit(cache=True, nogil=True)
def _histogram(keys, m, n, low, top, off, lo, hi, hist_lo, hist_hi):
    """Fold the final layer into ``hist[w, max]`` (two limbs).  The maximum of a state is
    ``g(n - 1)``: its base plus the steps from ``n - 1`` down by its highest bit, which are
    the arguments ``2**k - 1``."""
    base = keys.shape[1] - 1
    for i in range(m):
        best = np.int64(keys[i, base])
        k = 1
        while k < n:
            x = 2 * k - 1
            best += np.int64((keys[i, x >> 6] >> np.uint64(x & 63)) & np.uint64(1))
            k <<= 1
        for k in range(top[i] - low[i]):
            w = low[i] + k
            a = lo[off[i] + k]
            s = hist_lo[w, best] + a
            carry = np.uint64(1) if s < a else np.uint64(0)
            hist_lo[w, best] = s
            hist_hi[w, best] += hi[off[i] + k] + carry


@dataclass
class _Layer:
    """The states of one layer (``keys[:m]``, a buffer that may be longer), each with its run
    of wall counts ``low[i]..top[i]-1`` whose counts start at ``off[i]`` in ``lo``/``hi``."""

    keys: np.ndarray | None
    m: int
    low: np.ndarray
    top: np.ndarray
    off: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    def children(self, child_of: np.ndarray, nkeys: np.ndarray, size: int, decided: int) -> _Layer:
        """The next layer, of ``decided`` cells: states ``nkeys[:size]`` that ``child_of``
        maps this one's to, with their runs and counts (two limbs once they need them)."""
        low, top = np.empty(size, np.int32), np.empty(size, np.int32)
        off = np.empty(size + 1, np.int64)
        _runs(child_of, self.low, self.top, size, low, top, off)
        lo = np.zeros(off[size], np.uint64)
        if not wide(decided):
            _spread(child_of, self.low, self.top, self.off, self.lo, low, off, lo)
            return _Layer(nkeys, size, low, top, off, lo, lo[:0])
        hi = np.zeros(off[size], np.uint64)
        was = self.hi if self.hi.size else np.zeros_like(self.lo)
        _spread_wide(child_of, self.low, self.top, self.off, self.lo, was, low, off, lo, hi)
        return _Layer(nkeys, size, low, top, off, lo, hi)

    def histogram(self, cells: int, width: int) -> np.ndarray:
        """``hist[walls, max]`` (Python ints) of the last layer's states."""
        top = int(self.keys[: self.m, -1].max(initial=0)) + width + 2
        hist_lo = np.zeros((cells + 1, min(top, cells + 1)), np.uint64)
        hist_hi = np.zeros_like(hist_lo)
        n = 1 << (width + 1)
        hi = self.hi if self.hi.size else np.zeros_like(self.lo)
        _histogram(
            self.keys, self.m, n, self.low, self.top, self.off, self.lo, hi, hist_lo, hist_hi
        )
        hist = np.empty(hist_lo.shape, dtype=object)
        for (w, b), a in np.ndenumerate(hist_lo):
            hist[w, b] = int(a) | (int(hist_hi[w, b]) << 64)
        return hist


def _table(capacity: int) -> np.ndarray:
    """The open-addressing index of a layer of ``capacity`` states (a power of two, at least
    twice as long)."""
    return np.empty(1 << max(4, int(2 * capacity - 1).bit_length()), np.int64)


def _run(
    length: int, width: int, patterns: np.ndarray, weights: np.ndarray, capacity: int
) -> tuple[np.ndarray, int]:
    """The histogram ``[walls, max]`` (Python ints) of every board whose first row is one of
    the wall ``patterns`` (each counted ``weights`` times), and the largest layer.  The
    patterns share one program from the second row on.

    Each layer has room for ``capacity`` states, at least a quarter more than the layer
    before; one that outgrows it grows it by half and decides the same cell again from the
    layer before, which is kept: no earlier cell is ever decided twice."""
    cells, mirror = length * width, _mirror(width)
    spare, table = np.empty((capacity, key_words(width)), np.uint64), _table(capacity)
    child_of = np.full((len(patterns), 2), -1, np.int32)
    while (size := _seed(patterns, width, mirror, spare, table, child_of)) < 0:
        capacity += capacity // 2 + 1
        spare, table = np.empty((capacity, key_words(width)), np.uint64), _table(capacity)
    walls = np.array([int(p).bit_count() for p in patterns], np.int32)
    counts = np.asarray(weights, np.uint64)
    first = _Layer(
        None, len(patterns), walls, walls + 1, np.arange(len(counts) + 1), counts, counts[:0]
    )
    layer, spare = first.children(child_of, spare, size, width), np.empty((0, 0), np.uint64)
    widest = layer.m
    for t in range(width, cells):
        col = t % width
        child_of = np.empty((layer.m, 2), np.int32)
        capacity = max(capacity, layer.m + layer.m // 4)
        while True:
            if spare.shape[0] < capacity:
                spare = np.empty((capacity, key_words(width)), np.uint64)
            if table.shape[0] < 2 * capacity:
                table = _table(capacity)
            size = _expand(
                layer.keys, layer.m, col, width, col == width - 1, mirror, spare, table, child_of
            )
            if size >= 0:
                break
            capacity += capacity // 2 + 1
        layer, spare = layer.children(child_of, spare, size, t + 1), layer.keys
        widest = max(widest, layer.m)
    return layer.histogram(cells, width), widest


def _check(rows: int, cols: int) -> tuple[int, int]:
    length, width = oriented(rows, cols)
    if width < 1:
        raise ValueError("rows and cols must be >= 1")
    if width > MAX_NARROW or rows * cols > MAX_CELLS:
        raise ValueError(
            f"{rows} x {cols}: exhaustive distributions reach boards whose "
            f"narrow side is at most {MAX_NARROW} and at most {MAX_CELLS} cells"
        )
    return length, width


def distribution_units(
    rows: int, cols: int, lo: int, hi: int, capacity: int = 1 << 12
) -> tuple[np.ndarray, int]:
    """``(hist, widest)``: ``hist[w, m]`` (Python ints) counts the boards with ``w`` walls
    and maximum ``m`` among those whose first row is one of the canonical patterns
    ``lo..hi-1`` (:func:`first_rows`, each counted with its mirror); ``widest`` is the largest
    number of states held at once."""
    length, width = _check(rows, cols)
    patterns, weights = first_rows(width)
    cells = rows * cols
    total = np.zeros((cells + 1, cells + 1), dtype=object)
    total[:] = 0
    hist, widest = _run(length, width, patterns[lo:hi], weights[lo:hi], capacity)
    total[:, : hist.shape[1]] += hist
    used = [m for m in range(cells + 1) if any(total[:, m])]
    return total[:, : max(used, default=0) + 1], widest


def distribution(rows: int, cols: int) -> np.ndarray:
    """``hist[w, m]``: how many of the ``2**(rows*cols)`` wall patterns have ``w`` walls and
    maximum ``m`` (Python ints, exact)."""
    _, width = _check(rows, cols)
    return distribution_units(rows, cols, 0, len(first_rows(width)[0]))[0]
