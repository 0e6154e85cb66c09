"""The rules both Slant engines share (:mod:`solvers.slant.tatham`), checked on their own: the
ring's order and touching slashes from the grid's geometry, and rule 3's verdicts against every
filling of a point's cells (brute force)."""

from __future__ import annotations

import itertools

import pytest

from boardsweep.solvers.slant import levels, tatham

CELL, CLS = levels.Levels.FIELDS["cell"][0], levels.Levels.FIELDS["cls"][0]
# a shape: the slashes of its pair's (first, second) cell; V and CARET side by side, GT and LT
# stacked
SHAPES = {tatham.V: (1, 0), tatham.CARET: (0, 1), tatham.GT: (1, 0), tatham.LT: (0, 1)}


def _ends(i: int, v: int, C: int) -> tuple[int, int]:
    """The points slash ``v`` of cell ``i`` joins (geometry, written out here)."""
    r, c = divmod(i, C)
    W = C + 1
    tl, tr, bl, br = r * W + c, r * W + c + 1, (r + 1) * W + c, (r + 1) * W + c + 1
    return (tl, br) if v == 1 else (tr, bl)


@pytest.mark.parametrize(("R", "C"), [(1, 1), (2, 3), (4, 4), (3, 5)])
def test_the_ring_holds_every_cell_at_a_point_in_tathams_order(R, C):
    W = C + 1
    for p in range((R + 1) * W):
        y, x = divmod(p, W)
        cells = tatham.ring(R, C, p)
        touching = {
            i for i in range(R * C) for v in (0, 1) if p in _ends(i, v, C)
        }  # cells with a corner at p
        assert {i for i in cells if i >= 0} == touching
        for k, i in enumerate(cells):
            if i >= 0:  # position k touches p with 1 - k % 2, and not with the other
                assert p in _ends(i, 1 - k % 2, C) and p not in _ends(i, k % 2, C)
        nw, sw, se, ne = cells  # NW, SW, SE, NE: rows above/below, columns left/right
        for i, dy, dx in ((nw, -1, -1), (sw, 0, -1), (se, 0, 0), (ne, -1, 0)):
            if i >= 0:
                assert divmod(i, C) == (y + dy, x + dx)


def _fillings(cells, cls, fixed):
    """Every slash for the ring's cells that keeps each class one slash (brute force)."""
    free = [i for i in cells if i >= 0 and i not in fixed]
    for values in itertools.product((0, 1), repeat=len(free)):
        got = {**fixed, **dict(zip(free, values, strict=True))}
        if all(got[a] == got[b] for a in got for b in got if cls[a] == cls[b]):
            yield got


def test_count_at_is_sound_at_every_small_point():
    # an inner point of a 2 x 2 grid: all four cells around it; every clue, every decided /
    # open pattern, every way to put the open cells in classes
    R = C = 2
    p = 1 * (C + 1) + 1
    ring = tatham.ring(R, C, p)
    touch = {i: 1 - k % 2 for k, i in enumerate(ring)}
    ws = levels.Levels(16)
    seen = set()
    for clue, states in itertools.product(range(5), itertools.product((-1, 0, 1), repeat=4)):
        fixed = {i: s for i, s in zip(ring, states, strict=True) if s >= 0}
        open_cells = [i for i in ring if i not in fixed]
        for labels in itertools.product(range(len(open_cells) or 1), repeat=len(open_cells)):
            cls = {i: 10 + i for i in ring}  # decided cells: classes of their own
            cls.update({i: labels[n] for n, i in enumerate(open_cells)})
            for i in ring:
                ws.block[CELL, i] = fixed.get(i, -1)
                ws.block[CLS, i] = cls[i]
            need = clue - sum(1 for i, v in fixed.items() if v == touch[i])
            a, b, c, d = tatham.open_ring(ws, *ring)
            verdict, x, y = tatham.count_at(ws, need, len(open_cells), True, a, b, c, d)
            fits = [
                f
                for f in _fillings(ring, cls, fixed)
                if sum(1 for i, v in f.items() if v == touch[i]) == clue
            ]
            if verdict == tatham.FAIL:
                assert not fits
            elif verdict in (tatham.TOUCH, tatham.MISS):
                want = verdict == tatham.TOUCH
                for i in open_cells:
                    if i not in (x, y):
                        assert all((f[i] == touch[i]) == want for f in fits), (clue, states)
            elif verdict == tatham.JOIN:
                assert x in open_cells and y in open_cells and x != y
                assert all(f[x] == f[y] for f in fits)
            seen.add(verdict)
    # each verdict was met (the checks above are not vacuous)
    assert seen == {tatham.FAIL, tatham.NOTHING, tatham.TOUCH, tatham.MISS, tatham.JOIN}


def test_lost_and_clue_shapes_are_the_shapes_that_contradict():
    for v in (0, 1):
        left, right, upper, lower = tatham.lost_by(v)
        assert {left, right} == {tatham.V, tatham.CARET}
        assert {upper, lower} == {tatham.GT, tatham.LT}
        assert SHAPES[left][0] != v and SHAPES[upper][0] != v  # this cell first: it differs
        assert SHAPES[right][1] != v and SHAPES[lower][1] != v  # this cell second


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4])
def test_an_inner_1_or_3_rules_out_exactly_the_shapes_that_break_it(k):
    # the inner point of a 2 x 2 grid: NW 0, NE 1, SW 2, SE 3; each cell's pairs by geometry
    C = 2
    p = 4
    nw, ne, sw, se = 0, 1, 2, 3
    pairs = {  # (cell the bit belongs to, bit): the pair's (first, second) cell
        (nw, tatham.V): (nw, ne),
        (nw, tatham.CARET): (nw, ne),
        (nw, tatham.GT): (nw, sw),
        (nw, tatham.LT): (nw, sw),
        (sw, tatham.V): (sw, se),
        (sw, tatham.CARET): (sw, se),
        (ne, tatham.GT): (ne, se),
        (ne, tatham.LT): (ne, se),
    }
    at = dict(zip((nw, sw, ne), tatham.clue_shapes(k), strict=True))
    for (cell, bit), (i, j) in pairs.items():
        first, second = SHAPES[bit]
        touches = (p in _ends(i, first, C)) + (p in _ends(j, second, C))
        breaks = (k == 1 and touches == 2) or (k == 3 and touches == 0)
        assert bool(at[cell] & bit) == breaks, (k, cell, bit)
