"""The Slant tables: the puzzle set (``puzzles``) and the answers (``slant``), and the
conversions between them and the solver's batches (:mod:`solvers.slant`).

A set's ``clues`` string is the batch's flat ``clues`` array spelt through ``.01234`` (code -1,
no clue, is ``.``); a solution string spells the slashes through ``/\\`` (0 is ``/``).  Each
conversion is one table lookup per point or cell (:mod:`solvers.gridtext`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from .. import gridtext
from ..contract import Column, Table
from ..schema import ParamError

__all__ = [
    "CLUE_CHARS",
    "SLASH_CHARS",
    "STATUS_NAMES",
    "PUZZLES",
    "SLANT",
    "batch_to_table",
    "table_to_batch",
    "result_table",
]

CLUE_CHARS = ".01234"  # code -1 (no clue) is '.', clue d is the digit d
SLASH_CHARS = "/\\"  # slash 0 is '/', 1 is '\'
STATUS_NAMES = ("none", "unique", "multiple")

_ID = Column(
    "puzzle_id",
    pa.int64(),
    "the puzzle's id: its index within its generated group, "
    "or as given (0, 1, ... in seed-file order)",
)
_ROWS = Column("rows", pa.int32(), "rows of cells", "cells")
_COLS = Column("cols", pa.int32(), "columns of cells", "cells")

PUZZLES = Table(
    "puzzles",
    "Slant (Gokigen Naname) puzzles: a clue per grid point or none",
    (
        _ID,
        _ROWS,
        _COLS,
        Column(
            "clues",
            pa.string(),
            "the (rows+1) x (cols+1) grid points, row-major: '.' no "
            "clue, '0'-'4' how many slashes touch the point",
        ),
    ),
)

SLANT = Table(
    "slant",
    "per puzzle: none, a unique or several solutions, one of them, and the work",
    (
        _ID,
        _ROWS,
        _COLS,
        Column("status", pa.string(), "unique, multiple or none (solutions, counted up to 2)"),
        Column(
            "solution",
            pa.string(),
            "a solution's slashes, row-major over the cells: '/' or "
            "'\\' (empty when the status is none; the first found when multiple)",
        ),
        Column(
            "nodes",
            pa.int64(),
            "search nodes: 1 for the root plus one per check or branch "
            "(1: deduction and probing alone)",
            "nodes",
        ),
        Column("seconds", pa.float64(), "wall time the puzzle took to solve", "s"),
    ),
)


def batch_to_table(batch: Mapping[str, np.ndarray]) -> pa.Table:
    """The ``puzzles`` table of a batch."""
    return pa.table(
        {
            "puzzle_id": pa.array(np.asarray(batch["puzzle_id"], dtype=np.int64)),
            "rows": pa.array(np.asarray(batch["rows"], dtype=np.int32)),
            "cols": pa.array(np.asarray(batch["cols"], dtype=np.int32)),
            "clues": gridtext.strings(batch["clues"], batch["offsets"], CLUE_CHARS, -1),
        },
        schema=PUZZLES.compute_schema(),
    )


def _ints(table: pa.Table, name: str, dtype: type) -> np.ndarray:
    column = table.column(name)
    if column.null_count:
        column = column.fill_null(0)
    return np.asarray(column.to_numpy(), dtype=dtype)


def table_to_batch(table: pa.Table) -> dict[str, np.ndarray]:
    """The solver's batch of a ``puzzles`` table (ParamError names a puzzle with a bad clue)."""
    clues = gridtext.codes(table.column("clues"), CLUE_CHARS, -1, np.int8)
    ids = _ints(table, "puzzle_id", np.int64)
    if clues.bad_row >= 0:
        raise ParamError(
            f"puzzle {ids[clues.bad_row]}: clues may hold only '.' and the "
            f"digits 0-4, not {clues.bad_char!r}"
        )
    return {
        "puzzle_id": ids,
        "rows": _ints(table, "rows", np.int32),
        "cols": _ints(table, "cols", np.int32),
        "offsets": clues.offsets,
        "clues": clues.values,
    }


def result_table(puzzles: pa.Table, result: Mapping[str, np.ndarray]) -> pa.Table:
    """The ``slant`` rows of ``puzzles`` from :func:`solvers.slant.solve_batch`'s result
    (with ``seconds`` added)."""
    names = np.array(STATUS_NAMES, dtype=object)
    status = names[np.asarray(result["status"], dtype=np.intp)]
    return pa.table(
        {
            "puzzle_id": puzzles.column("puzzle_id").cast(pa.int64()),
            "rows": puzzles.column("rows").cast(pa.int32()),
            "cols": puzzles.column("cols").cast(pa.int32()),
            "status": pa.array(status, pa.string()),
            "solution": gridtext.strings(
                result["solution"], result["solution_offsets"], SLASH_CHARS, 0
            ),
            "nodes": pa.array(np.asarray(result["nodes"], dtype=np.int64)),
            "seconds": pa.array(np.asarray(result["seconds"], dtype=np.float64)),
        },
        schema=SLANT.compute_schema(),
    )
