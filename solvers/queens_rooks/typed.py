"""The typed kernel of queens and rooks: a queen or a rook per row, for few rooks.

Notation in :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from .bits import _LOW32, _U1, _row_candidates, _row_order

__all__: list[str] = []  # private: reached through solvers.queens_rooks


@njit(cache=True, nogil=True)
def _typed_options(n, r, free, occ_s, occ_t, q_s, q_t, rook_ok, queen_ok):
    """Options of row r: rook columns in bits 0-31, queen columns in bits 32-63."""
    full = (_U1 << uint64(n)) - _U1
    sh_s = uint64(r)
    sh_t = uint64(n - 1 - r)
    rooks = uint64(0)
    queens = uint64(0)
    if rook_ok:  # a rook avoids the queens' diagonals
        rooks = free & ~(((q_s >> sh_s) | (q_t >> sh_t)) & full)
    if queen_ok:  # a queen avoids every piece's diagonals
        queens = free & ~(((occ_s >> sh_s) | (occ_t >> sh_t)) & full)
    return rooks | (queens << uint64(32))


@njit(cache=True, nogil=True)
def _typed_search(
    n: int, fixed: np.ndarray, rook_max: int, queen_max: int, hist: np.ndarray
) -> int:
    """Add to ``hist[q]`` the legal typed placements extending ``fixed`` with q queens.

    Invariant at level t: ``used[t]``, ``occ_*[t]``, ``q_*[t]`` the columns, diagonals and queen
    diagonals of the pieces in rows ``order[:t]``, ``nq[t]`` their queens; ``opts[t]`` the
    (column, type) options row ``order[t]`` has still to try (see :func:`_typed_options`).
    Its frame (per-level arrays, the lowest option popped) is the free search's
    (:func:`.free._free_search`) on purpose: each is a hot loop specialised to its pieces.
    """
    order = _row_order(fixed)
    full = (_U1 << uint64(n)) - _U1
    used = np.zeros(n, np.uint64)
    occ_s = np.zeros(n, np.uint64)
    occ_t = np.zeros(n, np.uint64)
    q_s = np.zeros(n, np.uint64)
    q_t = np.zeros(n, np.uint64)
    nq = np.zeros(n, np.int64)
    opts = np.zeros(n, np.uint64)
    nodes = 0
    opts[0] = _typed_options(
        n,
        order[0],
        _row_candidates(fixed, order[0], full, uint64(0)),
        uint64(0),
        uint64(0),
        uint64(0),
        uint64(0),
        rook_max > 0,
        queen_max > 0,
    )
    t = 0
    while t >= 0:
        options = opts[t]
        if options == 0:
            t -= 1
            continue
        b = options & (~options + _U1)
        opts[t] = options ^ b
        nodes += 1
        queen = b > _LOW32
        if queen:
            b >>= uint64(32)
        r = order[t]
        bs = b << uint64(r)
        bt = (b << uint64(n - 1)) >> uint64(r)
        q = nq[t] + (1 if queen else 0)
        if t == n - 1:
            hist[q] += _U1
            continue
        t += 1
        used[t] = used[t - 1] | b
        occ_s[t] = occ_s[t - 1] | bs
        occ_t[t] = occ_t[t - 1] | bt
        q_s[t] = q_s[t - 1] | (bs if queen else uint64(0))
        q_t[t] = q_t[t - 1] | (bt if queen else uint64(0))
        nq[t] = q
        free = _row_candidates(fixed, order[t], full, used[t])
        opts[t] = _typed_options(
            n, order[t], free, occ_s[t], occ_t[t], q_s[t], q_t[t], t - q < rook_max, q < queen_max
        )
    return nodes
