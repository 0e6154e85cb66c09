"""Slant (Gokigen Naname, UVa 11694): a ``/`` or ``\\`` in every cell, clues hold, no loop.

Notation (as in Simon Tatham's ``slant.c``; the engine is :mod:`solvers.slant_kernel`):

- *Cells*: a puzzle has ``rows x cols`` cells; cell ``(r, c)`` is number ``r * cols + c``.
- *Points*: the ``(rows + 1) x (cols + 1)`` cell corners; point ``(y, x)`` is number
  ``y * (cols + 1) + x``.  Cell ``(r, c)`` has corners ``(r, c)``, ``(r, c + 1)``,
  ``(r + 1, c)``, ``(r + 1, c + 1)``.
- *Clue*: ``clue[p]`` in 0..4 is how many slashes touch point ``p``; -1 is no clue.
- *Slash*: ``0`` is ``/`` (joins the cell's top-right and bottom-left corners), ``1`` is ``\\``
  (joins top-left and bottom-right).  A solution gives every cell a slash so that every clue
  holds and the slashes, as edges between points, contain no cycle.

Puzzle batch (columns, one entry per puzzle, variable-size data flat with offsets as in
Arrow's list layout): ``puzzle_id`` int64[k], ``rows`` int32[k] and ``cols`` int32[k] (cells),
``offsets`` int64[k+1], ``clues`` int8[sum (rows+1)*(cols+1)], puzzle j's clues being
``clues[offsets[j]:offsets[j+1]]`` row-major over its points.

Results (:func:`solve_batch`): ``status`` uint8[k] (``STATUS_NAMES[status]``: 0 ``none``,
1 ``unique``, 2 ``multiple``), ``solution_offsets`` int64[k+1] and ``solution`` uint8 flat
(puzzle j's slashes, row-major over its cells; empty when the status is ``none``, the first
solution found when it is ``multiple``), ``nodes`` int64[k] (search nodes: 1 for the root
plus one per check or branch tried; 1 means the puzzle fell to deduction and probing
alone).  The search stops at the second solution.  :func:`to_text` spells a solution out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .interface import ParamError, check_keys
from .slant_generate import generate
from .slant_kernel import CHECK, make_workspace, reset, search

__all__ = [
    "KIND",
    "VERSION",
    "STATUS_NAMES",
    "NONE",
    "UNIQUE",
    "MULTIPLE",
    "solve_batch",
    "pack",
    "to_text",
    "generate",
]

KIND = "instances"
VERSION = "1"
STATUS_NAMES = ("none", "unique", "multiple")
NONE, UNIQUE, MULTIPLE = 0, 1, 2
_TWO = np.int64(2)  # the search stops at the second solution


def pack(
    grids: Sequence[np.ndarray], puzzle_ids: Sequence[int] | None = None
) -> dict[str, np.ndarray]:
    """Build a puzzle batch from 2-D clue grids of shape (rows+1, cols+1), -1 for no clue."""
    arrays = [np.asarray(g, dtype=np.int8) for g in grids]
    for g in arrays:
        if g.ndim != 2 or g.shape[0] < 2 or g.shape[1] < 2:
            raise ValueError(f"a clue grid must be 2-D with at least 2x2 points, not {g.shape}")
    sizes = np.array([g.size for g in arrays], dtype=np.int64)
    offsets = np.zeros(len(arrays) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    ids = np.arange(len(arrays)) if puzzle_ids is None else puzzle_ids
    return {
        "puzzle_id": np.asarray(ids, dtype=np.int64),
        "rows": np.array([g.shape[0] - 1 for g in arrays], dtype=np.int32),
        "cols": np.array([g.shape[1] - 1 for g in arrays], dtype=np.int32),
        "offsets": offsets,
        "clues": np.concatenate([g.ravel() for g in arrays]) if arrays else np.zeros(0, np.int8),
    }


def to_text(solution: np.ndarray) -> str:
    """A solution's slashes as text, row-major: ``/`` for 0 and ``\\`` for 1."""
    return "".join("\\" if v else "/" for v in np.asarray(solution).tolist())


