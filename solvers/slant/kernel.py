"""Slant (Gokigen Naname) engine, part 2: probing and the search, in numba.

Notation, workspace and deduction rules: :mod:`solvers.slant.state`.

Root: rules 1-4 with the class and shape rules of :mod:`solvers.slant.classes` first, which
settle every puzzle Tatham grades Hard without a trial.

Probing (:func:`probe`): when the rules stall, an undecided cell is tried both ways; a value
whose propagation fails is refuted and the cell takes the other one.  Cells are (re)probed
from a queue fed by the neighbourhood of every newly decided cell; a *sweep* queues a whole
area again and again until it forces nothing.  A value met in a clean trial is known to
propagate cleanly and is not tried again until the state grows within FORGET_RADIUS cells
of it; further changes leave it known (a stale "clean" can only cost a deduction, never
make a wrong one, since probing concludes only from trials that failed).

Clause learning: where the root leaves at least ``learn`` open cells (the batch solver's
LEARN_CELLS), :func:`solvers.slant.learning.solve_by_learning` searches them by conflict-driven
clause learning instead of the depth-first search below, which on a large puzzle re-derives
the same failures at every node (its slow tail at 100 x 100 is many times learning's:
``benchmarks/slant_ab.py --each``, figures on the speed page, docs/speed.md).  The generator
keeps the depth-first search, whose node budgets it was tuned for.

Search (:func:`search`): the root is swept whole; the undecided cells then fall into
*groups* (connected through shared corners) that meet only through loops.  The search is a
series of *checks*: a cell is given a value and searched under it with a node budget; a
solution ends the check, a refutation makes the other value a root fact (so no refutation
is ever searched twice), and a check over budget is put off while others go first.  Once a
first solution is known the checks ask whether any cell can differ from it.  Inside a check
the branching picks the cell whose corners failed most often (dom/wdeg), within the group
of the last failure or else of the last decision, and sweeps that group near the decision
after each step.  Values: while no solution is known, a cell's *phase*: the value it had
when the search last backed out of it (the progress of a check put off is kept that way),
at first the value whose trial decided fewer cells; then the first solution's.  A failure
that probing pins on one cell (both its values fail) backjumps: decisions whose removal
leaves that cell failing both ways are not to blame and are dropped with their other
branch.  Every assignment goes on a trail; backtracking undoes the trail down to a
decision's mark.

numba caches each function keyed on its own file only, so an edit of state.py alone would
leave the cached search (and generator) with the old rules; :func:`solvers.identity.
use_numba_cache` names the cache folder after every source, so that never happens.

This module is long because probing and the search are numba functions that call one another
and compile as one unit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..borrowed import matrix, vector
from .classes import settle
from .clock import ticks
from .learning import solve_by_learning
from .state import (
    _NCAND,
    _NONE,
    _NPQ,
    _NTR,
    _ONE,
    _WIT,
    _ZERO,
    _enqueue,
    _fail,
    assign,
    borrow_workspace,
    free_at,
    make_workspace,
    preconnect,
    propagate,
    reset,
    reset_probing,
    undo_to,
)

__all__ = [
    "make_workspace",
    "reset",
    "preconnect",
    "propagate",
    "probe",
    "search",
    "CHECK",
    "make_frame",
    "frame_sections",
    "frame_views",
    "solve_range",
    "solve_at",
    "verdict",
]

SWEEP_RADIUS = 6  # a decision sweeps its group within this many cells of it
FORGET_RADIUS = 3  # a new decided cell makes the clean values within this many cells stale
CHECK = 128  # default nodes a check may take before it is put off (doubled each round)
FIND_ROUND = 16  # checks put off before the budget doubles, while no solution is known
LEARN_CELLS = 16  # the batch solver learns clauses once the root leaves this many open cells

# search's states, named as Knuth's DLX names its steps (see :func:`search`)
_STEP, _ROOT, _NEXT, _CHECK, _COUNT = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True)
def _push_probe(ws, st, i):
    if ws.cell[i] < 0:
        _enqueue(ws.inpq, ws.pq, st, _NPQ, i)


@njit(cache=True, nogil=True)
def _clear_probes(ws, st):
    for k in range(st[_NPQ]):
        ws.inpq[ws.pq[k]] = 0
    st[_NPQ] = 0


@njit(cache=True, nogil=True)
def queue_probes_near(ws, st, R, C, mark):
    """Queue for probing the undecided cells next to every cell decided since trail ``mark``."""
    for k in range(mark, st[_NTR]):
        i = ws.tr_cell[k]
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
def _forget_near(ws, st, R, C, mark):
    """Forget the clean values of the cells within FORGET_RADIUS of a cell decided since
    trail ``mark``: the state grew there, and a value clean before may now fail.

    Values further away are kept although a loop can carry a change any distance: a stale
    clean value only spares a trial, and probing concludes only from trials that failed,
    so keeping one can cost a deduction, never make a wrong one.  Moving back up the tree
    needs no forgetting at all: a value clean in a state is clean in every smaller one.
    """
    ok = ws.ok
    side = 2 * FORGET_RADIUS + 1
    if mark == 0 and st[_NTR] * side * side >= R * C:
        # the first step (after a reset nothing is known clean yet): clearing all is cheaper
        for i in range(R * C):
            ok[i] = 0
        return
    for k in range(mark, st[_NTR]):
        i = ws.tr_cell[k]
        r = i // C
        c = i - r * C
        for rr in range(max(r - FORGET_RADIUS, 0), min(r + FORGET_RADIUS + 1, R)):
            for cc in range(max(c - FORGET_RADIUS, 0), min(c + FORGET_RADIUS + 1, C)):
                ok[rr * C + cc] = 0


@njit(cache=True, nogil=True)
def _note_ok(ws, st, mark):
    """Every value decided since trail ``mark`` in a clean trial propagates cleanly alone."""
    for k in range(mark, st[_NTR]):
        j = ws.tr_cell[k]
        ws.ok[j] |= 1 << ws.cell[j]


@njit(cache=True, nogil=True)
def probe(ws, st, R, C):
    """Probe queued cells until the queue is empty; False (queue emptied) on a contradiction.

    Each cell is tried with ``/`` and ``\\``; if exactly one propagates cleanly the cell keeps
    it and its neighbourhood is queued again.  A value met in a clean trial is known to
    propagate cleanly itself and is not retried until the state grows near it
    (:func:`_forget_near`).  A clean trial records how many cells it decided (``_IMP``),
    which the search uses to guess values.
    """
    while st[_NPQ] > 0:
        st[_NPQ] -= 1
        i = ws.pq[st[_NPQ]]
        ws.inpq[i] = 0
        if ws.cell[i] >= 0:
            continue
        clean = 0  # bit v: value v propagates cleanly (known, or tried just now)
        kept = False
        mark = st[_NTR]
        for value in range(2):
            if ws.ok[i] & (1 << value):
                clean |= 1 << value
                continue
            mark = st[_NTR]
            if _trial(ws, st, R, C, i, value):
                if value == 1 and clean == 0:
                    kept = True  # value 0 failed: the cell keeps this trial's state
                    break
                ws.imp[value, i] = st[_NTR] - mark
                _note_ok(ws, st, mark)
                clean |= 1 << value
            undo_to(ws, st, R, C, mark)
        if not kept:
            if clean == 3:
                continue
            mark = st[_NTR]
            # one value failed: the other one stays (clean == 0: both failed)
            if clean == 0 or not _trial(ws, st, R, C, i, clean >> 1):
                st[_WIT] = i
                _clear_probes(ws, st)
                return False
        _forget_near(ws, st, R, C, mark)
        queue_probes_near(ws, st, R, C, mark)
    return True


@njit(cache=True, nogil=True)
def _step(ws, st, R, C, i, v, sweep):
    """One search step: cell ``i`` = ``v`` (none at the root, which also settles the class
    and shape rules of :mod:`solvers.slant.classes`), propagate, probe what changed;
    then sweep: probe every undecided cell (``sweep == -2``) or those of group ``sweep``
    (``>= 0``), again until a sweep forces nothing (``-1``: no sweep)."""
    st[_WIT] = i  # if the step's own value fails: the other one may fail too
    mark = st[_NTR]
    if not _trial(ws, st, R, C, i, v):
        _clear_probes(ws, st)
        return False
    if st[_NTR] == R * C:
        return True  # every cell decided (one trail entry each): nothing left to probe
    if i < 0:
        reset_probing(ws, R, C)
        # the root: the class and shape rules before any trial (Tatham's Hard puzzles need
        # no more)
        if not settle(ws, st, R, C):
            return False
        if st[_NTR] == R * C:
            return True
    _forget_near(ws, st, R, C, mark)
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
                    if ws.group[rr * C + cc] == sweep:
                        _push_probe(ws, st, rr * C + cc)


@njit(cache=True, nogil=True)
def _label_groups(ws, st, R, C, first):
    """Label the undecided cells by connected group (cells sharing a corner are neighbours)
    and list them in ``_CAND``; ``first``: the first time in this search (else only the
    cells listed last time can still be undecided, and only their labels are renewed).

    Two groups share no clue, so they meet only through loops; the search finishes one group
    before it turns to another, and sweeps a group near each decision in it.
    """
    group, stack, cell, cand = ws.group, ws.pq, ws.cell, ws.cand
    n = 0
    for k in range(R * C if first else st[_NCAND]):
        i = k if first else cand[k]
        group[i] = -1
        if cell[i] < 0:
            cand[n] = i
            n += 1
    st[_NCAND] = n
    for k in range(n):
        seed = cand[k]
        if group[seed] >= 0:
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
def _choose(ws, st, R, C, focus, hot, skip):
    """The undecided cell to branch on (-1 if none): in group ``hot`` if it has one, else
    in group ``focus`` if it has one, else anywhere; never one marked ``skip`` in ``_SKIP``.
    Only the cells listed in ``_CAND`` (undecided at the root) are looked at.

    The cell whose open corners weigh most, first in ``_CAND`` order on ties.  A corner is
    open while it has two or more undecided cells; its weight starts at 1 for a clue, 0
    otherwise, and grows by one with every contradiction found there, so the search turns
    to where the puzzle fails (the dom/wdeg rule).
    """
    W = C + 1
    cell, weight, group = ws.cell, ws.weight, ws.group
    cand, skipped = ws.cand, ws.skip
    best = -1
    best_score = -1
    near = -1
    near_score = -1
    hot_cell = -1
    hot_score = -1
    for k in range(st[_NCAND]):
        i = cand[k]
        if cell[i] >= 0 or skipped[i] == skip:
            continue
        tl = ws.tl[i]
        score = (
            (weight[tl] if free_at(ws, tl) >= 2 else 0)
            + (weight[tl + 1] if free_at(ws, tl + 1) >= 2 else 0)
            + (weight[tl + W] if free_at(ws, tl + W) >= 2 else 0)
            + (weight[tl + W + 1] if free_at(ws, tl + W + 1) >= 2 else 0)
        )
        if score > best_score:
            best, best_score = i, score
        if focus >= 0 and group[i] == focus and score > near_score:
            near, near_score = i, score
        if hot >= 0 and group[i] == hot and score > hot_score:
            hot_cell, hot_score = i, score
    if hot_cell >= 0:
        return hot_cell
    return near if near >= 0 else best


@njit(cache=True, nogil=True)
def _retreat(ws, st, R, C, mark, save):
    """Undo the trail down to ``mark``; with ``save``, each cell undone keeps its value as
    its phase, the value a later decision on it tries first."""
    if save:
        for k in range(mark, st[_NTR]):
            j = ws.tr_cell[k]
            ws.phase[j] = ws.cell[j]
    undo_to(ws, st, R, C, mark)


@njit(cache=True, nogil=True)
def _dead(ws, st, R, C, x):
    """Whether both values of the undecided cell ``x`` fail to propagate in this state."""
    if ws.cell[x] >= 0:
        return False
    mark = st[_NTR]
    for v in range(2):
        ok = _trial(ws, st, R, C, x, np.int64(v))
        undo_to(ws, st, R, C, mark)
        if ok:
            return False
    return True


@njit(cache=True, nogil=True)
def search(ws, st, R, C, max_solutions, sol, first, sweep, check, max_nodes, learn):
    """Find up to ``max_solutions`` (1 or 2) solutions from the current state into ``sol``.

    ``first[i]`` is the value to try first for cell ``i`` (0 or 1, e.g. a known solution),
    or -1 for no preference: the value whose trial at the root decided fewer cells.
    ``learn``: once the root leaves at least this many open cells (and ``learn >= 0``),
    they are searched by clause learning (:func:`solvers.slant.learning.solve_by_learning`) instead
    of steps 2 and 3; its nodes are its decisions and conflicts.

    1. *Root*: propagate; then, if cells are left, start rule 4's counts and apply the
       class and shape rules (:func:`solvers.slant.classes.settle`); with ``sweep``, probe
       every cell; label the groups of undecided cells (:func:`_label_groups`).
       Every root fact follows from the clues.
    2. *Checks*: pick an undecided cell ``i`` (:func:`_choose`) and a value ``a`` for it:
       its phase while no solution is known, ``not S[i]`` once the first solution ``S``
       is (any other solution differs from ``S`` in a cell undecided at the root).  Search
       under ``i = a``: a solution there is the first (then the checks start over against
       it) or the second; a refutation makes ``i = not a`` a root fact, which every later
       check builds on, so no refutation is ever searched twice.  A check that takes more
       than ``check`` nodes is put off until every other cell had its turn, and the budget
       doubles each round; while no solution is known a round ends after FIND_ROUND checks
       put off (an unsolvable puzzle is then refuted by few, ever longer checks).  The root
       holding every cell means one solution.
    3. *Inside a check*: depth-first search branching on :func:`_choose`'s cell: in the
       group of the last failure in this check, else in the group of the last decision;
       value: the phase (no solution known yet) or ``S``.  Each decision sweeps its group
       within ``SWEEP_RADIUS`` cells.  While no solution is known, every cell the search
       backs out of keeps its value as its phase, so a check put off and its successors
       pick up where it stopped.  A step that fails on a cell ``x`` whose two values both
       fail backjumps: while ``x`` still fails both ways without the deepest decision,
       that decision is dropped, its other value untried (the state without it has no
       solution).  The failure weights persist from check to check, so a check put off
       comes back to a search that starts where the puzzle is hard.

    The loop runs as named states: ``_STEP`` applies the step ``i = v`` (the root's closure
    first) and goes on to ``_ROOT`` where the step changed the root state (the first, and a
    refuted check's other value), else to ``_NEXT``; ``_ROOT`` ends the search or labels the
    groups and goes to ``_CHECK``; ``_NEXT`` (inside a check) takes a decision, records a
    solution, puts the check off or backs up to the deepest decision left to flip (a check
    refuted: its cell takes the other value at the root); ``_CHECK`` starts the next check;
    ``_COUNT`` counts the node of every step before ``_STEP`` applies it.

    Invariant at ``_STEP``'s end: the state is the closure under the rules, plus what
    probing found, of the clues, the root facts and the decisions on the stack, and ``ok``
    says whether it is free of contradictions.  The check is the bottom entry of the stack;
    entries in state 1 are not tried the other way.  Returns ``(solutions, nodes)`` with
    nodes = 1 + every check or branch tried, or ``(-1, nodes)`` once nodes pass
    ``max_nodes`` (if > 0), leaving the state mid-search.
    """
    cell, phase, dval = ws.cell, ws.phase, ws.dec_val
    dmark, dcell, dstate = ws.dec_mark, ws.dec_cell, ws.dec_state
    nodes = _ONE
    nsol = 0
    depth = 0
    rnd = _ONE  # check round
    budget = check
    put_off = 0  # checks put off in this round
    check_start = 0
    i = _NONE
    v = np.int64(0)
    v_check = np.int64(0)  # the value the check at the bottom of the stack tries
    hot = _NONE  # the group of the last failure in this check
    ok = True
    state = _STEP
    after = _ROOT  # the state the coming step leads to: _ROOT while it changes the root
    while True:
        if state == _STEP:  # apply i = v (the root's closure while i < 0)
            group = -2 if sweep else (ws.group[i] if i >= 0 else -1)
            ok = _step(ws, st, R, C, i, v, group)
            if not ok and i >= 0:
                hot = ws.group[st[_WIT] if st[_WIT] >= 0 else i]
            sweep = False
            state = after
            after = _NEXT
        elif state == _ROOT:  # the root state changed: done, or label it and start checking
            if not ok:
                return nsol, nodes  # the clues contradict each other
            if nodes == 1 and st[_NTR] == R * C:
                for k in range(R * C):  # the rules alone decided every cell: one solution
                    sol[k] = cell[k]
                return 1, nodes
            _label_groups(ws, st, R, C, nodes == 1)
            if nodes == 1:  # the first time: the values to try first (none read them before)
                for k in range(R * C):
                    phase[k] = first[k]
                for k in range(st[_NCAND]):
                    j = ws.cand[k]
                    if phase[j] < 0:
                        # no preference given: guess the value whose trial decided less
                        phase[j] = 0 if ws.imp[0, j] < ws.imp[1, j] else 1
                if 0 <= learn <= st[_NCAND]:
                    return solve_by_learning(ws, st, R, C, max_solutions, sol, max_nodes, nodes)
            state = _CHECK
        elif state == _NEXT:  # inside a check: decide, found a solution, put off or back up
            state = _COUNT
            if ok:
                i = _choose(ws, st, R, C, ws.group[dcell[depth - 1]], hot, _NONE)
                if i >= 0:  # a decision
                    dmark[depth] = st[_NTR]
                    dcell[depth] = i
                    dstate[depth] = 0
                    v = sol[i] if nsol == 1 else phase[i]
                    dval[depth] = v
                    depth += 1
                    continue
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
                put_off = 0
                state = _CHECK
                continue
            if nodes - check_start > budget:
                _retreat(ws, st, R, C, dmark[0], nsol == 0)  # put the check off
                depth = 0
                ws.skip[dcell[0]] = rnd
                put_off += 1
                state = _CHECK
                continue
            # backjump: while the failure's witness fails both ways without the last
            # decision too, that decision (either value) is not to blame: drop it
            while depth >= 2 and st[_WIT] >= 0:
                _retreat(ws, st, R, C, dmark[depth - 1], nsol == 0)
                if not _dead(ws, st, R, C, st[_WIT]):
                    break
                depth -= 1
            while depth > 0 and dstate[depth - 1] == 1:
                depth -= 1
            if depth == 0:
                # the check failed: its cell takes the other value, at the root
                _retreat(ws, st, R, C, dmark[0], nsol == 0)
                i = dcell[0]
                v = 1 - v_check
                after = _ROOT
                continue
            d = depth - 1  # the deepest decision not yet tried both ways: its other value
            _retreat(ws, st, R, C, dmark[d], nsol == 0)
            dstate[d] = 1
            i = dcell[d]
            v = 1 - dval[d]
        elif state == _CHECK:  # start the next check
            # a round ends when every cell had its check, or (no solution known yet) after
            # FIND_ROUND checks put off: then no refutation costs more than a few rounds
            i = _NONE
            if nsol != 0 or put_off < FIND_ROUND:
                i = _choose(ws, st, R, C, _NONE, _NONE, rnd)
            if i < 0:
                rnd += 1
                budget *= 2
                put_off = 0
                i = _choose(ws, st, R, C, _NONE, _NONE, rnd)
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
            v = 1 - sol[i] if nsol == 1 else phase[i]
            v_check = v
            hot = _NONE
            check_start = nodes
            state = _COUNT
        else:  # _COUNT: one more node, within the budget
            nodes += 1
            if nodes > max_nodes > 0:
                return -1, nodes  # over budget: undecided
            state = _STEP


# The frame: one int64 array holding a batch's layout, clues, answers and settings, so that a
# call per puzzle passes numba two arrays and an index (its dispatcher types every argument
# on every call, each array costing more than a small puzzle's reset).  frame[_HEAD:] holds,
# in order: the layout (4 rows of k + 1: rows, columns, first clue, cells before), the answers
# (3 rows of k: verdict, nodes, ticks), the solutions (one entry per cell of the batch) and
# the clues (one per point).
_K, _CHECK_AT, _TIMED, _CLUES_AT = 0, 1, 2, 3
_HEAD = 4


@njit(cache=True)
def frame_sections(k, cells):
    """Where a frame of ``k`` puzzles and ``cells`` cells keeps its layout, answers,
    solutions and clues (for Python and numba code alike)."""
    layout = _HEAD
    out = layout + 4 * (k + 1)
    solution = out + 3 * k
    return layout, out, solution, solution + cells


def frame_views(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A frame's layout (4 x k + 1), answers (3 x k: verdict, nodes, ticks) and solutions,
    as views."""
    k = int(frame[_K])
    at_layout, at_out, at_solution, _ = frame_sections(k, 0)
    return (
        frame[at_layout:at_out].reshape(4, k + 1),
        frame[at_out:at_solution].reshape(3, k),
        frame[at_solution : frame[_CLUES_AT]],
    )


def make_frame(rows, cols, offsets, clues, check: int, timed: bool) -> np.ndarray:
    """The frame of a validated batch (int64 rows, cols, offsets; clues in -1..4) for
    :func:`solve_range` and :func:`solve_at`: answers zero, no solution yet."""
    k = rows.shape[0]
    cells = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(rows * cols, out=cells[1:])
    at_layout, at_out, at_solution, at_clues = frame_sections(k, int(cells[-1]))
    frame = np.zeros(at_clues + clues.shape[0], dtype=np.int64)
    frame[_K], frame[_CHECK_AT], frame[_TIMED], frame[_CLUES_AT] = k, check, timed, at_clues
    layout = frame[at_layout:at_out].reshape(4, k + 1)
    layout[0, :k], layout[1, :k], layout[2], layout[3] = rows, cols, offsets, cells
    frame[at_clues:] = clues
    return frame


@njit(cache=True, nogil=True)
def _solve_one(frame, ws, st, sol, first, j):
    """Solve puzzle ``j`` of ``frame`` into its answers (the body of :func:`solve_range`)."""
    k = frame[_K]
    timed = frame[_TIMED] != 0
    start = np.int64(0)
    if timed:
        start = ticks()
    at_layout, at_out, at_solution, _ = frame_sections(k, 0)
    R = frame[at_layout + j]
    C = frame[at_layout + (k + 1) + j]
    lo = frame[_CLUES_AT] + frame[at_layout + 2 * (k + 1) + j]
    reset(ws, st, R, C, frame[lo : lo + (R + 1) * (C + 1)])
    found, frame[at_out + k + j] = search(
        ws,
        st,
        R,
        C,
        np.int64(2),
        sol,
        first,
        np.bool_(True),
        frame[_CHECK_AT],
        _ZERO,
        np.int64(LEARN_CELLS),
    )
    frame[at_out + j] = found
    if found:
        at = at_solution + frame[at_layout + 3 * (k + 1) + j]
        for c in range(R * C):
            frame[at + c] = sol[c]
    if timed:
        frame[at_out + 2 * k + j] = ticks() - start


@njit(cache=True, nogil=True)
def solve_range(frame, block, lo, hi):
    """Solve puzzles ``lo..hi-1`` of a batch's frame (:func:`make_frame`) in one call, no
    Python between them.

    ``block`` is the workspace's block (``ws.block``, :func:`make_workspace`), which the call
    borrows, with its row of scalar slots (``ws.slots``): numba counts no reference on the
    calls that hand them on.  The solution buffer and the first values are the call's own
    arrays (the search working on them as views into the block, which numba counts, ran
    slower in paired rounds of ``benchmarks/slant_ab.py``).

    Puzzle ``j``'s verdict (solutions found, at most 2), its nodes and its first solution,
    if any, go to the frame's answers.  One workspace serves every puzzle; its size tables
    are refilled only when the size changes.  Where the frame says timed, each puzzle's
    ticks of :func:`solvers.slant.clock.ticks`, reset to solution copied, go there too.
    """
    ws = borrow_workspace(block)
    st = ws.slots
    sol = np.empty(block.shape[1], dtype=np.int64)
    first = np.full(block.shape[1], -1, dtype=np.int64)  # no preferred values: it guesses
    for j in range(lo, hi):
        _solve_one(frame, ws, st, sol, first, j)


@njit(cache=True)
def solve_at(table, j):
    """Solve puzzle ``j`` alone, as :func:`solve_range` would: the path of one call per
    puzzle.  ``table`` is the address of a :class:`solvers.borrowed.Addresses` table of
    the frame, the block, a solution buffer and the first values (all -1) of the block's
    width, so that the call unboxes two integers and allocates nothing.  It keeps the GIL
    (no ``nogil``): releasing and taking it back would cost about as much as the call's
    dispatch."""
    at = vector(table, 9)
    frame = vector(at[0], at[1])
    block = matrix(at[2], at[3], at[4])
    ws = borrow_workspace(block)
    _solve_one(frame, ws, ws.slots, vector(at[5], at[6]), vector(at[7], at[8]), j)


@njit(cache=True, nogil=True)
def verdict(block, R, C, clues, learn, sol):
    """Solutions (up to 2) of one puzzle, the first written to ``sol``: :func:`search` with
    ``learn`` (-1: the depth-first search alone), on ``block`` borrowed as in
    :func:`solve_range`; the second methods' entry."""
    ws = borrow_workspace(block)
    st = ws.slots
    first = np.full(block.shape[1], -1, dtype=np.int64)  # no preferred values: it guesses
    reset(ws, st, R, C, clues)
    found, _ = search(
        ws, st, R, C, np.int64(2), sol, first, np.bool_(True), np.int64(CHECK), _ZERO, learn
    )
    return found
