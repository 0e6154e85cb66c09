"""Slant (Gokigen Naname) engine, part 1: the state, its undo trail and the deduction rules.

Notation (shared with :mod:`solvers.slant`, which documents the puzzle batch):

- A puzzle has ``R`` rows and ``C`` columns of *cells*; cell ``(r, c)``, ``0 <= r < R``,
  ``0 <= c < C``, has index ``i = r * C + c``.
- The ``(R + 1) x (C + 1)`` grid *points* are the cells' corners; point ``(y, x)``,
  ``0 <= y <= R``, ``0 <= x <= C``, has index ``p = y * W + x`` with ``W = C + 1``.  Cell ``i``
  has corners ``TL = r * W + c``, ``TR = TL + 1``, ``BL = TL + W``, ``BR = TL + W + 1``.
- A slash is ``0`` for ``/`` (joins TR and BL) and ``1`` for ``\\`` (joins TL and BR); ``-1`` is
  an undecided cell.  Around point ``p`` the cells NW and SE touch ``p`` with ``\\`` (value 1),
  the cells NE and SW touch it with ``/`` (value 0).
- ``clue[p]`` is the number of slashes that must touch ``p`` (0..4), or ``-1`` for no clue.

State (a :data:`Workspace`: one int64 block whose rows numba code reads as named fields,
``ws.cell[i]``, :mod:`solvers.fields`; plus ``st``, the queue and trail lengths: an int64
vector, or the workspace's row ``ws.slots``): the cells; for every point one word (``pt``)
packing the number of decided cells touching it (:func:`touch_at`), of undecided cells
around it (:func:`free_at`), its clue and its queue marks, which a change around the point
reads and writes once (``_FREE_SHIFT`` ... ``_INPAIR_BIT``); the components of
points joined by decided slashes, kept as a label per point (``comp``), a circular list of
members (``next``) and a size per label (``size``).  A merge relabels the smaller component;
undoing it swaps the two list links back and relabels again, so the structure is exact under
backtracking with no path compression to undo.  Tables filled by :func:`reset` spare the hot
loops every division: the cells around each point (``around[d, p]``) and each cell's top-left
corner (``tl``).  The fields the search uses (:mod:`solvers.slant.kernel`) and those of the
root's class and shape rules (:mod:`solvers.slant.classes`) live in the same workspace.  The
``_CELL`` ... ``_SLOTS`` constants below give each field's first row (for Python, which indexes a
workspace like its block: ``ws[_CELL, i]``).

Deduction rules, all run inside one ``while progress`` loop (:func:`propagate`; rule 3 only
once rules 1 and 2 have nothing left to do):

1. *Loop*: a slash whose two ends already lie in one component would close a loop, so its cell
   takes the other slash.  Checked at each merge over the smaller component's points only.
   (The dual rule "every component must reach the border" needs no code of its own: a
   component walled in but for one exit cell is walled in by a path of the other point class
   joining the ends of that cell's other diagonal, which rule 1 already forbids.)
2. *Clue saturation*: a clue that has its count of touching slashes makes every undecided cell
   around it non-touching; one that needs every undecided cell makes them all touching; a
   clue over its count or out of reach is a contradiction.
3. *Pairs of side-by-side clues*: points ``p`` and ``q`` one step apart share two cells, and
   each shared cell touches exactly one of them.  Bounding the shared cells' touches of ``p``
   from both clues forces the private cells: the 1-1 and 3-3 patterns, a 1 or 3 beside an
   edge 1, and the partial versions of these once some cells are decided.

4. *Walled in* (from :func:`count_exits` on: the root starts it before its class rules and
   probing, so a puzzle rules 1-3 settle never pays for it): every component must
   reach the border, or the other class of points would close a loop around it.  Each
   component keeps how many more slashes its points can take (a clue's count less its
   touching slashes, the undecided cells around a point without one) and how many of its
   points lie on the border; one with neither is a contradiction.  Both are sums, so a
   merge adds them and its undo subtracts them.  A component off the border with one slash
   left (a *dead end*) must take it at the one point that can: a cell there whose slash
   would join another dead end takes the other slash, and a single cell left takes the
   touching one.

A contradiction found at a point adds one to that point's failure *weight*, which steers the
search (dom/wdeg).

Speed: the rules' small helpers are inlined (numba's ``inline="always"``) into
:func:`propagate`, so a step calls no function; those of rules 3 and 4, rarer, stay calls,
which keeps the compiled code (and its compile time) smaller.  Where a test falls at random
from step to step (is a point clued, is a cell open, does a point act now) the queue pushes
are written without branches: the entry is written past the queue's end and the length grows
by the test's outcome.  Each keeps the order of the pushes, so the search's nodes do not
change.  The entry points hand every function a borrowed workspace and its row ``ws.slots``
(:mod:`solvers.fields`): numba then counts no reference on any call.

This module is long because the state, its trail and every deduction rule share one workspace
layout, written down once here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..fields import define
from ..members import join, splice, split

__all__ = [
    "make_workspace",
    "reset",
    "reset_probing",
    "preconnect",
    "assign",
    "undo_to",
    "propagate",
    "count_exits",
]

# Constants passed to jitted functions are numpy scalars, not Python ints: numba types a Python
# constant as a literal and compiles the function it is passed to once more for each one
# (which made Slant's cold compile much longer: benchmarks/first_run.py, on the speed page,
# docs/speed.md)
_ZERO, _ONE, _NONE = np.int64(0), np.int64(1), np.int64(-1)

# workspace rows (int64 each), read in numba through the named fields of Workspace below
_CELL = 0  # cell value: -1 undecided, 0 '/', 1 '\'
_CLUE = 1  # clue per point, -1 none
_PT = 2  # per point, packed (bits below _FREE_SHIFT): touch, free, clue + 1, queue marks
_COMP = 3  # component label of the point
_NEXT = 4  # next member in the point's component (circular)
_SIZE = 5  # component size, valid at labels
_QUEUE = 6  # point queue (a stack)
_FORCED = 7  # pending forced value + 1 of a cell, 0 if none
_PEND = 8  # pending forced cells (a stack)
_TR_CELL = 9  # trail: assigned cell
_TR_A = 10  # trail: label merged away
_TR_B = 11  # trail: label merged into
_DEC_MARK = 12  # decision stack: trail length before the decision
_DEC_CELL = 13  # decision stack: branching cell
_DEC_STATE = 14  # decision stack: 0 first value on trial, 1 second
_INPQ = 15  # 1 while the cell is on the probe queue
_PQ = 16  # probe queue (a stack)
_WEIGHT = 17  # failure weight of a point (dom/wdeg)
_OK = 18  # bit v set: cell = v is known to propagate without contradiction
_DEC_VAL = 19  # decision stack: the value tried first
_GROUP = 20  # group of an undecided cell at the root (_label_groups)
_SKIP = 21  # round in which a verify check of the cell was put off
_AROUND = 22  # rows 22..25: cell d around point p (0 NW, 1 NE, 2 SW, 3 SE), -1 off the grid
_TL = 26  # top-left corner point of each cell
_PHASE = 27  # value a decision on the cell tries first (the cell's last value, while searching)
_CAND = 28  # undecided cells at the root when the groups were last labelled
_IMP = 29  # rows 29, 30: cells a clean trial of value 0 / 1 of the cell decided
_EXITS = 31  # per label: how many more slashes the component's points can take
_BCNT = 32  # per label: the component's points on the border
_PAIRQ = 33  # pair queue (a stack): points whose rule 3 waits for rules 1 and 2 to settle
# rows of the root's class and shape rules (:mod:`solvers.slant.classes`)
_CLS = 34  # per cell: its class's label (a member cell)
_CNEXT = 35  # per cell: the next member of its class (circular)
_CSIZE = 36  # per label: class size
_CVAL = 37  # per label: the class's slash, -1 unknown
_SHAPES = 38  # per cell: the shapes still possible with its right and lower neighbours
_INSQ = 39  # per cell: 1 while on the shape queue
_SQ = 40  # shape queue (a stack): cells whose pairs lost a shape
_INCQ = 41  # per point: 1 while on the class queue
_CQ = 42  # class queue (a stack): clued points to count with their classes
_GEOM = 43  # entries 0, 1: rows and columns of the size _AROUND and _TL hold (0 before the first
# reset): kept with the tables they describe, so any scalar slots ``st`` may serve a block
_SLOTS = 44  # the scalar slots ``st`` (_NQ.. below) as a row: what the entry points pass
# the workspace: these rows as named fields (``ws.cell[i]``, ``ws.around[d, p]``) in numba
Workspace = define(
    "SlantWorkspace",
    {
        "cell": (_CELL, 1),
        "clue": (_CLUE, 1),
        "pt": (_PT, 1),
        "comp": (_COMP, 1),
        "next": (_NEXT, 1),
        "size": (_SIZE, 1),
        "queue": (_QUEUE, 1),
        "forced": (_FORCED, 1),
        "pend": (_PEND, 1),
        "tr_cell": (_TR_CELL, 1),
        "tr_a": (_TR_A, 1),
        "tr_b": (_TR_B, 1),
        "dec_mark": (_DEC_MARK, 1),
        "dec_cell": (_DEC_CELL, 1),
        "dec_state": (_DEC_STATE, 1),
        "inpq": (_INPQ, 1),
        "pq": (_PQ, 1),
        "weight": (_WEIGHT, 1),
        "ok": (_OK, 1),
        "dec_val": (_DEC_VAL, 1),
        "group": (_GROUP, 1),
        "skip": (_SKIP, 1),
        "around": (_AROUND, 4),
        "tl": (_TL, 1),
        "phase": (_PHASE, 1),
        "cand": (_CAND, 1),
        "imp": (_IMP, 2),
        "exits": (_EXITS, 1),
        "bcnt": (_BCNT, 1),
        "pairq": (_PAIRQ, 1),
        "cls": (_CLS, 1),
        "cnext": (_CNEXT, 1),
        "csize": (_CSIZE, 1),
        "cval": (_CVAL, 1),
        "shapes": (_SHAPES, 1),
        "insq": (_INSQ, 1),
        "sq": (_SQ, 1),
        "incq": (_INCQ, 1),
        "cq": (_CQ, 1),
        "geom": (_GEOM, 1),
        "slots": (_SLOTS, 1),
    },
)
as_workspace = Workspace.wrap  # in numba: the workspace of a bare block (Workspace.block)
borrow_workspace = Workspace.borrow  # the same, borrowing the block: nothing counted on calls

# a point's word in row _PT, read and written whole on the hot path: bits 0-2 touch
# (decided cells touching the point), 3-5 free (undecided cells around it), 6-8 its clue + 1
# (0: none), bit 9 while it waits on the point queue, bit 10 while on the pair queue
_FREE_SHIFT = 3
_CLUE_SHIFT = 6
_FIELD = (1 << _FREE_SHIFT) - 1  # each of touch, free and clue + 1: three bits
_MARK_SHIFT = 9
_INQ_BIT = 1 << _MARK_SHIFT
_INPAIR_BIT = 2 << _MARK_SHIFT
_RULE_CODE = (1 << _MARK_SHIFT) - 1  # touch, free and clue: where a change queues the point
_TOUCHED = 1 - (1 << _FREE_SHIFT)  # a cell around the point decided to touch it
_MISSED = -(1 << _FREE_SHIFT)  # ... decided to miss it


def unpacked(word: int) -> tuple[int, int, int]:
    """A point's word, in Python: (touch, free, clue), the clue -1 where it has none."""
    return word & _FIELD, (word >> _FREE_SHIFT) & _FIELD, ((word >> _CLUE_SHIFT) & _FIELD) - 1


