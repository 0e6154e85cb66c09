"""Don't Get Rooked (UVa 639 / POJ 1315): the most rooks on a walled board, and how many ways.

Rooks attack along rows and columns; a wall cell stops an attack.  A legal placement puts rooks
on open cells so that no two see each other; the question is the largest legal placement, and
(with ``counts``) how many placements reach it and how many legal placements there are at all.

Notation.  A board has ``rows`` x ``cols`` cells, cell ``t = i * cols + j`` (row-major), each
1 (wall, ``X``) or 0 (open, ``.``).  A *segment* is a maximal wall-free run of open cells in a
row or a column; a placement is legal iff every segment holds at most one rook.

Batch encoding (an instance problem's columns; variable-size cells in Arrow's list layout):

============= ============== ===========================================================
``board_id``  int64[k]       caller's identifier, echoed in error messages
``rows``      int32[k]       rows of each board (>= 1)
``cols``      int32[k]       columns of each board (>= 1)
``offsets``   int64[k+1]     board b's cells are ``cells[offsets[b]:offsets[b + 1]]``
``cells``     uint8[sum]     row-major, 1 = wall, 0 = open
============= ============== ===========================================================

Result columns of :func:`solve_batch` (one entry per board, in batch order):

===================== ================ ================================================
``max_rooks``         int32[k]         the maximum
``placement_offsets`` int64[k+1]       board b's rooks are ``placement[po[b]:po[b + 1]]``
``placement``         int32[...]       one maximum placement: sorted row-major cell indices
``walls``             int32[k]         wall cells
``nodes``             int64[k]         work: matching edge inspections (+ counting expansions)
``max_placements``    uint64 / object  with ``counts``: placements holding ``max_rooks`` rooks
``placements``        uint64 / object  with ``counts``: all legal placements, empty one included
===================== ================ ================================================

The count columns are uint64 when every value of the batch fits, else an object array of
Python ints (a board of 64 isolated open cells has exactly 2**64 placements).

Methods: the maximum is a maximum bipartite matching between row and column segments
(Hopcroft-Karp, :mod:`solvers.max_rooks_match`); the counts come from a frontier dynamic
program (:mod:`solvers.max_rooks_count`) whose own maximum must agree with the matching.
:func:`max_rooks_dfs` is the seeds' exhaustive backtracking, kept as the cross-check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
from numba import njit

from .interface import ParamError, check_keys
from .max_rooks_count import LAYER_WORDS, MAX_SLOTS, count_batch, limbs_to_int
from .max_rooks_match import cover_segments, match_batch

__all__ = [
    "KIND", "VERSION", "DfsResult", "make_batch", "board_at", "check_batch", "generate",
    "solve_batch", "max_rooks_dfs", "konig_cover",
]

KIND = "instances"
VERSION = "1"

_U64 = 2**64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


class DfsResult(NamedTuple):
    """What the exhaustive search finds on one board."""

    max_rooks: int
    max_placements: int
    placements: int
    nodes: int


def _as_board(board: np.ndarray | Sequence) -> np.ndarray:
    """A 2-D uint8 array of 0/1 (1 = wall), or ParamError."""
    arr = np.asarray(board)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ParamError(f"a board must be a non-empty 2-D array, got shape {arr.shape}")
    if not ((arr == 0) | (arr == 1)).all():
        raise ParamError("board cells must be 0 (open) or 1 (wall)")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def make_batch(boards: Sequence, board_ids: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """Pack 2-D boards (1 = wall) into the batch encoding; ids default to 0..k-1."""
    arrays = [_as_board(b) for b in boards]
    k = len(arrays)
    ids = np.arange(k, dtype=np.int64) if board_ids is None else np.asarray(board_ids, np.int64)
    if ids.shape != (k,):
        raise ParamError(f"expected {k} board ids, got {ids.shape[0] if ids.ndim else 0}")
    rows = np.array([a.shape[0] for a in arrays], dtype=np.int32)
    cols = np.array([a.shape[1] for a in arrays], dtype=np.int32)
    offsets = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(rows.astype(np.int64) * cols, out=offsets[1:])
    cells = np.concatenate([a.ravel() for a in arrays]) if k else np.zeros(0, np.uint8)
    return {"board_id": ids, "rows": rows, "cols": cols, "offsets": offsets, "cells": cells}


def board_at(batch: Mapping[str, np.ndarray], b: int) -> np.ndarray:
    """Board ``b`` of a batch as a 2-D view (rows x cols, 1 = wall)."""
    lo, hi = int(batch["offsets"][b]), int(batch["offsets"][b + 1])
    return batch["cells"][lo:hi].reshape(int(batch["rows"][b]), int(batch["cols"][b]))


def check_batch(batch: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Validate a batch and return it with canonical dtypes; ParamError names what is wrong."""
    dtypes = {"board_id": np.int64, "rows": np.int32, "cols": np.int32, "offsets": np.int64,
              "cells": np.uint8}
    out = {}
    for key, dtype in dtypes.items():
        if key not in batch:
            raise ParamError(f"board batch lacks column '{key}'")
        arr = np.asarray(batch[key])
        integral = np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_
        if arr.ndim != 1 or (arr.size and not integral):
            raise ParamError(f"board batch column '{key}' must be a 1-D integer array")
        info = np.iinfo(dtype)
        if arr.size and (int(arr.min()) < info.min or int(arr.max()) > info.max):
            raise ParamError(f"board batch column '{key}' holds values outside {info.dtype}")
        out[key] = np.ascontiguousarray(arr, dtype=dtype)
    k = out["board_id"].shape[0]
    if out["rows"].shape[0] != k or out["cols"].shape[0] != k or out["offsets"].shape[0] != k + 1:
        raise ParamError(f"board batch columns disagree on the number of boards ({k})")
    rows, cols = out["rows"].astype(np.int64), out["cols"].astype(np.int64)
    if k and (rows.min() < 1 or cols.min() < 1):
        b = int(np.flatnonzero((rows < 1) | (cols < 1))[0])
        raise ParamError(f"board {out['board_id'][b]}: rows and cols must be >= 1")
    if k and (rows * cols).max() >= 2**31:
        raise ParamError("a board may have at most 2**31 - 1 cells")
    sizes = np.diff(out["offsets"])
    if k and out["offsets"][0] != 0:
        raise ParamError("board batch offsets must start at 0")
    if not np.array_equal(sizes, rows * cols):
        b = int(np.flatnonzero(sizes != rows * cols)[0])
        raise ParamError(f"board {out['board_id'][b]}: {int(sizes[b])} cells for "
                         f"{rows[b]} x {cols[b]}")
    if out["cells"].shape[0] != out["offsets"][-1]:
        raise ParamError(f"board batch has {out['cells'].shape[0]} cells, offsets say "
                         f"{out['offsets'][-1]}")
    if out["cells"].size and out["cells"].max() > 1:
        raise ParamError("board cells must be 0 (open) or 1 (wall)")
    return out


