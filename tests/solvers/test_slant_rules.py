"""Slant's deduction loop: rule 3 (pairs of side-by-side clues) waits on its own queue until
rules 1 and 2 have nothing left, still decides what it should, and leaves no trace on failure."""

from __future__ import annotations

from boardsweep.solvers.slant import state

from .test_slant_walled import _points

_MARKS = state._INQ_BIT | state._INPAIR_BIT  # on the point queue, on the pair queue


def test_a_one_one_pair_forces_the_private_cells():
    # 2 x 3 cells, inner points (1, 1) and (1, 2) both say 1: rule 2 forces nothing (four
    # open cells each), rule 3 makes the shared cells give each exactly one touch, so the
    # four private cells must not touch their point
    rows, cols = 2, 3
    ws, st = state.make_workspace((rows + 1) * (cols + 1))
    state.reset(ws, st, rows, cols, _points(rows, cols, {(1, 1): 1, (1, 2): 1}))
    assert state.propagate(ws, st, rows, cols)
    cell = ws[state._CELL, : rows * cols].reshape(rows, cols)
    assert cell[0, 0] == 0 and cell[1, 0] == 1  # '/' and '\': away from (1, 1)
    assert cell[0, 2] == 1 and cell[1, 2] == 0  # away from (1, 2)
    assert cell[0, 1] == -1 and cell[1, 1] == -1  # the shared cells stay open
    assert st[state._NPAIR] == 0 and not (ws[state._PT] & _MARKS).any()


def test_a_failure_empties_the_pair_queue():
    # the inner 1s reach the pair queue first (the point queue is a stack); the corner's 4
    # then fails rule 2, and no point may stay marked as queued for the next puzzle
    rows, cols = 2, 3
    ws, st = state.make_workspace((rows + 1) * (cols + 1))
    state.reset(ws, st, rows, cols, _points(rows, cols, {(0, 0): 4, (1, 1): 1, (1, 2): 1}))
    assert not state.propagate(ws, st, rows, cols)
    assert st[state._NPAIR] == 0 and not (ws[state._PT] & _MARKS).any()
    assert st[state._NQ] == 0 and st[state._NP] == 0
