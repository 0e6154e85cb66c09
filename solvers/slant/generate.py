"""Slant puzzle generator: random loop-free fillings, then clues removed while still unique.

Notation as in :mod:`solvers.slant.kernel` (cells ``i = r * C + c``, points ``p = y * W + x``,
``W = C + 1``, slash 0 = ``/``, 1 = ``\\``).

Puzzle ``index`` of a run with ``seed`` draws everything from ``numpy.random.default_rng(
[seed, rows, cols, index])``, so a puzzle depends on (seed, size, index) alone, never on how a
range of indices is split into calls.  Steps:

1. *Filling*: cells in a random order each take a random slash, or the other one when the
   first would close a loop (both never do: the two loops would have to cross).  The result
   is a forest of slashes in which every component reaches the border.
2. *Clues*: every point gets its count of touching slashes, so the filling is the only
   solution.
3. *Removal*: points in a random order lose their clue when the puzzle stays unique.  With
   ``S`` the unique solution of the current clues and ``s`` its count at point ``p``, the
   puzzle without ``p``'s clue is unique exactly when no clue value ``v != s`` at ``p`` can
   be solved.  Each ``v`` is settled by the cheapest test that can (:func:`minimise_clues`):
   the rules alone on a small window refuting it; a window around ``p`` solved with ``S``
   kept outside (a second solution exists); a larger window alone with its rim clues
   dropped, unsolvable (none exists).  Clues the windows leave open stay for now and are
   settled in batches of BATCH by whole-puzzle uniqueness checks (one search for the whole
   batch when all of it can go, halving on failure).  Searches have node budgets; a clue
   whose removal a whole-puzzle check cannot settle within its budget stays, so every
   puzzle is unique, and minimal up to such clues (rare, and only on large grids: none on
   the sizes the tests check exhaustively).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# numba caches each function keyed on its own file only: solvers.identity.use_numba_cache
# points the cache at a folder named after every source, so an edit of state.py or kernel.py
# never leaves a stale cached generator
from .kernel import (
    CHECK,
    make_workspace,
    preconnect,
    propagate,
    reset,
    search,
)
from .levels import EASY, HARD, LEVELS, deduce, make_scratch
from .state import borrow_workspace
from .tables import GRID

__all__ = [
    "generate",
    "random_filling",
    "clues_of",
    "minimise_clues",
    "graded_clues",
    "MIN_HARD_SIDE",
]

MIN_HARD_SIDE = 2  # a hard puzzle needs at least 2 rows and 2 columns (as in Tatham's)

QUICK = 3  # half-size of the window where the rules alone may refute a clue value
NEAR = 5  # half-size of the window where a second solution is looked for first
FAR = 8  # half-size of the relaxed window that may prove there is none
WINDOW_NODES = 2000  # search nodes a window may take before the next phase takes over
FULL_NODES = 20000  # search nodes a whole-grid check may take before its clues are kept anyway
BATCH = 4  # clues the windows left open that wait for whole-grid checks together
NO_LEARNING = np.int64(-1)  # the generator's searches keep the depth-first search, whose node
# budgets above were tuned for it (and whose puzzles the benchmark sets hold)
# search's arguments as numpy scalars (see state._ZERO: a literal would compile search again)
_CHECK, _WINDOW, _FULL = np.int64(CHECK), np.int64(WINDOW_NODES), np.int64(FULL_NODES)
_SWEEP = np.bool_(True)
_INEXACT = np.bool_(False)


@njit(cache=True, nogil=True)
def _find(parent, p):
    """Root of ``p`` in the union-find forest ``parent`` (halving the path on the way)."""
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@njit(cache=True, nogil=True)
def random_filling(R, C, order, bits):
    """Fill cells in ``order`` with ``bits[i]`` (or the other slash if that closes a loop)."""
    W = C + 1
    parent = np.arange((R + 1) * W)
    out = np.empty(R * C, dtype=np.int64)
    for k in range(R * C):
        i = order[k]
        r = i // C
        tl = r * W + i - r * C
        v = bits[i]
        for _ in range(2):
            if v == 1:
                a, b = tl, tl + W + 1
            else:
                a, b = tl + 1, tl + W
            ra, rb = _find(parent, a), _find(parent, b)
            if ra != rb:
                parent[ra] = rb
                break
            v = 1 - v
        out[i] = v
    return out


@njit(cache=True, nogil=True)
def clues_of(R, C, sol):
    """Every point's count of touching slashes in the full filling ``sol``."""
    W = C + 1
    clues = np.zeros((R + 1) * W, dtype=np.int8)
    for i in range(R * C):
        r = i // C
        tl = r * W + i - r * C
        if sol[i] == 1:
            clues[tl] += 1
            clues[tl + W + 1] += 1
        else:
            clues[tl + 1] += 1
            clues[tl + W] += 1
    return clues


