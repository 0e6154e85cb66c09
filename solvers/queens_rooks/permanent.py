"""A second way to count queens and rooks, for ``boardsweep verify`` (the kernels' cross-check).

It shares no code with the kernels: the M queens are placed first (plain loops over the
cells, no symmetry, every M-subset of the allowed cells), and the rooks then fill the rows and
columns the queens left free on the cells no queen attacks: one rook per row and column, so
their placements are the permanent of that 0/1 matrix, by Ryser's formula.  Fast for M <= 2
(the M-subsets) and a free square of at most :data:`MAX_FREE` rows (the permanent's partial
sums stay below 2**63, :func:`ryser_bound`).  tests/solvers/test_queens_rooks_crosscheck.py
checks the method against brute force and the kernels.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["ryser", "placements", "ryser_bound", "cell", "MAX_FREE"]

MAX_FREE = 14  # ryser_bound(14) < 2**63 <= ryser_bound(15)


@njit(cache=True)
def ryser(a: np.ndarray) -> int:
    """Permanent of a square 0/1 matrix: (-1)^k sum over column sets S of (-1)^|S| prod_i
    (row i's sum over S), S visited in Gray-code order (one column in or out per step)."""
    k = a.shape[0]
    if k == 0:
        return 1
    sums = np.zeros(k, np.int64)
    members = 0
    sign = 1
    total = 0
    for g in range(1, 1 << k):
        j = 0
        while (g >> j) & 1 == 0:
            j += 1
        step = -1 if (members >> j) & 1 else 1
        members ^= 1 << j
        for i in range(k):
            sums[i] += step * a[i, j]
        sign = -sign
        term = 1
        for i in range(k):
            term *= sums[i]
            if term == 0:
                break
        total += sign * term
    return -total if k % 2 else total


@njit(cache=True)
def placements(n: int, m: int, fixed: np.ndarray) -> int:
    """Placements of m queens and n - m rooks on the n x n board, none attacked, whose pieces
    stand on the cells (r, fixed[r]) of the rows with fixed[r] >= 0 (queen or rook)."""
    taken = np.zeros(n, np.bool_)  # columns of the forced pieces
    for r in range(n):
        if fixed[r] >= 0:
            taken[fixed[r]] = True
    cells = np.empty((n * n, 2), np.int64)  # where a queen may stand
    count = 0
    for r in range(n):
        for c in range(n):
            if (fixed[r] == c) or (fixed[r] < 0 and not taken[c]):
                cells[count, 0] = r
                cells[count, 1] = c
                count += 1
    if m > count:
        return 0
    pick = np.arange(m)
    qrow = np.zeros(n, np.bool_)
    qcol = np.zeros(n, np.bool_)
    rows = np.empty(n, np.int64)
    cols = np.empty(n, np.int64)
    total = 0
    while True:
        ok = True
        for x in range(m):  # the queens do not attack one another
            for y in range(x):
                dr = cells[pick[x], 0] - cells[pick[y], 0]
                dc = cells[pick[x], 1] - cells[pick[y], 1]
                if dr == 0 or dc == 0 or dr == dc or dr == -dc:
                    ok = False
        if ok:
            qrow[:] = False
            qcol[:] = False
            for x in range(m):
                qrow[cells[pick[x], 0]] = True
                qcol[cells[pick[x], 1]] = True
            for r in range(n):  # a forced piece that is no queen is a rook: off the diagonals
                if fixed[r] >= 0 and not qrow[r]:
                    for x in range(m):
                        dr = r - cells[pick[x], 0]
                        dc = fixed[r] - cells[pick[x], 1]
                        if dr == dc or dr == -dc:
                            ok = False
        if ok:
            k = 0
            for r in range(n):
                if fixed[r] < 0 and not qrow[r]:
                    rows[k] = r
                    k += 1
            k = 0
            for c in range(n):
                if not taken[c] and not qcol[c]:
                    cols[k] = c
                    k += 1
            a = np.ones((k, k), np.int64)
            for i in range(k):
                for j in range(k):
                    for x in range(m):
                        dr = rows[i] - cells[pick[x], 0]
                        dc = cols[j] - cells[pick[x], 1]
                        if dr == dc or dr == -dc:
                            a[i, j] = 0
            total += ryser(a)
        # the next m-subset of the cells, in lexicographic order
        x = m - 1
        while x >= 0 and pick[x] == count - m + x:
            x -= 1
        if x < 0:
            return total
        pick[x] += 1
        for y in range(x + 1, m):
            pick[y] = pick[y - 1] + 1


def ryser_bound(k: int) -> int:
    """A bound on every partial sum of Ryser's formula for a k x k 0/1 matrix: the sum over
    column sets S of |S|^k (each row's sum over S is at most |S|)."""
    return sum(math.comb(k, s) * s**k for s in range(k + 1))


def cell(n: int, m: int) -> int:
    """placements(M, n - M) on the whole n x n board by this method (n - m <= MAX_FREE)."""
    if n - m > MAX_FREE:
        raise ValueError(f"{n - m} rooks: the permanent could overflow int64")
    return int(placements(n, m, np.full(n, -1, np.int64)))
