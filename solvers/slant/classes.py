"""Slant engine, part 3: classes of equal cells and v-shapes, the root's harder rules.

Notation and workspace: :mod:`solvers.slant.state`.  These rules are Simon Tatham's "hard"
deductions (the ones his Hard puzzles need; :mod:`solvers.slant.levels` states them and
grades by them), written once in :mod:`.tatham` for both engines and applied here on the
search's own state, so that the root can apply them before it probes: a puzzle they settle
needs no trial at all, and probing, which finds the same facts one trial at a time, was most
of a large Hard puzzle's time (figures: ``benchmarks/slant_tatham.py`` on the speed page,
docs/speed.md).  They run at
the root only, where nothing is ever undone, so their classes and shapes need no trail;
the cells they decide go through :func:`~solvers.slant.state.propagate` like any other.

- *Classes*: cells known to hold the same slash, kept as a label per cell (a member), a
  circular member list and a size per label (a merge relabels the smaller class), and the
  class's slash once a member has one; every member then takes it.
- *Counting with a class* (at a clued point): two undecided cells side by side around the
  point in one class touch it exactly once between them, so they count as one line and two
  fewer undecided cells; rule 2 of :mod:`~solvers.slant.state` then applies to the rest.  A
  point whose remaining undecided cells are two side by side needing one line between them
  puts those two in one class (side by side around a point, one touches it with each slash).
- *Shapes*: two side-by-side cells can form ``\\/`` (V) or ``/\\`` (CARET), two stacked ones
  ``\\`` over ``/`` (GT) or ``/`` over ``\\`` (LT); a pair with neither shape of its kind left
  holds one slash twice (a class).  A decided cell rules out the shapes it contradicts.  An
  inner 1 rules out the four shapes pointing at it (both cells touching it), an inner 3 the
  four pointing away; across an inner 2 a shape ruled out on one side is ruled out on the
  other (both its cells touching the 2 leaves nothing for the opposite pair, and neither
  leaves both).
"""

from __future__ import annotations

from numba import njit

from ..members import join
from . import tatham
from .state import (
    _EXON,
    _NCQ,
    _NP,
    _NSQ,
    _NTR,
    _enqueue,
    _fail,
    _force,
    _walled,
    count_exits,
    free_at,
    propagate,
    touch_at,
)

__all__ = ["settle"]


@njit(cache=True, nogil=True, inline="always")
def _push_count(ws, st, p):
    """Queue clued point ``p`` for counting with classes while it has two undecided cells."""
    if ws.clue[p] >= 0 and free_at(ws, p) >= 2:
        _enqueue(ws.incq, ws.cq, st, _NCQ, p)


@njit(cache=True, nogil=True, inline="always")
def _push_corners(ws, st, C, tl):
    """Queue the clued corners of the cell whose top-left corner is point ``tl``."""
    W = C + 1
    _push_count(ws, st, tl)
    _push_count(ws, st, tl + 1)
    _push_count(ws, st, tl + W)
    _push_count(ws, st, tl + W + 1)


@njit(cache=True, nogil=True, inline="always")
def _rule_out(ws, st, i, bits):
    """Rule out the shapes ``bits`` of cell ``i``'s pairs; queue ``i`` if any were possible."""
    b = ws.shapes[i]
    if b & bits:
        ws.shapes[i] = b & ~bits
        _enqueue(ws.insq, ws.sq, st, _NSQ, i)


@njit(cache=True, nogil=True)
def _force_class(ws, st, label, v):
    """Every member of class ``label`` takes slash ``v``; False if one has the other."""
    i = label
    while True:
        if not _force(ws, st, i, v):
            return False
        i = ws.cnext[i]
        if i == label:
            return True


