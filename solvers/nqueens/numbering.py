"""Numbering the paths of a walk and keeping the wanted ones (numba): the bookkeeping that the
two selections, :func:`.constellations.select` and :func:`.tree.select`, share.  It picks
units and counts nothing, so the second method (:mod:`.tree`) still shares no counting code
with the first.

A selection numbers the paths it walks 0, 1, ... and keeps path ``wanted[j]`` (``wanted``
ascending and distinct) as row ``j`` of ``out``, whose last ``depth`` columns get the columns
of the path's ``depth`` rows (the caller writes any columns before them).  It carries ``nxt``,
the number of the next path wanted (:data:`NEVER` once all are kept), and tests it before it
calls a helper here: numba counts a reference on each array passed to a function, which in a
selection's loop would cost more than the walk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitops import ctz

__all__: list[str] = []  # private to solvers.nqueens

NEVER = np.int64(1 << 62)  # a path number no walk reaches (a numpy scalar: a Python int passed
# as a select's cap would be typed as a literal and compile it once more)


@njit(cache=True, nogil=True, inline="always")
def wanted_after(wanted, kept):
    """``nxt`` once ``kept`` paths are kept: the next wanted path's number, or :data:`NEVER`."""
    return wanted[kept] if kept < wanted.shape[0] else NEVER


@njit(cache=True, nogil=True, inline="always")
def keep(kept, cols, depth, wanted, out):
    """Keep the path ``cols[:depth]`` (it is ``nxt``) as row ``kept`` of ``out``: (paths
    kept, nxt)."""
    h = out.shape[1] - depth
    for j in range(depth):
        out[kept, h + j] = cols[j]
    kept += 1
    return kept, wanted_after(wanted, kept)


@njit(cache=True, nogil=True, inline="always")
def last_row(avail, d, walked, kept, nxt, cols, wanted, out):
    """Number the paths that end at the columns of ``avail`` in row ``d`` (their last), in
    ascending order, one at a time: (paths walked, paths kept, nxt).  The caller counts them
    at once (``popcount``) while ``nxt`` is not among them."""
    while avail:
        if walked == nxt:
            cols[d] = ctz(avail)
            kept, nxt = keep(kept, cols, d + 1, wanted, out)
        avail &= avail - 1
        walked += 1
    return walked, kept, nxt
