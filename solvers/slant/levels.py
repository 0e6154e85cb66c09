"""Slant difficulty levels as Simon Tatham defines them, with a deduction engine for each.

The levels are those of ``slant.c`` in Simon Tatham's Portable Puzzle Collection
(https://www.chiark.greenend.org.uk/~sgtatham/puzzles/): a puzzle is *easy* when his easy
deductions alone fill the grid, *hard* when that takes his harder deductions as well (but
still no guessing), and *harder* (ambiguous, or beyond both) otherwise.  The definitions are
his; this engine is written here from them (no code of his is used) and is checked against
his own grader by ``benchmarks/slant_grades.py``.

Notation as in :mod:`solvers.slant.state`: cells ``i = r * C + c``, points ``p = y * W + x``
with ``W = C + 1``; a slash is ``0`` for ``/`` (joins TR and BL), ``1`` for ``\\`` (joins TL
and BR), ``-1`` undecided.  Around point ``p`` the cells in Tatham's order NW, SW, SE, NE
touch it with ``\\``, ``/``, ``\\``, ``/``.  Rules 3 and 5 are written once, in
:mod:`.tatham`, for this engine and for the root of the search (:mod:`.classes`); this
module applies them with its own rings.

*Easy* deductions:

1. *Clue count*: a clue point that already has its count of touching slashes makes every
   undecided cell around it non-touching; one that needs every undecided cell around it
   makes them all touching.
2. *Loop avoidance*: a slash whose two ends are already joined (the components of points
   joined by decided slashes, a union-find) would close a loop, so its cell takes the other.

*Hard* deductions add:

3. *Equivalent cells*: classes of cells known to hold the same slash (a second union-find),
   with the slash once one member has it.  Two cells adjacent around a clue point that are
   in one class touch it exactly once between them: the first such pair counts as one line
   and two fewer undecided cells in rule 1.  A clue point whose remaining undecided cells
   (besides such a pair) are two adjacent ones that need exactly one line between them puts
   those two in one class.  A cell whose class has a slash takes it.
4. *Dead ends*: every component must reach the border (a component walled in would sit
   inside a loop).  A component's *exits* bound the slashes it can still gain: a clue
   point's clue less its touching slashes, 4 less the decided cells around a point without
   a clue.  A slash may not join two components that both miss the border and have at most
   one exit each.
5. *V-shapes*: for two side-by-side cells, the "v" (``\\/``) and "^" (``/\\``) shapes; for two
   stacked cells ">" (``\\`` over ``/``) and "<" (``/`` over ``\\``).  A decided cell rules
   out the shapes it contradicts; an inner 1 clue rules out the four shapes pointing at it,
   an inner 3 the four pointing away; an inner 2 rules out on one side of it each shape
   ruled out on the opposite side.  Two cells with both shapes ruled out hold the same
   slash (rule 3's classes).

Every rule is sound, so a grid the rules fill is the puzzle's only solution.  The engine
runs them to a fixed point from queues: a decided cell queues its clue corners and the cells
a merge or a new dead end may force; a class merge queues the clue points around the smaller
class; a shape ruled out queues its pair.  (His solver's loop can stop short of the fixed
point: it does not count a class merged at a clue point as progress, so on rare puzzles,
about 1 in 200 of our hard ones at 3x3 and 5x5, it gives up where his own rules would
finish.)

This module is long because each of Tatham's levels has a deduction engine of its own, kept
beside the others so that the levels read as his do.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..fields import define
from ..members import join
from . import tatham

__all__ = [
    "EASY",
    "HARD",
    "LEVELS",
    "GRADES",
    "IMPOSSIBLE",
    "HARDER",
    "Levels",
    "Scratch",
    "make_scratch",
    "deduce",
    "grade",
    "grade_batch",
]

EASY, HARD = 0, 1  # the levels: rules 1-2, rules 1-5
LEVELS = ("easy", "hard")
IMPOSSIBLE, HARDER = 2, 3  # grades beyond the levels: no solution; ambiguous or harder
GRADES = ("easy", "hard", "impossible", "harder")

# deduce() answers
_NONE, _SOLVED, _STALLED = 0, 1, 2

# The shape bits (V, CARET, GT, LT) are :mod:`.tatham`'s, which hands them to _rule_out as int64
# values.  The rings' ends stay Python ints on purpose: passed to the jitted helpers they are
# typed as literals and numba compiles a specialised copy for each, which an A/B of deduce
# found faster than one int64 copy (unlike the constants of .state)


# the engine's fields (int32, one entry per point or per cell), named as in :mod:`.state`
# where they mean the same
Levels = define(
    "SlantLevels",
    {
        "cell": (0, 1),  # per cell: -1 undecided, 0 '/', 1 '\\'
        "comp": (1, 1),  # per point: its component's label (a member point)
        "next": (2, 1),  # per point: the next member of its component (circular)
        "size": (3, 1),  # per label: component size
        "exits": (4, 1),  # per label: the component's exits (rule 4)
        "border": (5, 1),  # per label: 1 when the component holds a border point
        "dead": (6, 1),  # per label: 1 once its cells were queued as a dead end's
        "cls": (7, 1),  # per cell: its class's label (a member cell)
        "cnext": (8, 1),  # per cell: the next member of its class (circular)
        "csize": (9, 1),  # per label: class size
        "cval": (10, 1),  # per label: the class's slash, -1 unknown
        "shapes": (11, 1),  # per cell: the shapes still possible with its right and lower pairs
        "queue": (12, 1),  # ring of clue points to check
        "inq": (13, 1),  # per point: 1 while on ``queue``
        "cellq": (14, 1),  # ring of cells to check
        "incellq": (15, 1),  # per cell: 1 while on ``cellq``
        "sq": (16, 1),  # ring of cells whose pairs lost a shape
        "insq": (17, 1),  # per cell: 1 while on ``sq``
    },
    dtype=np.int32,
)
# Scratch.ends: head and tail (counts, taken mod the rings' length) of each ring
_PQ_END, _CQ_END, _VQ_END = 0, 2, 4


class Scratch(NamedTuple):
    """The engine's state for puzzles of up to ``ws.shape[1]`` points (:func:`make_scratch`):
    ``ws`` its fields (a :class:`Levels` workspace), ``ends`` the rings' heads and tails."""

    ws: Levels
    ends: np.ndarray


