"""Slant engine, part 3: clause learning over the cells the root leaves open, in numba.

The root (rules, class rules, probing; :mod:`solvers.slant.kernel`) leaves a few hundred to
a few thousand *open* cells on a large puzzle, in groups that meet through loops.  A
depth-first search with probing at every node spends most of its time there re-deriving
the same failures; this module searches the open cells by conflict-driven clause learning
(CDCL) instead, which remembers every failure as a clause.

The problem it solves is exactly the puzzle's, restricted to the open cells:

- *Variables*: the open cells; literal ``2 x + v`` says open cell ``x`` holds slash ``v``.
- *Clues*: a clued point that still needs ``m`` touching slashes among its ``f`` open cells
  gives the clauses "no ``m + 1`` of them touch" and "no ``f - m + 1`` of them miss".
- *Loops*: every slash is an edge between two *vertices*, the components of points the root
  has joined (a component holds every point its decided slashes connect).  The edges chosen
  must form a forest.  A union-find with member lists (undone exactly on backtracking, no
  path compression) keeps the forest; when an edge merges two trees, every open slash
  between them is refuted at once (*loop propagation*), and a slash whose ends already share
  a tree is a conflict.  The clause behind either is the slash and the forest's one path
  between its ends, found when conflict analysis asks for it: the path is unique, so it is
  the same path as when the slash was refuted.

Around that: two watched literals per clause, first-UIP learning, VSIDS (a binary heap of
activities), saved phases (at first the value the root's probing preferred), and Luby
restarts.  A solution found, its open cells are written out and a clause that some open
cell differs from it is added; the search goes on for a second one.  Learned clauses are
never dropped: a puzzle takes thousands of conflicts, not millions.

This module is long because the clause-learning search and its helpers are numba functions that
call one another and compile as one unit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..fields import define
from ..members import join, split
from .state import _NCAND, _NONE, _ONE, _ZERO, _ends, _touching, free_at, touch_at

__all__ = ["solve_by_learning"]

RESTART_UNIT = 64  # conflicts per unit of the Luby restart sequence
DECAY = 0.95  # VSIDS activity decay per conflict

# the per-variable table ``V`` and the per-vertex table ``U``: workspaces of named fields
# (:mod:`.fields`), named as in :mod:`.state` where they mean the same
Variables = define(
    "SlantVariables",
    {
        "val": (0, 1),  # -1 open, else the slash
        "lev": (1, 1),  # decision level of the assignment
        "why": (2, 1),  # reason: a clause, _DECIDED, or _LOOP (refuted by loop propagation)
        "phase": (3, 1),  # the value the next decision on the variable tries
        "seen": (4, 1),  # conflict analysis mark
        "merged": (5, 1),  # 1 while the variable's edge is merged into the forest
        "m_small": (6, 1),  # the end that lay in the smaller tree when it merged
        "m_big": (7, 1),  # the other end
        "m_label": (8, 1),  # the smaller tree's label before the merge
        "hpos": (9, 1),  # position in the heap, -1 if not there
        "heap": (10, 1),  # the VSIDS heap: the variable at each position (``s[_NHEAP]`` of them)
        "trail": (11, 1),  # the literals assigned, in order (``s[_NTRAIL]`` of them)
    },
)
Vertices = define(
    "SlantVertices",
    {
        "comp": (0, 1),  # tree label (a member)
        "next": (1, 1),  # next member of the tree (circular)
        "size": (2, 1),  # tree size, valid at labels
        "pred": (3, 1),  # path search: the edge literal the vertex was reached by
        "mark": (4, 1),  # path search: the stamp of the search that reached it
        "queue": (5, 1),  # path search: the vertices reached, in order
    },
)
_NV, _NU = Variables.ROWS, Vertices.ROWS
as_variables, as_vertices = Variables.wrap, Vertices.wrap  # in numba: a bare block's tables

# slots of the scalar vector ``s``
_NTRAIL = 0
_QHEAD = 1
_LEVEL = 2
_CONFLICT_LIT = 3  # the literal whose edge closed a loop (a _LOOP conflict)
_NHEAP = 4
_STAMP = 5
_NS = 6

_DECIDED = np.int64(-1)  # numpy scalars: see state._ZERO
_LOOP = np.int64(-2)
_NO_CONFLICT = -1
_LOOP_CONFLICT = -2


@njit(cache=True, nogil=True)
def _truth(V, lit):
    """1 if ``lit`` holds, 0 if it is false, -1 if its variable is open."""
    v = V.val[lit >> 1]
    if v < 0:
        return -1
    return 1 if v == (lit & 1) else 0


@njit(cache=True, nogil=True, inline="always")
def _heap_put(V, k, x):
    """Put variable ``x`` at position ``k`` of the heap."""
    V.heap[k] = x
    V.hpos[x] = k


@njit(cache=True, nogil=True)
def _heap_up(V, act, k):
    x = V.heap[k]
    while k > 0:
        parent = (k - 1) >> 1
        y = V.heap[parent]
        if act[y] >= act[x]:
            break
        _heap_put(V, k, y)
        k = parent
    _heap_put(V, k, x)


@njit(cache=True, nogil=True)
def _heap_down(V, act, n, k):
    x = V.heap[k]
    child = 2 * k + 1
    while child < n:
        if child + 1 < n and act[V.heap[child + 1]] > act[V.heap[child]]:
            child += 1
        y = V.heap[child]
        if act[y] <= act[x]:
            break
        _heap_put(V, k, y)
        k = child
        child = 2 * k + 1
    _heap_put(V, k, x)


@njit(cache=True, nogil=True)
def _heap_insert(V, act, s, x):
    if V.hpos[x] >= 0:
        return
    k = s[_NHEAP]
    s[_NHEAP] += 1
    V.heap[k] = x
    _heap_up(V, act, k)


@njit(cache=True, nogil=True)
def _heap_pop(V, act, s):
    x = V.heap[0]
    V.hpos[x] = -1
    s[_NHEAP] -= 1
    n = s[_NHEAP]
    if n > 0:
        V.heap[0] = V.heap[n]
        _heap_down(V, act, n, 0)
    return x


@njit(cache=True, nogil=True)
def _bump(V, act, inc, x):
    """Raise variable ``x``'s activity by ``inc``; returns the increment to use from now on
    (all activities are scaled down when one grows too large)."""
    act[x] += inc
    if act[x] > 1e100:
        for y in range(act.shape[0]):
            act[y] *= 1e-100
        inc *= 1e-100
    if V.hpos[x] >= 0:
        _heap_up(V, act, V.hpos[x])
    return inc


@njit(cache=True, nogil=True)
def _assign(V, s, lit, why):
    x = lit >> 1
    V.val[x] = lit & 1
    V.lev[x] = s[_LEVEL]
    V.why[x] = why
    V.trail[s[_NTRAIL]] = lit
    s[_NTRAIL] += 1


@njit(cache=True, nogil=True)
def _merge(V, U, ends, inc_start, inc, s, lit):
    """Add the edge of the literal ``lit`` (just taken off the queue) to the forest, refuting
    every open slash it leaves inside one tree; False if its ends share a tree already."""
    a = ends[0, lit]
    b = ends[1, lit]
    la = U.comp[a]
    lb = U.comp[b]
    if la == lb:
        return False
    if U.size[la] > U.size[lb]:
        a, b = b, a
        la, lb = lb, la
    u = a
    while True:  # loop propagation: open slashes from the smaller tree into the larger
        for k in range(inc_start[u], inc_start[u + 1]):
            e = inc[k]
            if V.val[e >> 1] < 0:
                other = ends[0, e] + ends[1, e] - u
                if U.comp[other] == lb:
                    _assign(V, s, e ^ 1, _LOOP)
        u = U.next[u]
        if u == a:
            break
    join(U.comp, U.next, U.size, a, b)
    x = lit >> 1
    V.merged[x] = 1
    V.m_small[x] = a
    V.m_big[x] = b
    V.m_label[x] = la
    return True


@njit(cache=True, nogil=True)
def _split(V, U, x):
    """Undo the merge of variable ``x``'s edge."""
    a = V.m_small[x]
    b = V.m_big[x]
    split(U.comp, U.next, U.size, a, b, V.m_label[x])
    V.merged[x] = 0


