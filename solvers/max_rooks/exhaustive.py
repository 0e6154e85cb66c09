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
``r' <= r``: a monotone function over ``2**(cols+1)`` arguments, stored as int8 (values are
at most the cells decided).  Patterns with equal ``g`` have equal futures, so they share one
*state*, which holds a polynomial in the wall count: ``count[w]`` patterns reach it with
``w`` walls.  Per cell, with column bit ``c`` and row bit ``R``:

- wall: ``g'(x) = g(x | c | R)`` (the column segment and the row segment end);
- open: ``g'(x) = max(g(x), g(x & ~c & ~R) + 1)`` where ``x`` has both ``c`` and ``R`` (a rook
  here), else ``g(x)``;
- after a row's last cell ``g'(x) = g(x | R)`` (a new row segment starts).

After the last cell the maximum of a pattern is ``g(all columns, R)``.  State counts at
square sizes 3..7: 24, 87, 340, 1490, 7756 (measured); cross-checked against the matching
kernel over every pattern at small sizes (tests).

The first row's wall patterns are taken up to the left-right mirror (``p`` and its mirror give
mirrored boards, which have equal maxima): pattern ``u`` is the ``u``-th canonical one in
increasing order, counted twice when it is not its own mirror.  :func:`distribution_units`
runs any range of them as one program (they share every state from the second row on).
Counts are two uint64 limbs (exact below ``2**128``), so boards have at most
:data:`MAX_CELLS` cells.
"""

from __future__ import annotations

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
MAX_NARROW = 9  # the narrow side: a state has 2**(narrow+1) entries
_EMPTY = -1
_MASK64 = (1 << 64) - 1


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


@njit(cache=True, nogil=True)
def _hash(row):
    """FNV-style hash of one state (an int8 vector)."""
    h = np.uint64(1469598103934665603)
    for v in row:
        h = (h ^ np.uint64(v + 128)) * np.uint64(1099511628211)
    return h


@njit(cache=True, nogil=True)
def _insert(keys, m, table, child):
    """Index of state ``child`` in ``keys[:m]`` (added at ``m`` if new); -1 if ``keys`` is
    full.  Returns (index, new m)."""
    mask = table.shape[0] - 1
    slot = np.int64(_hash(child) & np.uint64(mask))
    n = child.shape[0]
    while True:
        at = table[slot]
        if at == _EMPTY:
            if m >= keys.shape[0]:
                return -1, m
            keys[m, :] = child
            table[slot] = m
            return m, m + 1
        same = True
        for x in range(n):
            if keys[at, x] != child[x]:
                same = False
                break
        if same:
            return at, m
        slot = (slot + 1) & mask


@njit(cache=True, nogil=True)
def _add(dst_lo, dst_hi, j, src_lo, src_hi, i, shift, top):
    """``dst[j, w + shift] += src[i, w]`` for ``w < top``, two-limb exact."""
    for w in range(top):
        a = src_lo[i, w]
        b = src_hi[i, w]
        if a == 0 and b == 0:
            continue
        s = dst_lo[j, w + shift] + a
        carry = np.uint64(1) if s < a else np.uint64(0)
        dst_lo[j, w + shift] = s
        dst_hi[j, w + shift] += b + carry


@njit(cache=True, nogil=True)
def _cell(keys, lo, hi, m, col, width, walls_allowed, last, top, nkeys, nlo, nhi, table):
    """Decide one cell for every state of ``keys[:m]`` into the next layer; return its size
    (-1 when the next layer is full).  ``walls_allowed``: 1 open only, 2 wall only, 3 both;
    ``top``: wall counts reached so far (exclusive)."""
    n = keys.shape[1]
    rbit = 1 << width
    cbit = 1 << col
    table[:] = _EMPTY
    child = np.empty(n, np.int8)
    out = 0
    for i in range(m):
        for wall in range(2):
            if not (walls_allowed >> wall) & 1:
                continue
            for x in range(n):
                y = x | rbit if last else x
                if wall == 1:
                    child[x] = keys[i, y | cbit | rbit]
                else:
                    v = keys[i, y]
                    if (y & cbit) and (y & rbit):
                        u = keys[i, y & ~cbit & ~rbit] + 1
                        if u > v:
                            v = u
                    child[x] = v
            j, grown = _insert(nkeys, out, table, child)
            if j < 0:
                return -1
            if grown > out:  # a new state: its counts start at zero
                nlo[j, :] = 0
                nhi[j, :] = 0
                out = grown
            _add(nlo, nhi, j, lo, hi, i, wall, top)
    return out


@njit(cache=True, nogil=True)
def _histogram(keys, lo, hi, m, cells, hist_lo, hist_hi):
    """Fold the final layer into ``hist[w, max]`` (two limbs)."""
    full = keys.shape[1] - 1
    for i in range(m):
        best = keys[i, full]
        for w in range(cells + 1):
            a = lo[i, w]
            b = hi[i, w]
            s = hist_lo[w, best] + a
            carry = np.uint64(1) if s < a else np.uint64(0)
            hist_lo[w, best] = s
            hist_hi[w, best] += b + carry


def _layers(capacity: int, states: int, cells: int) -> tuple[np.ndarray, ...]:
    """One layer's buffers: states (int8 rows) and their counts' low and high limbs."""
    return (
        np.empty((capacity, states), np.int8),
        np.zeros((capacity, cells + 1), np.uint64),
        np.zeros((capacity, cells + 1), np.uint64),
    )


def _moved(layer: tuple[np.ndarray, ...], m: int, capacity: int) -> tuple[np.ndarray, ...]:
    """``layer`` in new buffers of ``capacity`` rows, its first ``m`` rows kept."""
    keys, lo, hi = layer
    bigger = _layers(capacity, keys.shape[1], lo.shape[1] - 1)
    for new, old in zip(bigger, layer, strict=True):
        new[:m] = old[:m]
    return bigger


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

    A layer that outgrows ``capacity`` states doubles it and decides the same cell again from
    the layer before, which is kept: no earlier cell is ever decided twice."""
    cells = length * width
    n = 1 << (width + 1)
    layer = _layers(capacity, n, cells)
    one, other = _layers(1, n, cells), _layers(1, n, cells)
    small = np.empty(16, np.int64)
    index: dict[bytes, int] = {}
    for pattern, weight in zip(patterns, weights, strict=True):
        one[1][0] = 0
        one[1][0, 0] = 1
        one[0][0] = 0
        for col in range(width):  # the first row alone gives one state
            wall = (int(pattern) >> col) & 1
            _cell(*one, 1, col, width, 2 if wall else 1, col == width - 1, col + 1, *other, small)
            one, other = other, one
        j = index.setdefault(one[0][0].tobytes(), len(index))
        if j >= capacity:
            capacity *= 2
            layer = _moved(layer, j, capacity)
        layer[0][j] = one[0][0]
        layer[1][j, int(pattern).bit_count()] += np.uint64(weight)
    m = len(index)
    widest = m
    spare, table = _layers(capacity, n, cells), _table(capacity)
    for t in range(width, cells):
        col = t % width
        while (got := _cell(*layer, m, col, width, 3, col == width - 1, t + 1, *spare, table)) < 0:
            capacity *= 2
            spare = table = None  # freed before the bigger buffers are taken
            layer = _moved(layer, m, capacity)
            spare, table = _layers(capacity, n, cells), _table(capacity)
        m = got
        layer, spare = spare, layer
        widest = max(widest, m)
    keys, lo, hi = layer[0][:m], layer[1][:m], layer[2][:m]
    top = min(cells, int(keys.max(initial=0))) + 1
    hist_lo = np.zeros((cells + 1, max(top, 1)), np.uint64)
    hist_hi = np.zeros_like(hist_lo)
    _histogram(keys, lo, hi, m, cells, hist_lo, hist_hi)
    hist = np.empty(hist_lo.shape, dtype=object)
    for (w, b), a in np.ndenumerate(hist_lo):
        hist[w, b] = int(a) | (int(hist_hi[w, b]) << 64)
    return hist, widest


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