def make_scratch(points: int) -> Scratch:
    """A :class:`Scratch` for any puzzle of at most ``points`` points (cells are fewer)."""
    return Scratch(Levels(max(int(points), 4)), np.zeros(6, dtype=np.int64))


# ------------------------------------------------------------------------------- queues


@njit(cache=True, nogil=True)
def _push(ring, on, ends, k, width, x):
    """Put ``x`` on ``ring`` (``width`` long; ``on[x]``: 1 while ``x`` is on; ``ends[k]``
    head, ``ends[k + 1]`` tail) unless it is on."""
    if on[x] == 0:
        on[x] = 1
        ring[ends[k + 1] % width] = x
        ends[k + 1] += 1


@njit(cache=True, nogil=True)
def _pop(ring, on, ends, k, width):
    """Take the oldest entry off ``ring``."""
    x = ring[ends[k] % width]
    ends[k] += 1
    on[x] = 0
    return x


@njit(cache=True, nogil=True)
def _push_around(ws, ends, R, C, q):
    """Queue the undecided cells around point ``q``."""
    W = C + 1
    y = q // W
    x = q - y * W
    for r in range(max(y - 1, 0), min(y + 1, R)):
        for c in range(max(x - 1, 0), min(x + 1, C)):
            if ws.cell[r * C + c] < 0:
                _push(ws.cellq, ws.incellq, ends, _CQ_END, ws.width, r * C + c)


@njit(cache=True, nogil=True)
def _push_corners(ws, ends, C, clues, i):
    """Queue the clue points among cell ``i``'s corners."""
    tl = i + i // C
    W = C + 1
    for q in (tl, tl + 1, tl + W, tl + W + 1):
        if clues[q] >= 0:
            _push(ws.queue, ws.inq, ends, _PQ_END, ws.width, q)


@njit(cache=True, nogil=True)
def _push_members(ws, ends, i):
    """Queue the undecided cells of ``i``'s class."""
    j = i
    while True:
        if ws.cell[j] < 0:
            _push(ws.cellq, ws.incellq, ends, _CQ_END, ws.width, j)
        j = ws.cnext[j]
        if j == i:
            break