@njit(cache=True, nogil=True)
def _sub_puzzle(R, C, clues, sol, r0, r1, c0, c1, exact, sub_clues, sub_first):
    """Cut the window of cells [r0, r1) x [c0, c1) out as a puzzle of its own.

    A clue on the window's rim also counts cells outside the window: with ``exact`` those
    keep their values in ``sol`` and the clue drops by their touches; without, the clue is
    dropped (a relaxation: fewer constraints).  ``sub_first`` gets ``sol`` on the window.
    """
    W = C + 1
    w = c1 - c0 + 1
    for yy in range(r0, r1 + 1):
        for xx in range(c0, c1 + 1):
            k = clues[yy * W + xx]
            if k >= 0 and (yy == r0 or yy == r1 or xx == c0 or xx == c1):
                for d in range(4):
                    # the cells NW, NE, SW, SE of the point; NW and SE touch it with 1 ('\\')
                    r = yy - 1 + (d >> 1)
                    c = xx - 1 + (d & 1)
                    if 0 <= r < R and 0 <= c < C and not (r0 <= r < r1 and c0 <= c < c1):
                        if not exact:
                            k = -1
                            break
                        if sol[r * C + c] == (1 if d == 0 or d == 3 else 0):
                            k -= 1
            sub_clues[(yy - r0) * w + xx - c0] = k
    for r in range(r0, r1):
        for c in range(c0, c1):
            sub_first[(r - r0) * (c1 - c0) + c - c0] = sol[r * C + c]


@njit(cache=True, nogil=True)
def _outside_labels(R, C, sol, r0, r1, c0, c1, parent, labels):
    """Label the window's points by their components in ``sol`` minus the window's cells."""
    W = C + 1
    P = (R + 1) * W
    for p in range(P):
        parent[p] = p
    for r in range(R):
        for c in range(C):
            if r0 <= r < r1 and c0 <= c < c1:
                continue
            tl = r * W + c
            if sol[r * C + c] == 1:
                a, b = _find(parent, tl), _find(parent, tl + W + 1)
            else:
                a, b = _find(parent, tl + 1), _find(parent, tl + W)
            parent[a] = b
    w = c1 - c0 + 1
    # a class is labelled by the first window point met in it; parent[P + root] keeps that label
    # (parent has room for 2 * P entries)
    for yy in range(r0, r1 + 1):
        for xx in range(c0, c1 + 1):
            parent[P + _find(parent, yy * W + xx)] = -1
    for yy in range(r0, r1 + 1):
        for xx in range(c0, c1 + 1):
            root = _find(parent, yy * W + xx)
            s = (yy - r0) * w + xx - c0
            if parent[P + root] < 0:
                parent[P + root] = s
            labels[s] = parent[P + root]


@njit(cache=True, nogil=True)
def _unique(R, C, clues, sol, ws, st, scratch):
    """Whether ``sol`` is the only solution of ``clues`` (False also when the search passes
    FULL_NODES nodes); returns (unique, nodes)."""
    reset(ws, st, R, C, clues)
    found, nodes = search(
        ws, st, R, C, np.int64(2), scratch, sol, _SWEEP, _CHECK, _FULL, NO_LEARNING
    )
    return found == 1, nodes


@njit(cache=True, nogil=True)
def _settle(R, C, clues, sol, points, values, count, ws, st, scratch, stack):
    """Drop as many of the clues ``points[:count]`` (values ``values``) as keep ``sol`` the
    only solution, in order, by whole-grid checks; returns nodes.

    All of them go at once if the puzzle stays unique without them; otherwise the first half
    is settled, then the second (which needs no check of its own when the whole first half
    went: the puzzle is then the one that just failed), down to single clues.  Short of a
    check over its node budget, the outcome is the one of dropping them one by one in order.
    """
    nodes = 0
    stack[0], stack[1], stack[2] = 0, count, -1  # (lo, hi, start of a half that went before)
    top = 1
    while top > 0:
        top -= 1
        lo, hi, before = stack[3 * top], stack[3 * top + 1], stack[3 * top + 2]
        failed = before >= 0
        if failed:
            for j in range(before, lo):
                if clues[points[j]] >= 0:
                    failed = False  # a clue of the first half stayed: check after all
        if not failed:
            for j in range(lo, hi):
                clues[points[j]] = -1
            unique, more = _unique(R, C, clues, sol, ws, st, scratch)
            nodes += more
            if unique:
                continue
            for j in range(lo, hi):
                clues[points[j]] = values[j]
        if hi - lo > 1:
            mid = (lo + hi) // 2
            stack[3 * top], stack[3 * top + 1], stack[3 * top + 2] = mid, hi, lo
            stack[3 * top + 3], stack[3 * top + 4], stack[3 * top + 5] = lo, mid, -1
            top += 2
    return nodes