def _queue_rules() -> np.ndarray:
    """Per rule code (touch, free, clue + 1): 1 if the point now needs rule 2 (it forces
    or fails: its count reached, every undecided cell needed, or out of reach), 2 if instead
    rule 3 while it has two or more undecided cells; 0 for a point with no clue."""
    table = np.zeros(_RULE_CODE + 1, dtype=np.int64)
    for code in range(_RULE_CODE + 1):
        t, u, k = unpacked(code)
        if k < 0:
            continue
        act = t > k or t + u < k or (u > 0 and (t == k or t + u == k))
        table[code] = 1 if act else (2 if u >= 2 else 0)
    return table


_QUEUE_RULES = _queue_rules()


@njit(cache=True, nogil=True, inline="always")
def touch_at(ws, p):
    """Decided cells touching point ``p``."""
    return ws.pt[p] & _FIELD


@njit(cache=True, nogil=True, inline="always")
def free_at(ws, p):
    """Undecided cells around point ``p``."""
    return (ws.pt[p] >> _FREE_SHIFT) & _FIELD


# scalar slots of st (int64)
_NQ = 0  # point queue length
_NP = 1  # pending forced cells
_NTR = 2  # trail length
_NPQ = 3  # probe queue length
_NCAND = 4  # length of _CAND
_WIT = 5  # a cell both of whose values failed in the last failed step, or -1
_EXON = 6  # 1 while _EXITS and _BCNT are kept (rule 4, from :func:`count_exits` on)
_NPAIR = 7  # pair queue length
_NSQ = 8  # shape queue length
_NCQ = 9  # class queue length
_ST = 10


