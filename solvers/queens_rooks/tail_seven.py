"""The seven-row bulk tail of the whole-row kernel: 5040 completions scored by halves.

Notation as in :mod:`.kernel`; the five-row tail it replaces where it applies is
:func:`.free._tail`, whose per-cell masks it reuses in one 64-bit word per cell and mask kind.

The cells of the 7 x 7 group of open rows (tail row i, column index j) are ``x = 7 i + j``. Per
cell, two words:

- *lone* ``L[x]``: bit x when both diagonals of x are empty of placed pieces, and every bit of
  the kill field (bits ``_CELLS`` .. 63) set;
- *cut* ``C[x]``: the cells of the group sharing a diagonal with x (the clash of the five-row
  tail), and in the kill field bit ``_CELLS + p`` for each free piece that a piece on x makes
  non-free, p the position of that piece's row in the search order (placed rows come first).

A completion P (one cell per open row and column) then has ``k + popcount(v) - _KILL_BITS``
free pieces, ``v = OR_P L & ~OR_P C``: a lone cell of P counts unless another cell of P shares
a diagonal with it, and each free piece taken away clears its bit of the kill field once, even
when it is hit twice.  Rows 0-3 of the group are OR-ed per column order into 840 *quads* and
rows 4-6 into 210 *triples*, each filed under its set of three columns (the quad under the
complement of its four), so a completion is one quad and one triple of the same set: two ORs,
an and-not and a popcount.  The kill field holds ``_KILL_BITS`` = 15 placed pieces, so the tail
serves n <= ``MAX_N`` = 22.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from ..bitops import ctz, popcount
from .bits import _U1

__all__: list[str] = []  # private: reached through the whole-row kernel

ROWS = 7  # open rows the tail finishes
_CELLS = ROWS * ROWS
_KILL_BITS = 64 - _CELLS  # placed pieces the kill field can name
MAX_N = ROWS + _KILL_BITS  # largest board the tail serves
NODES = 7 + 42 + 210 + 840 + 2520 + 5040 + 5040  # the tree of seven rows into seven columns
_KILL_FIELD = ((_U1 << uint64(_KILL_BITS)) - _U1) << uint64(_CELLS)
_SETS = 35  # three-column sets of seven columns
_QUADS = 24  # orders of four columns
_TRIPLES = 6  # orders of three columns
LANES = _TRIPLES  # tallies, one per triple of a set, so neighbouring adds hit different words
TALLY = 32  # tally slots per free count: popcount(v) <= 7 + _KILL_BITS < 32
_TOP = uint64(1) << uint64(63)  # keeps ctz of a partner defined where it is not read
_SHIFT = uint64(63)


@njit(cache=True, nogil=True)
def set_numbers() -> np.ndarray:
    """``numbers[m]`` for a 7-bit column mask m of three columns: its set's index, 0..34."""
    numbers = np.full(1 << ROWS, -1, np.int64)
    count = 0
    for m in range(1 << ROWS):
        if popcount(uint64(m)) == 3:
            numbers[m] = count
            count += 1
    return numbers


@njit(cache=True, nogil=True)
def applies(n: int, fixed: np.ndarray, widest: int) -> bool:
    """Whether this tail finishes a search of ``fixed`` (-1: open row) capped at ``widest`` rows.

    The search places the forced rows first, so its last seven rows are open when seven are.
    """
    return widest >= ROWS and ROWS < n <= MAX_N and (fixed < 0).sum() >= ROWS


@njit(cache=True, nogil=True)
def scratch(n: int):
    """The tail's scratch arrays for boards of n rows, as one tuple (see :func:`_tail_seven`)."""
    return (
        np.zeros(4 * _CELLS, np.uint64),  # L, C, then each cell's sum and difference diagonal
        np.zeros(2 * _SETS * _QUADS, np.uint64),  # quads: L words, then C words
        np.zeros(2 * _SETS * _TRIPLES, np.uint64),  # triples: L words, then C words
        np.zeros(2 * _SETS, np.int64),  # quads, then triples, filed per set so far
        np.zeros(2 * n, np.uint64),  # cells of the group per sum diagonal (left zeroed)
        np.zeros(2 * n, np.uint64),  # ... per difference diagonal (left zeroed)
    )


