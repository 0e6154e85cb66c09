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
per argument (``g(x) - g(x & (x-1))``), and its base ``g(0)``: ``2**(cols+1)`` bits and one
word (:func:`_encode`), an eighth of the bytes of ``g`` itself.  A state's counts are nonzero
only on a run of wall counts, much shorter than the board's cells, and are stored as that run
alone: each layer is decided in three passes, the states first (which child each state
gives), then the runs of the children, then the counts (:func:`_expand`, :func:`_runs`,
:func:`_spread`).

Symmetry.  A board and its left-right mirror have equal maxima.  At the end of each row the
program keeps the smaller of a state and its mirror (its columns reversed): the two have
mirrored futures, so the same distribution of what follows.  The first row's wall patterns
are taken up to the same mirror: pattern ``u`` is the ``u``-th canonical one in increasing
order, counted twice when it is not its own mirror.  :func:`distribution_units` runs any range
of them as one program (they share every state from the second row on).  Counts are two
uint64 limbs (exact below ``2**128``), so boards have at most :data:`MAX_CELLS` cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

__all__ = [
    "MAX_CELLS",
    "MAX_NARROW",
    "oriented",
    "first_rows",
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


def _words(width: int) -> int:
    """uint64 words of one key: the steps of ``2**(width+1)`` arguments, then the base."""
    return max(1, (1 << (width + 1)) // 64) + 1


@njit(cache=True, nogil=True)
def _decode(key, g):
    """``g`` from a key: ``g[0]`` is the base and ``g[x] = g[x & (x-1)] + step x``."""
    g[0] = key[key.shape[0] - 1]
    for x in range(1, g.shape[0]):
        g[x] = g[x & (x - 1)] + np.int64((key[x >> 6] >> np.uint64(x & 63)) & np.uint64(1))


@njit(cache=True, nogil=True)
def _encode(g, key):
    """The key of ``g``: bit ``x`` of the step words is ``g[x] - g[x & (x-1)]``, the last
    word ``g[0]``."""
    per = min(64, g.shape[0])
    for k in range(key.shape[0] - 1):
        acc = np.uint64(0)
        for b in range(1 if k == 0 else 0, per):
            x = k * 64 + b
            acc |= np.uint64(g[x] - g[x & (x - 1)]) << np.uint64(b)
        key[k] = acc
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
    the row's last cell."""
    for x in range(g.shape[0]):
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
    _encode(child, key)
    if last:
        for x in range(child.shape[0]):
            flip[x] = child[mirror[x]]
        _encode(flip, other)
        for k in range(key.shape[0]):
            if other[k] != key[k]:
                if other[k] < key[k]:
                    key[:] = other
                break
    return _insert(keys, m, table, key)


@njit(cache=True, nogil=True)
def _seed(patterns, width, mirror, keys, table, child_of):
    """Pass one for the first row: ``child_of[i, 0]``, the state after the whole first row
    of wall pattern ``patterns[i]``; returns the number of states (-1: ``keys`` is full)."""
    n = mirror.shape[0]
    g = np.zeros(n, np.int8)
    child, flip = np.empty(n, np.int8), np.empty(n, np.int8)
    key, other = np.empty(keys.shape[1], np.uint64), np.empty(keys.shape[1], np.uint64)
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
    g, child, flip = np.empty(n, np.int8), np.empty(n, np.int8), np.empty(n, np.int8)
    key, other = np.empty(keys.shape[1], np.uint64), np.empty(keys.shape[1], np.uint64)
    table[:] = _EMPTY
    out = 0
    for i in range(m):
        _decode(keys[i], g)
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
def _spread(child_of, low, top, off, lo, hi, nlow, noff, nlo, nhi):
    """Pass three: every parent's counts added into its children's (one wall more through a
    wall), two-limb exact."""
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


@njit(cache=True, nogil=True)
def _histogram(keys, m, n, low, top, off, lo, hi, hist_lo, hist_hi):
    """Fold the final layer into ``hist[w, max]`` (two limbs).  The maximum of a state is
    ``g(n - 1)``: its base plus the steps along ``x & (x-1)`` from ``n - 1``, which are the
    arguments ``n - 2**k``."""
    base = keys.shape[1] - 1
    for i in range(m):
        best = np.int64(keys[i, base])
        k = 1
        while k < n:
            x = n - k
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

    def children(self, child_of: np.ndarray, nkeys: np.ndarray, size: int) -> _Layer:
        """The next layer: states ``nkeys[:size]`` that ``child_of`` maps this one's to,
        with their runs and counts."""
        low, top = np.empty(size, np.int32), np.empty(size, np.int32)
        off = np.empty(size + 1, np.int64)
        _runs(child_of, self.low, self.top, size, low, top, off)
        lo, hi = np.zeros(off[size], np.uint64), np.zeros(off[size], np.uint64)
        _spread(child_of, self.low, self.top, self.off, self.lo, self.hi, low, off, lo, hi)
        return _Layer(nkeys, size, low, top, off, lo, hi)

    def histogram(self, cells: int, width: int) -> np.ndarray:
        """``hist[walls, max]`` (Python ints) of the last layer's states."""
        top = int(self.keys[: self.m, -1].max(initial=0)) + width + 2
        hist_lo = np.zeros((cells + 1, min(top, cells + 1)), np.uint64)
        hist_hi = np.zeros_like(hist_lo)
        n = 1 << (width + 1)
        _histogram(
            self.keys, self.m, n, self.low, self.top, self.off, self.lo, self.hi, hist_lo, hist_hi
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

    A layer that outgrows ``capacity`` states grows it by half and decides the same cell again
    from the layer before, which is kept: no earlier cell is ever decided twice."""
    cells, mirror = length * width, _mirror(width)
    spare, table = np.empty((capacity, _words(width)), np.uint64), _table(capacity)
    child_of = np.full((len(patterns), 2), -1, np.int32)
    while (size := _seed(patterns, width, mirror, spare, table, child_of)) < 0:
        capacity += capacity // 2 + 1
        spare, table = np.empty((capacity, _words(width)), np.uint64), _table(capacity)
    walls = np.array([int(p).bit_count() for p in patterns], np.int32)
    counts = np.asarray(weights, np.uint64)
    first = _Layer(
        None, len(patterns), walls, walls + 1, np.arange(len(counts) + 1), counts, 0 * counts
    )
    layer, spare = first.children(child_of, spare, size), np.empty((0, 0), np.uint64)
    widest = layer.m
    for t in range(width, cells):
        col = t % width
        child_of = np.empty((layer.m, 2), np.int32)
        while True:
            if spare.shape[0] < capacity:
                spare = np.empty((capacity, _words(width)), np.uint64)
            if table.shape[0] < 2 * capacity:
                table = _table(capacity)
            size = _expand(
                layer.keys, layer.m, col, width, col == width - 1, mirror, spare, table, child_of
            )
            if size >= 0:
                break
            capacity += capacity // 2 + 1
        layer, spare = layer.children(child_of, spare, size), layer.keys
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