def make_workspace(points: int) -> tuple[Workspace, np.ndarray]:
    """Return a scratch workspace ``(ws, st)`` for any puzzle of at most ``points`` points.

    ``st`` holds nothing from one puzzle to the next (:func:`reset` sets every slot), so a
    fresh one may serve a kept workspace.  Every function takes the slots as ``st``: this
    array from Python, the workspace's own row ``ws.slots`` in the entry points, where numba
    counts no reference to it on each call (a row has room for them: at least ``_ST``
    entries)."""
    return Workspace(max(points + 1, _ST)), np.zeros(_ST, dtype=np.int64)


@njit(cache=True, nogil=True)
def _geometry(ws, R, C):
    """Fill the tables that depend on the size alone (``_AROUND``, ``_TL``) unless they
    already hold an ``R`` x ``C`` puzzle's (``ws.geom``)."""
    if ws.geom[0] == R and ws.geom[1] == C:
        return
    W = C + 1
    for i in range(R * C):
        ws.tl[i] = i + i // C
    for p in range((R + 1) * W):
        for d in range(4):
            ws.around[d, p] = _around(p, d, R, C)
    ws.geom[0] = R
    ws.geom[1] = C


@njit(cache=True, nogil=True)
def reset(ws, st, R, C, clues):
    """Load ``clues`` (one per point) into the workspace: every cell undecided, no slashes.

    What only probing and the search read is left to :func:`reset_probing`, which the search
    calls once the rules alone have not decided every cell."""
    _geometry(ws, R, C)
    W = C + 1
    n = R * C
    cell, forced = ws.cell, ws.forced
    for i in range(n):
        cell[i] = -1
        forced[i] = 0
    clue, pt = ws.clue, ws.pt
    comp, nxt, size = ws.comp, ws.next, ws.size
    queue, weight = ws.queue, ws.weight
    nq = 0
    p = 0
    for y in range(R + 1):
        fy = 2 if 0 < y < R else 1
        for x in range(W):
            k = clues[p]
            clue[p] = k
            free = fy * (2 if 0 < x < C else 1)
            comp[p] = p
            nxt[p] = p
            size[p] = 1
            clued = np.int64(k >= 0)  # no branch: clues fall at random
            weight[p] = clued
            pt[p] = (free << _FREE_SHIFT) | ((k + 1) << _CLUE_SHIFT) | (clued * _INQ_BIT)
            queue[nq] = p  # overwritten by the next point when p has no clue
            nq += clued
            p += 1
    for k in range(_ST):
        st[k] = 0
    st[_NQ] = nq