@njit(cache=True, nogil=True)
def minimise_clues(R, C, clues, sol, removal, block):
    """Drop clues in ``removal`` order while ``sol`` stays the only solution; returns nodes.

    ``block`` is a workspace's block (:func:`~solvers.slant.kernel.make_workspace`), borrowed
    as the batch solver borrows it, with its row of scalar slots.

    A clue can go when no other value of it lets the puzzle be solved.  Each other value is
    settled by the first phase that can: the rules alone refuting it on a QUICK window; an
    *exact* window (cells outside keep their values in ``sol``) with a solution proves there
    is one; a *relaxed* window (cells outside free, so its rim clues are dropped) without
    one proves there is none.  The windows have half-size NEAR (exact), FAR (relaxed), FAR
    (exact), 2 FAR (relaxed); a window search over WINDOW_NODES nodes settles nothing.  A
    window as large as the grid answers exactly.  A clue the windows leave open stays for
    now and waits, with up to BATCH others, for whole-grid uniqueness checks that drop the
    whole batch at once when they can (:func:`_settle`).  A clue whose check passes
    FULL_NODES nodes stays (the puzzle stays unique, if not quite minimal).
    """
    ws = borrow_workspace(block)
    st = ws.slots
    W = C + 1
    P = (R + 1) * W
    side = 4 * FAR + 1
    parent = np.empty(2 * P, dtype=np.int64)
    labels = np.empty((2, side * side), dtype=np.int64)
    labelled = np.zeros(2, dtype=np.bool_)
    sub_clues = np.empty(side * side, dtype=np.int8)
    sub_first = np.empty(side * side, dtype=np.int64)
    sub_sol = np.empty(side * side, dtype=np.int64)
    scratch = np.empty(R * C, dtype=np.int64)
    waiting = np.empty(BATCH, dtype=np.int64)
    waiting_values = np.empty(BATCH, dtype=np.int8)
    stack = np.empty(3 * (2 * BATCH + 2), dtype=np.int64)
    nwaiting = 0
    nodes = 0
    for k in range(removal.shape[0]):
        p = removal[k]
        y = p // W
        x = p - y * W
        s = clues[p]
        deg = (2 if 0 < y < R else 1) * (2 if 0 < x < C else 1)
        labelled[:] = False
        found = 0
        open_value = False  # a value the windows could not settle
        for v in range(deg + 1):
            if v == s:
                continue
            clues[p] = v
            r0, r1 = max(y - QUICK, 0), min(y + QUICK, R)
            c0, c1 = max(x - QUICK, 0), min(x + QUICK, C)
            _sub_puzzle(R, C, clues, sol, r0, r1, c0, c1, _INEXACT, sub_clues, sub_first)
            reset(ws, st, r1 - r0, c1 - c0, sub_clues)
            if not propagate(ws, st, r1 - r0, c1 - c0):
                continue
            for phase in range(5):
                exact = phase % 2 == 0
                half = NEAR if phase == 0 else (FAR if phase < 3 else 2 * FAR)
                r0, r1 = max(y - half, 0), min(y + half, R)
                c0, c1 = max(x - half, 0), min(x + half, C)
                h, w = r1 - r0, c1 - c0
                if h == R and w == C:
                    # the window is the whole grid: answer exactly
                    reset(ws, st, R, C, clues)
                    found, more = search(
                        ws,
                        st,
                        R,
                        C,
                        np.int64(1),
                        scratch,
                        sol,
                        _SWEEP,
                        _CHECK,
                        _FULL,
                        NO_LEARNING,
                    )
                    nodes += more
                    break
                if phase == 4:
                    open_value = True  # left to a whole-grid check
                    found = 0
                    break
                _sub_puzzle(R, C, clues, sol, r0, r1, c0, c1, exact, sub_clues, sub_first)
                reset(ws, st, h, w, sub_clues)
                if exact:
                    # loops may close through the cells outside: join their components
                    if not labelled[phase >> 1]:
                        _outside_labels(R, C, sol, r0, r1, c0, c1, parent, labels[phase >> 1])
                        labelled[phase >> 1] = True
                    preconnect(ws, h, w, labels[phase >> 1])
                found, more = search(
                    ws,
                    st,
                    h,
                    w,
                    np.int64(1),
                    sub_sol,
                    sub_first,
                    not exact,
                    _CHECK,
                    _WINDOW,
                    NO_LEARNING,
                )
                nodes += more
                if found >= 0 and (found > 0) == exact:
                    break
                found = 0
            if found != 0:
                break  # a second solution, or (over FULL_NODES) none found: keep the clue
        if found != 0 or open_value:
            clues[p] = s
            if found == 0:
                waiting[nwaiting] = p
                waiting_values[nwaiting] = s
                nwaiting += 1
        else:
            clues[p] = -1
        if nwaiting == BATCH or (k == removal.shape[0] - 1 and nwaiting > 0):
            nodes += _settle(
                R, C, clues, sol, waiting, waiting_values, nwaiting, ws, st, scratch, stack
            )
            nwaiting = 0
    return nodes