@njit(cache=True, nogil=True)
def _propagate(V, U, ends, inc_start, inc, cl, cstart, clen, wnext, whead, s):
    """Unit and loop propagation of the queued assignments: ``_NO_CONFLICT``, a clause all
    of whose literals are false, or ``_LOOP_CONFLICT`` (the literal in ``s[_CONFLICT_LIT]``)."""
    while s[_QHEAD] < s[_NTRAIL]:
        p = V.trail[s[_QHEAD]]
        s[_QHEAD] += 1
        if not _merge(V, U, ends, inc_start, inc, s, p):
            s[_CONFLICT_LIT] = p
            return _LOOP_CONFLICT
        f = p ^ 1  # now false: visit the clauses watching it
        prev = -1
        node = whead[f]
        while node >= 0:
            following = wnext[node]
            c = node >> 1
            k = node & 1  # f sits at position k of clause c, the other watch at 1 - k
            start = cstart[c]
            other = cl[start + 1 - k]
            if _truth(V, other) == 1:
                prev = node
                node = following
                continue
            moved = False
            for j in range(start + 2, start + clen[c]):
                q = cl[j]
                if _truth(V, q) != 0:
                    cl[j] = f
                    cl[start + k] = q
                    if prev < 0:
                        whead[f] = following
                    else:
                        wnext[prev] = following
                    wnext[node] = whead[q]
                    whead[q] = node
                    moved = True
                    break
            if moved:
                node = following
                continue
            prev = node
            if _truth(V, other) == 0:
                return c
            _assign(V, s, other, c)
            node = following
    return _NO_CONFLICT


