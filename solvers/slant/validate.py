"""A debug check of the Slant engine's state: the cells' counts, the trail and the union-finds.

:func:`validate_state` recomputes, in plain Python and from the cells alone, what the engine
keeps incrementally in its workspace (:mod:`solvers.slant.state`), and lists every place the
two differ.  It is slow (pure Python over the whole grid) and no kernel calls it: the tests
call it on states the engine leaves mid-search, after assignments and undos, so that a
bookkeeping slip shows where it happens rather than as a wrong count later.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..fields import Block
from . import state

__all__ = ["validate_state"]


def validate_state(
    ws: Block,
    st: np.ndarray,
    R: int,
    C: int,
    labels: Sequence[int] | None = None,
    classes: bool = False,
) -> list[str]:
    """Every broken invariant of the state ``(ws, st)`` of an ``R`` x ``C`` puzzle, in words;
    an empty list when it is sound.

    ``labels``: the point classes :func:`state.preconnect` joined (None: none).
    ``classes``: check the cell classes too (set up once the root's class rules ran).
    """
    W = C + 1
    P = (R + 1) * W
    cells = [int(v) for v in ws[state._CELL, : R * C]]
    problems = [f"cell {i} holds {v}" for i, v in enumerate(cells) if v not in (-1, 0, 1)]
    if problems:
        return problems
    problems += _counts(ws, R, C, cells)
    problems += _lists(ws, state._COMP, state._NEXT, state._SIZE, P, "component")
    problems += _forest(ws, R, C, cells, labels)
    problems += _trail(ws, st, R, C, cells)
    problems += _queues(ws, st, R, C)
    if st[state._EXON]:
        problems += _exits(ws, R, C)
    if classes:
        problems += _lists(ws, state._CLS, state._CNEXT, state._CSIZE, R * C, "class")
    return problems


def _ends(R: int, C: int, i: int, v: int) -> tuple[int, int]:
    """The points that slash ``v`` in cell ``i`` joins."""
    W = C + 1
    tl = i + i // C
    return (tl, tl + W + 1) if v == 1 else (tl + 1, tl + W)


def _counts(ws: Block, R: int, C: int, cells: list[int]) -> list[str]:
    """``touch`` and ``free`` of every point, against a count of the cells around it."""
    W = C + 1
    touch = [0] * ((R + 1) * W)
    free = [0] * ((R + 1) * W)
    for i, v in enumerate(cells):
        tl = i + i // C
        corners = (tl, tl + 1, tl + W, tl + W + 1)
        if v < 0:
            for p in corners:
                free[p] += 1
        else:
            for p in _ends(R, C, i, v):
                touch[p] += 1
    problems = []
    for p in range((R + 1) * W):
        held_touch, held_free, held_clue = state.unpacked(int(ws[state._PT, p]))
        if held_touch != touch[p]:
            problems.append(f"point {p}: touch {held_touch}, its cells say {touch[p]}")
        if held_free != free[p]:
            problems.append(f"point {p}: free {held_free}, its cells say {free[p]}")
        clue = int(ws[state._CLUE, p])
        if held_clue != clue:
            problems.append(f"point {p}: its word's clue {held_clue}, its clue {clue}")
    return problems


def _lists(ws: Block, label_row: int, next_row: int, size_row: int, n: int, what: str):
    """A union-find with member lists over ``n`` members: every label a member of its own set,
    each set's circular list holding exactly its members, its size at its label."""
    label = [int(x) for x in ws[label_row, :n]]
    nxt = [int(x) for x in ws[next_row, :n]]
    members: dict[int, set[int]] = {}
    problems = []
    for x, lab in enumerate(label):
        if not 0 <= lab < n or label[lab] != lab:
            return [f"{what} label of {x} is {lab}, not a label (a member labelled by itself)"]
        members.setdefault(lab, set()).add(x)
    for lab, group in members.items():
        walked, x = set(), lab
        while x not in walked and 0 <= x < n and len(walked) <= n:
            walked.add(x)
            x = nxt[x]
        if x != lab or walked != group:
            problems.append(f"{what} {lab}: its list holds {sorted(walked)}, not {sorted(group)}")
        if ws[size_row, lab] != len(group):
            problems.append(f"{what} {lab}: size {ws[size_row, lab]}, members {len(group)}")
    return problems


def _forest(ws: Block, R: int, C: int, cells: list[int], labels) -> list[str]:
    """The decided slashes form a forest over the preconnected classes, and its trees (joined
    by the preconnect) are exactly the components the labels say."""
    P = (R + 1) * (C + 1)
    parent = list(range(P))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    problems = []
    if labels is not None:
        for p in range(P):
            parent[find(p)] = find(int(labels[p]))
    for i, v in enumerate(cells):
        if v >= 0:
            a, b = (find(p) for p in _ends(R, C, i, v))
            if a == b:
                problems.append(f"cell {i} = {v} closes a loop")
            parent[a] = b
    comp = ws[state._COMP, :P]
    roots: dict[int, int] = {}
    for p in range(P):
        if roots.setdefault(find(p), int(comp[p])) != comp[p]:
            problems.append(f"point {p} is labelled {comp[p]} but joined to {roots[find(p)]}")
    if len(set(roots.values())) != len(roots):
        problems.append("two components the slashes leave apart share a label")
    return problems


def _trail(ws: Block, st: np.ndarray, R: int, C: int, cells: list[int]) -> list[str]:
    """The trail lists every decided cell once, each entry a merge of two labels now in the
    component of that cell's ends."""
    n = int(st[state._NTR])
    trail = [int(x) for x in ws[state._TR_CELL, :n]]
    decided = {i for i, v in enumerate(cells) if v >= 0}
    problems = []
    if len(set(trail)) != n:
        problems.append(f"the trail names a cell twice: {trail}")
    if set(trail) != decided:
        problems.append(
            f"trail cells {sorted(set(trail))} are not the decided cells {sorted(decided)}"
        )
        return problems
    comp = ws[state._COMP]
    for k, i in enumerate(trail):
        a, b = int(ws[state._TR_A, k]), int(ws[state._TR_B, k])
        end = _ends(R, C, i, cells[i])[0]
        if a == b or not comp[a] == comp[b] == comp[end]:
            problems.append(f"trail entry {k} (cell {i}) merged {a} and {b}, not its ends' sets")
    return problems


def _queues(ws: Block, st: np.ndarray, R: int, C: int) -> list[str]:
    """Each queue's on-queue marks are set exactly for the entries it holds (the point and
    pair queues' marks are bits of the points' words, the pending cells' their forced value)."""
    P = (R + 1) * (C + 1)
    words = [int(x) for x in ws[state._PT, :P]]
    problems = []
    for name, stack, length, marks in (
        ("point queue", state._QUEUE, state._NQ, [w & state._INQ_BIT for w in words]),
        ("pair queue", state._PAIRQ, state._NPAIR, [w & state._INPAIR_BIT for w in words]),
        ("pending cells", state._PEND, state._NP, [int(x) for x in ws[state._FORCED, : R * C]]),
    ):
        held = [int(x) for x in ws[stack, : st[length]]]
        marked = {x for x, m in enumerate(marks) if m != 0}
        if len(set(held)) != len(held) or set(held) != marked:
            problems.append(f"{name} holds {sorted(held)} but marks {sorted(marked)}")
    return problems


def _exits(ws: Block, R: int, C: int) -> list[str]:
    """Rule 4's counts at every label: the slashes its points can still take (a clue less its
    touching slashes, else the undecided cells around the point) and its border points."""
    W = C + 1
    exits: dict[int, int] = {}
    border: dict[int, int] = {}
    for p in range((R + 1) * W):
        lab = int(ws[state._COMP, p])
        clue = int(ws[state._CLUE, p])
        touch, free, _ = state.unpacked(int(ws[state._PT, p]))
        room = clue - touch if clue >= 0 else free
        exits[lab] = exits.get(lab, 0) + room
        y, x = divmod(p, W)
        border[lab] = border.get(lab, 0) + (0 if 0 < y < R and 0 < x < C else 1)
    problems = []
    for lab in exits:
        for row, what, want in ((state._EXITS, "exits", exits), (state._BCNT, "border", border)):
            if ws[row, lab] != want[lab]:
                problems.append(f"component {lab}: {what} {ws[row, lab]}, counted {want[lab]}")
    return problems