@njit(cache=True, nogil=True)
def reset_probing(ws, R, C):
    """Clear what probing and the search keep per cell (the probe queue's marks, the values
    known clean, the checks put off, the trials' counts): :func:`reset` leaves them, since a
    puzzle that propagation alone decides never reads them."""
    inpq, ok, skip, imp = ws.inpq, ws.ok, ws.skip, ws.imp
    for i in range(R * C):
        inpq[i] = 0
        ok[i] = 0
        skip[i] = 0
        imp[0, i] = 0
        imp[1, i] = 0


@njit(cache=True, nogil=True)
def preconnect(ws, R, C, labels):
    """Join points with equal ``labels[p]`` (a member of p's class) into components, as if by
    slashes beyond the grid; call right after :func:`reset`."""
    for p in range((R + 1) * (C + 1)):
        lab = labels[p]
        if lab != p:
            join(ws.comp, ws.next, ws.size, p, lab)  # p is alone until now


@njit(cache=True, nogil=True)
def _around(p, d, R, C):
    """Cell ``d`` around point ``p`` (0 NW, 1 NE, 2 SW, 3 SE), or -1 off the grid.

    Cells NW and SE (d = 0, 3) touch ``p`` with ``\\`` (1), NE and SW with ``/`` (0); the
    touching slash's other end is :func:`_far`.
    """
    W = C + 1
    y = p // W
    r = y - 1 + (d >> 1)
    c = p - y * W - 1 + (d & 1)
    if r < 0 or r >= R or c < 0 or c >= C:
        return -1
    return r * C + c


