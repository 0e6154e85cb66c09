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
(Hopcroft-Karp, :mod:`solvers.max_rooks.match`); the counts come from a frontier dynamic
program (:mod:`solvers.max_rooks.count`) whose own maximum must agree with the matching.
:func:`max_rooks_dfs` is the seeds' exhaustive backtracking, kept as the cross-check.

The problem (:data:`PROBLEM`, an :class:`solvers.contract.InstanceProblem`): a job's boards
come from a seed-format file (:mod:`.format`), a Parquet ``boards`` set or ``{generate: {n,
rows, density, count, seed}}`` (:mod:`.generate`: one group of ``count`` boards per shape and
density); each board gets a row of ``maxima`` (:mod:`.tables`), and ``counts: true`` adds the
exact placement counts.  ``{all: {rows, cols}}`` stands for every wall pattern of a size: one
row of ``distribution`` per (walls, maximum) with how many patterns have them (:mod:`.exact`,
:mod:`.exhaustive`).  ``keep: summary`` stores histograms per group instead of a row per
board (:mod:`.summary`).  ``report`` is in :mod:`.report`.

This module is long because it is the problem's whole declaration: the set and result tables'
hooks, costs and memory, the options, the generator's groups and the second method (the
searches themselves are in the submodules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pyarrow as pa
from numba import njit

from .. import grid_sets, gridtext
from ..contract import (
    Crosscheck,
    Generator,
    InstanceProblem,
    Point,
    SeedFormat,
    Summary,
)
from ..schema import Field, Flag, Integer, Number, NumberSet, ParamError, Record
from . import format as text_format
from .count import LAYER_WORDS, MAX_SLOTS, count_batch, limbs_to_int
from .exact import DISTRIBUTION, EXHAUSTIVE
from .generate import MAX_SIDE, generate, seconds_per_board
from .match import cover_segments, match_batch
from .report import report
from .summary import SUMMARY, summarize
from .tables import (
    BOARDS,
    COUNT_STATUS,
    GRID,
    MAXIMA,
    batch_to_table,
    result_table,
    table_to_batch,
)

__all__ = [
    "PROBLEM",
    "DfsResult",
    "make_batch",
    "board_at",
    "check_batch",
    "generate",
    "solve_batch",
    "max_rooks_dfs",
    "konig_cover",
    "batch_to_table",
    "table_to_batch",
    "BOARDS",
    "MAXIMA",
    "DISTRIBUTION",
    "SUMMARY",
    "instance_seconds",
    "COUNT_STATUS",
    "count_words",
    "crosscheck",
]

_U64 = 2**64


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
    dtypes = {
        "board_id": np.int64,
        "rows": np.int32,
        "cols": np.int32,
        "offsets": np.int64,
        "cells": np.uint8,
    }
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
        if not out[key].flags.writeable:  # (Arrow's) read-only arrays: the kernels would
            out[key] = out[key].copy()  # compile once more for them, after the warm-up
    k = out["board_id"].shape[0]
    if out["rows"].shape[0] != k or out["cols"].shape[0] != k or out["offsets"].shape[0] != k + 1:
        raise ParamError(f"board batch columns disagree on the number of boards ({k})")
    rows, cols = out["rows"].astype(np.int64), out["cols"].astype(np.int64)
    if k and (rows.min() < 1 or cols.min() < 1):
        b = int(np.flatnonzero((rows < 1) | (cols < 1))[0])
        raise ParamError(f"board {out['board_id'][b]}: rows and cols must be >= 1")
    if k and (rows * cols).max() > gridtext.MOST_CELLS:
        raise ParamError("a board may have at most 2**31 - 1 cells")
    sizes = np.diff(out["offsets"])
    if k and out["offsets"][0] != 0:
        raise ParamError("board batch offsets must start at 0")
    if not np.array_equal(sizes, rows * cols):
        b = int(np.flatnonzero(sizes != rows * cols)[0])
        raise ParamError(
            f"board {out['board_id'][b]}: {int(sizes[b])} cells for {rows[b]} x {cols[b]}"
        )
    if out["cells"].shape[0] != out["offsets"][-1]:
        raise ParamError(
            f"board batch has {out['cells'].shape[0]} cells, offsets say {out['offsets'][-1]}"
        )
    if out["cells"].size and out["cells"].max() > 1:
        raise ParamError("board cells must be 0 (open) or 1 (wall)")
    return out


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