@njit(cache=True, nogil=True)
def graded_clues(R, C, sol, removal, level, s):
    """The clues of the filling ``sol`` less those the rules of ``level`` can do without.

    Points lose their clue in ``removal`` order while :func:`solvers.slant.levels.deduce` at
    ``level`` still solves the puzzle; for HARD the obvious starting clues (0, 4, a 2 on the
    border, a 1 in a corner) are tried first.  Returns the clues and whether they have the
    level exactly (always for EASY; for HARD, when the easy rules do not solve them).
    """
    W = C + 1
    clues = clues_of(R, C, sol)
    for rest in range(2 if level == HARD else 1):
        for k in range(removal.shape[0]):
            p = removal[k]
            v = clues[p]
            y = p // W
            x = p - y * W
            edge_y = y == 0 or y == R
            edge_x = x == 0 or x == C
            obvious = (
                v == 0
                or v == 4
                or (v == 2 and (edge_x or edge_y))
                or (v == 1 and edge_x and edge_y)
            )
            if level == HARD and obvious == (rest == 1):
                continue
            clues[p] = -1
            if deduce(R, C, clues, level, s) != 1:
                clues[p] = v
    return clues, level == EASY or deduce(R, C, clues, EASY, s) != 1


def generate(
    n: int,
    count: int,
    seed: int,
    start: int = 0,
    rows: int | None = None,
    difficulty: str | None = None,
) -> dict[str, np.ndarray]:
    """Return puzzles ``start..start+count-1`` of ``rows`` (default n) x n cells, each unique.

    ``difficulty`` (None, "easy" or "hard") grades them by Tatham's levels instead of
    making them minimal.  ``puzzle_id`` is the puzzle's index; the batch layout is
    :mod:`solvers.slant`'s.
    """
    R = n if rows is None else int(rows)
    C = int(n)
    if R < 1 or C < 1 or count < 0 or seed < 0 or start < 0:
        raise ValueError(
            "need rows, cols >= 1 and count, seed, start >= 0; "
            f"got rows={R}, cols={C}, count={count}, seed={seed}, start={start}"
        )
    if difficulty is not None and difficulty not in LEVELS:
        raise ValueError(f"difficulty must be one of {', '.join(LEVELS)}, not {difficulty!r}")
    if difficulty == "hard" and min(R, C) < MIN_HARD_SIDE:
        raise ValueError(
            f"a hard puzzle needs at least {MIN_HARD_SIDE} rows and columns, not {R} x {C}"
        )
    P = (R + 1) * (C + 1)
    clues_out = np.empty(count * P, dtype=np.int8)
    if difficulty is None:
        ws, _ = make_workspace(P)
        for j in range(count):
            rng = np.random.default_rng([seed, R, C, start + j])
            order = rng.permutation(R * C)
            bits = rng.integers(0, 2, size=R * C, dtype=np.int64)
            removal = rng.permutation(P)
            sol = random_filling(R, C, order, bits)
            clues = clues_of(R, C, sol)
            minimise_clues(R, C, clues, sol, removal, ws.block)
            clues_out[j * P : (j + 1) * P] = clues
    else:
        level = LEVELS.index(difficulty)
        s = make_scratch(P)
        for j in range(count):
            rng = np.random.default_rng([seed, R, C, start + j, 1 + level])
            while True:  # a hard grading fails now and then: a fresh filling
                order = rng.permutation(R * C)
                bits = rng.integers(0, 2, size=R * C, dtype=np.int64)
                removal = rng.permutation(P)
                sol = random_filling(R, C, order, bits)
                clues, graded = graded_clues(R, C, sol, removal, level, s)
                if graded:
                    break
            clues_out[j * P : (j + 1) * P] = clues
    return GRID.generated(start, count, R, C, clues_out)