@njit(cache=True, nogil=True, inline="always")
def _force(ws, st, i, v):
    """Queue cell ``i`` to take value ``v``; False if it is decided or queued otherwise."""
    cur = ws.cell[i]
    if cur >= 0:
        return cur == v
    ok, st[_NP] = _force_undecided(ws, i, v, st[_NP])
    return ok


@njit(cache=True, nogil=True, inline="always")
def _force_undecided(ws, i, v, n):
    """:func:`_force` for an undecided cell ``i``, with the pending cells' count ``n`` kept by
    the caller (in a register across many calls: see :func:`_push_point`): returns (False if
    it is queued otherwise, the new count)."""
    f = ws.forced[i]
    if f != 0:
        return f == v + 1, n
    ws.forced[i] = v + 1
    ws.pend[n] = i
    return True, n + 1


@njit(cache=True, nogil=True, inline="always")
def _enqueue(marks, queue, st, slot, i):
    """Append ``i`` to ``queue`` (its length in ``st[slot]``) and mark it in ``marks``, unless
    it is marked: waits there already."""
    if marks[i] == 0:
        marks[i] = 1
        queue[st[slot]] = i
        st[slot] += 1


@njit(cache=True, nogil=True, inline="always")
def _push_point(ws, p, x, nq, npair):
    """Store ``x`` as point ``p``'s new word (laid out as ``_FREE_SHIFT`` ... ``_INPAIR_BIT``
    say) after a change around it, queued for rule 2 where it now forces or fails, else for
    rule 3 while it has two or more undecided cells (:data:`_QUEUE_RULES`).  ``nq`` and
    ``npair`` are the two queues' lengths, returned grown: the caller keeps them in registers
    across its pushes (through ``st`` each would be stored and loaded again after every queue
    write, which numba cannot tell apart from ``st``).

    Without branches (the tests fall at random): each queue gets ``p`` written past its end
    and grows by one only where ``p`` joins it (a queue's row has room for one entry more
    than there are points, as every row has)."""
    rules = _QUEUE_RULES[x & _RULE_CODE]  # the queues' bits, as the marks' bits lie
    joins = rules & ~(x >> _MARK_SHIFT)  # where it waits already, it does not join again
    ws.queue[nq] = p
    nq += joins & 1
    ws.pairq[npair] = p
    npair += (joins >> 1) & 1
    ws.pt[p] = x | (rules << _MARK_SHIFT)
    return nq, npair


@njit(cache=True, nogil=True, inline="always")
def _push_pair(ws, st, p):
    """Queue point ``p`` for rule 3 unless it waits there already."""
    x = ws.pt[p]
    if x & _INPAIR_BIT == 0:
        ws.pt[p] = x | _INPAIR_BIT
        ws.pairq[st[_NPAIR]] = p
        st[_NPAIR] += 1


@njit(cache=True, nogil=True)
def _fail(ws, st):
    """Empty the point queue and the pending cells after a contradiction; returns False."""
    for k in range(st[_NQ]):
        ws.pt[ws.queue[k]] &= ~_INQ_BIT
    for k in range(st[_NP]):
        ws.forced[ws.pend[k]] = 0
    for k in range(st[_NPAIR]):
        ws.pt[ws.pairq[k]] &= ~_INPAIR_BIT
    st[_NQ] = 0
    st[_NP] = 0
    st[_NPAIR] = 0
    return False


@njit(cache=True, nogil=True, inline="always")
def _forbid_into(ws, R, C, q, target, n):
    """Rule 1 at point ``q``: forbid every undecided slash from ``q`` into component ``target``;
    ``n`` is the pending cells' count (:func:`_force_undecided`).

    Returns (no clash, the new count)."""
    W = C + 1
    ok = True
    for d in range(4):
        i = ws.around[d, q]
        if i >= 0 and ws.cell[i] < 0:
            if ws.comp[_far(q, d, W)] == target:
                fine, n = _force_undecided(ws, i, 1 - _touching(d), n)
                ok &= fine
    return ok, n