@njit(cache=True, nogil=True)
def _dead_end(ws, ends, R, C, label):
    """Queue the cells around a component that just became a dead end (rule 4)."""
    ws.dead[label] = 1
    q = label
    while True:
        _push_around(ws, ends, R, C, q)
        q = ws.next[q]
        if q == label:
            break


# ------------------------------------------------------------------------------- changes


@njit(cache=True, nogil=True)
def _merge_classes(ws, ends, C, clues, a, b):
    """Put cells ``a`` and ``b`` in one class; False if their classes' slashes differ."""
    la, lb = ws.cls[a], ws.cls[b]
    if la == lb:
        return True
    va, vb = ws.cval[la], ws.cval[lb]
    if va >= 0 and vb >= 0 and va != vb:
        return False
    if ws.csize[la] < ws.csize[lb]:
        la, lb = lb, la
        va, vb = vb, va
    j = lb  # the smaller class's cells: their clue corners may see a new pair
    while True:
        _push_corners(ws, ends, C, clues, j)
        j = ws.cnext[j]
        if j == lb:
            break
    join(ws.cls, ws.cnext, ws.csize, lb, la)
    if va < 0 and vb >= 0:
        ws.cval[la] = vb
    if va >= 0 or vb >= 0:
        _push_members(ws, ends, la)
    return True


@njit(cache=True, nogil=True)
def _rule_out(ws, ends, o, bits):
    """Rule the shapes ``bits`` out for the pairs of cell ``o`` (rule 5)."""
    if ws.shapes[o] & bits:
        ws.shapes[o] &= ~bits
        _push(ws.sq, ws.insq, ends, _VQ_END, ws.width, o)


@njit(cache=True, nogil=True)
def _assign(ws, ends, R, C, clues, hard, i, v):
    """Give cell ``i`` slash ``v`` and record what follows; False on a contradiction."""
    cur = ws.cell[i]
    if cur == v:
        return True
    if cur >= 0:
        return False
    W = C + 1
    r = i // C
    tl = i + r
    if v == 1:
        a, b, d1, d2 = tl, tl + W + 1, tl + 1, tl + W
    else:
        a, b, d1, d2 = tl + 1, tl + W, tl, tl + W + 1
    la, lb = ws.comp[a], ws.comp[b]
    if la == lb:
        return False  # a loop
    ws.cell[i] = v
    _push_corners(ws, ends, C, clues, i)
    # join the components of a and b: relabel the smaller one, whose points' cells may now
    # close a loop (rule 2).  This walk and _merge_classes' are written out: a shared helper
    # for the walk of the smaller list ran slower in the grader's A/B, even inlined
    exits = ws.exits[la] + ws.exits[lb] - 2
    border = ws.border[la] | ws.border[lb]
    if ws.size[la] < ws.size[lb]:
        la, lb = lb, la
    q = lb
    while True:
        _push_around(ws, ends, R, C, q)
        q = ws.next[q]
        if q == lb:
            break
    join(ws.comp, ws.next, ws.size, lb, la)
    ws.exits[la] = exits
    ws.border[la] = border
    # the other diagonal's ends lose an exit where they have no clue
    if clues[d1] < 0:
        ws.exits[ws.comp[d1]] -= 1
    if clues[d2] < 0:
        ws.exits[ws.comp[d2]] -= 1
    if not hard:
        return True
    if border == 0 and exits <= 1:
        _dead_end(ws, ends, R, C, la)
    for d in (d1, d2):
        ld = ws.comp[d]
        if ws.dead[ld] == 0 and ws.border[ld] == 0 and ws.exits[ld] <= 1:
            _dead_end(ws, ends, R, C, ld)
    lc = ws.cls[i]
    if ws.cval[lc] < 0:
        ws.cval[lc] = v
        if ws.csize[lc] > 1:
            _push_members(ws, ends, lc)
    elif ws.cval[lc] != v:
        return False
    c = i - r * C
    left, right, upper, lower = tatham.lost_by(v)  # the shapes this slash contradicts
    if c + 1 < C:
        _rule_out(ws, ends, i, left)
    if c > 0:
        _rule_out(ws, ends, i - 1, right)
    if r + 1 < R:
        _rule_out(ws, ends, i, upper)
    if r > 0:
        _rule_out(ws, ends, i - C, lower)
    return True


# ------------------------------------------------------------------------------- checks