@njit(cache=True, nogil=True)
def _path(V, U, ends, inc_start, inc, s, a, b, out, n):
    """Write the forest's edge literals on the path from vertex ``a`` to ``b``, negated, to
    ``out[n:]`` (a breadth-first search in ``U.queue``); returns the new length."""
    s[_STAMP] += 1
    stamp = s[_STAMP]
    U.mark[a] = stamp
    U.pred[a] = -1
    head, tail = 0, 1
    U.queue[0] = a
    while head < tail:
        u = U.queue[head]
        head += 1
        if u == b:
            break
        for k in range(inc_start[u], inc_start[u + 1]):
            e = inc[k]
            x = e >> 1
            if V.merged[x] == 1 and V.val[x] == (e & 1):
                w = ends[0, e] + ends[1, e] - u
                if U.mark[w] != stamp:
                    U.mark[w] = stamp
                    U.pred[w] = e
                    U.queue[tail] = w
                    tail += 1
    u = b
    while u != a:
        e = U.pred[u]
        out[n] = e ^ 1
        n += 1
        u = ends[0, e] + ends[1, e] - u
    return n


@njit(cache=True, nogil=True)
def _reason(V, U, ends, inc_start, inc, cl, cstart, clen, s, buf, why, lit):
    """Write to ``buf`` the false literals that imply the true literal ``lit`` (its reason
    ``why``: a clause or ``_LOOP``), or with ``lit < 0`` those of the conflict clause ``why``;
    returns their count."""
    if why == _LOOP:
        f = lit ^ 1  # the refuted slash: its ends are joined by the forest
        return _path(V, U, ends, inc_start, inc, s, ends[0, f], ends[1, f], buf, _ZERO)
    m = 0
    for j in range(cstart[why], cstart[why] + clen[why]):
        if cl[j] != lit:
            buf[m] = cl[j]
            m += 1
    return m


