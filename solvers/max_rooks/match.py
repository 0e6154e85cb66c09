"""Maximum rooks on a walled board as a maximum bipartite matching (Hopcroft-Karp, numba).

Notation (shared with :mod:`solvers.max_rooks`):

- a board has ``r`` rows and ``c`` columns; cell ``t = i * c + j`` (row-major); ``cells[t]`` is
  1 for a wall, 0 for an open cell.  A batch stores all boards' cells in one flat array, board
  ``b`` at ``cells[offsets[b]:offsets[b + 1]]``.
- a *row segment* is a maximal run of open cells in one row with no wall between them, a
  *column segment* the same in one column.  Two rooks attack each other exactly when they share
  a segment, so a legal placement takes at most one cell from every segment.
- the graph: left vertex ``u`` = a row segment (numbered in row-major order of their first
  cells), right vertex ``v`` = a column segment (numbered in the order their top cells are met
  in the row-major scan), one edge ``e`` per open cell joining its two segments.  Edges are
  numbered by the row-major order of their cells, so row segment ``u`` owns the contiguous
  edges ``ptr[u]:ptr[u + 1]`` (CSR): ``adj[e]`` is the column segment, ``ecell[e]`` the cell.
- a legal placement is a matching, and a maximum matching is a maximum placement: its matched
  edges are the rook cells.  The witness (König): when no augmenting path is left, let Z be
  the vertices reachable from free row segments by alternating paths; the row segments outside
  Z and the column segments inside Z cover every open cell and number exactly |matching|,
  and no placement can hold more rooks than a cover has segments.

Work (``nodes``) counts edge inspections: greedy start, every BFS and every DFS step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["INF", "build_graph", "hopcroft_karp", "match_batch", "cover_segments"]

INF = np.int32(2**31 - 1)


@njit(cache=True, nogil=True)
def build_graph(cells, base, r, c, colcur, ptr, adj, ecell, colfirst):
    """Fill the CSR graph of one board; return (row segments, column segments, edges)."""
    nleft = 0
    nright = 0
    e = 0
    for j in range(c):
        colcur[j] = -1
    for i in range(r):
        in_row = False
        for j in range(c):
            t = i * c + j
            if cells[base + t] != 0:
                in_row = False
                colcur[j] = -1
                continue
            if not in_row:
                ptr[nleft] = e
                nleft += 1
                in_row = True
            v = colcur[j]
            if v < 0:
                v = nright
                colcur[j] = v
                colfirst[v] = t
                nright += 1
            adj[e] = v
            ecell[e] = t
            e += 1
    ptr[nleft] = e
    return nleft, nright, e


@njit(cache=True, nogil=True)
def _greedy(nleft, nright, ptr, adj, match_l, match_r, deg):
    """Cheap start: short row segments first, each to its shortest free column segment.

    Return (size, edges seen).  One-cell segments have no other partner, so serving them first
    (and preferring partners with few other choices) leaves less for the phases to repair."""
    for v in range(nright):
        deg[v] = 0
    for e in range(ptr[nleft]):
        deg[adj[e]] += 1
    size = 0
    seen = 0
    for rnd in range(2):  # round 0: one-cell row segments; round 1: the rest
        for u in range(nleft):
            lo, hi = ptr[u], ptr[u + 1]
            if (hi - lo == 1) != (rnd == 0):
                continue
            pick = -1
            for e in range(lo, hi):
                seen += 1
                v = adj[e]
                if match_r[v] < 0 and (pick < 0 or deg[v] < deg[adj[pick]]):
                    pick = e
            if pick >= 0:
                match_r[adj[pick]] = u
                match_l[u] = pick
                size += 1
    return size, seen


@njit(cache=True, nogil=True)
def _bfs(nleft, ptr, adj, match_l, match_r, dist, queue):
    """Layer the row segments from the free ones; return (shortest path length or INF, edges)."""
    qt = 0
    for u in range(nleft):
        if match_l[u] < 0:
            dist[u] = 0
            queue[qt] = u
            qt += 1
        else:
            dist[u] = INF
    limit = INF
    seen = 0
    qh = 0
    while qh < qt:
        u = queue[qh]
        qh += 1
        d = dist[u]
        if d >= limit:  # queue order is by layer: the rest lie beyond the shortest paths
            break
        for e in range(ptr[u], ptr[u + 1]):
            seen += 1
            w = match_r[adj[e]]
            if w < 0:
                if limit == INF:
                    limit = d + 1
            elif dist[w] == INF:
                dist[w] = d + 1
                queue[qt] = w
                qt += 1
    return limit, seen


@njit(cache=True, nogil=True)
def _augment_all(nleft, ptr, adj, match_l, match_r, dist, it, stack, limit):
    """One phase's DFS: vertex-disjoint shortest augmenting paths; return (found, edges)."""
    for u in range(nleft):
        it[u] = ptr[u]
    found = 0
    seen = 0
    for root in range(nleft):
        if match_l[root] >= 0 or dist[root] != 0:
            continue
        # Invariant: stack[0..top] is a layered alternating path from root, dist rising by 1;
        # it[u] is the edge u is trying now; a vertex that fails gets dist INF (dead this phase).
        top = 0
        stack[0] = root
        while top >= 0:
            u = stack[top]
            e = it[u]
            if e == ptr[u + 1]:
                dist[u] = INF
                top -= 1
                if top >= 0:
                    it[stack[top]] += 1
                continue
            seen += 1
            w = match_r[adj[e]]
            if w < 0:
                for k in range(top, -1, -1):  # flip the path: every u takes its edge it[u]
                    uu = stack[k]
                    ee = it[uu]
                    match_r[adj[ee]] = uu
                    match_l[uu] = ee
                found += 1
                break
            if dist[w] == dist[u] + 1 and dist[w] < limit:
                top += 1
                stack[top] = w
            else:
                it[u] = e + 1
    return found, seen