@njit(cache=True, nogil=True, inline="always")
def _ends(ws, i, v, C):
    """The points joined by slash ``v`` in cell ``i`` and the two it misses."""
    W = C + 1
    tl = ws.tl[i]
    if v == 1:
        return tl, tl + W + 1, tl + 1, tl + W
    return tl + 1, tl + W, tl, tl + W + 1


@njit(cache=True, nogil=True)
def count_exits(ws, st, R, C):
    """Start keeping rule 4's counts: per component, the slashes its points can still take
    (a clue's count less its touching slashes; the undecided cells around a point without a
    clue) and its points on the border.  Undoing below the trail length of this call is not
    allowed while they are kept (:func:`reset` stops them)."""
    W = C + 1
    exits, bcnt, comp = ws.exits, ws.bcnt, ws.comp
    for p in range((R + 1) * W):
        exits[p] = 0
        bcnt[p] = 0
    p = _ZERO
    for y in range(R + 1):
        for x in range(W):
            label = comp[p]
            exits[label] += _capacity(ws, p)
            bcnt[label] += 0 if 0 < y < R and 0 < x < C else 1
            p += 1
    st[_EXON] = 1
    for p in range((R + 1) * W):
        if comp[p] == p and not _reaches(ws, p):
            return False
    return True


@njit(cache=True, nogil=True)
def _exits_step(ws, la, lb, l1, l2, o1, o2, step):
    """Add ``step`` to the exits a slash changes: it joins components ``la`` and ``lb`` (its
    ends each take one slash more: step -1) and misses points ``o1`` (of ``l1``) and ``o2``
    (of ``l2``), of which an unclued one has one cell fewer; step +1 undoes it."""
    ws.exits[la] += step
    ws.exits[lb] += step
    if ws.clue[o1] < 0:
        ws.exits[l1] += step
    if ws.clue[o2] < 0:
        ws.exits[l2] += step


@njit(cache=True, nogil=True, inline="always")
def _capacity(ws, p):
    """The slashes point ``p`` can still take: its clue less its touching slashes, or
    without a clue its undecided cells."""
    k = ws.clue[p]
    return k - touch_at(ws, p) if k >= 0 else free_at(ws, p)


@njit(cache=True, nogil=True, inline="always")
def _far(p, d, W):
    """The other end of the slash of cell ``d`` around point ``p`` that touches ``p``."""
    return p + (2 * (d >> 1) - 1) * W + 2 * (d & 1) - 1


@njit(cache=True, nogil=True, inline="always")
def _touching(d):
    """The slash with which cell ``d`` around a point touches it: 1 (``\\``) for NW and SE,
    0 (``/``) for NE and SW."""
    return 1 if d == 0 or d == 3 else 0


@njit(cache=True, nogil=True)
def _walled(ws, st, C, label):
    """Rule 4 at component ``label``: False if it is off the border with no slash left to
    take; with one left, that slash must come (at the one point that can take it), through
    a cell whose other end is not walled in as well."""
    if ws.bcnt[label] > 0 or ws.exits[label] > 1:
        return True
    if ws.exits[label] <= 0:
        return False
    q = label
    while _capacity(ws, q) <= 0:  # find the point that can take the slash
        q = ws.next[q]
        if q == label:
            return False
    W = C + 1
    ok = True
    ways, way, way_v = 0, _NONE, _ZERO
    for d in range(4):
        i = ws.around[d, q]
        if i < 0 or ws.cell[i] >= 0:
            continue
        other = ws.comp[_far(q, d, W)]
        if other == label:
            continue  # a loop (rule 1 forbids it)
        v = _touching(d)
        if ws.bcnt[other] == 0 and ws.exits[other] <= 1:
            ok &= _force(ws, st, i, 1 - v)  # joined, both would be walled in
        else:
            ways += 1
            way, way_v = i, v
    if ways == 0:
        return False
    return ok and (ways > 1 or _force(ws, st, way, way_v))


@njit(cache=True, nogil=True)
def _reaches(ws, label):
    """Whether component ``label`` may still reach the border: it holds a border point or
    its points can take another slash."""
    return ws.bcnt[label] > 0 or ws.exits[label] > 0


