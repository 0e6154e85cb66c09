"""Exact distributions over every wall pattern: the program against plain enumeration (the
matching kernel on each of the 2**cells boards, which shares no code with it), split by any
units, and the polynomials against direct sums and a fixed-seed Monte Carlo run."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from boardsweep.solvers.max_rooks import generate, make_batch, max_rooks_dfs, solve_batch
from boardsweep.solvers.max_rooks.exact import histograms, mean_polynomial, moments, polynomials
from boardsweep.solvers.max_rooks.exhaustive import distribution, distribution_units, first_rows


def _enumerated(rows: int, cols: int) -> Counter:
    """``{(walls, max): boards}`` by solving every pattern with the matching kernel."""
    cells = rows * cols
    patterns = np.arange(1 << cells, dtype=np.int64)
    bits = ((patterns[:, None] >> np.arange(cells)) & 1).astype(np.uint8)
    result = solve_batch(make_batch(list(bits.reshape(-1, rows, cols))))
    return Counter(zip(bits.sum(axis=1).tolist(), result["max_rooks"].tolist(), strict=True))


def _as_counter(hist: np.ndarray) -> Counter:
    return Counter({(w, m): int(n) for (w, m), n in np.ndenumerate(hist) if n})


@pytest.mark.parametrize(
    "rows,cols", [(1, 1), (1, 4), (2, 3), (3, 3), (3, 4), (4, 3), (4, 4), (2, 7)]
)
def test_every_pattern_agrees_with_plain_enumeration(rows, cols):
    assert _as_counter(distribution(rows, cols)) == _enumerated(rows, cols)


def test_three_by_three_agrees_with_the_seeds_backtracking_too():
    found = Counter()
    for pattern in itertools.product((0, 1), repeat=9):
        board = np.array(pattern, np.uint8).reshape(3, 3)
        found[(sum(pattern), max_rooks_dfs(board).max_rooks)] += 1
    assert _as_counter(distribution(3, 3)) == found


def test_any_split_into_units_adds_up_to_the_whole():
    whole = _as_counter(distribution(5, 5))
    assert sum(whole.values()) == 2**25
    units = len(first_rows(5)[0])
    assert units == 20  # 32 patterns: 8 are their own mirror, 24 pair up
    for cuts in ([0, units], [0, 1, units], [0, 7, 8, 13, units], list(range(units + 1))):
        total = Counter()
        for lo, hi in itertools.pairwise(cuts):
            total.update(_as_counter(distribution_units(5, 5, lo, hi)[0]))
        assert total == whole


@pytest.mark.parametrize("capacity", [1, 2, 5, 64])
def test_layers_that_outgrow_the_capacity_grow_in_place(capacity):
    # from one state of room, every layer (the first row's too) outgrows its buffers, which
    # double while the layer before is kept; the table and the widest layer are unchanged
    small = distribution_units(4, 4, 0, len(first_rows(4)[0]), capacity=capacity)[0]
    assert _as_counter(small) == _enumerated(4, 4)
    units = len(first_rows(5)[0])
    whole, widest = distribution_units(5, 5, 0, units, capacity=1 << 14)
    grown, grown_widest = distribution_units(5, 5, 0, units, capacity=capacity)
    assert widest > 64 * 8  # so each small capacity doubles several times
    assert _as_counter(grown) == _as_counter(whole) and grown_widest == widest


def test_counts_stay_exact_past_64_bits():
    # a 1 x 100 board: the maximum is the number of runs of open cells, and the patterns with
    # w walls and k runs number C(w + 1, k) C(99 - w, k - 1), up to about 1e29 (> 2**64)
    hist = distribution(1, 100)
    expected = Counter({(100, 0): 1})
    for w in range(100):
        for k in range(1, w + 2):
            if comb(w + 1, k) * comb(99 - w, k - 1):
                expected[(w, k)] = comb(w + 1, k) * comb(99 - w, k - 1)
    assert max(expected.values()) > 2**64
    assert _as_counter(hist) == expected and sum(expected.values()) == 2**100


def test_polynomials_sum_to_one_and_match_direct_sums():
    hist = histograms(_table(4, 4))[(4, 4)]
    polys = polynomials(hist, 16)
    assert [sum(c) for c in zip(*polys.values(), strict=True)] == [1] + [0] * 16
    p = Fraction(2, 7)
    for m, coeffs in polys.items():
        direct = sum(n * p**w * (1 - p) ** (16 - w) for (w, mm), n in hist.items() if mm == m)
        assert sum(a * p**k for k, a in enumerate(coeffs)) == direct
    mean, _ = moments(hist, 16, p)
    assert sum(a * p**k for k, a in enumerate(mean_polynomial(hist, 16))) == mean
    assert moments(hist, 16, Fraction(0))[0] == 4  # no walls: one rook per row
    assert moments(hist, 16, Fraction(1)) == (0, 0)  # all walls
    # numpy integer keys and counts (as a report builds them) must not wrap around
    big = histograms(_table(6, 6))[(6, 6)]
    as_numpy = {(np.int64(w), np.int64(m)): np.int64(n) for (w, m), n in big.items()}
    assert moments(as_numpy, 36, Fraction(1, 2)) == moments(big, 36, Fraction(1, 2))


def test_a_fixed_seed_monte_carlo_run_lies_in_the_exact_99_9_percent_interval():
    hist = histograms(_table(5, 5))[(5, 5)]
    for density in (0.2, 0.5):
        boards = 40_000
        maxima = solve_batch(generate(5, density, boards, seed=2026, rows=5))["max_rooks"]
        mean, variance = moments(hist, 25, density)
        half = 3.2905 * (variance / boards) ** 0.5  # two-sided 99.9%
        assert abs(maxima.mean() - mean) < half, (density, maxima.mean(), mean, half)


def _table(rows, cols):
    from boardsweep.solvers.max_rooks.exact import EXHAUSTIVE

    point = EXHAUSTIVE.points({"rows": (rows,), "cols": (cols,)})[0]
    return EXHAUSTIVE.compute(point, 0, point.units)


@pytest.mark.parametrize("cells", [100, 127])
def test_a_single_row_of_up_to_127_cells_matches_the_count_of_segments(cells):
    """A 1 x n board holds one rook per run of open cells: the patterns with w walls and m
    runs number C(w + 1, m) * C(n - w - 1, m - 1) (the runs placed between the walls, their
    lengths a composition of the open cells), a formula that shares nothing with the program."""
    hist = distribution(1, cells)
    for w in range(cells + 1):
        for m in range(hist.shape[1]):
            want = (
                (1 if m == 0 else 0)
                if w == cells
                else (comb(w + 1, m) * comb(cells - w - 1, m - 1) if m >= 1 else 0)
            )
            assert int(hist[w, m]) == want, (w, m)


def test_the_exhaustive_job_accepts_every_side_up_to_127_cells():
    from boardsweep.solvers.max_rooks.exact import EXHAUSTIVE
    from boardsweep.solvers.schema import ParamError

    EXHAUSTIVE.check(EXHAUSTIVE.params.check({"rows": [1], "cols": [100, 127]}))
    with pytest.raises(ParamError, match="2 x 64: .* at most 127 cells"):
        EXHAUSTIVE.check(EXHAUSTIVE.params.check({"rows": [2], "cols": [64]}))
    with pytest.raises(ParamError, match="128 is out of range"):
        EXHAUSTIVE.params.check({"rows": [1], "cols": [128]})