@njit(cache=True, nogil=True)
def _analyze(V, U, ends, inc_start, inc, cl, cstart, clen, s, buf, learnt, act, bump, conflict):
    """First-UIP conflict analysis: the learned clause in ``learnt`` (the asserting literal
    first, a literal of the level to jump back to second); returns (length, that level, the
    activity increment).  Arrays of one entry per variable or per vertex are fields of ``V``
    and ``U``; the rest come bare, one parameter each, as every hot function's here (a tuple
    of arrays costs numba a reference count per read: :mod:`solvers.fields`)."""
    current = s[_LEVEL]
    if conflict == _LOOP_CONFLICT:
        p = s[_CONFLICT_LIT]
        buf[0] = p ^ 1
        m = _path(V, U, ends, inc_start, inc, s, ends[0, p], ends[1, p], buf, _ONE)
    else:
        m = _reason(V, U, ends, inc_start, inc, cl, cstart, clen, s, buf, conflict, _NONE)
    nl = 1
    pending = 0  # marked literals of the current level not yet resolved away
    k = s[_NTRAIL] - 1
    while True:
        for j in range(m):
            q = buf[j]
            y = q >> 1
            if V.seen[y] == 0 and V.lev[y] > 0:
                V.seen[y] = 1
                bump = _bump(V, act, bump, y)
                if V.lev[y] >= current:
                    pending += 1
                else:
                    learnt[nl] = q
                    nl += 1
        while V.seen[V.trail[k] >> 1] == 0:
            k -= 1
        p = V.trail[k]
        k -= 1
        V.seen[p >> 1] = 0
        pending -= 1
        if pending == 0:
            break
        m = _reason(V, U, ends, inc_start, inc, cl, cstart, clen, s, buf, V.why[p >> 1], p)
    learnt[0] = p ^ 1
    back = 0
    for j in range(1, nl):
        V.seen[learnt[j] >> 1] = 0
        if V.lev[learnt[j] >> 1] > back:
            back = V.lev[learnt[j] >> 1]
            learnt[1], learnt[j] = learnt[j], learnt[1]
    return nl, back, bump


@njit(cache=True, nogil=True)
def _backtrack(V, U, lim, s, act, level):
    """Undo every assignment above decision level ``level``, each variable keeping its value
    as its phase."""
    if s[_LEVEL] <= level:
        return
    for k in range(s[_NTRAIL] - 1, lim[level] - 1, -1):
        x = V.trail[k] >> 1
        if V.merged[x] == 1:
            _split(V, U, x)
        V.phase[x] = V.val[x]
        V.val[x] = -1
        _heap_insert(V, act, s, x)
    s[_NTRAIL] = lim[level]
    s[_QHEAD] = lim[level]
    s[_LEVEL] = level


@njit(cache=True, nogil=True)
def _add_clause(cl, cstart, clen, wnext, whead, counts, lits, m):
    """Store the clause ``lits[:m]`` (``m >= 2``) and watch its first two literals; returns
    its index.  ``counts``: clauses and literals stored so far (room is the caller's)."""
    c = counts[0]
    start = counts[1]
    for j in range(m):
        cl[start + j] = lits[j]
    cstart[c] = start
    clen[c] = m
    counts[0] += 1
    counts[1] += m
    for k in range(2):
        node = 2 * c + k
        wnext[node] = whead[lits[k]]
        whead[lits[k]] = node
    return c


@njit(cache=True, nogil=True)
def _grown(a, need):
    """``a``, or a copy twice as long (or ``need`` long) when it is shorter than ``need``."""
    if a.shape[0] >= need:
        return a
    b = np.empty(max(need, 2 * a.shape[0]), dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True, nogil=True)
def _store(cl, cstart, clen, wnext, whead, counts, lits, m):
    """:func:`_add_clause`, first growing the clause arrays if they are full; returns the
    clause's index and the arrays, (clause, cl, cstart, clen, wnext)."""
    cstart = _grown(cstart, counts[0] + 1)
    clen = _grown(clen, counts[0] + 1)
    wnext = _grown(wnext, 2 * counts[0] + 2)
    cl = _grown(cl, counts[1] + m)
    return _add_clause(cl, cstart, clen, wnext, whead, counts, lits, m), cl, cstart, clen, wnext


@njit(cache=True, nogil=True)
def _learn(V, s, cl, cstart, clen, wnext, whead, counts, lits, m, asserting):
    """Add the learned clause ``lits[:m]`` after the backjump: a unit is assigned at once; a
    longer clause is stored and, if ``asserting``, its first literal assigned with the clause
    as reason.  Returns the clause arrays, grown if they were full: (cl, cstart, clen, wnext)."""
    if m == 1:
        _assign(V, s, lits[0], _DECIDED)
    else:
        c, cl, cstart, clen, wnext = _store(cl, cstart, clen, wnext, whead, counts, lits, m)
        if asserting:
            _assign(V, s, lits[0], c)
    return cl, cstart, clen, wnext


