"""The debug check of the Slant engine's state (solvers.slant.validate), run on the states
the engine leaves: after assignments, propagation and undos, and mid-search."""

from __future__ import annotations

import numpy as np
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.slant import state
from boardsweep.solvers.slant.kernel import CHECK, search
from boardsweep.solvers.slant.validate import validate_state


def _puzzle(n: int, seed: int, j: int, thin: float) -> np.ndarray:
    """Puzzle ``j`` of ``slant.generate(n, ., seed)`` with about ``thin`` of its clues gone."""
    batch = slant.generate(n, 1, seed, start=j)
    clues = batch["clues"].copy()
    clues[np.random.default_rng([seed, j]).random(clues.shape[0]) < thin] = -1
    return clues


@pytest.mark.parametrize("n, seed", [(5, 1), (8, 2), (13, 3)])
def test_assignments_propagation_and_undos_keep_the_state_sound(n, seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for j in range(4):
        clues = _puzzle(n, seed, j, 0.5)
        ws, st = state.make_workspace(clues.shape[0])
        state.reset(ws, st, n, n, clues)
        assert validate_state(ws, st, n, n) == []
        state.propagate(ws, st, n, n)
        assert validate_state(ws, st, n, n) == []
        marks = []
        for step in range(40):
            open_cells = np.flatnonzero(ws[state._CELL, : n * n] < 0)
            if open_cells.size == 0 or (marks and rng.random() < 0.3):
                if not marks:
                    break
                state.undo_to(ws, st, n, n, marks.pop())
            else:
                marks.append(int(st[state._NTR]))
                i = int(rng.choice(open_cells))
                if state.assign(ws, st, n, n, i, int(rng.integers(2))):
                    state.propagate(ws, st, n, n)
                else:
                    state._fail(ws, st)
            assert validate_state(ws, st, n, n) == [], (j, step)
            checked += 1
            if step == 10 and not st[state._EXON] and not marks:
                assert state.count_exits(ws, st, n, n) in (True, False)
    assert checked > 20


@pytest.mark.parametrize("n, seed", [(6, 1), (10, 2), (21, 3)])
def test_the_search_leaves_a_sound_state_wherever_it_stops(n, seed):
    # the depth-first search stopped after a few nodes, then left to finish: its trail, its
    # components, rule 4's counts and the root's classes hold wherever it is
    checked = 0
    for j in range(3):
        clues = _puzzle(n, seed, j, 0.3)
        ws, st = state.make_workspace(clues.shape[0])
        sol = np.empty(n * n, np.int64)
        first = np.full(n * n, -1, np.int64)
        for budget in (2, 7, 30, 0):
            state.reset(ws, st, n, n, clues)
            search(
                ws, st, n, n, np.int64(2), sol, first, True, np.int64(CHECK), budget, np.int64(-1)
            )
            settled = bool(st[state._EXON])  # the root ran its class rules
            assert validate_state(ws, st, n, n, classes=settled) == [], (j, budget)
            checked += 1
    assert checked == 12


def test_preconnected_points_count_as_one_component():
    n = 4
    P = (n + 1) ** 2
    ws, st = state.make_workspace(P)
    state.reset(ws, st, n, n, np.full(P, -1, np.int8))
    labels = np.arange(P)
    labels[[1, 2, 3]] = 0  # points 0..3 of the top edge joined beyond the grid
    state.preconnect(ws, n, n, labels)
    assert validate_state(ws, st, n, n, labels=labels) == []
    assert validate_state(ws, st, n, n) != []  # without them, the labels join too much
    assert state.assign(ws, st, n, n, 0, 1)  # '\\' in cell 0 joins points 0 and 6
    assert validate_state(ws, st, n, n, labels=labels) == []
    # '/' in cell 1 would join points 2 and 6, joined already through 0 beyond the grid
    assert not state.assign(ws, st, n, n, 1, 0)
    state._fail(ws, st)
    assert validate_state(ws, st, n, n, labels=labels) == []


def _breaks(ws, st, n: int, edit) -> list[str]:
    """What the check says of a copy of the state with ``edit(block, st)`` applied."""
    broken, broken_st = ws.copy(), st.copy()
    edit(broken.block, broken_st)
    return validate_state(broken, broken_st, n, n, classes=True)


_FREE_ONE = 1 << state._FREE_SHIFT  # one undecided cell in a point's word
_CLUE_ONE = 1 << state._CLUE_SHIFT
_QUEUED, _PAIRED = state._INQ_BIT, state._INPAIR_BIT


def test_every_kind_of_slip_is_reported():
    n = 6
    clues = _puzzle(n, 4, 0, 0.4)
    ws, st = state.make_workspace(clues.shape[0])
    state.reset(ws, st, n, n, clues)
    search(
        ws, st, n, n, np.int64(2), np.empty(n * n, np.int64), np.full(n * n, -1, np.int64),
        True, np.int64(CHECK), 3, np.int64(-1),
    )  # fmt: skip
    assert st[state._NTR] >= 2 and st[state._EXON]
    assert validate_state(ws, st, n, n, classes=True) == []
    i = int(ws[state._TR_CELL, 0])
    a = int(ws[state._TR_B, 0])
    p = int(ws[state._TR_A, 0])  # a member of a's component besides a
    assert p != a and ws[state._COMP, p] == a
    slips = {
        "a cell value": lambda b, s: b.__setitem__((state._CELL, i), 2),
        "a touch count": lambda b, s: b.__setitem__((state._PT, 7), b[state._PT, 7] + 1),
        "a free count": lambda b, s: b.__setitem__((state._PT, 7), b[state._PT, 7] - _FREE_ONE),
        "a clue's copy": lambda b, s: b.__setitem__((state._PT, 7), b[state._PT, 7] + _CLUE_ONE),
        "a label": lambda b, s: b.__setitem__((state._COMP, p), p),
        "a list link": lambda b, s: b.__setitem__((state._NEXT, a), a),
        "a size": lambda b, s: b.__setitem__((state._SIZE, a), b[state._SIZE, a] + 1),
        "a trail entry": lambda b, s: s.__setitem__(state._NTR, s[state._NTR] - 1),
        "an undecided cell": lambda b, s: b.__setitem__((state._CELL, i), -1),
        "a queue mark": lambda b, s: b.__setitem__((state._PT, 3), b[state._PT, 3] | _QUEUED),
        "a pair mark": lambda b, s: b.__setitem__((state._PT, 3), b[state._PT, 3] | _PAIRED),
        "an exit count": lambda b, s: b.__setitem__((state._EXITS, a), b[state._EXITS, a] + 1),
        "a class size": lambda b, s: b.__setitem__((state._CSIZE, 0), b[state._CSIZE, 0] + 1),
    }
    for what, edit in slips.items():
        assert _breaks(ws, st, n, edit) != [], what