@njit(cache=True, nogil=True)
def hopcroft_karp(nleft, nright, ptr, adj, match_l, match_r, dist, it, queue, stack):
    """Maximum matching of the CSR graph; return (size, edges seen).  ``dist`` ends as Z's marks."""
    for u in range(nleft):
        match_l[u] = -1
    for v in range(nright):
        match_r[v] = -1
    size, nodes = _greedy(nleft, nright, ptr, adj, match_l, match_r, it)
    while True:
        limit, seen = _bfs(nleft, ptr, adj, match_l, match_r, dist, queue)
        nodes += seen
        if limit == INF:
            return size, nodes
        found, seen = _augment_all(nleft, ptr, adj, match_l, match_r, dist, it, stack, limit)
        nodes += seen
        size += found


@njit(cache=True, nogil=True)
def _scratch(most, widest):
    """The scratch of :func:`build_graph` and :func:`hopcroft_karp` for boards of at most
    ``most`` cells and ``widest`` columns: (colcur, ptr, adj, ecell, colfirst, match_l,
    match_r, dist, it, queue, stack), int32."""
    return (
        np.empty(widest, np.int32),
        np.empty(most + 1, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
        np.empty(most, np.int32),
    )


@njit(cache=True, nogil=True)
def match_batch(rows, cols, offsets, cells, out_max, out_nodes, place_offsets, place):
    """Solve every board: maxima, work, and one optimal placement (sorted cell indices)."""
    k = rows.shape[0]
    most = 1
    widest = 1
    for b in range(k):
        most = max(most, rows[b] * cols[b])
        widest = max(widest, cols[b])
    # scratch, allocated once for the whole batch
    colcur, ptr, adj, ecell, colfirst, match_l, match_r, dist, it, queue, stack = _scratch(
        most, widest
    )
    p = 0
    place_offsets[0] = 0
    for b in range(k):
        nleft, nright, _ = build_graph(
            cells, offsets[b], rows[b], cols[b], colcur, ptr, adj, ecell, colfirst
        )
        size, nodes = hopcroft_karp(
            nleft, nright, ptr, adj, match_l, match_r, dist, it, queue, stack
        )
        out_max[b] = size
        out_nodes[b] = nodes
        for u in range(nleft):  # row segments run in row-major order: cells come out sorted
            if match_l[u] >= 0:
                place[p] = ecell[match_l[u]]
                p += 1
        place_offsets[b + 1] = p
    return p


@njit(cache=True, nogil=True)
def cover_segments(cells, r, c):
    """König cover of one board: (first cells of covered row segments, of column segments)."""
    colcur, ptr, adj, ecell, colfirst, match_l, match_r, dist, it, queue, stack = _scratch(
        max(r * c, 1), max(c, 1)
    )
    nleft, nright, _ = build_graph(cells, 0, r, c, colcur, ptr, adj, ecell, colfirst)
    hopcroft_karp(nleft, nright, ptr, adj, match_l, match_r, dist, it, queue, stack)
    reached = np.zeros(max(nright, 1), np.bool_)
    nrows = 0
    for u in range(nleft):
        if dist[u] == INF:
            nrows += 1
        else:
            for e in range(ptr[u], ptr[u + 1]):
                reached[adj[e]] = True
    rows_out = np.empty(nrows, np.int32)
    q = 0
    for u in range(nleft):
        if dist[u] == INF:
            rows_out[q] = ecell[ptr[u]]
            q += 1
    ncols = 0
    for v in range(nright):
        if reached[v]:
            ncols += 1
    cols_out = np.empty(ncols, np.int32)
    q = 0
    for v in range(nright):
        if reached[v]:
            cols_out[q] = colfirst[v]
            q += 1
    return rows_out, cols_out
