"""Rule 4 of the Slant engine (a component off the border must be able to take a slash):
the rule itself, and its counts kept exact through the search's assignments and undos."""

from __future__ import annotations

import numpy as np
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.slant import state
from boardsweep.solvers.slant.kernel import CHECK, search


def _points(rows: int, cols: int, clues: dict[tuple[int, int], int]) -> np.ndarray:
    """A clue per point, -1 where ``clues`` (keyed by (y, x)) has none."""
    grid = np.full((rows + 1, cols + 1), -1, np.int8)
    for (y, x), k in clues.items():
        grid[y, x] = k
    return grid.ravel()


def _recount(ws, st: np.ndarray, rows: int, cols: int):
    """Rule 4's counts at every label, computed afresh on a copy of the state."""
    fresh, fresh_st = ws.copy(), st.copy()
    state.count_exits(fresh, fresh_st, rows, cols)
    labels = np.flatnonzero(
        ws[state._COMP, : (rows + 1) * (cols + 1)] == np.arange((rows + 1) * (cols + 1))
    )
    return fresh[state._EXITS, labels], fresh[state._BCNT, labels], labels


def test_a_component_with_no_slash_left_and_off_the_border_is_a_contradiction():
    # 3 x 3 cells; the inner points (1, 1) and (2, 2) both say 1: a '\' in cell (1, 1) joins
    # them and leaves their component nothing more to take, walled in by the other class
    rows = cols = 3
    ws, st = state.make_workspace(16)
    state.reset(ws, st, rows, cols, _points(rows, cols, {(1, 1): 1, (2, 2): 1}))
    assert state.count_exits(ws, st, rows, cols)
    assert not state.assign(ws, st, rows, cols, 1 * cols + 1, 1)
    state.undo_to(ws, st, rows, cols, 0)
    # the same slash with (2, 2) unclued leaves it three cells: no contradiction
    state.reset(ws, st, rows, cols, _points(rows, cols, {(1, 1): 1}))
    assert state.count_exits(ws, st, rows, cols)
    assert state.assign(ws, st, rows, cols, 1 * cols + 1, 1)


def test_a_dead_end_takes_its_one_way_out():
    # 3 x 3 cells; cells (1, 2) and (2, 1) take '\\' and leave the unclued inner point (2, 2)
    # one undecided cell, (2, 2); then a '\\' in cell (1, 1) joins (2, 2) to the clue 1 at
    # (1, 1), which that slash satisfies: the component's one way out is cell (2, 2)
    rows = cols = 3
    ws, st = state.make_workspace(16)
    state.reset(ws, st, rows, cols, _points(rows, cols, {(1, 1): 1}))
    assert state.count_exits(ws, st, rows, cols)
    for r, c in ((1, 2), (2, 1)):
        assert state.assign(ws, st, rows, cols, r * cols + c, 1)
    assert ws[state._FORCED, 2 * cols + 2] == 0
    assert state.assign(ws, st, rows, cols, 1 * cols + 1, 1)
    assert ws[state._FORCED, 2 * cols + 2] == 1 + 1  # '\\' (1) pending
    assert state.propagate(ws, st, rows, cols)
    assert ws[state._CELL, 2 * cols + 2] == 1


def test_counts_are_only_kept_after_count_exits():
    rows = cols = 3
    ws, st = state.make_workspace(16)
    state.reset(ws, st, rows, cols, _points(rows, cols, {(1, 1): 1, (2, 2): 1}))
    assert state.assign(ws, st, rows, cols, 1 * cols + 1, 1)  # the root pays nothing


@pytest.mark.parametrize("n, seed, count", [(6, 1, 6), (8, 2, 6), (12, 3, 6), (51, 4, 2)])
def test_counts_stay_exact_through_a_search(n, seed, count):
    # generated puzzles with clues taken away: the search backtracks, merges and splits
    # components many times; the counts it keeps must equal a fresh count of its state
    # (the counts start at the root, before its class rules and probing)
    rng = np.random.default_rng(seed)
    batch = slant.generate(n, count, seed)
    checked = 0
    for j in range(count):
        clues = batch["clues"][batch["offsets"][j] : batch["offsets"][j + 1]].copy()
        clues[rng.random(clues.shape[0]) < 0.3] = -1  # several solutions, deeper search
        ws, st = state.make_workspace(clues.shape[0])
        sol = np.empty(n * n, np.int64)
        first = np.full(n * n, -1, np.int64)
        for budget in (3, 10, 40, 0):  # stop mid-search, then let it finish
            state.reset(ws, st, n, n, clues)
            # the depth-first search (-1: never clause learning, which leaves the workspace alone)
            search(
                ws, st, n, n, np.int64(2), sol, first, True, np.int64(CHECK), budget, np.int64(-1)
            )
            if st[state._EXON] == 0:
                continue  # the root settled it: no counts kept
            exits, bcnt, labels = _recount(ws, st, n, n)
            assert np.array_equal(ws[state._EXITS, labels], exits)
            assert np.array_equal(ws[state._BCNT, labels], bcnt)
            checked += 1
    assert checked > 0
