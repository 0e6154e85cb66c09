"""The walled-board tables: the board set (``boards``) and the answers (``maxima``), and the
conversions between them and the kernels' batches (:mod:`solvers.max_rooks`).

A set's ``cells`` string is the batch's flat ``cells`` array spelt through ``.X`` (0 open,
1 wall), so a conversion is one table lookup per cell (:mod:`solvers.gridtext`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from .. import gridtext
from ..contract import COUNT_TYPE, Column, Table, count_arrays, count_columns
from ..grid_sets import GridSet

__all__ = [
    "CELL_CHARS",
    "GRID",
    "COUNT_STATUS",
    "BOARDS",
    "MAXIMA",
    "shape_keys",
    "batch_to_table",
    "table_to_batch",
    "result_table",
]

CELL_CHARS = ".X"  # cell code 0 (open) is '.', 1 (wall) is 'X'
COUNT_STATUS = ("counted", "too_wide", "too_large")  # per board, with counts: codes 0, 1, 2

# the boards to the grid-set kit, which converts and checks them
GRID = GridSet(
    noun="board",
    grid_name="cells",
    chars=CELL_CHARS,
    alphabet="'.' (open) and 'X' (wall)",
    size_rule="rows and cols must be >= 1",
    length_rule="{n} cells for {r} x {c}",
)

_ID, _ROWS, _COLS = GRID.key_columns("rows of the board", "columns of the board")


def shape_keys(boards: str) -> tuple[Column, Column]:
    """The ``rows`` and ``cols`` key columns of a table keyed by board size (``boards``: whose
    size, in the docs)."""
    return (
        Column("rows", pa.int32(), f"rows of {boards}", "cells", "key"),
        Column("cols", pa.int32(), f"columns of {boards}", "cells", "key"),
    )


_DENSITY = Column(
    "density",
    pa.float64(),
    "wall probability the board was generated with (null for boards not generated)",
    "",
    nullable=True,
)

BOARDS = Table(
    "boards",
    "walled boards: rooks attack along rows and columns, walls stop them",
    (
        _ID,
        _ROWS,
        _COLS,
        _DENSITY,
        Column("cells", pa.string(), "the cells, row-major: '.' open, 'X' wall"),
    ),
)

MAXIMA = Table(
    "maxima",
    "per board: the most rooks no two of which attack each other, one such "
    "placement, and with counts how many placements there are",
    (
        _ID,
        _ROWS,
        _COLS,
        _DENSITY,
        Column("walls", pa.int32(), "wall cells", "cells"),
        Column("max_rooks", pa.int32(), "the most rooks that can stand unattacked", "rooks"),
        *count_columns(
            "max_placements",
            "placements holding max_rooks rooks (null both without counts)",
            "placements",
        ),
        *count_columns(
            "placements",
            "legal placements, the empty one included (null both without counts)",
            "placements",
        ),
        Column(
            "count_status",
            pa.string(),
            "with counts: counted, too_wide (a frontier wider "
            "than the counting program holds) or too_large (over count_mib); null without "
            "counts",
            "",
            nullable=True,
        ),
        Column(
            "count_memory",
            pa.int64(),
            "too_large: the memory counting asked for when it "
            "stopped (at least what the board needs); null otherwise",
            "bytes",
            nullable=True,
        ),
        Column(
            "placement",
            pa.list_(pa.int32()),
            "one maximum placement: the row-major cell indices of its rooks, increasing",
            "cells",
        ),
        Column(
            "nodes",
            pa.int64(),
            "work: matching edge inspections, plus frontier expansions with counts",
            "nodes",
        ),
    ),
)


def batch_to_table(batch: Mapping[str, np.ndarray], density: float | None = None) -> pa.Table:
    """The ``boards`` table of a batch; ``density`` fills the density column (None: null)."""
    k = len(batch["rows"])
    density_column = (
        pa.nulls(k, pa.float64())
        if density is None
        else pa.array(np.full(k, density, dtype=np.float64))
    )
    return GRID.from_batch(batch, BOARDS.compute_schema(), density=density_column)


def table_to_batch(table: pa.Table) -> dict[str, np.ndarray]:
    """The kernels' batch of a ``boards`` table (ParamError names a board with a bad cell)."""
    return GRID.to_batch(table)


def _counts(values: np.ndarray | None, k: int) -> tuple[pa.Array, pa.Array]:
    """The two arrays of an exact count column: uint64 cast by Arrow, Python ints otherwise."""
    if values is None:
        return pa.nulls(k, COUNT_TYPE), pa.nulls(k, pa.string())
    if values.dtype == np.uint64:
        exact = pa.array(values, pa.uint64())
        return exact.cast(COUNT_TYPE), exact.cast(pa.string())
    return count_arrays(values.tolist())


def _optional(values: np.ndarray | None, k: int, kind: pa.DataType) -> pa.Array:
    """A nullable column: all null when the result has no such values."""
    if values is None:
        return pa.nulls(k, kind)
    return pa.array(list(values), kind)


def result_table(boards: pa.Table, result: Mapping[str, np.ndarray]) -> pa.Table:
    """The ``maxima`` rows of ``boards`` from :func:`solvers.max_rooks.solve_batch`'s result."""
    k = boards.num_rows
    density = (
        boards.column("density").cast(pa.float64())
        if "density" in boards.column_names
        else pa.nulls(k, pa.float64())
    )
    best, best_text = _counts(result.get("max_placements"), k)
    total, total_text = _counts(result.get("placements"), k)
    return pa.table(
        {
            **GRID.echo(boards),
            "density": density,
            "walls": pa.array(np.asarray(result["walls"], dtype=np.int32)),
            "max_rooks": pa.array(np.asarray(result["max_rooks"], dtype=np.int32)),
            "max_placements": best,
            "max_placements_text": best_text,
            "placements": total,
            "placements_text": total_text,
            "count_status": _optional(result.get("count_status"), k, pa.string()),
            "count_memory": _optional(result.get("count_memory"), k, pa.int64()),
            "placement": gridtext.int32_lists(result["placement"], result["placement_offsets"]),
            "nodes": pa.array(np.asarray(result["nodes"], dtype=np.int64)),
        },
        schema=MAXIMA.compute_schema(),
    )
