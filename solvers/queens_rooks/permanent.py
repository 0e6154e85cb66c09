"""A second way to count queens and rooks, for ``boardsweep verify`` (the kernels' cross-check).

It shares no code with the kernels: the M queens are placed first (plain loops over the
cells, no symmetry, every M-subset of the allowed cells), and the rooks then fill the rows and
columns the queens left free on the cells no queen attacks: one rook per row and column, so
their placements are the permanent of that 0/1 matrix, by Ryser's formula.  Fast for M <= 2
(the M-subsets).  A free square of at most :data:`EXACT_FREE` rows is summed in int64 (its
partial sums stay below 2**63, :func:`ryser_bound`); a larger one, up to :data:`MAX_FREE`
rows, modulo two primes below 2**31 and rebuilt by the Chinese remainder theorem (a k x k
0/1 permanent is at most k!, below their product).  The sum over the queens is checked
against overflow.  tests/solvers/test_queens_rooks_crosscheck.py checks the method against
brute force and the kernels.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = ["ryser", "ryser_wide", "permanent", "placements", "ryser_bound", "cell", "MAX_FREE"]

EXACT_FREE = 14  # ryser_bound(14) < 2**63 <= ryser_bound(15)
PRIMES = (2147483647, 2147483629)  # the two moduli of ryser_wide (primes below 2**31)
MAX_FREE = 20  # 20! < PRIMES[0] * PRIMES[1] <= 21!: every permanent up to 20 x 20 is exact
_INVERSE = pow(PRIMES[0], -1, PRIMES[1])  # PRIMES[0] ** -1 modulo PRIMES[1]
_LARGEST = np.iinfo(np.int64).max


@njit(cache=True, inline="always")
def _gray_step(a, sums, g, members):
    """Step ``g`` of Ryser's Gray-code walk over the column sets: the one column that enters
    or leaves ``members`` (a bit mask), added to or taken from each row's sum in ``sums``;
    returns the new mask."""
    j = 0
    while (g >> j) & 1 == 0:
        j += 1
    step = -1 if (members >> j) & 1 else 1
    for i in range(a.shape[0]):
        sums[i] += step * a[i, j]
    return members ^ (1 << j)


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
        members = _gray_step(a, sums, g, members)
        sign = -sign
        term = 1
        for i in range(k):
            term *= sums[i]
            if term == 0:
                break
        total += sign * term
    return -total if k % 2 else total


@njit(cache=True)
def ryser_wide(a: np.ndarray) -> int:
    """Permanent of a square 0/1 matrix of at most MAX_FREE rows: Ryser's formula, as
    :func:`ryser`, modulo both PRIMES, joined by the Chinese remainder theorem."""
    p, q = PRIMES
    k = a.shape[0]
    sums = np.zeros(k, np.int64)
    members = 0
    sign = 1
    mod_p = 0
    mod_q = 0
    for g in range(1, 1 << k):
        members = _gray_step(a, sums, g, members)
        sign = -sign
        term_p = 1
        term_q = 1
        for i in range(k):  # each factor is at most k: a product stays below 2**36
            term_p = term_p * sums[i] % p
            term_q = term_q * sums[i] % q
        mod_p = (mod_p + sign * term_p) % p
        mod_q = (mod_q + sign * term_q) % q
    if k % 2:
        mod_p = (p - mod_p) % p
        mod_q = (q - mod_q) % q
    # the x < p * q with x = mod_p (mod p) and x = mod_q (mod q); every factor below 2**31
    return mod_p + p * ((mod_q - mod_p) % q * _INVERSE % q)


@njit(cache=True)
def permanent(a: np.ndarray) -> int:
    """Permanent of a square 0/1 matrix of at most MAX_FREE rows, exactly."""
    if a.shape[0] <= EXACT_FREE:
        return ryser(a)
    return ryser_wide(a)


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
            found = permanent(a)
            if found > _LARGEST - total:
                raise OverflowError("the count passes 2**63 - 1")
            total += found
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
        raise ValueError(f"{n - m} rooks: more than {MAX_FREE}, the permanent is not exact")
    return int(placements(n, m, np.full(n, -1, np.int64)))