@njit(cache=True, nogil=True, inline="always")
def assign(ws, st, R, C, i, v):
    """Decide cell ``i`` = ``v`` and merge its ends; False on a contradiction (still undoable)."""
    cell = ws.cell
    if cell[i] >= 0:
        return cell[i] == v
    a, b, o1, o2 = _ends(ws, i, v, C)
    comp, size, nxt = ws.comp, ws.size, ws.next
    ca, cb = comp[a], comp[b]
    if ca == cb:
        return False
    cell[i] = v
    pt = ws.pt
    nq, npair = _push_point(ws, a, pt[a] + _TOUCHED, st[_NQ], st[_NPAIR])
    nq, npair = _push_point(ws, b, pt[b] + _TOUCHED, nq, npair)
    nq, npair = _push_point(ws, o1, pt[o1] + _MISSED, nq, npair)
    st[_NQ], st[_NPAIR] = _push_point(ws, o2, pt[o2] + _MISSED, nq, npair)
    kept = st[_EXON] != 0
    if kept:
        _exits_step(ws, ca, cb, comp[o1], comp[o2], o1, o2, _NONE)
    if size[ca] > size[cb]:
        ca, cb = cb, ca
    if kept:
        ws.exits[cb] += ws.exits[ca]
        ws.bcnt[cb] += ws.bcnt[ca]
    ok = True
    n = st[_NP]
    q = ca
    while True:  # the join of members.join, with rule 1 at each point relabelled: a check
        fine, n = _forbid_into(ws, R, C, q, cb, n)  # that reads the labels set before it
        ok &= fine
        comp[q] = cb
        q = nxt[q]
        if q == ca:
            break
    st[_NP] = n
    splice(nxt, ca, cb)
    size[cb] += size[ca]
    n = st[_NTR]
    ws.tr_cell[n] = i
    ws.tr_a[n] = ca
    ws.tr_b[n] = cb
    st[_NTR] = n + 1
    if kept:
        # rule 4 at the components whose counts changed
        ok &= _walled(ws, st, C, cb)
        ok &= _walled(ws, st, C, comp[o1])
        ok &= _walled(ws, st, C, comp[o2])
    return ok


@njit(cache=True, nogil=True)
def undo_to(ws, st, R, C, mark):
    """Undo trail entries down to length ``mark``: cells undecided again, merges split."""
    cell, pt = ws.cell, ws.pt
    comp, size, nxt = ws.comp, ws.size, ws.next
    kept = st[_EXON] != 0
    n = st[_NTR]
    while n > mark:
        n -= 1
        i = ws.tr_cell[n]
        ca = ws.tr_a[n]
        cb = ws.tr_b[n]
        split(comp, nxt, size, ca, cb, ca)
        a, b, o1, o2 = _ends(ws, i, cell[i], C)
        if kept:
            ws.exits[cb] -= ws.exits[ca]
            ws.bcnt[cb] -= ws.bcnt[ca]
            _exits_step(ws, comp[a], comp[b], comp[o1], comp[o2], o1, o2, _ONE)
        pt[a] -= _TOUCHED
        pt[b] -= _TOUCHED
        pt[o1] -= _MISSED
        pt[o2] -= _MISSED
        cell[i] = -1
    st[_NTR] = n


@njit(cache=True, nogil=True, inline="always")
def _force_around(ws, st, R, C, p, hit, skip1, skip2):
    """Force every undecided cell around ``p`` but ``skip1``, ``skip2`` to touch it (hit = 1)
    or not (hit = 0)."""
    ok = True
    cell, forced, pend = ws.cell, ws.forced, ws.pend
    n = st[_NP]
    for d in range(4):
        # :func:`_force` without branches (which cells are open falls at random): an entry
        # off the grid reads cell 0 and writes back what it read
        i = ws.around[d, p]
        j = max(i, 0)
        want = (i >= 0) & (i != skip1) & (i != skip2) & (cell[j] < 0)
        v = hit if _touching(d) else 1 - hit
        f = forced[j]
        ok &= (want & (f != 0) & (f != v + 1)) == 0  # no clash with a value queued before
        new = want & (f == 0)
        forced[j] = f + new * (v + 1)
        pend[n] = j
        n += new
    st[_NP] = n
    return ok


