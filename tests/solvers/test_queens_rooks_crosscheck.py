"""Queens and rooks, the published triangle (``data/queens_rooks_triangle.txt``, which the
manual's queens-and-rooks page shows) against the kernel and against a method that shares no
code with the kernels: the M queens are placed first (plain loops over the cells, no symmetry),
and the rooks then fill the rows and columns the queens left free, on the cells no queen
attacks: one rook per row and column, so their placements are the permanent of that 0/1
matrix, computed here by Ryser's formula.

What is compared:

- rows 1 to 12 of the triangle file with the kernel's whole-row search (under a second of one
  core for all of them);
- whole cells (M = 0, 1, 2) of rows 13 to 16 of the file with the method (the rooks of
  M = 0 and 1 on rows 15 and 16 fill more than 14 rows, whose permanent is summed modulo two
  primes), M = 0 with n!, and each row's last two cells with the n-queens counts of OEIS
  A000170 (M = n is Q(n); with one rook every piece must be diagonal-free, so M = n - 1 is
  n Q(n)); cells of row 13 with the kernel through the contract, its work units split at
  random places (the whole row 13 search is ~5 s of one core; rows 14 to 16 take from a
  minute to hours, too long for CI, so their whole cells are checked against the file's
  figures rather than recomputed);
- the cells with two and three rooks of rows up to 13 with a third method, a plain search
  that puts a queen or a rook in each row (:mod:`tests.solvers.queens_rooks_rows`;
  ``benchmarks/queens_rooks_row16.py`` checks row 16's two-rook cell with it);
- the kernel's count below sampled work units of rows 14 and 15 (each unit fixes the pieces
  of a few rows) for M = 0..3, against the same method with those pieces forced.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from boardsweep.solvers import queens_rooks as qr
from boardsweep.solvers.prefixes import Prefixes
from boardsweep.solvers.queens_rooks.permanent import (
    MAX_FREE,
    cell,
    permanent,
    placements,
    ryser,
    ryser_bound,
    ryser_wide,
)
from tests.contract_driver import run_in_process
from tests.solvers.queens_rooks_rows import few_rooks, published_triangle
from tests.solvers.test_queens_rooks import brute_row

# placements(M, n - M), M = 0..4, rows n = 1..8 of the triangle (the seed's brute force agrees)
ROWS_TO_8 = [
    [1, 1],
    [2, 0, 0],
    [6, 4, 0, 0],
    [24, 24, 20, 8, 2],
    [120, 168, 132, 100, 50],
    [720, 1184, 996, 432, 120],
    [5040, 9668, 8780, 5288, 2504],
    [40320, 88488, 92632, 59472, 28860],
]
WANTED = (0, 1, 2)  # the M of whole cells checked: two queens place in well under a second
# OEIS A000170, n = 13..16: the last cell of a row (M = n queens, no rook) is the n-queens count
A000170_13_TO_16 = {13: 73712, 14: 365596, 15: 2279184, 16: 14772512}
CHECKED_ROWS = (13, 14, 15, 16)  # the rows whose whole cells M = 0, 1, 2 the method recomputes


def forced(n: int, decisions: list[int]) -> np.ndarray:
    """The pieces a work unit's prefix forces, as fixed[r] (the column of row r, -1 open).

    Decisions, as :mod:`solvers.queens_rooks.symmetry` documents them: the columns of the
    pieces of row 0 and row n-1, the rows of the pieces of column 0 and column n-1, then the
    columns of the other rows in ascending order (-1: nothing more)."""
    top, bottom, left, right, *rest = decisions
    m = n - 1
    fixed = np.full(n, -1, np.int64)
    for r, c in ((0, top), (m, bottom), (left, 0), (right, m)):
        assert fixed[r] in (-1, c)
        fixed[r] = c
    open_rows = [r for r in range(n) if r not in (0, m, left, right)]
    for r, c in zip(open_rows, rest, strict=False):
        if c >= 0:
            fixed[r] = c
    assert len(set(fixed[fixed >= 0].tolist())) == (fixed >= 0).sum()  # a partial permutation
    return fixed


# ---------------------------------------------------------------------------- checks of the method


def test_ryser_knows_small_permanents():
    assert ryser(np.ones((0, 0), np.int64)) == 1
    for k in range(1, 9):
        assert ryser(np.ones((k, k), np.int64)) == math.factorial(k)
        # derangements: the permanent of J - I
        assert ryser(np.ones((k, k), np.int64) - np.eye(k, dtype=np.int64)) == round(
            math.factorial(k) / math.e
        )
    rng = np.random.default_rng(5)
    for _ in range(20):  # against the definition, summed over permutations
        k = int(rng.integers(1, 7))
        a = (rng.random((k, k)) < 0.6).astype(np.int64)
        by_definition = sum(
            all(a[i, p[i]] for i in range(k)) for p in itertools.permutations(range(k))
        )
        assert ryser(a) == by_definition
    assert ryser_bound(14) < 2**63 <= ryser_bound(15)


def derangements(k: int) -> int:
    """The permutations of k things that move every one: D(k) = (k - 1) (D(k - 1) + D(k - 2))."""
    d = [1, 0]
    for j in range(2, k + 1):
        d.append((j - 1) * (d[-1] + d[-2]))
    return d[k]


def test_wide_permanents_are_exact_to_max_free():
    # past 14 rows int64 partial sums overflow: the sum modulo two primes, rebuilt
    for k in (1, 2, 7, 14, 15, 16, 17, 19, MAX_FREE):
        ones = np.ones((k, k), np.int64)
        assert permanent(ones) == ryser_wide(ones) == math.factorial(k), k
        assert permanent(ones - np.eye(k, dtype=np.int64)) == derangements(k), k
    rng = np.random.default_rng(7)
    for _ in range(20):  # the same as the int64 sum where that one is exact
        k = int(rng.integers(1, 13))
        a = (rng.random((k, k)) < 0.7).astype(np.int64)
        assert ryser_wide(a) == ryser(a)
    with pytest.raises(ValueError, match="not exact"):
        cell(MAX_FREE + 1, 0)


@pytest.mark.parametrize("n", range(1, 9))
def test_method_gives_the_known_rows(n):
    wanted = range(min(n, 4) + 1)
    got = [cell(n, m) for m in wanted]
    if n <= 6:  # every permutation, every choice of queens
        assert got == brute_row(n)[: len(wanted)]
    assert got == ROWS_TO_8[n - 1][: len(wanted)] == qr.row(n)[: len(wanted)]


# ---------------------------------------------------------------------------------- whole cells


def test_a_malformed_triangle_is_refused(tmp_path):
    for text in ("1: 1 1\n2: 2 0\n", "1: 1 1\n2: 2 0 0 0\n", "1: 1 1\n3: 6 0 0 0\n", "1 1 1\n"):
        (tmp_path / "t.txt").write_text(text)
        with pytest.raises(ValueError):
            published_triangle(tmp_path / "t.txt")
    (tmp_path / "t.txt").write_text("# comment\n1: 1 1\n\n2: 2 0 0\n")
    assert published_triangle(tmp_path / "t.txt") == {1: [1, 1], 2: [2, 0, 0]}


def test_published_rows_1_to_12_are_the_kernels():
    published = published_triangle()
    for n in range(1, 13):
        assert published[n] == qr.row(n), n
    assert published[8][: len(ROWS_TO_8[7])] == ROWS_TO_8[7]


@pytest.fixture(scope="module")
def independent() -> dict[int, list[int]]:
    """Cells M = 0, 1, 2 of rows 13 to 16 by the method (about ten seconds)."""
    return {n: [cell(n, m) for m in WANTED] for n in CHECKED_ROWS}


def test_published_rows_13_to_16(independent):
    published = published_triangle()
    assert set(CHECKED_ROWS) <= set(published), "the triangle file lost rows 13 to 16"
    for n in CHECKED_ROWS:
        assert independent[n][0] == math.factorial(n), n
        assert published[n][: len(WANTED)] == independent[n], n
        assert published[n][n] == A000170_13_TO_16[n], n
        assert published[n][n - 1] == n * A000170_13_TO_16[n], n


@pytest.mark.parametrize("n", range(1, 14))
def test_plain_search_gives_the_last_cells(n):
    rooks = range(min(n, 3 if n <= 12 else 2) + 1)
    want = [published_triangle()[n][n - r] for r in rooks]
    assert [few_rooks(n, r) for r in rooks] == want
    if n <= 6:
        assert want == brute_row(n)[::-1][: len(want)]


def test_row_13_through_the_kernel_split_at_random(independent):
    job = qr.PROBLEM.check_params({"pairs": [[m, 13 - m] for m in WANTED]})
    table = run_in_process(qr.PROBLEM, job, random.Random(13))["counts"]
    got = dict(
        zip(
            table.column("queens").to_pylist(),
            map(int, table.column("count_text").to_pylist()),
            strict=True,
        )
    )
    assert [got[m] for m in WANTED] == independent[13]


# ---------------------------------------------------------------------------------- sampled units


@pytest.mark.parametrize("n, units", [(15, 12), (16, 12)])
def test_kernel_below_sampled_units_of_rows_15_and_16(n, units):
    point = {"n": n, "queens": [0, 1, 2, 3]}
    total = qr.unit_plan(point)[1]
    start = random.Random(n).randrange(total - units)
    sample = qr.unit_prefixes(point, start, start + units)
    assert sample.choices.shape[1] >= 4  # each unit is one search below forced pieces
    got = qr.count(point, Prefixes(sample.choices, np.ones(units, np.int64))).counts
    for decisions, row in zip(sample.choices.tolist(), got.tolist(), strict=True):
        fixed = forced(n, decisions)
        assert ryser_bound(int((fixed < 0).sum())) < 2**63
        want = [int(placements(n, m, fixed)) for m in point["queens"]]
        assert [int(v) for v in row] == want, decisions