@njit(cache=True, nogil=True)
def _merge(ws, st, C, i, j):
    """Put cells ``i`` and ``j`` in one class; False if their classes hold different slashes.

    The smaller class is relabelled, and the clued points around its members are queued:
    each may now have a pair in one class."""
    a, b = ws.cls[i], ws.cls[j]
    if a == b:
        return True
    if ws.csize[a] > ws.csize[b]:
        a, b = b, a
    va, vb = ws.cval[a], ws.cval[b]
    if va >= 0 and vb >= 0:
        if va != vb:
            return False
    elif va >= 0:
        if not _force_class(ws, st, b, va):
            return False
    elif vb >= 0:
        if not _force_class(ws, st, a, vb):
            return False
    q = a
    while True:
        _push_corners(ws, st, C, ws.tl[q])
        q = ws.cnext[q]
        if q == a:
            break
    join(ws.cls, ws.cnext, ws.csize, a, b)
    ws.cval[b] = max(va, vb)
    return True


@njit(cache=True, nogil=True)
def _decided(ws, st, R, C, i):
    """Cell ``i`` has its slash: its class takes it, its pairs lose the shapes it
    contradicts, its clued corners are counted again; False if its class has the other."""
    v = ws.cell[i]
    label = ws.cls[i]
    cv = ws.cval[label]
    if cv < 0:
        ws.cval[label] = v
        if ws.csize[label] > 1 and not _force_class(ws, st, label, v):
            return False
    elif cv != v:
        return False
    # a pair whose other cell is decided too has nothing left to say
    tl = ws.tl[i]
    r = tl - i  # tl = i + r
    c = i - r * C
    left, right, upper, lower = tatham.lost_by(v)  # the shapes this slash contradicts
    if c + 1 < C and ws.cell[i + 1] < 0:
        _rule_out(ws, st, i, left)
    if c > 0 and ws.cell[i - 1] < 0:
        _rule_out(ws, st, i - 1, right)
    if r + 1 < R and ws.cell[i + C] < 0:
        _rule_out(ws, st, i, upper)
    if r > 0 and ws.cell[i - C] < 0:
        _rule_out(ws, st, i - C, lower)
    _push_corners(ws, st, C, tl)
    return True


@njit(cache=True, nogil=True)
def _shapes_changed(ws, st, R, C, i):
    """Cell ``i``'s pairs lost shapes: a pair with none of its kind left is one class, and
    an inner 2 at either end of the pair's shared edge passes the loss across
    (:mod:`.tatham`).  A pair with both cells decided is skipped: rule 2 at the 2 says all it
    could."""
    b = ws.shapes[i]
    r = ws.tl[i] - i
    c = i - r * C
    open_i = ws.cell[i] < 0
    if c + 1 < C and (open_i or ws.cell[i + 1] < 0):
        if b & tatham.ACROSS == 0 and not _merge(ws, st, C, i, i + 1):
            return False
        gone = ~b & tatham.ACROSS
        if gone:
            _carry(ws, st, R, C, i, False, gone)
    if r + 1 < R and (open_i or ws.cell[i + C] < 0):
        if b & tatham.DOWN == 0 and not _merge(ws, st, C, i, i + C):
            return False
        gone = ~b & tatham.DOWN
        if gone:
            _carry(ws, st, R, C, i, True, gone)
    return True


@njit(cache=True, nogil=True, inline="always")
def _carry(ws, st, R, C, i, down, gone):
    """Rule out the shapes ``gone`` of cell ``i``'s pair across the 2s at its shared edge."""
    t1, t2 = tatham.across_two(R, C, ws.clue, i, down)
    if t1 >= 0:
        _rule_out(ws, st, t1, gone)
    if t2 >= 0:
        _rule_out(ws, st, t2, gone)


@njit(cache=True, nogil=True, inline="always")
def _force_side(ws, st, x, hit, touch):
    """Cell ``x`` (if any) touches the point (slash ``hit`` does) or, without ``touch``, not."""
    return x < 0 or _force(ws, st, x, hit if touch else 1 - hit)