@njit(cache=True, nogil=True, inline="always")
def _saturate(ws, st, R, C, p):
    """Rule 2 at clued point ``p``."""
    k = ws.clue[p]
    t = touch_at(ws, p)
    u = free_at(ws, p)
    if t > k or t + u < k:
        return False
    if u == 0 or (t < k and t + u > k):
        return True
    none = np.int64(-1)
    return _force_around(ws, st, R, C, p, 1 if t + u == k else 0, none, none)


@njit(cache=True, nogil=True)
def _pair(ws, st, R, C, p, q, s1, s2):
    """Rule 3 for clued points ``p``, ``q`` one step apart sharing the undecided cells s1, s2.

    Each shared cell touches exactly one of ``p`` and ``q``; ``s`` = the shared cells'
    touches of ``p`` lies in 0..2 and is bounded by both clues.  What ``p``'s private free
    cells must then give (``need_p - s``) forces them when it is 0 or all of them.
    """
    need_p = ws.clue[p] - touch_at(ws, p)
    need_q = ws.clue[q] - touch_at(ws, q)
    free_p = free_at(ws, p) - 2
    free_q = free_at(ws, q) - 2
    lo = max(max(0, need_p - free_p), 2 - need_q)
    hi = min(min(2, need_p), 2 - need_q + free_q)
    if lo > hi:
        return False
    ok = True
    # p's private cells must give need_p - s; q's give need_q - (2 - s)
    for point, most, least, private in (
        (p, need_p - lo, need_p - hi, free_p),
        (q, need_q - 2 + hi, need_q - 2 + lo, free_q),
    ):
        if private > 0 and (most == 0 or least == private):
            ok &= _force_around(ws, st, R, C, point, 1 if most > 0 else 0, s1, s2)
    return ok


@njit(cache=True, nogil=True)
def _pairs_at(ws, st, R, C, p):
    """Rule 3 between ``p`` and each clued neighbour right, left, below, above."""
    W = C + 1
    ok = True
    for k in range(4):
        # the neighbour q (right, left, below, above) and the two cells it shares with p
        side = k & 1
        if k < 2:
            q, d1, d2 = p + 1 - 2 * side, 1 - side, 3 - side
        else:
            q, d1, d2 = p + W - 2 * W * side, 2 - 2 * side, 3 - 2 * side
        s1 = ws.around[d1, p]
        s2 = ws.around[d2, p]
        if s1 >= 0 and s2 >= 0 and ws.clue[q] >= 0 and ws.cell[s1] < 0 and ws.cell[s2] < 0:
            ok &= _pair(ws, st, R, C, p, q, s1, s2)
    return ok


@njit(cache=True, nogil=True)
def propagate(ws, st, R, C):
    """Apply rules 1-3 until nothing changes; False (queues emptied) on a contradiction.

    Forced cells go first, then rule 2 at the queued points; a point that still has two or
    more undecided cells then waits on the pair queue, whose rule 3 runs only when nothing
    else is left to do: by then its cells have mostly been decided by the cheaper rules (an
    easy puzzle never needs rule 3), and a point changed many times is paired once.  The
    rules are monotone, so the order changes neither the closure nor whether it fails; it
    changes only where a failure is found, so the failure weights, and with them the
    search's nodes, can differ."""
    while True:
        if st[_NP] > 0:
            st[_NP] -= 1
            i = ws.pend[st[_NP]]
            v = ws.forced[i] - 1
            ws.forced[i] = 0
            if not assign(ws, st, R, C, i, v):
                a, b, o1, o2 = _ends(ws, i, v, C)
                ws.weight[a] += 1
                ws.weight[b] += 1
                return _fail(ws, st)
        elif st[_NQ] > 0:
            st[_NQ] -= 1
            p = ws.queue[st[_NQ]]
            ws.pt[p] &= ~_INQ_BIT
            if not _saturate(ws, st, R, C, p):
                ws.weight[p] += 1
                return _fail(ws, st)
            if free_at(ws, p) >= 2:
                _push_pair(ws, st, p)
        elif st[_NPAIR] > 0:
            st[_NPAIR] -= 1
            p = ws.pairq[st[_NPAIR]]
            ws.pt[p] &= ~_INPAIR_BIT
            if free_at(ws, p) >= 2 and not _pairs_at(ws, st, R, C, p):
                ws.weight[p] += 1
                return _fail(ws, st)
        else:
            return True