def _with_nulls(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``values`` where ``keep``, None elsewhere (an object array when anything is None)."""
    if keep.all():
        return values
    out = np.empty(len(values), dtype=object)
    out[:] = [int(v) if k else None for v, k in zip(values, keep, strict=True)]
    return out


def _solve_counts(b: dict[str, np.ndarray], walls: np.ndarray, result: dict, words: int) -> None:
    """Add ``max_placements``, ``placements`` and each board's ``count_status`` to ``result``
    (a board the counting program cannot hold is ``too_wide`` or ``too_large``, with the
    memory it asked for, and its counts null); check the two maxima agree."""
    k = b["rows"].shape[0]
    nopen = b["rows"].astype(np.int64) * b["cols"] - walls
    nlimbs = (nopen // 64 + 1).astype(np.int64)
    lmax = int(nlimbs.max()) if k else 1
    tot = np.zeros((k, lmax), dtype=np.uint64)
    bc = np.zeros((k, lmax), dtype=np.uint64)
    best = np.zeros(k, dtype=np.int32)
    nodes = np.zeros(k, dtype=np.int64)
    status = np.zeros(k, dtype=np.int8)
    need = np.zeros(k, dtype=np.int64)
    count_batch(
        b["rows"],
        b["cols"],
        b["offsets"],
        b["cells"],
        nlimbs,
        tot,
        bc,
        best,
        nodes,
        status,
        need,
        words,
    )
    broken = np.flatnonzero(status > 2)
    if broken.size:
        raise RuntimeError(
            f"board {b['board_id'][broken[0]]}: counting program ended in an inconsistent state"
        )
    counted = status == 0
    bad = np.flatnonzero(counted & (best != result["max_rooks"]))
    if bad.size:
        raise RuntimeError(
            f"board {b['board_id'][bad[0]]}: matching and counting disagree on the maximum"
        )
    result["max_placements"] = _with_nulls(_count_column(bc), counted)
    result["placements"] = _with_nulls(_count_column(tot), counted)
    result["count_status"] = np.array(COUNT_STATUS, dtype=object)[status]
    # two layers live, 8 bytes a word
    result["count_memory"] = _with_nulls(need * 16, status == 2)
    result["nodes"] += nodes


def solve_batch(
    batch: Mapping[str, np.ndarray], counts: bool = False, count_words: int = LAYER_WORDS
) -> dict[str, np.ndarray]:
    """Solve every board: maxima, one optimal placement, walls, work; with counts, the counts.

    ``count_words`` bounds the counting program's memory (64-bit words per layer, two layers
    live); a board over it gets ``count_status`` ``too_large`` (and one whose frontier is
    wider than the program holds ``too_wide``) with null counts, rather than exhausting the
    machine or failing the others."""
    b = check_batch(batch)
    k = b["rows"].shape[0]
    walls = (
        np.add.reduceat(b["cells"], b["offsets"][:-1], dtype=np.int64)
        if b["cells"].size
        else np.zeros(k, np.int64)
    )
    max_rooks = np.zeros(k, dtype=np.int32)
    nodes = np.zeros(k, dtype=np.int64)
    place_offsets = np.zeros(k + 1, dtype=np.int64)
    place = np.empty(b["cells"].shape[0], dtype=np.int32)
    used = match_batch(
        b["rows"], b["cols"], b["offsets"], b["cells"], max_rooks, nodes, place_offsets, place
    )
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


# ----------------------------------------------------------------------------- the problem


def instance_seconds(rows: np.ndarray, cols: np.ndarray, counts: bool) -> np.ndarray:
    """Rough seconds per board on one core: linear matching, and with ``counts`` a frontier
    program doubling with each row of the shorter side (capped there: always finite)."""
    rows = np.asarray(rows, dtype=np.float64)
    cols = np.asarray(cols, dtype=np.float64)
    cost = 2e-6 + 5e-8 * rows * cols
    if counts:
        side = np.minimum(np.minimum(rows, cols), MAX_SLOTS + 1)
        cost = cost + 3e-5 * np.exp2(side - 8.0)
    return cost


BYTES_PER_CELL = 72  # cells as bytes and text, segments, the matching's arrays, one placement
COUNT_MIB = 2 * LAYER_WORDS * 8 >> 20  # default memory for counting one board (two layers)
COUNT_SECONDS_CAP = 60.0  # a board that would count longer stops at its memory cap first


def count_words(options: Mapping) -> int:
    """Words one layer of the counting program may take under the ``count_mib`` option."""
    return int(options.get("count_mib") or COUNT_MIB) * (1 << 20) // 16


def _check_options(options: dict, key: tuple) -> dict:
    """Refuse ``count_mib`` without ``counts``: it caps counting, and would only change the
    job's task keys."""
    if "count_mib" in options and not options["counts"]:
        raise ParamError(
            "applies only with counts: true (--counts), whose memory per board it caps",
            (*key, "count_mib"),
        )
    return options