def _checked(batch: Mapping[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The batch's rows, cols, offsets and clues, validated and in the kernel's dtypes."""
    for key in ("rows", "cols", "offsets", "clues"):
        if key not in batch:
            raise ValueError(f"puzzle batch lacks column '{key}'")
    rows = np.ascontiguousarray(batch["rows"], dtype=np.int64)
    cols = np.ascontiguousarray(batch["cols"], dtype=np.int64)
    offsets = np.ascontiguousarray(batch["offsets"], dtype=np.int64)
    clues = np.ascontiguousarray(batch["clues"], dtype=np.int8)
    k = rows.shape[0]
    if cols.shape[0] != k or offsets.shape[0] != k + 1:
        raise ValueError(f"rows, cols and offsets must have k, k and k+1 entries (k = {k})")
    if k and (rows.min() < 1 or cols.min() < 1):
        raise ValueError("every puzzle needs at least one row and one column of cells")
    if offsets[0] != 0 or offsets[-1] != clues.shape[0] or np.any(
        np.diff(offsets) != (rows + 1) * (cols + 1)
    ):
        raise ValueError("offsets must step by (rows+1)*(cols+1) from 0 to len(clues)")
    if clues.size and (clues.min() < -1 or clues.max() > 4):
        raise ValueError("clues must lie in -1..4 (-1 = no clue)")
    return rows, cols, offsets, clues


def check_batch(batch: Mapping[str, np.ndarray]) -> Mapping[str, np.ndarray]:
    """Validate a puzzle set as read from a file; :class:`ParamError` names the first bad puzzle."""
    ids = np.asarray(batch.get("puzzle_id", np.arange(len(batch.get("rows", ())))))
    if all(key in batch for key in ("rows", "cols", "offsets", "clues")):
        rows = np.asarray(batch["rows"], dtype=np.int64)
        cols = np.asarray(batch["cols"], dtype=np.int64)
        sizes = np.diff(np.asarray(batch["offsets"], dtype=np.int64))
        if sizes.shape == rows.shape == cols.shape:
            small = np.flatnonzero((rows < 1) | (cols < 1))
            if small.size:
                b = int(small[0])
                raise ParamError(f"puzzle {ids[b]}: {rows[b]} x {cols[b]} cells: a puzzle needs "
                                 "at least one row and one column")
            wrong = np.flatnonzero(sizes != (rows + 1) * (cols + 1))
            if wrong.size:
                b = int(wrong[0])
                raise ParamError(f"puzzle {ids[b]}: {int(sizes[b])} clue points for "
                                 f"{rows[b]} x {cols[b]} cells (expected "
                                 f"{(rows[b] + 1) * (cols[b] + 1)})")
    try:
        _checked(batch)
    except ValueError as exc:
        raise ParamError(f"not a valid puzzle set: {exc}") from None
    return batch


def solve_batch(
    batch: Mapping[str, np.ndarray], *, check: int = CHECK, **options
) -> dict[str, np.ndarray]:
    """Solve every puzzle of ``batch``: status (none/unique/multiple), a solution, nodes.

    ``check`` tunes the search (the first node budget of a check, see
    :func:`solvers.slant_kernel.search`); the answers never depend on it, only the nodes and
    the time.
    """
    if options:
        raise ParamError(f"unknown option '{next(iter(options))}': slant takes only check")
    if check < 1:
        raise ParamError(f"check must be >= 1, not {check}")
    rows, cols, offsets, clues = _checked(batch)
    k = rows.shape[0]
    most = int(((rows + 1) * (cols + 1)).max()) if k else 1
    ws, st = make_workspace(most)  # one workspace for the whole batch
    sol = np.empty(most, dtype=np.int64)
    first = np.full(most, -1, dtype=np.int64)  # no preferred values: the search guesses
    status = np.zeros(k, dtype=np.uint8)
    nodes = np.zeros(k, dtype=np.int64)
    sizes = np.zeros(k + 1, dtype=np.int64)
    solutions = []
    for j in range(k):
        R, C = int(rows[j]), int(cols[j])
        reset(ws, st, R, C, clues[offsets[j]:offsets[j + 1]])
        found, nodes[j] = search(ws, st, R, C, _TWO, sol, first, True, int(check), 0)
        status[j] = found
        if found:
            sizes[j + 1] = R * C
            solutions.append(sol[:R * C].astype(np.uint8))
    return {
        "status": status,
        "solution_offsets": np.cumsum(sizes),
        "solution": np.concatenate(solutions) if solutions else np.zeros(0, dtype=np.uint8),
        "nodes": nodes,
    }


# ----------------------------------------------------------------------------- pipeline seam

INPUT_KEY = "puzzles"
ID_COLUMN = "puzzle_id"
CELLS_COLUMN = "clues"
CELL_CHARS = ".01234"  # code -1 (no clue) is '.', clue d is the digit d
CELL_BASE = -1
GENERATE_COLUMNS: tuple[str, ...] = ()
RESULT_TABLE = "slant"
TIME_EACH = True  # the report shows solve-time percentiles, so each puzzle is timed
RESULT_COLUMNS = (
    ("status", "enum:" + ",".join(STATUS_NAMES)),
    ("solution", "text:/\\"),
    ("nodes", "int64"),
    ("seconds", "float64"),
)
_GENERATE_KEYS = {"n", "rows", "count", "seed"}


def _int_value(spec: Mapping, key: str, lo: int) -> int:
    value = spec[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParamError(f"'{key}' must be an integer, not {value!r}")
    if value < lo:
        raise ParamError(f"'{key}' = {value} is out of range: expected {key} >= {lo}")
    return int(value)


def generate_points(spec: Mapping) -> list[dict]:
    """Expand ``{n: 10 | [5, 10], count: 100, seed: 7}`` (``rows`` optional) into generate()
    calls with disjoint index ranges."""
    if not isinstance(spec, Mapping):
        raise ParamError("'generate' must be a mapping with n, count, seed")
    check_keys(spec, _GENERATE_KEYS, ("n", "count", "seed"))
    count = _int_value(spec, "count", 1)
    seed = _int_value(spec, "seed", 0)
    sizes = spec["n"] if isinstance(spec["n"], list) else [spec["n"]]
    points = []
    for n in sizes:
        _int_value({"n": n}, "n", 1)
        point = {"n": int(n), "count": count, "seed": seed, "start": len(points) * count}
        if "rows" in spec:
            point["rows"] = _int_value(spec, "rows", 1)
        points.append(point)
    return points


def check_options(spec: Mapping) -> dict:
    """Slant jobs take no options besides their puzzle set."""
    for key in spec:
        raise ParamError(f"unknown key '{key}': expected puzzles")
    return {}


def instance_cost(rows: np.ndarray, cols: np.ndarray, options: Mapping) -> np.ndarray:
    """Rough seconds per puzzle: deduction is about linear in the cells."""
    return 1e-4 + 4e-6 * rows.astype(np.float64) * cols


def warm_up() -> None:
    """Load (or compile) the solver by solving a tiny puzzle."""
    solve_batch(pack([np.array([[1, -1], [-1, 1]], dtype=np.int8)]))
