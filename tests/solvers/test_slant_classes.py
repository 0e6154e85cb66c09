"""Slant's root class and shape rules (solvers.slant.classes.settle).

Checked three ways, none sharing code with ``classes.py``: against every solution of small
puzzles by brute force (a cell it decides has that slash in every solution, and it never
refutes a puzzle that has one); against the deduction engine of :mod:`solvers.slant.levels`
(every cell Tatham's Hard rules decide, it decides the same way); and on Hard puzzles,
which it must fill without a trial.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.slant import classes, levels, state
from boardsweep.solvers.slant.format import read_game_id
from tests.solvers.test_slant_difficulty import TATHAM_GRADED, clue_array, puzzles


def root(rows: int, cols: int, clues: np.ndarray) -> tuple[bool, np.ndarray]:
    """The root's rules 1-3, then settle: (no contradiction, the cells, -1 undecided)."""
    ws, st = state.make_workspace(clues.shape[0])
    state.reset(ws, st, rows, cols, clues)
    ok = state.propagate(ws, st, rows, cols) and classes.settle(ws, st, rows, cols)
    return bool(ok), ws[state._CELL, : rows * cols].copy()


def valid(rows: int, cols: int, grid: tuple[int, ...], clues: np.ndarray) -> bool:
    """Whether ``grid`` (0 '/', 1 '\\' per cell) meets every clue and closes no loop."""
    width = cols + 1
    touches = [0] * ((rows + 1) * width)
    parent = list(range(len(touches)))

    def find(p: int) -> int:
        while parent[p] != p:
            p = parent[p]
        return p

    for r, c in itertools.product(range(rows), range(cols)):
        tl = r * width + c
        a, b = (tl, tl + width + 1) if grid[r * cols + c] else (tl + 1, tl + width)
        touches[a] += 1
        touches[b] += 1
        ra, rb = find(a), find(b)
        if ra == rb:
            return False
        parent[ra] = rb
    return all(k < 0 or touches[p] == k for p, k in enumerate(clues))


def all_solutions(rows: int, cols: int, clues: np.ndarray) -> list[tuple[int, ...]]:
    return [g for g in itertools.product((0, 1), repeat=rows * cols) if valid(rows, cols, g, clues)]


