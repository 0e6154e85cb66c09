"""Queens and rooks, the published triangle (``data/queens_rooks_triangle.txt``, which the
manual's queens-and-rooks page shows) against the kernel and against a method that shares no
code with the kernels: the M queens are placed first (plain loops over the cells, no symmetry),
and the rooks then fill the rows and columns the queens left free, on the cells no queen
attacks: one rook per row and column, so their placements are the permanent of that 0/1
matrix, computed here by Ryser's formula.

What is compared:

- rows 1 to 12 of the triangle file with the kernel's whole-row search (under a second of one
  core for all of them);
- whole cells (M = 0, 1, 2) of rows 13, 14 and 15 of the file with the method, and each
  row's last cell (M = n) with the n-queens counts of OEIS A000170; and cells of row 13 with
  the kernel through the contract, its work units split at random places (the whole row 13
  search is ~5 s of one core; row 14 takes ~1 min and row 15 ~15 min, too long for CI, so
  their whole cells are checked against the file's figures rather than recomputed);
- the kernel's count below sampled work units of rows 14 and 15 (each unit fixes the pieces
  of a few rows) for M = 0..3, against the same method with those pieces forced.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path

import numpy as np
import pytest

from boardsweep.solvers import queens_rooks as qr
from boardsweep.solvers.prefixes import Prefixes
from boardsweep.solvers.queens_rooks.permanent import placements, ryser, ryser_bound
from tests.contract_driver import run_in_process
from tests.solvers.test_queens_rooks import brute_row

TRIANGLE = Path(__file__).resolve().parents[2] / "data" / "queens_rooks_triangle.txt"
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
# OEIS A000170, n = 13..15: the last cell of a row (M = n queens, no rook) is the n-queens count
A000170_13_TO_15 = {13: 73712, 14: 365596, 15: 2279184}


# ---------------------------------------------------------------------------------- the method
# (solvers.queens_rooks.permanent: `boardsweep verify` uses it as the second method)


def cell(n: int, m: int) -> int:
    """placements(M, n - M) on the whole board by the method."""
    assert ryser_bound(n - m) < 2**63, "the permanent could overflow int64"
    return int(placements(n, m, np.full(n, -1, np.int64)))


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


@pytest.mark.parametrize("n", range(1, 9))
def test_method_gives_the_known_rows(n):
    wanted = range(min(n, 4) + 1)
    got = [cell(n, m) for m in wanted]
    if n <= 6:  # every permutation, every choice of queens
        assert got == brute_row(n)[: len(wanted)]
    assert got == ROWS_TO_8[n - 1][: len(wanted)] == qr.row(n)[: len(wanted)]


# ---------------------------------------------------------------------------------- whole cells


def published_triangle() -> dict[int, list[int]]:
    """The triangle of ``data/queens_rooks_triangle.txt``: {n: [placements(M, n - M) for M =
    0..n]}, from its lines ``n: v0 v1 ... vn`` (``#`` lines are comments)."""
    rows = {}
    for number, line in enumerate(TRIANGLE.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = re.fullmatch(r"\s*(\d+):((?: \d+)+)\s*", line)
        assert found, f"{TRIANGLE}:{number}: not a line 'n: v0 v1 ... vn'"
        n, values = int(found.group(1)), list(map(int, found.group(2).split()))
        assert len(values) == n + 1 and n not in rows, f"{TRIANGLE}:{number}"
        rows[n] = values
    assert sorted(rows) == list(range(1, len(rows) + 1)), "rows 1, 2, ... in order"
    return rows


def test_published_rows_1_to_12_are_the_kernels():
    published = published_triangle()
    for n in range(1, 13):
        assert published[n] == qr.row(n), n
    assert published[8][: len(ROWS_TO_8[7])] == ROWS_TO_8[7]


@pytest.fixture(scope="module")
def independent() -> dict[int, list[int]]:
    """Cells M = 0, 1, 2 of rows 13, 14 and 15 by the method (a few seconds)."""
    return {n: [cell(n, m) if m else math.factorial(n) for m in WANTED] for n in (13, 14, 15)}


def test_published_rows_13_to_15(independent):
    published = published_triangle()
    assert {13, 14, 15} <= set(published), "the triangle file lost rows 13 to 15"
    for n in (13, 14, 15):
        assert published[n][: len(WANTED)] == independent[n], n
        assert published[n][n] == A000170_13_TO_15[n], n


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


@pytest.mark.parametrize("n, units", [(14, 12), (15, 12)])
def test_kernel_below_sampled_units_of_rows_14_and_15(n, units):
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
