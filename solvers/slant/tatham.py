"""Slant: Simon Tatham's harder rules (3 and 5 of :mod:`.levels`), written once for both engines
that apply them.

The grader (:mod:`.levels`) runs them to grade a puzzle as Tatham does; the root of the search
(:mod:`.classes`) runs them before it probes.  Each engine keeps its own bookkeeping (the
grader its rings, the root the search's state and queues), but what the rules say is here, and
each engine asks it:

- the cells around a point, in Tatham's order (:func:`ring`): NW, SW, SE, NE.  NW and SE touch
  the point with ``\\`` (1), SW and NE with ``/`` (0): ring position ``k`` touches with
  ``1 - k % 2``;
- rule 3 at a clue point (:func:`count_at`): the first two undecided cells side by side in one
  class, in Tatham's order starting with (NE, NW), count as one line; then the count fails,
  forces the other undecided cells, joins the two left in one class, or says nothing.  Only the
  first such pair counts, as in Tatham's solver, so the order decides which pair counts when
  there are two, and the generated puzzles (graded by these rules) depend on it;
- rule 5's shapes: the shape bits of a cell's pairs, those a slash rules out
  (:func:`lost_by`), those an inner 1 or 3 rules out (:func:`clue_shapes`), and the pairs a 2
  passes a lost shape across to (:func:`across_two`).

Everything here is inlined into both engines' numba code; the functions take the engines'
workspaces (:mod:`solvers.fields`), which share the field names used here (``cell``, ``cls``).
"""

from __future__ import annotations

from numba import njit

__all__ = [
    "V",
    "CARET",
    "GT",
    "LT",
    "ACROSS",
    "DOWN",
    "FAIL",
    "NOTHING",
    "TOUCH",
    "MISS",
    "JOIN",
    "ring",
    "open_ring",
    "count_at",
    "lost_by",
    "clue_shapes",
    "across_two",
]

# shape bits of a cell's pair with its right neighbour (V, CARET) and the one below (GT, LT).
# (plain ints; the engines receive them as int64 values from lost_by and clue_shapes)
V = 1  # left '\', right '/'
CARET = 2  # left '/', right '\'
GT = 4  # top '\', bottom '/'
LT = 8  # top '/', bottom '\'
ACROSS = V | CARET
DOWN = GT | LT

# count_at's verdicts
FAIL, NOTHING, TOUCH, MISS, JOIN = 0, 1, 2, 3, 4


@njit(cache=True, nogil=True, inline="always")
def ring(R, C, p):
    """The cells around point ``p`` of an R x C grid in Tatham's order (NW, SW, SE, NE), -1
    where the grid has none."""
    W = C + 1
    y = p // W
    x = p - y * W
    nw = (y - 1) * C + x - 1 if x > 0 and y > 0 else -1
    sw = y * C + x - 1 if x > 0 and y < R else -1
    se = y * C + x if x < C and y < R else -1
    ne = (y - 1) * C + x if x < C and y > 0 else -1
    return nw, sw, se, ne


@njit(cache=True, nogil=True, inline="always")
def open_ring(ws, a, b, c, d):
    """The ring ``a, b, c, d`` with each decided cell replaced by -1."""
    return (
        a if a >= 0 and ws.cell[a] < 0 else -1,
        b if b >= 0 and ws.cell[b] < 0 else -1,
        c if c >= 0 and ws.cell[c] < 0 else -1,
        d if d >= 0 and ws.cell[d] < 0 else -1,
    )


@njit(cache=True, nogil=True, inline="always")
def _joined(ws, a, b):
    """Whether ring cells ``a`` and ``b`` are both there (>= 0) and in one class."""
    return a >= 0 and b >= 0 and ws.cls[a] == ws.cls[b]


@njit(cache=True, nogil=True, inline="always")
def _two_side_by_side(a, b, c, d):
    """The two cells (>= 0) of a ring holding exactly two, if they are side by side around the
    point; else (-1, -1)."""
    if a >= 0 and b >= 0:
        return a, b
    if b >= 0 and c >= 0:
        return b, c
    if c >= 0 and d >= 0:
        return c, d
    if d >= 0 and a >= 0:
        return d, a
    return -1, -1


@njit(cache=True, nogil=True, inline="always")
def count_at(ws, need, free, hard, a, b, c, d):
    """Rules 1 and 3 at a clue point that needs ``need`` more touching slashes from its ``free``
    undecided cells, the open ring ``a, b, c, d`` (:func:`open_ring`); without ``hard``, rule 1
    alone.  Returns ``(verdict, x, y)``:

    - FAIL: the count cannot be met;
    - TOUCH / MISS: every undecided ring cell but ``x`` and ``y`` (the pair of one class, or
      -1) must touch the point / must not;
    - JOIN: ``x`` and ``y``, the two undecided cells left beside the pair, side by side and
      needing one line between them, hold the same slash;
    - NOTHING.
    """
    x = y = -1
    if hard and free >= 2:
        if _joined(ws, d, a):
            x, y = d, a
        elif _joined(ws, a, b):
            x, y = a, b
        elif _joined(ws, b, c):
            x, y = b, c
        elif _joined(ws, c, d):
            x, y = c, d
        if x >= 0:
            need -= 1  # the pair touches the point once
            free -= 2
    if need < 0 or need > free:
        return FAIL, x, y
    if free > 0 and (need == 0 or need == free):
        return (TOUCH if need > 0 else MISS), x, y
    if hard and free == 2 and need == 1:
        u, v = _two_side_by_side(
            a if a != x and a != y else -1,
            b if b != x and b != y else -1,
            c if c != x and c != y else -1,
            d if d != x and d != y else -1,
        )
        if u >= 0:
            return JOIN, u, v
    return NOTHING, x, y


@njit(cache=True, nogil=True, inline="always")
def lost_by(v):
    """The shapes slash ``v`` rules out for the pairs its cell is in: (as the left cell, as
    the right cell, as the upper cell, as the lower cell)."""
    if v == 1:  # '\'
        return CARET, V, LT, GT
    return V, CARET, GT, LT


@njit(cache=True, nogil=True, inline="always")
def clue_shapes(k):
    """The shapes an inner clue ``k`` rules out, for the pairs of the cells NW, SW and NE of
    it: a 1 those pointing at it (both cells touching it), a 3 those pointing away."""
    if k == 1:
        return V | GT, CARET, LT
    if k == 3:
        return CARET | LT, V, GT
    return 0, 0, 0


@njit(cache=True, nogil=True, inline="always")
def across_two(R, C, clue, i, down):
    """The cells whose pair of the same kind a 2 passes the lost shapes of cell ``i``'s pair
    (with the cell right of it, or below it if ``down``) to: a 2 at either end of the edge the
    two cells share makes the pair on its far side lose the same shapes (touching it twice, or
    not at all, on one side leaves the other side nothing).  (t1, t2), -1 for none."""
    W = C + 1
    r = i // C
    c = i - r * C
    if down:  # the edge from point (r + 1, c) to (r + 1, c + 1)
        t1 = i - 1 if c > 0 and clue[(r + 1) * W + c] == 2 else -1
        t2 = i + 1 if c + 1 < C and clue[(r + 1) * W + c + 1] == 2 else -1
    else:  # the edge from point (r, c + 1) to (r + 1, c + 1)
        t1 = i - C if r > 0 and clue[r * W + c + 1] == 2 else -1
        t2 = i + C if r + 1 < R and clue[(r + 1) * W + c + 1] == 2 else -1
    return t1, t2