@njit(cache=True, nogil=True)
def _check_point(ws, ends, R, C, clues, hard, p):
    """Rules 1 and 3 at clue point ``p`` (:func:`.tatham.count_at`); False on a contradiction."""
    around = tatham.ring(R, C, p)
    need = clues[p]
    free = 0
    for k in range(4):
        j = around[k]
        if j >= 0:
            v = ws.cell[j]
            if v < 0:
                free += 1
            elif v == 1 - k % 2:  # ring position k touches the point with 1 - k % 2
                need -= 1
    a, b, c, d = tatham.open_ring(ws, around[0], around[1], around[2], around[3])
    verdict, x, y = tatham.count_at(ws, need, free, hard, a, b, c, d)
    if verdict == tatham.FAIL:
        return False
    if verdict == tatham.JOIN:
        return _merge_classes(ws, ends, C, clues, x, y)
    if verdict == tatham.TOUCH or verdict == tatham.MISS:
        opened = (a, b, c, d)
        for k in range(4):
            j = opened[k]
            if j >= 0 and j != x and j != y:
                t = 1 - k % 2 if verdict == tatham.TOUCH else k % 2
                if not _assign(ws, ends, R, C, clues, hard, j, t):
                    return False
    return True


@njit(cache=True, nogil=True)
def _dead_pair(ws, a, b):
    """Whether joining components ``a`` and ``b`` would wall them in (rule 4)."""
    return ws.border[a] == 0 and ws.border[b] == 0 and ws.exits[a] <= 1 and ws.exits[b] <= 1


@njit(cache=True, nogil=True)
def _check_cell(ws, ends, R, C, clues, hard, i):
    """Rules 2, 3 and 4 at cell ``i``; False on a contradiction."""
    if ws.cell[i] >= 0:
        return True
    W = C + 1
    tl = i + i // C
    a, b = ws.comp[tl], ws.comp[tl + W + 1]
    no_back = a == b or (hard and _dead_pair(ws, a, b))  # '\' impossible
    a, b = ws.comp[tl + 1], ws.comp[tl + W]
    no_fore = a == b or (hard and _dead_pair(ws, a, b))  # '/' impossible
    if hard:
        v = ws.cval[ws.cls[i]]
        if v == 0:
            no_back = True
        elif v == 1:
            no_fore = True
    if no_back and no_fore:
        return False
    if no_back:
        return _assign(ws, ends, R, C, clues, hard, i, 0)
    if no_fore:
        return _assign(ws, ends, R, C, clues, hard, i, 1)
    return True


@njit(cache=True, nogil=True)
def _check_pair(ws, ends, R, C, clues, i):
    """Rule 5 at cell ``i``'s pairs: equal cells, and shapes carried across a 2 (:mod:`.tatham`);
    False on a contradiction."""
    r = i // C
    c = i - r * C
    bits = ws.shapes[i]
    if c + 1 < C:
        gone = ~bits & tatham.ACROSS
        if gone == tatham.ACROSS and not _merge_classes(ws, ends, C, clues, i, i + 1):
            return False
        if gone:
            _carry(ws, ends, R, C, clues, i, False, gone)
    if r + 1 < R:
        gone = ~bits & tatham.DOWN
        if gone == tatham.DOWN and not _merge_classes(ws, ends, C, clues, i, i + C):
            return False
        if gone:
            _carry(ws, ends, R, C, clues, i, True, gone)
    return True


@njit(cache=True, nogil=True, inline="always")
def _carry(ws, ends, R, C, clues, i, down, gone):
    """Rule out the shapes ``gone`` of cell ``i``'s pair across the 2s at its shared edge."""
    t1, t2 = tatham.across_two(R, C, clues, i, down)
    if t1 >= 0:
        _rule_out(ws, ends, t1, gone)
    if t2 >= 0:
        _rule_out(ws, ends, t2, gone)


# ------------------------------------------------------------------------------- engine


