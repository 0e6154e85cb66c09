"""Slant (Gokigen Naname) search engine: deductions interleaved with backtracking, in numba.

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

State (one int64 workspace ``ws`` whose rows are named by the ``_ROW`` constants below, plus an
int64 vector ``st`` of queue and trail lengths): the cells; for every point the number of
decided cells touching it (``TOUCH``) and of undecided cells around it (``FREE``); the
components of points joined by decided slashes, kept as a label per point (``COMP``), a
circular list of members (``NEXT``) and a size per label (``SIZE``).  A merge relabels the
smaller component; undoing it swaps the two list links back and relabels again, so the
structure is exact under backtracking with no path compression to undo.

Deduction rules, all run inside one ``while progress`` loop (:func:`propagate`):

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

Probing (:func:`probe`): when the rules stall, an undecided cell is tried both ways; a value
whose propagation fails is refuted and the cell takes the other one.  Cells are (re)probed
from a queue fed by the neighbourhood of every newly decided cell; a *sweep* queues a whole
area again and again until it forces nothing.  A value met in a clean trial is known to
propagate cleanly and is not tried again until the state grows.

Search (:func:`search`): the root is swept whole; the undecided cells then fall into
*groups* (connected through shared corners) that meet only through loops.  The search is a
series of *checks*: a cell is given a value and searched under it with a node budget; a
solution ends the check, a refutation makes the other value a root fact (so no refutation
is ever searched twice), and a check over budget is put off while others go first.  Once a
first solution is known the checks ask whether any cell can differ from it.  Inside a check
the branching picks the cell whose corners failed most often (dom/wdeg), within the group
of the last decision, and sweeps that group near the decision after each step.  Every
assignment goes on a trail; backtracking undoes the trail down to a decision's mark.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "make_workspace",
    "reset",
    "assign",
    "undo_to",
    "propagate",
    "probe",
    "preconnect",
    "search",
]

# workspace rows (int64 each)
_CELL = 0  # cell value: -1 undecided, 0 '/', 1 '\'
_CLUE = 1  # clue per point, -1 none
_TOUCH = 2  # decided cells touching the point
_FREE = 3  # undecided cells around the point
_COMP = 4  # component label of the point
_NEXT = 5  # next member in the point's component (circular)
_SIZE = 6  # component size, valid at labels
_INQ = 7  # 1 while the point is on the point queue
_QUEUE = 8  # point queue (a stack)
_FORCED = 9  # pending forced value + 1 of a cell, 0 if none
_PEND = 10  # pending forced cells (a stack)
_TR_CELL = 11  # trail: assigned cell
_TR_A = 12  # trail: label merged away
_TR_B = 13  # trail: label merged into
_DEC_MARK = 14  # decision stack: trail length before the decision
_DEC_CELL = 15  # decision stack: branching cell
_DEC_STATE = 16  # decision stack: 0 first value on trial, 1 second
_INPQ = 17  # 1 while the cell is on the probe queue
_PQ = 18  # probe queue (a stack)
_WEIGHT = 19  # failure weight of a point (dom/wdeg)
_OK = 20  # bit v set: cell = v is known to propagate without contradiction
_OKLIST = 21  # cells with a bit in _OK
_GROUP = 22  # group of an undecided cell at the root (_label_groups)
_SKIP = 23  # round in which a verify check of the cell was put off
_ROWS = 24

SWEEP_RADIUS = 6  # a decision sweeps its group within this many cells of it
CHECK = 128  # default nodes a check may take before it is put off (doubled each round)

# scalar slots of st (int64)
_NQ = 0  # point queue length
_NP = 1  # pending forced cells
_NTR = 2  # trail length
_NPQ = 3  # probe queue length
_NOK = 4  # length of _OKLIST


def make_workspace(points: int) -> tuple[np.ndarray, np.ndarray]:
    """Return a scratch workspace ``(ws, st)`` for any puzzle of at most ``points`` points."""
    size = points + 1
    return np.zeros((_ROWS, size), dtype=np.int64), np.zeros(5, dtype=np.int64)


@njit(cache=True, nogil=True)
def reset(ws, st, R, C, clues):
    """Load ``clues`` (one per point) into the workspace: every cell undecided, no slashes."""
    W = C + 1
    cell, inpq = ws[_CELL], ws[_INPQ]
    for i in range(R * C):
        cell[i] = -1
        inpq[i] = 0
    clue, touch, free = ws[_CLUE], ws[_TOUCH], ws[_FREE]
    comp, nxt, size, inq, forced = ws[_COMP], ws[_NEXT], ws[_SIZE], ws[_INQ], ws[_FORCED]
    queue, weight = ws[_QUEUE], ws[_WEIGHT]
    nq = 0
    for p in range((R + 1) * W):
        y = p // W
        x = p - y * W
        clue[p] = clues[p]
        touch[p] = 0
        free[p] = (2 if 0 < y < R else 1) * (2 if 0 < x < C else 1)
        comp[p] = p
        nxt[p] = p
        size[p] = 1
        inq[p] = 0
        weight[p] = 1 if clues[p] >= 0 else 0
        if clues[p] >= 0:
            inq[p] = 1
            queue[nq] = p
            nq += 1
    for i in range(R * C):
        forced[i] = 0
    st[_NQ] = nq
    st[_NP] = 0
    st[_NTR] = 0
    st[_NPQ] = 0
    st[_NOK] = 0
    ok, skip = ws[_OK], ws[_SKIP]
    for i in range(R * C):
        ok[i] = 0
        skip[i] = 0


@njit(cache=True, nogil=True)
def preconnect(ws, R, C, labels):
    """Join points with equal ``labels[p]`` (a member of p's class) into components, as if by
    slashes beyond the grid; call right after :func:`reset`."""
    comp, nxt, size = ws[_COMP], ws[_NEXT], ws[_SIZE]
    for p in range((R + 1) * (C + 1)):
        lab = labels[p]
        if lab != p:
            comp[p] = lab
            nxt[p] = nxt[lab]
            nxt[lab] = p
            size[lab] += 1


@njit(cache=True, nogil=True)
def _around(p, d, R, C):
    """Cell ``d`` around point ``p`` (0 NW, 1 NE, 2 SW, 3 SE), or -1 off the grid.

    Cells NW and SE (d = 0, 3) touch ``p`` with ``\\`` (1), NE and SW with ``/`` (0); the
    touching slash's other end is ``p + (2 * (d >> 1) - 1) * W + 2 * (d & 1) - 1``.
    """
    W = C + 1
    y = p // W
    r = y - 1 + (d >> 1)
    c = p - y * W - 1 + (d & 1)
    if r < 0 or r >= R or c < 0 or c >= C:
        return -1
    return r * C + c


@njit(cache=True, nogil=True)
def _force(ws, st, i, v):
    """Queue cell ``i`` to take value ``v``; False if it is decided or queued otherwise."""
    cur = ws[_CELL, i]
    if cur >= 0:
        return cur == v
    f = ws[_FORCED, i]
    if f != 0:
        return f == v + 1
    ws[_FORCED, i] = v + 1
    ws[_PEND, st[_NP]] = i
    st[_NP] += 1
    return True


@njit(cache=True, nogil=True)
def _push_point(ws, st, p):
    if ws[_INQ, p] == 0 and ws[_CLUE, p] >= 0:
        ws[_INQ, p] = 1
        ws[_QUEUE, st[_NQ]] = p
        st[_NQ] += 1


@njit(cache=True, nogil=True)
def _fail(ws, st):
    """Empty the point queue and the pending cells after a contradiction; returns False."""
    for k in range(st[_NQ]):
        ws[_INQ, ws[_QUEUE, k]] = 0
    for k in range(st[_NP]):
        ws[_FORCED, ws[_PEND, k]] = 0
    st[_NQ] = 0
    st[_NP] = 0
    return False


@njit(cache=True, nogil=True)
def _forbid_into(ws, st, R, C, q, target):
    """Rule 1 at point ``q``: forbid every undecided slash from ``q`` into component ``target``."""
    W = C + 1
    ok = True
    for d in range(4):
        i = _around(q, d, R, C)
        if i >= 0 and ws[_CELL, i] < 0:
            if ws[_COMP, q + (2 * (d >> 1) - 1) * W + 2 * (d & 1) - 1] == target:
                ok &= _force(ws, st, i, 0 if d == 0 or d == 3 else 1)
    return ok


@njit(cache=True, nogil=True)
def _ends(i, v, C):
    """The points joined by slash ``v`` in cell ``i`` and the two it misses."""
    W = C + 1
    r = i // C
    tl = r * W + i - r * C
    if v == 1:
        return tl, tl + W + 1, tl + 1, tl + W
    return tl + 1, tl + W, tl, tl + W + 1


@njit(cache=True, nogil=True)
def assign(ws, st, R, C, i, v):
    """Decide cell ``i`` = ``v`` and merge its ends; False on a contradiction (still undoable)."""
    cell = ws[_CELL]
    if cell[i] >= 0:
        return cell[i] == v
    a, b, o1, o2 = _ends(i, v, C)
    comp, size, nxt = ws[_COMP], ws[_SIZE], ws[_NEXT]
    ca, cb = comp[a], comp[b]
    if ca == cb:
        return False
    cell[i] = v
    touch, free = ws[_TOUCH], ws[_FREE]
    touch[a] += 1
    touch[b] += 1
    free[a] -= 1
    free[b] -= 1
    free[o1] -= 1
    free[o2] -= 1
    _push_point(ws, st, a)
    _push_point(ws, st, b)
    _push_point(ws, st, o1)
    _push_point(ws, st, o2)
    if size[ca] > size[cb]:
        ca, cb = cb, ca
    ok = True
    q = ca
    while True:
        ok &= _forbid_into(ws, st, R, C, q, cb)
        comp[q] = cb
        q = nxt[q]
        if q == ca:
            break
    nxt[ca], nxt[cb] = nxt[cb], nxt[ca]
    size[cb] += size[ca]
    n = st[_NTR]
    ws[_TR_CELL, n] = i
    ws[_TR_A, n] = ca
    ws[_TR_B, n] = cb
    st[_NTR] = n + 1
    return ok


@njit(cache=True, nogil=True)
def undo_to(ws, st, R, C, mark):
    """Undo trail entries down to length ``mark``: cells undecided again, merges split."""
    cell, touch, free = ws[_CELL], ws[_TOUCH], ws[_FREE]
    comp, size, nxt = ws[_COMP], ws[_SIZE], ws[_NEXT]
    n = st[_NTR]
    while n > mark:
        n -= 1
        i = ws[_TR_CELL, n]
        ca = ws[_TR_A, n]
        cb = ws[_TR_B, n]
        nxt[ca], nxt[cb] = nxt[cb], nxt[ca]
        size[cb] -= size[ca]
        q = ca
        while True:
            comp[q] = ca
            q = nxt[q]
            if q == ca:
                break
        a, b, o1, o2 = _ends(i, cell[i], C)
        touch[a] -= 1
        touch[b] -= 1
        free[a] += 1
        free[b] += 1
        free[o1] += 1
        free[o2] += 1
        cell[i] = -1
    st[_NTR] = n


@njit(cache=True, nogil=True)
def _force_around(ws, st, R, C, p, hit, skip1, skip2):
    """Force every undecided cell around ``p`` but ``skip1``, ``skip2`` to touch it (hit = 1)
    or not (hit = 0)."""
    ok = True
    for d in range(4):
        i = _around(p, d, R, C)
        if i >= 0 and i != skip1 and i != skip2 and ws[_CELL, i] < 0:
            ok &= _force(ws, st, i, hit if d == 0 or d == 3 else 1 - hit)
    return ok


@njit(cache=True, nogil=True)
def _saturate(ws, st, R, C, p):
    """Rule 2 at clued point ``p``."""
    k = ws[_CLUE, p]
    t = ws[_TOUCH, p]
    u = ws[_FREE, p]
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
    need_p = ws[_CLUE, p] - ws[_TOUCH, p]
    need_q = ws[_CLUE, q] - ws[_TOUCH, q]
    free_p = ws[_FREE, p] - 2
    free_q = ws[_FREE, q] - 2
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
        s1 = _around(p, d1, R, C)
        s2 = _around(p, d2, R, C)
        if s1 >= 0 and s2 >= 0 and ws[_CLUE, q] >= 0 and ws[_CELL, s1] < 0 and ws[_CELL, s2] < 0:
            ok &= _pair(ws, st, R, C, p, q, s1, s2)
    return ok


@njit(cache=True, nogil=True)
def propagate(ws, st, R, C):
    """Apply rules 1-3 until nothing changes; False (queues emptied) on a contradiction."""
    while True:
        if st[_NP] > 0:
            st[_NP] -= 1
            i = ws[_PEND, st[_NP]]
            v = ws[_FORCED, i] - 1
            ws[_FORCED, i] = 0
            if not assign(ws, st, R, C, i, v):
                a, b, o1, o2 = _ends(i, v, C)
                ws[_WEIGHT, a] += 1
                ws[_WEIGHT, b] += 1
                return _fail(ws, st)
        elif st[_NQ] > 0:
            st[_NQ] -= 1
            p = ws[_QUEUE, st[_NQ]]
            ws[_INQ, p] = 0
            if not _saturate(ws, st, R, C, p) or (
                ws[_FREE, p] >= 2 and not _pairs_at(ws, st, R, C, p)
            ):
                ws[_WEIGHT, p] += 1
                return _fail(ws, st)
        else:
            return True


@njit(cache=True, nogil=True)
def _push_probe(ws, st, i):
    if ws[_INPQ, i] == 0 and ws[_CELL, i] < 0:
        ws[_INPQ, i] = 1
        ws[_PQ, st[_NPQ]] = i
        st[_NPQ] += 1


@njit(cache=True, nogil=True)
def _clear_probes(ws, st):
    for k in range(st[_NPQ]):
        ws[_INPQ, ws[_PQ, k]] = 0
    st[_NPQ] = 0


@njit(cache=True, nogil=True)
def queue_probes_near(ws, st, R, C, mark):
    """Queue for probing the undecided cells next to every cell decided since trail ``mark``."""
    for k in range(mark, st[_NTR]):
        i = ws[_TR_CELL, k]
        r = i // C
        c = i - r * C
        for rr in range(max(r - 1, 0), min(r + 2, R)):
            for cc in range(max(c - 1, 0), min(c + 2, C)):
                _push_probe(ws, st, rr * C + cc)


@njit(cache=True, nogil=True)
def _trial(ws, st, R, C, i, v):
    """Assign cell ``i`` = ``v`` (nothing if ``i < 0``) and propagate; False on a contradiction
    (the state is left for the caller to undo)."""
    if i >= 0 and not assign(ws, st, R, C, i, v):
        return _fail(ws, st)
    return propagate(ws, st, R, C)


@njit(cache=True, nogil=True)
def _forget_ok(ws, st):
    """Forget which values propagate cleanly (after the state grew)."""
    for k in range(st[_NOK]):
        ws[_OK, ws[_OKLIST, k]] = 0
    st[_NOK] = 0


@njit(cache=True, nogil=True)
def _note_ok(ws, st, mark):
    """Every value decided since trail ``mark`` in a clean trial propagates cleanly alone."""
    for k in range(mark, st[_NTR]):
        j = ws[_TR_CELL, k]
        if ws[_OK, j] == 0:
            ws[_OKLIST, st[_NOK]] = j
            st[_NOK] += 1
        ws[_OK, j] |= 1 << ws[_CELL, j]


@njit(cache=True, nogil=True)
def probe(ws, st, R, C):
    """Probe queued cells until the queue is empty; False (queue emptied) on a contradiction.

    Each cell is tried with ``/`` and ``\\``; if exactly one propagates cleanly the cell keeps
    it and its neighbourhood is queued again.  A value met in a clean trial is known to
    propagate cleanly itself and is not retried until the state grows.
    """
    while st[_NPQ] > 0:
        st[_NPQ] -= 1
        i = ws[_PQ, st[_NPQ]]
        ws[_INPQ, i] = 0
        if ws[_CELL, i] >= 0:
            continue
        clean = 0
        good = np.int64(0)
        mark = st[_NTR]
        # trials 0 and 1 test the two values; trial 2 keeps the only clean one
        for trial in range(3):
            if trial == 2 and clean != 1:
                break
            value = good if trial == 2 else trial
            if trial < 2 and ws[_OK, i] & (1 << value):
                clean += 1
                good = value
                continue
            if trial == 2:
                _forget_ok(ws, st)
            mark = st[_NTR]
            if _trial(ws, st, R, C, i, value):
                if trial == 2:
                    break
                _note_ok(ws, st, mark)
                clean += 1
                good = value
            undo_to(ws, st, R, C, mark)
        if clean == 0:
            _clear_probes(ws, st)
            return False
        if clean == 1:
            queue_probes_near(ws, st, R, C, mark)
    return True


@njit(cache=True, nogil=True)
def _step(ws, st, R, C, i, v, sweep):
    """One search step: cell ``i`` = ``v`` (none at the root), propagate, probe what changed;
    then sweep: probe every undecided cell (``sweep == -2``) or those of group ``sweep``
    (``>= 0``), again until a sweep forces nothing (``-1``: no sweep)."""
    _forget_ok(ws, st)
    mark = st[_NTR]
    if not _trial(ws, st, R, C, i, v):
        _clear_probes(ws, st)
        return False
    queue_probes_near(ws, st, R, C, mark)
    swept_at = -1
    while True:
        if not probe(ws, st, R, C):
            return False
        if sweep == -1 or st[_NTR] == swept_at:
            return True
        swept_at = st[_NTR]
        if sweep == -2:
            for k in range(R * C):
                _push_probe(ws, st, k)
        else:
            r = i // C
            c = i - r * C
            for rr in range(max(r - SWEEP_RADIUS, 0), min(r + SWEEP_RADIUS + 1, R)):
                for cc in range(max(c - SWEEP_RADIUS, 0), min(c + SWEEP_RADIUS + 1, C)):
                    if ws[_GROUP, rr * C + cc] == sweep:
                        _push_probe(ws, st, rr * C + cc)


@njit(cache=True, nogil=True)
def _label_groups(ws, R, C):
    """Label the undecided cells by connected group (cells sharing a corner are neighbours).

    Two groups share no clue, so they meet only through loops; the search finishes one group
    before it turns to another, and probes a whole group after each decision in it.
    """
    group, stack, cell = ws[_GROUP], ws[_PQ], ws[_CELL]
    for i in range(R * C):
        group[i] = -1
    for seed in range(R * C):
        if cell[seed] >= 0 or group[seed] >= 0:
            continue
        group[seed] = seed
        top = 1
        stack[0] = seed
        while top > 0:
            top -= 1
            i = stack[top]
            r = i // C
            c = i - r * C
            for rr in range(max(r - 1, 0), min(r + 2, R)):
                for cc in range(max(c - 1, 0), min(c + 2, C)):
                    j = rr * C + cc
                    if cell[j] < 0 and group[j] < 0:
                        group[j] = seed
                        stack[top] = j
                        top += 1


@njit(cache=True, nogil=True)
def _choose(ws, R, C, focus, skip):
    """The undecided cell to branch on (-1 if none): in group ``focus`` if it has one, else
    anywhere, never one marked ``skip`` in ``_SKIP``.

    The cell whose open corners weigh most, first in row-major on ties.  A corner is open
    while it has two or more undecided cells; its weight starts at 1 for a clue, 0 otherwise,
    and grows by one with every contradiction found there, so the search turns to where the
    puzzle fails (the dom/wdeg rule).
    """
    W = C + 1
    cell, free, weight, group = ws[_CELL], ws[_FREE], ws[_WEIGHT], ws[_GROUP]
    best = -1
    best_score = -1
    near = -1
    near_score = -1
    for i in range(R * C):
        if cell[i] >= 0 or ws[_SKIP, i] == skip:
            continue
        r = i // C
        tl = r * W + i - r * C
        score = (
            (weight[tl] if free[tl] >= 2 else 0)
            + (weight[tl + 1] if free[tl + 1] >= 2 else 0)
            + (weight[tl + W] if free[tl + W] >= 2 else 0)
            + (weight[tl + W + 1] if free[tl + W + 1] >= 2 else 0)
        )
        if score > best_score:
            best, best_score = i, score
        if focus >= 0 and group[i] == focus and score > near_score:
            near, near_score = i, score
    return near if near >= 0 else best


@njit(cache=True, nogil=True)
def search(ws, st, R, C, max_solutions, sol, first, sweep, check, max_nodes):
    """Find up to ``max_solutions`` (1 or 2) solutions from the current state into ``sol``.

    1. *Root*: propagate and, with ``sweep``, probe every cell; then label the groups of
       undecided cells (:func:`_label_groups`).  Every root fact follows from the clues.
    2. *Checks*: pick an undecided cell ``i`` (:func:`_choose`) and a value ``a`` for it:
       ``first[i]`` while no solution is known, ``not S[i]`` once the first solution ``S``
       is (any other solution differs from ``S`` in a cell undecided at the root).  Search
       under ``i = a``: a solution there is the first (then the checks start over against
       it) or the second; a refutation makes ``i = not a`` a root fact, which every later
       check builds on, so no refutation is ever searched twice.  A check that takes more
       than ``check`` nodes is put off until every other cell had its turn, and the budget
       doubles each round.  The root holding every cell means one solution.
    3. *Inside a check*: depth-first search branching on :func:`_choose`'s cell in the group
       of the last decision, value ``first`` or ``S`` first; each decision sweeps its group
       within ``SWEEP_RADIUS`` cells.  The failure weights persist from check to check, so
       a check put off comes back to a search that starts where the puzzle is hard.

    Invariant at the top of the loop: the state is the closure (rules + probing) of the
    clues, the root facts and the decisions on the stack, and ``ok`` says whether that
    closure is free of contradictions.  The check is the bottom entry of the stack; entries
    in state 1 are not tried the other way.  Returns ``(solutions, nodes)`` with nodes = 1 +
    every check or branch tried, or ``(-1, nodes)`` once nodes pass ``max_nodes`` (if > 0),
    leaving the state mid-search.
    """
    cell = ws[_CELL]
    dmark, dcell, dstate = ws[_DEC_MARK], ws[_DEC_CELL], ws[_DEC_STATE]
    nodes = 1
    nsol = 0
    depth = 0
    rnd = 1  # check round
    budget = check
    check_start = 0
    root = True  # the coming step changes the root state
    want_check = False
    i = -1
    v = np.int64(0)
    v_check = np.int64(0)  # the value the check at the bottom of the stack tries
    while True:
        group = -2 if sweep else (ws[_GROUP, i] if i >= 0 else -1)
        ok = _step(ws, st, R, C, i, v, group)
        sweep = False
        if root:
            root = False
            if not ok:
                return nsol, nodes  # the clues contradict each other
            _label_groups(ws, R, C)
            want_check = True
        # pick the next step: a decision, a second branch, a root fact or a check
        while not want_check:
            if ok:
                i = _choose(ws, R, C, ws[_GROUP, dcell[depth - 1]], -1)
                if i >= 0:
                    dmark[depth] = st[_NTR]
                    dcell[depth] = i
                    dstate[depth] = 0
                    depth += 1
                    v = sol[i] if nsol == 1 else first[i]
                    break
                nsol += 1  # a solution
                if nsol == 1:
                    for k in range(R * C):
                        sol[k] = cell[k]
                if nsol == 2 or max_solutions == 1:
                    return nsol, nodes
                undo_to(ws, st, R, C, dmark[0])  # check against it from the root
                depth = 0
                rnd += 1
                budget = check
                want_check = True
                continue
            if nodes - check_start > budget:
                undo_to(ws, st, R, C, dmark[0])  # put the check off
                depth = 0
                ws[_SKIP, dcell[0]] = rnd
                want_check = True
                continue
            while depth > 0 and dstate[depth - 1] == 1:
                depth -= 1
            if depth == 0:
                # the check failed: its cell takes the other value, at the root
                undo_to(ws, st, R, C, dmark[0])
                i = dcell[0]
                v = 1 - v_check
                root = True
                break
            d = depth - 1
            undo_to(ws, st, R, C, dmark[d])
            dstate[d] = 1
            i = dcell[d]
            v = 1 - (sol[i] if nsol == 1 else first[i])
            break
        if want_check:
            want_check = False
            i = _choose(ws, R, C, -1, rnd)
            if i < 0:
                rnd += 1
                budget *= 2
                i = _choose(ws, R, C, -1, rnd)
                if i < 0:
                    # the root holds every cell: the one solution
                    if nsol == 0:
                        nsol = 1
                        for k in range(R * C):
                            sol[k] = cell[k]
                    return nsol, nodes
            dmark[0] = st[_NTR]
            dcell[0] = i
            dstate[0] = 1
            depth = 1
            v = 1 - sol[i] if nsol == 1 else first[i]
            v_check = v
            check_start = nodes
        nodes += 1
        if nodes > max_nodes > 0:
            return -1, nodes  # over budget: undecided
