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
from ..grid_sets import GridSet

__all__ = [
    "CLUE_CHARS",
    "GRID",
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

# the puzzles to the grid-set kit, which converts and checks them
GRID = GridSet(
    noun="puzzle",
    grid_name="clues",
    chars=CLUE_CHARS,
    base=-1,
    dtype=np.int8,
    alphabet="'.' and the digits 0-4",
    pad=1,
    size_rule="a puzzle needs at least one row and one column",
    length_rule="{n} clue points for {r} x {c} cells (expected {e})",
)

_ID, _ROWS, _COLS = GRID.key_columns("rows of cells", "columns of cells")

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
    return GRID.from_batch(batch, PUZZLES.compute_schema())


def table_to_batch(table: pa.Table) -> dict[str, np.ndarray]:
    """The solver's batch of a ``puzzles`` table (ParamError names a puzzle with a bad clue)."""
    return GRID.to_batch(table)


def result_table(puzzles: pa.Table, result: Mapping[str, np.ndarray]) -> pa.Table:
    """The ``slant`` rows of ``puzzles`` from :func:`solvers.slant.solve_batch`'s result
    (with ``seconds`` added)."""
    names = np.array(STATUS_NAMES, dtype=object)
    status = names[np.asarray(result["status"], dtype=np.intp)]
    return pa.table(
        {
            **GRID.echo(puzzles),
            "status": pa.array(status, pa.string()),
            "solution": gridtext.strings(
                result["solution"], result["solution_offsets"], SLASH_CHARS, 0
            ),
            "nodes": pa.array(np.asarray(result["nodes"], dtype=np.int64)),
            "seconds": pa.array(np.asarray(result["seconds"], dtype=np.float64)),
        },
        schema=SLANT.compute_schema(),
    )
