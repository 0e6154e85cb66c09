"""A third way to count queens and rooks, sharing no code with the kernels or the permanent
method: a plain depth-first search that puts a queen or a rook in each row, for boards with
few rooks (the cells at the end of a row of the triangle).

Row by row, a piece goes in a free column; a queen may not stand on a diagonal of any piece
placed (it would attack it, or be attacked), a rook not on a queen's diagonal (rooks do not
attack along diagonals).  Masks per row: the columns taken, the diagonals of the queens and of
the rooks, shifted one step per row.  The only symmetry used is the mirror left to right: a
placement and its mirror put the first row's piece in columns c and n - 1 - c.

tests/solvers/test_queens_rooks_crosscheck.py checks it against brute force and the published
triangle; ``benchmarks/queens_rooks_row16.py`` checks row 16 with it.  Both read the published
triangle with :func:`published_triangle`.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from numba import njit

__all__ = ["few_rooks"]


@njit(cache=True)
def _below(n: int, rooks: int, first_lo: int, first_hi: int) -> int:
    """Placements of ``rooks`` rooks and n - rooks queens whose first row's piece stands in a
    column of ``first_lo..first_hi - 1``."""
    full = (1 << n) - 1
    cols = np.zeros(n + 1, np.int64)
    queen_up = np.zeros(n + 1, np.int64)  # diagonals of the queens, as they meet row d
    queen_down = np.zeros(n + 1, np.int64)
    rook_up = np.zeros(n + 1, np.int64)  # ... and of the rooks
    rook_down = np.zeros(n + 1, np.int64)
    used = np.zeros(n + 1, np.int64)  # rooks placed in rows 0..d-1
    todo = np.zeros(n + 1, np.int64)  # bit c: a queen in column c; bit n + c: a rook there
    first = ((1 << first_hi) - 1) & ~((1 << first_lo) - 1)
    todo[0] = first | ((first << n) if rooks > 0 else 0)
    if rooks >= n:
        todo[0] &= ~full  # no queen at all
    total = 0
    d = 0
    while d >= 0:
        if todo[d] == 0:
            d -= 1
            continue
        b = todo[d] & -todo[d]
        todo[d] ^= b
        rook = (b >> n) != 0
        placed = used[d] + (1 if rook else 0)
        if d == n - 1:
            if placed == rooks:
                total += 1
            continue
        c = (b >> n) if rook else b
        cols[d + 1] = cols[d] | c
        if rook:
            queen_up[d + 1] = (queen_up[d] << 1) & full
            queen_down[d + 1] = queen_down[d] >> 1
            rook_up[d + 1] = ((rook_up[d] | c) << 1) & full
            rook_down[d + 1] = (rook_down[d] | c) >> 1
        else:
            queen_up[d + 1] = ((queen_up[d] | c) << 1) & full
            queen_down[d + 1] = (queen_down[d] | c) >> 1
            rook_up[d + 1] = (rook_up[d] << 1) & full
            rook_down[d + 1] = rook_down[d] >> 1
        used[d + 1] = placed
        d += 1
        free = full & ~(cols[d] | queen_up[d] | queen_down[d])
        queens = free & ~(rook_up[d] | rook_down[d])
        if d - placed >= n - rooks:
            queens = 0  # every queen is placed: only rooks may come
        todo[d] = queens | ((free << n) if placed < rooks else 0)
    return total


def few_rooks(n: int, rooks: int) -> int:
    """Placements of n - ``rooks`` queens and ``rooks`` rooks on the n x n board, none
    attacked (n <= 31)."""
    if not 1 <= n <= 31 or not 0 <= rooks <= n:
        raise ValueError(f"n = {n}, rooks = {rooks}: want 1 <= n <= 31, 0 <= rooks <= n")
    half = n // 2
    total = 2 * _below(n, rooks, 0, half)
    if n % 2:
        total += _below(n, rooks, half, half + 1)
    return int(total)


TRIANGLE = Path(__file__).resolve().parents[2] / "data" / "queens_rooks_triangle.txt"


def published_triangle(path: Path = TRIANGLE) -> dict[int, list[int]]:
    """The triangle of ``data/queens_rooks_triangle.txt``: {n: [placements(M, n - M) for M =
    0..n]}, from its lines ``n: v0 v1 ... vn`` (``#`` lines are comments); ValueError where a
    line is not one, a row has not n + 1 values or the rows do not run 1, 2, ... in order."""
    rows: dict[int, list[int]] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = re.fullmatch(r"\s*(\d+):((?: \d+)+)\s*", line)
        if not found:
            raise ValueError(f"{path}:{number}: not a line 'n: v0 v1 ... vn'")
        n, values = int(found.group(1)), list(map(int, found.group(2).split()))
        if len(values) != n + 1 or n in rows:
            raise ValueError(f"{path}:{number}: row {n} twice or without {n + 1} values")
        rows[n] = values
    if sorted(rows) != list(range(1, len(rows) + 1)):
        raise ValueError(f"{path}: the rows do not run 1, 2, ... in order")
    return rows
