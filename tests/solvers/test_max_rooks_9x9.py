"""The published 9x9 distribution (``benchmarks/results/max_rooks_9x9.csv``, written by
``benchmarks/max_rooks_9x9.py`` from a ``boardsweep run``), checked by methods that share no
code with the dynamic program that made it:

- every wall count ``w`` holds exactly ``C(81, w)`` patterns;
- the rows of few walls and of few open cells, counted by hand;
- the rows of 2 and 3 walls and of 3 open cells, every pattern solved by the matching kernel;
- random boards at three wall densities, solved by the matching kernel, fit the table's
  probabilities (a chi-square test per density at a fixed seed).
"""

from __future__ import annotations

import csv
import itertools
from collections import Counter
from math import comb
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2

from boardsweep.solvers.max_rooks import make_batch, solve_batch

CSV = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "max_rooks_9x9.csv"
SIDE = 9
CELLS = SIDE * SIDE


@pytest.fixture(scope="module")
def table() -> dict[int, Counter]:
    """``{walls: Counter({max_rooks: boards})}`` from the published CSV."""
    out: dict[int, Counter] = {}
    with CSV.open() as handle:
        for row in csv.DictReader(handle):
            out.setdefault(int(row["walls"]), Counter())[int(row["max_rooks"])] += int(
                row["boards"]
            )
    return out


def test_every_wall_count_holds_every_pattern_once(table):
    assert sorted(table) == list(range(CELLS + 1))
    for w, row in table.items():
        assert sum(row.values()) == comb(CELLS, w), w
        assert all(n > 0 for n in row.values())
    assert sum(sum(row.values()) for row in table.values()) == 2**CELLS


def test_few_walls_and_few_open_cells_by_hand(table):
    # no wall: one rook per row
    assert table[0] == Counter({9: 1})
    # one wall: it splits its row and its column unless it is on the edge; an inner wall
    # lets a tenth rook stand (two in its row, two in its column, a 6x6 permutation besides)
    inner = (SIDE - 2) ** 2
    assert table[1] == Counter({10: inner, 9: CELLS - inner})
    # every cell a wall, then one open cell: no rook, then one
    assert table[CELLS] == Counter({0: 1})
    assert table[CELLS - 1] == Counter({1: CELLS})
    # two open cells: they attack each other only when side by side
    adjacent = 2 * SIDE * (SIDE - 1)
    assert table[CELLS - 2] == Counter({1: adjacent, 2: comb(CELLS, 2) - adjacent})


def _solved(patterns: list[tuple[int, ...]], walls: bool) -> Counter:
    """``Counter({max_rooks: boards})`` of the boards whose listed cells are walls (or the
    only open cells), by the matching kernel."""
    boards = np.full((len(patterns), CELLS), 0 if walls else 1, np.uint8)
    for i, cells in enumerate(patterns):
        boards[i, list(cells)] = 1 if walls else 0
    result = solve_batch(make_batch(list(boards.reshape(-1, SIDE, SIDE))))
    return Counter(result["max_rooks"].tolist())


def test_two_and_three_walls_and_three_open_cells_by_the_matching_kernel(table):
    for w in (2, 3):
        assert table[w] == _solved(list(itertools.combinations(range(CELLS), w)), walls=True)
    assert table[CELLS - 3] == _solved(list(itertools.combinations(range(CELLS), 3)), walls=False)


@pytest.mark.parametrize("density", [0.2, 0.5, 0.8])
def test_random_boards_fit_the_tables_probabilities(table, density):
    """200,000 boards per density, each cell a wall with probability ``density``, against
    ``P(w walls, max m) = boards[w, m] p**w (1-p)**(81-w)``; cells expected fewer than 5
    times are pooled; the test fails below a p-value of 1e-4."""
    rng = np.random.default_rng(2026)
    boards = (rng.random((200_000, SIDE, SIDE)) < density).astype(np.uint8)
    walls = boards.reshape(len(boards), -1).sum(axis=1)
    maxima = solve_batch(make_batch(list(boards)))["max_rooks"]
    seen = Counter(zip(walls.tolist(), maxima.tolist(), strict=True))
    expected = {
        (w, m): n * density**w * (1 - density) ** (CELLS - w) * len(boards)
        for w, row in table.items()
        for m, n in row.items()
    }
    assert set(seen) <= set(expected), set(seen) - set(expected)
    observed, wanted, pooled_observed, pooled_wanted = [], [], 0, 0.0
    for key, e in expected.items():
        if e >= 5:
            observed.append(seen.get(key, 0))
            wanted.append(e)
        else:
            pooled_observed += seen.get(key, 0)
            pooled_wanted += e
    observed.append(pooled_observed)
    wanted.append(pooled_wanted)
    observed, wanted = np.array(observed), np.array(wanted)
    assert abs(wanted.sum() - len(boards)) < 1e-6 * len(boards)
    statistic = float(((observed - wanted) ** 2 / wanted).sum())
    assert len(wanted) > 20  # enough cells for the test to see a wrong row
    assert chi2.sf(statistic, len(wanted) - 1) > 1e-4, (statistic, len(wanted))