@njit(cache=True, nogil=True)
def _luby(i):
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


@njit(cache=True, nogil=True)
def _clue_clauses(ws, R, C, varof, cl, cstart, clen, wnext, whead, counts, lits, units):
    """Store the clauses of every clue around open cells; unit clauses go to ``units``
    (returns their count, or -1 when a clue cannot be met at all)."""
    W = C + 1
    nu = 0
    tl = np.empty(4, dtype=np.int64)
    for p in range((R + 1) * W):
        k = ws.clue[p]
        if k < 0 or free_at(ws, p) == 0:
            continue
        f = 0
        for d in range(4):
            i = ws.around[d, p]
            if i >= 0 and ws.cell[i] < 0:
                tl[f] = 2 * varof[i] + _touching(d)
                f += 1
        need = k - touch_at(ws, p)
        if need < 0 or need > f:
            return -1
        for mask in range(1, 1 << f):
            bits = 0
            for j in range(f):
                bits += (mask >> j) & 1
            # no need + 1 of them touch; no f - need + 1 of them miss
            for side in range(2):
                if bits != (need + 1 if side == 0 else f - need + 1):
                    continue
                m = _ZERO
                for j in range(f):
                    if (mask >> j) & 1:
                        lits[m] = tl[j] ^ 1 if side == 0 else tl[j]
                        m += 1
                if m == 1:
                    units[nu] = lits[0]
                    nu += 1
                else:
                    _add_clause(cl, cstart, clen, wnext, whead, counts, lits, m)
    return nu