# ----------------------------------------------------------------------------- generation


@njit(cache=True, nogil=True)
def _mix(z):
    """The splitmix64 finaliser: a bijection of uint64 that scatters nearby inputs."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def _fill_random(cells, n, count, seed, start, threshold):
    """Cell t of board start+b is a wall iff the top 53 bits of hash(seed, board, t) < threshold."""
    key = _mix(seed + _GOLDEN)
    size = n * n
    for b in range(count):
        board_key = _mix(key ^ _mix(np.uint64(start + b) + _GOLDEN))
        for t in range(size):
            h = _mix(board_key + np.uint64(t + 1) * _GOLDEN)
            cells[b * size + t] = 1 if (h >> np.uint64(11)) < threshold else 0


def _int_param(name: str, value: object, lo: int, hi: int | None = None) -> int:
    """An int parameter within [lo, hi], or ParamError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParamError(f"'{name}' must be an integer, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        bound = f"{lo} <= {name}" + (f" <= {hi}" if hi is not None else "")
        raise ParamError(f"'{name}' = {value} is out of range: expected {bound}")
    return int(value)


def generate(
    n: int, density: float, count: int, seed: int, start: int = 0
) -> dict[str, np.ndarray]:
    """Random n x n boards ``start..start+count-1``: each cell a wall with probability density.

    Board b depends only on (seed, b): any split of an index range gives the same boards."""
    n = _int_param("n", n, 1, 46340)  # n * n cells must index as int32
    count = _int_param("count", count, 0)
    seed = _int_param("seed", seed, 0, _U64 - 1)
    start = _int_param("start", start, 0, 2**62)
    if isinstance(density, bool) or not isinstance(density, (int, float, np.floating, np.integer)):
        raise ParamError(f"'density' must be a number, not {density!r}")
    if not 0.0 <= float(density) <= 1.0:  # also rejects NaN
        raise ParamError(f"'density' = {density} is out of range: expected 0 <= density <= 1")
    threshold = np.uint64(math.floor(float(density) * 2.0**53))
    cells = np.empty(count * n * n, dtype=np.uint8)
    _fill_random(cells, n, count, np.uint64(seed), start, threshold)
    return {
        "board_id": np.arange(start, start + count, dtype=np.int64),
        "rows": np.full(count, n, dtype=np.int32),
        "cols": np.full(count, n, dtype=np.int32),
        "offsets": np.arange(count + 1, dtype=np.int64) * (n * n),
        "cells": cells,
    }


# ----------------------------------------------------------------------------- solving


def _count_column(limbs: np.ndarray) -> np.ndarray:
    """Exact counts from [k, L] limbs: uint64 when every value fits, else Python ints."""
    if (limbs[:, 1:] == 0).all():
        return limbs[:, 0].copy()
    values = [limbs_to_int(row) for row in limbs]
    if all(v < _U64 for v in values):
        return np.array(values, dtype=np.uint64)
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _solve_counts(b: dict[str, np.ndarray], walls: np.ndarray, result: dict, words: int) -> None:
    """Add ``max_placements`` and ``placements`` to ``result``; check the two maxima agree."""
    k = b["rows"].shape[0]
    nopen = b["rows"].astype(np.int64) * b["cols"] - walls
    nlimbs = (nopen // 64 + 1).astype(np.int64)
    lmax = int(nlimbs.max()) if k else 1
    tot = np.zeros((k, lmax), dtype=np.uint64)
    bc = np.zeros((k, lmax), dtype=np.uint64)
    best = np.zeros(k, dtype=np.int32)
    nodes = np.zeros(k, dtype=np.int64)
    status = np.zeros(k, dtype=np.int8)
    count_batch(b["rows"], b["cols"], b["offsets"], b["cells"], nlimbs, tot, bc, best, nodes,
                status, words)
    for i in np.flatnonzero(status):
        bid = b["board_id"][i]
        if status[i] == 1:
            raise ParamError(f"board {bid}: too wide to count (frontier over {MAX_SLOTS} "
                             "segments in both orientations)")
        if status[i] == 2:
            raise ParamError(f"board {bid}: too wide to count (its frontier states need more "
                             f"than {words} words of memory)")
        raise RuntimeError(f"board {bid}: counting program ended in an inconsistent state")
    bad = np.flatnonzero(best != result["max_rooks"])
    if bad.size:
        raise RuntimeError(f"board {b['board_id'][bad[0]]}: matching and counting disagree on "
                           "the maximum")
    result["max_placements"] = _count_column(bc)
    result["placements"] = _count_column(tot)
    result["nodes"] += nodes


def solve_batch(
    batch: Mapping[str, np.ndarray], counts: bool = False, count_words: int = LAYER_WORDS
) -> dict[str, np.ndarray]:
    """Solve every board: maxima, one optimal placement, walls, work; with counts, the counts.

    ``count_words`` bounds the counting program's memory (64-bit words per layer, two layers
    live); a board over it raises ParamError rather than exhausting the machine."""
    b = check_batch(batch)
    k = b["rows"].shape[0]
    walls = (np.add.reduceat(b["cells"], b["offsets"][:-1], dtype=np.int64) if b["cells"].size
             else np.zeros(k, np.int64))
    max_rooks = np.zeros(k, dtype=np.int32)
    nodes = np.zeros(k, dtype=np.int64)
    place_offsets = np.zeros(k + 1, dtype=np.int64)
    place = np.empty(b["cells"].shape[0], dtype=np.int32)
    used = match_batch(b["rows"], b["cols"], b["offsets"], b["cells"], max_rooks, nodes,
                       place_offsets, place)
    result = {
        "max_rooks": max_rooks,
        "placement_offsets": place_offsets,
        "placement": place[:used].copy(),
        "walls": walls.astype(np.int32),
        "nodes": nodes,
    }
    if counts:
        _solve_counts(b, walls, result, int(count_words))
    return result


@njit(cache=True, nogil=True)
def _free(cells, placed, c, t):
    """Seed rule: open cell t sees no rook to its left or above before a wall (none come later)."""
    if cells[t] != 0:
        return False
    j = t % c
    for s in range(t - 1, t - j - 1, -1):
        if cells[s] != 0:
            break
        if placed[s]:
            return False
    for s in range(t - c, -1, -c):
        if cells[s] != 0:
            break
        if placed[s]:
            return False
    return True


@njit(cache=True, nogil=True)
def _dfs(cells, c):
    """Enumerate every legal placement once (cells chosen in increasing order); histogram."""
    n = cells.shape[0]
    placed = np.zeros(n, np.bool_)
    stack = np.empty(n + 1, np.int64)
    hist = np.zeros(n + 1, np.int64)
    hist[0] = 1  # the empty placement
    nodes = 1
    top = 0
    t = 0
    while True:  # invariant: stack[:top] are the rooks, all before t; cells < t are decided
        while t < n and not _free(cells, placed, c, t):
            t += 1
        if t < n:
            placed[t] = True
            stack[top] = t
            top += 1
            hist[top] += 1
            nodes += 1
            t += 1
        elif top == 0:
            break
        else:
            top -= 1
            t = stack[top]
            placed[t] = False
            t += 1
    return hist, nodes


def max_rooks_dfs(board: np.ndarray | Sequence) -> DfsResult:
    """Exhaustive backtracking as in the seeds (exponential: small boards only), with counts."""
    arr = _as_board(board)
    hist, nodes = _dfs(arr.ravel(), arr.shape[1])
    best = int(np.flatnonzero(hist)[-1])
    return DfsResult(best, int(hist[best]), int(hist.sum()), int(nodes))


def konig_cover(board: np.ndarray | Sequence) -> tuple[np.ndarray, np.ndarray]:
    """Optimality witness: first cells of row segments and of column segments forming a cover.

    Every open cell lies in a listed segment and there are exactly max_rooks of them, so no
    legal placement can hold more rooks (each segment holds at most one)."""
    arr = _as_board(board)
    return cover_segments(arr.ravel(), arr.shape[0], arr.shape[1])


# ----------------------------------------------------------------------------- pipeline seam

INPUT_KEY = "boards"
ID_COLUMN = "board_id"
CELLS_COLUMN = "cells"
CELL_CHARS = ".X"
CELL_BASE = 0
GENERATE_COLUMNS = ("density",)
RESULT_TABLE = "maxima"
_GENERATE_KEYS = {"n", "density", "count", "seed"}


def _as_list(spec: Mapping, key: str) -> list:
    value = spec[key]
    return list(value) if isinstance(value, list) else [value]


def generate_points(spec: Mapping) -> list[dict]:
    """Expand ``{n: [4, 8], density: [0.1, 0.3], count: 1000, seed: 7}`` into generate() calls.

    Every (n, density) pair gets its own index range, so no two boards share random bits."""
    if not isinstance(spec, Mapping):
        raise ParamError("'generate' must be a mapping with n, density, count, seed")
    check_keys(spec, _GENERATE_KEYS, tuple(sorted(_GENERATE_KEYS)))
    count = _int_param("count", spec["count"], 1)
    seed = _int_param("seed", spec["seed"], 0, _U64 - 1)
    points = []
    for n in _as_list(spec, "n"):
        for density in _as_list(spec, "density"):
            kwargs = {"n": n, "density": density, "count": count, "seed": seed,
                      "start": len(points) * count}
            generate(**{**kwargs, "count": 0})  # validates n and density
            points.append(kwargs)
    return points


def check_options(spec: Mapping) -> dict:
    """The job's options for :func:`solve_batch`: only ``counts`` (true or false)."""
    for key in spec:
        if key != "counts":
            raise ParamError(f"unknown key '{key}': expected one of boards, counts")
    counts = spec.get("counts", False)
    if not isinstance(counts, bool):
        raise ParamError(f"'counts' must be true or false, not {counts!r}")
    return {"counts": counts}


def instance_cost(rows: np.ndarray, cols: np.ndarray, options: Mapping) -> np.ndarray:
    """Rough seconds per board: linear matching, and a frontier DP when counting."""
    cells = rows.astype(np.float64) * cols
    cost = 2e-6 + 5e-8 * cells
    if options.get("counts"):
        cost += 3e-5 * np.exp2(np.minimum(rows, cols).astype(np.float64) - 8)
    return cost
# result table columns, in order: (name, kind) with kinds as in solvers/interface.py
RESULT_COLUMNS = (
    ("walls", "int32"),
    ("max_rooks", "int32"),
    ("max_placements", "count"),
    ("placements", "count"),
    ("placement", "list<int32>"),
    ("nodes", "int64"),
)


def warm_up() -> None:
    """Load (or compile) the matching and counting kernels on small boards."""
    solve_batch(generate(4, 0.3, 2, seed=0), counts=True)