def _memory(columns: Mapping[str, np.ndarray], options: Mapping) -> np.ndarray:
    """Peak bytes to generate and solve each board (a bound, not a measurement)."""
    cells = np.asarray(columns["rows"], np.float64) * np.asarray(columns["cols"], np.float64)
    counting = count_words(options) * 16 if options["counts"] else 0
    return BYTES_PER_CELL * cells + counting


def _costs(columns: Mapping[str, np.ndarray], options: Mapping) -> np.ndarray:
    """Seconds per board.  With counts, a board the counting program cannot hold stops when it
    reaches its memory cap and gets that as its status, so no estimate is unbounded."""
    rows = np.asarray(columns["rows"], dtype=np.int64)
    cols = np.asarray(columns["cols"], dtype=np.int64)
    cost = instance_seconds(rows, cols, options["counts"])
    if options["counts"]:
        cost = np.minimum(cost, instance_seconds(rows, cols, False) + COUNT_SECONDS_CAP)
    return cost


def _groups(params: Mapping) -> list[Point]:
    """One point of the ``boards`` table per (rows, cols, density), sorted."""
    seed, count = params["seed"], params["count"]
    return [
        Point(
            BOARDS.name,
            {"seed": seed, "rows": r, "cols": c, "density": d},
            count,
            count * seconds_per_board(r, c),
            f"{r}x{c} density {d:g}",
        )
        for r, c in grid_sets.shapes(params)
        for d in params["density"]
    ]


def _generate(point: Point, lo: int, hi: int) -> pa.Table:
    """Boards ``lo..hi-1`` of a generated group, as ``boards`` rows."""
    p = point.params
    batch = generate(p["cols"], p["density"], hi - lo, p["seed"], start=lo, rows=p["rows"])
    return batch_to_table(batch, p["density"])


def _check_set(boards: pa.Table) -> None:
    """ParamError naming the first board with a bad size, bad cells or a density outside
    0..1 (the one a generated board gives; null for others)."""
    GRID.check(boards)
    density = boards.column("density").to_numpy(zero_copy_only=False)  # nulls: NaN
    outside = np.flatnonzero((density < 0.0) | (density > 1.0))
    if outside.size:
        i = int(outside[0])
        try:
            _DENSITY.check(float(density[i]), ("density",))
        except ParamError as exc:
            board = boards.column("board_id").to_numpy()[i]
            raise ParamError(f"board {board}: density {exc.message}") from None


def _solve_rows(boards: pa.Table, options: Mapping) -> pa.Table:
    """The ``maxima`` rows of a slice of a ``boards`` set."""
    result = solve_batch(
        table_to_batch(boards),
        counts=options["counts"],
        count_words=count_words(options),
    )
    return result_table(boards, result)


def _judge_write(tables, params, note):
    """The seeds' output: each board's maximum on a line, in set order."""
    for batch in tables[MAXIMA.name]:
        if batch.num_rows:
            yield text_format.render_maxima(batch.column("max_rooks").to_numpy()).encode()


# the second method of `boardsweep verify` (:func:`crosscheck`): the seeds' search lists every
# legal placement, 13,327 on an open 6 x 6 board, ~1.4 million on 8 x 8
CROSSCHECK_MAX_CELLS = 36
CROSSCHECK_MAX_BOARDS = 100_000  # a summary point recomputed whole holds at most this many


