"""Queens-and-rooks kernels: the numba searches behind :mod:`solvers.queens_rooks`.

Notation.  Rows ``r`` and columns ``c`` run 0..n-1; ``m = n - 1``.  A piece at ``(r, c)`` lies on
the *sum diagonal* ``s = r + c`` and the *difference diagonal* ``t = c - r + m`` (both 0..2m).  A
diagonal mask is a uint64 with bit ``s`` (or ``t``) set per occupied diagonal; a column mask has
bit ``c`` set.  Masks need 2n - 1 <= 63 bits, hence ``n <= MAX_TOTAL = 32``.

The reduction.  Queens and rooks both attack along rows and columns, and n pieces fill n rows, so
every placement puts one piece in each row and column: it is a permutation ``p`` (row r holds its
piece in column ``p[r]``) with a type per piece.  Call a piece of ``p`` *free* when no other piece
of ``p`` shares one of its diagonals, and let ``k(p)`` count them.  Queens must be free and rooks
never attack diagonally, so the placements over ``p`` are the choices of M queens among the k(p)
free pieces, and with ``H[k]`` the number of permutations having exactly k free pieces::

    placements(M, n - M) = sum_p C(k(p), M) = sum_k H[k] * C(k, M)

so one pass that histograms ``k`` answers the whole row M = 0..n.  ``H`` sums to n!, which is the
M = 0 answer (proved, and checked against the search wherever the search runs).

Kernels (both iterative DFS over rows with explicit stacks, counting their nodes):

- *free* (the whole row): enumerates permutations, carrying ``k`` and the masks of occupied
  diagonals and of the diagonals of currently free pieces; a piece landing on a free piece's
  diagonal makes that piece (found through a per-diagonal partner table) non-free.  The update is
  branch-free.  When the last seven rows are open (8 <= n <= 22, in almost every search) they
  are counted in bulk by :mod:`.tail_seven`: per cell of the 7 x 7 group of remaining rows and
  columns, masks of the free pieces it takes away, of whether it is free of the placed pieces
  and of the group's cells sharing a diagonal with it, OR-ed over the first four rows and over
  the last three of each completion, so that each of the 5040 completions is two ORs, an
  and-not and a popcount.  Where seven rows do not fit, the last five are counted the same way
  by :func:`.free._tail` (120 completions, n <= 32); otherwise the last two rows (two columns
  left, two leaves) are finished in place.  Leaves: H[k] += 1.  Each bulk tail makes the whole
  search several times faster than the one before (``benchmarks/queens_rooks_tail.py``;
  figures on the speed page, docs/speed.md).
- *typed* (few rooks wanted): places a queen or a rook in each row, seed-style, pruned by the
  queens' diagonals (a rook avoids them), all pieces' diagonals (a queen avoids them) and the
  bounds ``rooks <= rook_max``, ``queens <= queen_max``.  Leaves: histogram of the queens placed.
  Its tree shrinks fast as M grows (M = n is N-queens), so it wins when only large M are wanted.

The code: the whole-row kernel in :mod:`.free`, the typed one in :mod:`.typed`, their bit helpers
in :mod:`.bits`; this module runs either over a table of searches (:func:`_histograms`).
Symmetry and prefixes are in :mod:`.symmetry`, the count problem in :mod:`solvers.queens_rooks`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .free import TAIL, _free_search
from .typed import _typed_search

__all__ = ["TAIL"]  # every kernel is private: solvers.queens_rooks is the public face


@njit(cache=True, nogil=True)
def _histograms(n: int, fixed: np.ndarray, typed: bool, rook_max: int, queen_max: int):
    """Run one kernel on every row of ``fixed`` (int16 [items, n]); return (hist, nodes)."""
    items = fixed.shape[0]
    hist = np.zeros((items, n + 1), np.uint64)
    nodes = np.zeros(items, np.int64)
    for i in range(items):
        if typed:
            nodes[i] = _typed_search(n, fixed[i], rook_max, queen_max, hist[i])
        else:
            nodes[i] = _free_search(n, fixed[i], hist[i])
    return hist, nodes


@njit(cache=True, nogil=True)
def _capped_histograms(n: int, fixed: np.ndarray, widest: int):
    """The whole-row kernel with its bulk tail capped at ``widest`` rows (7, 5, or 0 for the
    search before any bulk tail), as _histograms: the baselines of
    ``benchmarks/queens_rooks_tail.py`` and of the tests."""
    items = fixed.shape[0]
    hist = np.zeros((items, n + 1), np.uint64)
    nodes = np.zeros(items, np.int64)
    for i in range(items):
        nodes[i] = _free_search(n, fixed[i], hist[i], widest)
    return hist, nodes