@njit(cache=True, nogil=True)
def _tail_seven(
    n, rows, rest, occ_s, occ_t, iso_s, iso_t, k, partner_s, partner_t, position, numbers, work,
    tally,
):  # fmt: skip
    """Add the 5040 ways to finish seven open ``rows`` in the columns of ``rest`` to ``tally``.

    Placed pieces as in :func:`.free._place_free` (diagonals ``occ_*``, free ones ``iso_*``,
    ``k`` of them, ``partner_*``); ``position[r]`` is the place of placed row r in the search
    order (0 for rows not placed); ``numbers`` is :func:`set_numbers`; ``work`` is
    :func:`scratch`.  ``tally[lane, k, c]`` (uint64 [LANES, n + 1, TALLY]) gains the
    completions with ``k - _KILL_BITS + c`` free pieces.
    """
    cells, quads, triples, filed, on_s, on_t = work
    cut0 = _CELLS  # offsets of the C words, then of the diagonals, in ``cells``
    sum0 = 2 * _CELLS
    dif0 = 3 * _CELLS
    columns = np.empty(ROWS, np.uint64)
    left = rest
    for j in range(ROWS):
        b = left & (~left + _U1)
        columns[j] = b
        left ^= b
    shift = uint64(n - 1)
    for i in range(ROWS):
        r = uint64(rows[i])
        for j in range(ROWS):
            x = ROWS * i + j
            bs = columns[j] << r
            bt = (columns[j] << shift) >> r
            s = ctz(bs)
            t = ctz(bt)
            # the free pieces a piece here takes away, by their place in the order: the free
            # piece on sum diagonal s (or difference diagonal t) has the row (s - t' + n - 1) / 2,
            # t' its other diagonal (its partner); branch-free, every shift kept below 64
            hit_s = uint64(0) - uint64(1 if (iso_s & bs) != 0 else 0)
            hit_t = uint64(0) - uint64(1 if (iso_t & bt) != 0 else 0)
            row_s = ((s + shift - ctz(partner_t[s] | _TOP)) >> uint64(1)) & _SHIFT
            row_t = ((ctz(partner_s[t] | _TOP) + shift - t) >> uint64(1)) & _SHIFT
            kill_s = _U1 << uint64(_CELLS + position[row_s])
            kill_t = _U1 << uint64(_CELLS + position[row_t])
            lone = uint64(1 if ((occ_s & bs) | (occ_t & bt)) == 0 else 0) << uint64(x)
            cells[x] = lone | _KILL_FIELD
            cells[cut0 + x] = (kill_s & hit_s) | (kill_t & hit_t)
            cells[sum0 + x] = s
            cells[dif0 + x] = t
            on_s[s] |= _U1 << uint64(x)
            on_t[t] |= _U1 << uint64(x)
    for x in range(_CELLS):
        s = cells[sum0 + x]
        t = cells[dif0 + x]
        cells[cut0 + x] |= (on_s[s] | on_t[t]) & ~(_U1 << uint64(x))
    for x in range(_CELLS):
        on_s[cells[sum0 + x]] = 0
        on_t[cells[dif0 + x]] = 0
    _file_quads(cells, numbers, quads, filed)
    _file_triples(cells, numbers, triples, filed)
    _pair(quads, triples, tally, k)