def random_puzzles(count: int, seed: int):
    """Small puzzles with a solution: a random loop-free grid's clues, some taken away, and
    some with a clue changed (which may leave none)."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        rows, cols = (3, 3) if made % 3 == 0 else ((3, 4) if made % 3 == 1 else (4, 3))
        grid = tuple(int(v) for v in rng.integers(0, 2, rows * cols))
        if not valid(rows, cols, grid, np.full((rows + 1) * (cols + 1), -1)):
            continue
        width = cols + 1
        clues = np.zeros((rows + 1) * width, np.int8)
        for r, c in itertools.product(range(rows), range(cols)):
            tl = r * width + c
            for p in (tl, tl + width + 1) if grid[r * cols + c] else (tl + 1, tl + width):
                clues[p] += 1
        clues[rng.random(clues.shape[0]) < rng.uniform(0.2, 0.6)] = -1
        if made % 5 == 4:
            p = int(rng.integers(clues.shape[0]))
            clues[p] = int(rng.integers(0, 5))
        made += 1
        yield rows, cols, clues


@pytest.fixture(scope="module")
def small():
    return [(r, c, k, all_solutions(r, c, k)) for r, c, k in random_puzzles(150, 5)]


def test_brute_force_itself_sees_loops_and_clues():
    # 1 x 1: a 1 clue at the top-left corner wants '\\'; a 2 x 2 diamond is a loop
    one = np.array([1, -1, -1, -1], np.int8)
    assert all_solutions(1, 1, one) == [(1,)]
    assert not valid(2, 2, (0, 1, 1, 0), np.full(9, -1, np.int8))
    assert valid(2, 2, (1, 1, 1, 1), np.full(9, -1, np.int8))


def test_settle_decides_only_what_every_solution_shares(small):
    refuted = decided = 0
    for rows, cols, clues, sols in small:
        ok, cells = root(rows, cols, clues)
        if not sols:
            refuted += not ok
        else:
            assert ok, (rows, cols, clues.tolist())
            for i in np.flatnonzero(cells >= 0):
                assert all(s[i] == cells[i] for s in sols), (rows, cols, clues.tolist(), i)
                decided += 1
        # and the search built on it still counts the solutions (up to 2)
        got = slant.solve_batch(
            {
                "rows": np.array([rows]),
                "cols": np.array([cols]),
                "offsets": np.array([0, clues.shape[0]]),
                "clues": clues,
            }
        )
        assert int(got["status"][0]) == min(len(sols), 2), (rows, cols, clues.tolist())
        if sols:
            assert tuple(int(v) for v in got["solution"]) in sols
    assert decided > 500 and refuted > 0  # the sample exercises both


def test_settle_decides_everything_tathams_hard_rules_do(small):
    s = levels.make_scratch(64)
    compared = 0
    for rows, cols, clues, _ in small:
        if levels.deduce(rows, cols, clues, levels.HARD, s) == 0:
            continue  # his rules refute it; settle need not
        theirs = s.ws[0, : rows * cols]
        ok, ours = root(rows, cols, clues)
        assert ok
        known = theirs >= 0
        assert np.array_equal(ours[known], theirs[known]), (rows, cols, clues.tolist())
        compared += int(known.sum())
    assert compared > 500


@pytest.mark.parametrize("rows, cols", [(5, 5), (8, 8), (10, 12)])
def test_hard_puzzles_are_settled_without_a_trial(rows, cols):
    batch = slant.generate(cols, 6, seed=21, rows=rows, difficulty="hard")
    s = levels.make_scratch((rows + 1) * (cols + 1))
    for r, c, clues in puzzles(batch):
        assert levels.deduce(r, c, clues, levels.EASY, s) == 2  # the easy rules stall
        assert levels.deduce(r, c, clues, levels.HARD, s) == 1
        ok, cells = root(r, c, clues)
        assert ok and np.array_equal(cells, s.ws[0, : r * c])


def test_tathams_hard_puzzles_are_settled():
    s = levels.make_scratch(13 * 11)
    for gid, grade in TATHAM_GRADED:
        if grade != "hard":
            continue
        r, c, text = read_game_id(gid)
        clues = clue_array(text)
        ok, cells = root(r, c, clues)
        assert levels.deduce(r, c, clues, levels.HARD, s) == 1
        assert ok and np.array_equal(cells, s.ws[0, : r * c]), gid


# a 30 x 30 Hard puzzle from Tatham's generator whose settling needs a dead end with two ways
# out to refuse, still, the one cell that would join it to another dead end (rule 4 once
# stopped looking at the second way out)
DEAD_ENDS_30 = (
    "30x30:b11111l1l31b1b2a1a13a32a11a12a113b4b22a3a2a1a3121a1a13a22b3a11d3a1a13b3c22a1b313a1"
    "a2a2e23b13a3a2b12b2a2231b1122d2f3223a2a13a3b2h321b11a2d2b212c213a121b122a11a121a3b2a2a2a"
    "2e3a31a222f3b3a3b21b3b3b2b13c33d2b1b3b13122a1123b2b2b2322121a3a22a1b1b1a3a11a3b2f32c2d32"
    "2133a2c2b33b323d2a2d21b12211a23d3b2321a3a1a2231b3b1a1a3a13a1a2a12a2a23a22b2c222b1a33a113"
    "b313a11b122a2a3d1b1a21e1c2a1d2a1a2b31a2a2a32b322221a3d22322a2a1b233d3e1b132a21b1f1b3b2a1"
    "a12e11d2a11a11d33c2123a3f11a3a22a2b12b3a23a1212b13b12c32d1c1c322d32d231a12b1b13b1c2c2a12"
    "a121a223a132d3a313b33a3b312a232a12c12b1b12313b2c1c2b1a2b2b1b22c22a2a2212b1b2a22a1a1c3a2a"
    "3e312a2c2a1311c11c2a2a1b22b21b213b2a21b2c1a12a21a31b1b1a12a12d3a3f1b11a1b1j1e"
)


def test_a_dead_end_refuses_a_join_with_another_after_two_ways_out():
    r, c, text = read_game_id(DEAD_ENDS_30)
    clues = clue_array(text)
    s = levels.make_scratch(clues.shape[0])
    assert levels.deduce(r, c, clues, levels.HARD, s) == 1
    ok, cells = root(r, c, clues)
    assert ok and np.array_equal(cells, s.ws[0, : r * c])