def _legal(board: np.ndarray, cells: Sequence[int] | None, rooks: int) -> bool:
    """Whether ``cells`` (row-major, increasing) is a placement of ``rooks`` rooks on open
    cells of ``board`` with no two in one row or column segment (checked in plain Python)."""
    if cells is None or len(cells) != rooks or list(cells) != sorted(set(cells)):
        return False
    r, c = board.shape
    if any(not 0 <= t < r * c or board[t // c, t % c] for t in cells):
        return False
    for x in cells:
        for y in cells:
            if x < y:
                (i, j), (k, m) = divmod(x, c), divmod(y, c)
                if i == k and not board[i, j:m].any():
                    return False
                if j == m and not board[i:k, j].any():
                    return False
    return True


def _by_dfs(boards: pa.Table, options: Mapping) -> pa.Table | None:
    """The ``maxima`` rows of ``boards`` by the seeds' exhaustive search
    (:func:`max_rooks_dfs`), no placement; None if a board has more than
    :data:`CROSSCHECK_MAX_CELLS` cells."""
    batch = table_to_batch(boards)
    k = batch["rows"].shape[0]
    if k and int((batch["rows"].astype(np.int64) * batch["cols"]).max()) > CROSSCHECK_MAX_CELLS:
        return None
    found = [max_rooks_dfs(board_at(batch, b)) for b in range(k)]
    result = {
        "max_rooks": np.array([f.max_rooks for f in found], np.int32),
        "walls": np.array([int(board_at(batch, b).sum()) for b in range(k)], np.int32),
        "nodes": np.array([f.nodes for f in found], np.int64),
        "placement_offsets": np.zeros(k + 1, np.int64),
        "placement": np.zeros(0, np.int32),
    }
    if options["counts"]:
        for name in ("max_placements", "placements"):
            values = np.empty(k, dtype=object)
            values[:] = [getattr(f, name) for f in found]
            result[name] = values
        result["count_status"] = np.array([COUNT_STATUS[0]] * k, dtype=object)
    return result_table(boards, result)


def crosscheck(point: Point, lo: int, hi: int, published: pa.Table) -> Crosscheck | None:
    """Second method: the seeds' exhaustive search, on generated boards of at most 36 cells.

    Boards ``lo..hi-1`` of a generated point by a second method (the contract's
    ``crosscheck``): the seeds' exhaustive search (:func:`max_rooks_dfs`), on boards of at
    most :data:`CROSSCHECK_MAX_CELLS` cells.  ``maxima``: the maximum, the walls and (with
    counts) both counts of each board; the published placement is echoed where it is legal
    and holds that many rooks, else replaced by ``[-1]``.  ``summary``: a whole point's
    histograms from those maxima.  None for boards read from a file (not at hand), larger
    boards, the exhaustive ``distribution`` table, or a summary point of more boards than
    :data:`CROSSCHECK_MAX_BOARDS`."""
    if "generate" not in point.params or point.table not in (MAXIMA.name, SUMMARY.name):
        return None
    options = point.params["options"]
    if point.table == SUMMARY.name and (
        (lo, hi) != (0, point.units) or hi - lo > CROSSCHECK_MAX_BOARDS
    ):
        return None
    group = Point(BOARDS.name, point.params["generate"], point.units, 0.0, point.label)
    boards = _generate(group, lo, hi)
    rows = _by_dfs(boards, options)
    if rows is None:
        return None
    method = "the seeds' exhaustive search (every legal placement)"
    if point.table == SUMMARY.name:
        return Crosscheck(method, summarize(iter([rows]), options))
    batch = table_to_batch(boards)
    shown = published.column("placement").to_pylist()[: rows.num_rows]
    shown += [None] * (rows.num_rows - len(shown))
    best = rows.column("max_rooks").to_pylist()
    echoed = [
        cells if _legal(board_at(batch, b), cells, best[b]) else [-1]
        for b, cells in enumerate(shown)
    ]
    rows = rows.set_column(
        rows.schema.get_field_index("placement"),
        "placement",
        pa.array(echoed, pa.list_(pa.int32())),
    )
    decided = [c.name for c in MAXIMA.columns if c.name not in ("nodes", "count_memory")]
    return Crosscheck(method + "; placements checked legal", rows.select(decided))


def _warm_generate() -> None:
    """Load (or compile) the generator's kernels on small boards."""
    generate(4, 0.3, 2, seed=0)


def _warm_match() -> None:
    """The matching kernels."""
    solve_batch(generate(4, 0.3, 2, seed=0))


def _warm_count() -> None:
    """The counting kernels."""
    solve_batch(generate(4, 0.3, 2, seed=0), counts=True)


_DENSITY = Number(0.0, 1.0)

PROBLEM = InstanceProblem(
    name="max_rooks",
    doc="the most rooks no two of which attack each other on walled boards (UVa 639 / POJ "
    "1315), with exact placement counts",
    modules=(__name__,),
    instances=GRID.instances("boards", BOARDS, _costs, _memory, _check_set, ("density",)),
    result=MAXIMA,
    solve_rows=_solve_rows,
    options=Record(
        {
            "counts": Field(
                Flag(),
                default=False,
                doc="also count the placements (all of them, and those of max_rooks rooks)",
            ),
            "count_mib": Field(
                Integer(1, 1 << 30),
                doc="memory (MiB) counting one "
                f"board may take (default {COUNT_MIB}); a board that "
                "needs more gets count_status too_large; only with counts",
            ),
        },
        "max_rooks options",
        _check_options,
    ),
    generator=Generator(
        params=Record(
            {
                **grid_sets.side_fields("board", MAX_SIDE),
                "density": Field(
                    NumberSet(_DENSITY.lo, _DENSITY.hi),
                    required=True,
                    doc="wall densities: each cell is a wall with this probability",
                ),
                **grid_sets.count_seed_fields(
                    "board", "(rows, n, density) group", "seed, rows, n, density, index"
                ),
            },
            "a mapping with n, density, count, seed (and rows)",
        ),
        groups=_groups,
        generate=_generate,
    ),
    exhaustive=EXHAUSTIVE,
    summary=Summary(SUMMARY, summarize),
    seed_format=SeedFormat(text_format.read, _judge_write, text_format.write),
    report=report,
    warm=(_warm_generate, _warm_match, _warm_count),
    crosscheck=crosscheck,
)