@njit(cache=True, nogil=True)
def solve_by_learning(ws, st, R, C, max_solutions, sol, max_nodes, nodes):
    """Solve the open cells listed in ``ws.cand`` (``st[_NCAND]`` of them; the rest of the
    grid decided and closed under the rules, as the search's root leaves it) by clause
    learning: up to ``max_solutions`` (1 or 2) solutions, the first written whole to ``sol``.

    Decisions try ``ws.phase`` first and start from the root's failure weights.  ``nodes``:
    the count so far, to which every decision and conflict adds one.  Returns
    ``(solutions, nodes)``, or ``(-1, nodes)`` once nodes pass ``max_nodes`` (if > 0).
    The workspace's cells are left as the root had them.

    Memory: about 416 bytes per open cell, 80 per vertex and 512 per clued point around open
    cells (at most about 1,010 per point in all), plus the clauses learned.
    """
    n = st[_NCAND]
    cand = ws.cand
    W = C + 1
    # two stacks the root leaves empty serve as maps: open cell -> variable (``pq``, read
    # only at open cells) and component label -> vertex (``queue``, read only at labels met)
    varof, vid = ws.pq, ws.queue
    ends = np.empty((2, 2 * n), dtype=np.int64)
    for x in range(n):
        varof[cand[x]] = x
        for v in range(2):
            a, b, _, _ = _ends(ws, cand[x], v, C)
            vid[ws.comp[a]] = -1
            vid[ws.comp[b]] = -1
    nv = 0  # vertices: the root's components met by an open cell's slash
    for x in range(n):
        for v in range(2):
            a, b, _, _ = _ends(ws, cand[x], v, C)
            for e in range(2):
                label = ws.comp[a if e == 0 else b]
                if vid[label] < 0:
                    vid[label] = nv
                    nv += 1
                ends[e, 2 * x + v] = vid[label]
    inc_start = np.zeros(nv + 1, dtype=np.int64)
    for lit in range(2 * n):
        inc_start[ends[0, lit] + 1] += 1
        inc_start[ends[1, lit] + 1] += 1
    for u in range(nv):
        inc_start[u + 1] += inc_start[u]
    inc = np.empty(4 * n, dtype=np.int64)
    fill = inc_start[:nv].copy()
    for lit in range(2 * n):
        for e in range(2):
            u = ends[e, lit]
            inc[fill[u]] = lit
            fill[u] += 1
    U = as_vertices(np.empty((_NU, nv), dtype=np.int64))
    for u in range(nv):
        U.comp[u] = u
        U.next[u] = u
        U.size[u] = 1
        U.mark[u] = 0
    V = as_variables(np.empty((_NV, n), dtype=np.int64))
    act = np.zeros(n, dtype=np.float64)
    s = np.zeros(_NS, dtype=np.int64)
    for x in range(n):
        V.val[x] = -1
        V.phase[x] = ws.phase[cand[x]]
        V.seen[x] = 0
        V.merged[x] = 0
        V.hpos[x] = -1
        tl = ws.tl[cand[x]]
        for q in (tl, tl + 1, tl + W, tl + W + 1):  # the root's failure weights
            if free_at(ws, q) >= 2:
                act[x] += ws.weight[q]
    for x in range(n):
        _heap_insert(V, act, s, x)
    clued = 0  # clued points around open cells: at most 8 clauses, 24 literals each
    for p in range((R + 1) * W):
        if ws.clue[p] >= 0 and free_at(ws, p) > 0:
            clued += 1
    cl = np.empty(24 * clued + 16 * n + 1024, dtype=np.int64)
    cstart = np.empty(8 * clued + 2 * n + 256, dtype=np.int64)
    clen = np.empty(cstart.shape[0], dtype=np.int64)
    wnext = np.empty(2 * cstart.shape[0], dtype=np.int64)
    whead = np.full(2 * n, -1, dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    learnt = np.empty(n + nv + 2, dtype=np.int64)
    buf = np.empty(n + nv + 2, dtype=np.int64)
    lim = np.empty(n + 1, dtype=np.int64)
    units = np.empty(8 * clued + 2 * n, dtype=np.int64)
    nu = _clue_clauses(ws, R, C, varof, cl, cstart, clen, wnext, whead, counts, learnt, units)
    if nu < 0:
        return 0, nodes
    for lit in range(2 * n):  # a slash whose ends the root already joined
        if ends[0, lit] == ends[1, lit]:
            units[nu] = lit ^ 1
            nu += 1
    for j in range(nu):
        t = _truth(V, units[j])
        if t == 0:
            return 0, nodes
        if t < 0:
            _assign(V, s, units[j], _DECIDED)
    nsol = 0
    bump = 1.0
    restarts = _ONE
    since_restart = 0
    while True:
        conflict = _propagate(V, U, ends, inc_start, inc, cl, cstart, clen, wnext, whead, s)
        if conflict != _NO_CONFLICT:
            nodes += 1
            if s[_LEVEL] == 0:
                return nsol, nodes  # no (further) solution
            nl, back, bump = _analyze(
                V, U, ends, inc_start, inc, cl, cstart, clen, s, buf, learnt, act, bump, conflict
            )
            _backtrack(V, U, lim, s, act, back)
            cl, cstart, clen, wnext = _learn(
                V, s, cl, cstart, clen, wnext, whead, counts, learnt, nl, True
            )
            bump /= DECAY
            since_restart += 1
            if since_restart >= RESTART_UNIT * _luby(restarts):
                _backtrack(V, U, lim, s, act, _ZERO)
                restarts += 1
                since_restart = 0
        else:
            x = -1
            while s[_NHEAP] > 0:
                y = _heap_pop(V, act, s)
                if V.val[y] < 0:
                    x = y
                    break
            if x < 0:
                nsol += 1  # every open cell holds a slash: a solution
                if nsol == 1:
                    for k in range(R * C):
                        sol[k] = ws.cell[k]
                    for y in range(n):
                        sol[cand[y]] = V.val[y]
                if nsol == 2 or max_solutions == 1:
                    return nsol, nodes
                # some cell decided above level 0 must differ in another solution
                m = _ZERO
                for y in range(n):
                    if V.lev[y] > 0:
                        learnt[m] = 2 * y + 1 - V.val[y]
                        m += 1
                if m == 0:
                    return nsol, nodes
                _backtrack(V, U, lim, s, act, _ZERO)
                cl, cstart, clen, wnext = _learn(
                    V, s, cl, cstart, clen, wnext, whead, counts, learnt, m, False
                )
                continue
            nodes += 1
            if nodes > max_nodes > 0:
                return -1, nodes
            lim[s[_LEVEL]] = s[_NTRAIL]
            s[_LEVEL] += 1
            _assign(V, s, 2 * x + V.phase[x], _DECIDED)