@njit(cache=True, nogil=True)
def _count(ws, st, R, C, p):
    """Rules 1 and 3 at clued point ``p`` (:func:`.tatham.count_at`): force the other cells
    when the count with a pair of one class allows one way only, put two side-by-side cells in
    one class when they need one line between them; False on a contradiction."""
    if free_at(ws, p) < 2:
        return True
    nw, sw, se, ne = tatham.ring(R, C, p)
    a, b, c, d = tatham.open_ring(ws, nw, sw, se, ne)
    verdict, x, y = tatham.count_at(
        ws, ws.clue[p] - touch_at(ws, p), free_at(ws, p), True, a, b, c, d
    )
    if verdict == tatham.FAIL:
        return False
    if verdict == tatham.JOIN:
        return _merge(ws, st, C, x, y)
    if verdict == tatham.TOUCH or verdict == tatham.MISS:
        touch = verdict == tatham.TOUCH
        return (
            _force_side(ws, st, a if a != x and a != y else -1, 1, touch)
            and _force_side(ws, st, b if b != x and b != y else -1, 0, touch)
            and _force_side(ws, st, c if c != x and c != y else -1, 1, touch)
            and _force_side(ws, st, d if d != x and d != y else -1, 0, touch)
        )
    return True


@njit(cache=True, nogil=True)
def _start(ws, st, R, C):
    """Every cell a class of its own, every shape possible but those of inner 1s and 3s,
    every clued point with two undecided cells queued."""
    i = 0
    for r in range(R):
        for c in range(C):
            ws.cls[i] = i
            ws.cnext[i] = i
            ws.csize[i] = 1
            ws.cval[i] = -1
            ws.insq[i] = 0
            ws.shapes[i] = (tatham.ACROSS if c < C - 1 else 0) | (tatham.DOWN if r < R - 1 else 0)
            i += 1
    st[_NSQ] = 0
    st[_NCQ] = 0
    W = C + 1
    for p in range((R + 1) * W):
        ws.incq[p] = 0
    for p in range((R + 1) * W):
        _push_count(ws, st, p)
    for y in range(1, R):
        for x in range(1, C):
            k = ws.clue[y * W + x]
            if k == 1 or k == 3:  # no shape points at a 1, none away from a 3
                nw = (y - 1) * C + x - 1  # the cell NW of the point; SW and NE follow
                at_nw, at_sw, at_ne = tatham.clue_shapes(k)
                _rule_out(ws, st, nw, at_nw)
                _rule_out(ws, st, nw + C, at_sw)
                _rule_out(ws, st, nw + 1, at_ne)


@njit(cache=True, nogil=True)
def settle(ws, st, R, C):
    """Apply the class and shape rules with rules 1-4 until nothing changes (at the root:
    nothing here is undone); False (queues emptied) on a contradiction.

    Rule 4's counts start here if they have not (:func:`~solvers.slant.state.count_exits`),
    and every dead end already there takes its way out: Tatham's Hard puzzles need it."""
    if st[_EXON] == 0:
        if not count_exits(ws, st, R, C):
            return False
        ok = True
        for p in range((R + 1) * (C + 1)):
            if ws.comp[p] == p:
                ok &= _walled(ws, st, C, p)
        if not ok:
            return _fail(ws, st)
    _start(ws, st, R, C)
    seen = 0  # trail entries whose cells _decided has seen
    while True:
        if seen < st[_NTR]:
            ok = _decided(ws, st, R, C, ws.tr_cell[seen])
            seen += 1
        elif st[_NP] > 0:
            ok = propagate(ws, st, R, C)
        elif st[_NSQ] > 0:
            st[_NSQ] -= 1
            i = ws.sq[st[_NSQ]]
            ws.insq[i] = 0
            ok = _shapes_changed(ws, st, R, C, i)
        elif st[_NCQ] > 0:
            st[_NCQ] -= 1
            p = ws.cq[st[_NCQ]]
            ws.incq[p] = 0
            ok = _count(ws, st, R, C, p)
        else:
            return True
        if not ok:
            st[_NSQ] = 0
            st[_NCQ] = 0
            return _fail(ws, st)