@njit(cache=True, nogil=True, inline="always")
def _file_quads(cells, numbers, quads, filed):
    """OR rows 0-3 over every order of four columns; file each under its other three columns."""
    cut0 = _CELLS
    cut_q = _SETS * _QUADS
    for g in range(_SETS):
        filed[g] = 0
    every = uint64((1 << ROWS) - 1)
    c0s = every
    while c0s != 0:
        b0 = c0s & (~c0s + _U1)
        c0s ^= b0
        x0 = ctz(b0)
        l0 = cells[x0]
        k0 = cells[cut0 + x0]
        c1s = every ^ b0
        while c1s != 0:
            b1 = c1s & (~c1s + _U1)
            c1s ^= b1
            x1 = ROWS + ctz(b1)
            l1 = l0 | cells[x1]
            k1 = k0 | cells[cut0 + x1]
            c2s = every ^ b0 ^ b1
            while c2s != 0:
                b2 = c2s & (~c2s + _U1)
                c2s ^= b2
                x2 = 2 * ROWS + ctz(b2)
                l2 = l1 | cells[x2]
                k2 = k1 | cells[cut0 + x2]
                c3s = every ^ b0 ^ b1 ^ b2
                while c3s != 0:
                    b3 = c3s & (~c3s + _U1)
                    c3s ^= b3
                    x3 = 3 * ROWS + ctz(b3)
                    g = numbers[every ^ b0 ^ b1 ^ b2 ^ b3]
                    slot = _QUADS * g + filed[g]
                    filed[g] += 1
                    quads[slot] = l2 | cells[x3]
                    quads[cut_q + slot] = k2 | cells[cut0 + x3]


@njit(cache=True, nogil=True, inline="always")
def _file_triples(cells, numbers, triples, filed):
    """OR rows 4-6 over every order of three columns; file each under its three columns."""
    cut0 = _CELLS
    cut_t = _SETS * _TRIPLES
    for g in range(_SETS):
        filed[_SETS + g] = 0
    every = uint64((1 << ROWS) - 1)
    c4s = every
    while c4s != 0:
        b4 = c4s & (~c4s + _U1)
        c4s ^= b4
        x4 = 4 * ROWS + ctz(b4)
        l4 = cells[x4]
        k4 = cells[cut0 + x4]
        c5s = every ^ b4
        while c5s != 0:
            b5 = c5s & (~c5s + _U1)
            c5s ^= b5
            x5 = 5 * ROWS + ctz(b5)
            l5 = l4 | cells[x5]
            k5 = k4 | cells[cut0 + x5]
            c6s = every ^ b4 ^ b5
            while c6s != 0:
                b6 = c6s & (~c6s + _U1)
                c6s ^= b6
                x6 = 6 * ROWS + ctz(b6)
                g = numbers[b4 | b5 | b6]
                slot = _TRIPLES * g + filed[_SETS + g]
                filed[_SETS + g] += 1
                triples[slot] = l5 | cells[x6]
                triples[cut_t + slot] = k5 | cells[cut0 + x6]


@njit(cache=True, nogil=True, inline="always")
def _pair(quads, triples, tally, k):
    """Score every quad against every triple of its set: one tally add per completion."""
    cut_q = _SETS * _QUADS
    cut_t = _SETS * _TRIPLES
    t0 = tally[0, k]
    t1 = tally[1, k]
    t2 = tally[2, k]
    t3 = tally[3, k]
    t4 = tally[4, k]
    t5 = tally[5, k]
    for g in range(_SETS):
        b = _TRIPLES * g
        l0, l1, l2 = triples[b], triples[b + 1], triples[b + 2]
        l3, l4, l5 = triples[b + 3], triples[b + 4], triples[b + 5]
        c0, c1, c2 = triples[cut_t + b], triples[cut_t + b + 1], triples[cut_t + b + 2]
        c3, c4, c5 = triples[cut_t + b + 3], triples[cut_t + b + 4], triples[cut_t + b + 5]
        for a in range(_QUADS * g, _QUADS * (g + 1)):
            ql = quads[a]
            qc = quads[cut_q + a]
            t0[popcount((ql | l0) & ~(qc | c0))] += _U1
            t1[popcount((ql | l1) & ~(qc | c1))] += _U1
            t2[popcount((ql | l2) & ~(qc | c2))] += _U1
            t3[popcount((ql | l3) & ~(qc | c3))] += _U1
            t4[popcount((ql | l4) & ~(qc | c4))] += _U1
            t5[popcount((ql | l5) & ~(qc | c5))] += _U1