@njit(cache=True, nogil=True)
def _reset(ws, ends, R, C, clues, hard):
    """Load a puzzle: every cell undecided and queued, every clue point queued."""
    W = C + 1
    P = (R + 1) * W
    ends[:] = 0
    for p in range(P):
        y = p // W
        x = p - y * W
        k = clues[p]
        ws.comp[p] = p
        ws.next[p] = p
        ws.size[p] = 1
        ws.exits[p] = k if k >= 0 else 4
        inner = 0 < y < R and 0 < x < C
        ws.border[p] = 0 if inner else 1
        ws.dead[p] = 1 if inner and 0 <= k <= 1 else 0  # its cells are all queued below
        ws.inq[p] = 0
        if k >= 0:
            _push(ws.queue, ws.inq, ends, _PQ_END, ws.width, p)
    for i in range(R * C):
        ws.cell[i] = -1
        ws.cls[i] = i
        ws.cnext[i] = i
        ws.csize[i] = 1
        ws.cval[i] = -1
        ws.shapes[i] = tatham.ACROSS | tatham.DOWN
        ws.incellq[i] = 0
        ws.insq[i] = 0
        _push(ws.cellq, ws.incellq, ends, _CQ_END, ws.width, i)
    if not hard:
        return
    for y in range(1, R):
        for x in range(1, C):
            k = clues[y * W + x]
            if k == 1 or k == 3:  # no shape points at a 1, none away from a 3
                nw, sw, ne = (y - 1) * C + x - 1, y * C + x - 1, (y - 1) * C + x
                at_nw, at_sw, at_ne = tatham.clue_shapes(k)
                _rule_out(ws, ends, nw, at_nw)
                _rule_out(ws, ends, sw, at_sw)
                _rule_out(ws, ends, ne, at_ne)


@njit(cache=True, nogil=True)
def _run(ws, ends, R, C, clues, level):
    """:func:`deduce` on the scratch's arrays."""
    hard = level >= HARD
    _reset(ws, ends, R, C, clues, hard)
    while True:
        if ends[_PQ_END] < ends[_PQ_END + 1]:
            p = _pop(ws.queue, ws.inq, ends, _PQ_END, ws.width)
            ok = _check_point(ws, ends, R, C, clues, hard, p)
        elif ends[_CQ_END] < ends[_CQ_END + 1]:
            ok = _check_cell(
                ws, ends, R, C, clues, hard, _pop(ws.cellq, ws.incellq, ends, _CQ_END, ws.width)
            )
        elif ends[_VQ_END] < ends[_VQ_END + 1]:
            ok = _check_pair(ws, ends, R, C, clues, _pop(ws.sq, ws.insq, ends, _VQ_END, ws.width))
        else:
            break
        if not ok:
            return _NONE
    for i in range(R * C):
        if ws.cell[i] < 0:
            return _STALLED
    return _SOLVED


@njit(cache=True, nogil=True)
def deduce(R, C, clues, level, s):
    """Run the rules of ``level`` (EASY or HARD) on ``clues`` to a fixed point in ``s``.

    Returns 1 when they fill the grid (``s.ws[0, :R * C]``: the ``cell`` field, the only
    solution), 2 when they
    stall, 0 on a contradiction (no solution).
    """
    return _run(s.ws, s.ends, R, C, clues, level)


@njit(cache=True, nogil=True)
def grade(R, C, clues, s):
    """Tatham's grade of a puzzle: EASY, HARD, IMPOSSIBLE or HARDER (ambiguous or beyond)."""
    for level in (EASY, HARD):
        found = deduce(R, C, clues, level, s)
        if found == _SOLVED:
            return level
        if found == _NONE:
            return IMPOSSIBLE
    return HARDER


def grade_batch(batch) -> np.ndarray:
    """The grade (an index into :data:`GRADES`) of every puzzle of a batch (the layout of
    :mod:`solvers.slant`)."""
    rows = np.asarray(batch["rows"], dtype=np.int64)
    cols = np.asarray(batch["cols"], dtype=np.int64)
    offsets = np.asarray(batch["offsets"], dtype=np.int64)
    clues = np.ascontiguousarray(batch["clues"], dtype=np.int8)
    out = np.zeros(rows.shape[0], dtype=np.uint8)
    if rows.shape[0] == 0:
        return out
    _grade_all(rows, cols, offsets, clues, make_scratch(int(np.diff(offsets).max())), out)
    return out


@njit(cache=True, nogil=True)
def _grade_all(rows, cols, offsets, clues, s, out):
    """:func:`grade_batch`'s loop, in numba: one call from Python for the whole batch."""
    for j in range(rows.shape[0]):
        out[j] = grade(rows[j], cols[j], clues[offsets[j] : offsets[j + 1]], s)
