"""The Don't Get Rooked seed format (UVa 639 / POJ 1315), with rectangular boards.

Input: boards one after another, then a line holding ``0``.  A board is a size line, then its
rows, one per line, each made of ``.`` (open) and ``X`` (wall)::

    4            <- n: an n x n board (the seeds' form)
    .X..
    ....
    XX..
    ....
    2 3          <- extension: "rows cols" for a rectangular board
    .X.
    ...
    0            <- end of input

Blank lines and spaces around a line are ignored; nothing but blank lines may follow the ``0``.
Output (the seeds' judge output): the maximum number of rooks for each board, one per line.

The rows of a board, joined, are its ``cells`` string in the ``boards`` table
(:mod:`solvers.max_rooks.tables`), so reading and writing never look at a cell alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from .. import grid_sets, gridtext
from ..contract import FormatError
from .tables import BOARDS, CELL_CHARS, GRID

__all__ = ["read", "write", "render_maxima", "board_to_text", "placement_to_text"]

_SIZE_HELP = "a size line: 'n' or 'rows cols' (integers >= 1), or '0' to end the input"


def _size(line: str, number: int) -> tuple[int, int] | None:
    """Read a size line: (rows, cols), or None for the terminating 0."""
    values = grid_sets.size_numbers(line)
    if values is None:
        raise FormatError(f"expected {_SIZE_HELP}, got {line!r}", number)
    if values == [0]:
        return None
    if min(values) < 1:
        raise FormatError(f"board size must be >= 1, got {line!r}", number)
    rows, cols = grid_sets.shape(values)
    if not grid_sets.fits(rows, cols):
        raise FormatError(f"board {rows} x {cols} is too large (at most 2**31 - 1 cells)", number)
    return rows, cols


def _check_row(row: str, cols: int, where: str, number: int, hint: str = "") -> None:
    """A row must hold exactly ``cols`` characters, each '.' or 'X'; ``hint`` ends the error."""
    if len(row) != cols:
        raise FormatError(f"{where} has {len(row)} cells, expected {cols}{hint}", number)
    outside = grid_sets.first_outside(row, CELL_CHARS)
    if outside is not None:
        col, ch = outside
        raise FormatError(
            f"{where}, column {col + 1}: expected '.' (open) or 'X' (wall), got {ch!r}{hint}",
            number,
        )


def read(text: str) -> pa.Table:
    """A seed-format board file as a ``boards`` table (ids 0, 1, ... in file order, density
    null); :class:`FormatError` names the line at fault."""
    every = text.splitlines()
    lines = gridtext.numbered(every)
    last = max(len(every), 1)  # where an early end of input is reported
    sizes: list[tuple[int, int]] = []
    cells: list[str] = []
    pos = 0
    while True:
        if pos == len(lines):
            raise FormatError(
                f"unexpected end of input: expected {_SIZE_HELP} (the input must "
                "end with a line '0')",
                last,
            )
        number, line = lines[pos]
        pos += 1
        size = _size(line, number)
        if size is None:
            break
        rows, cols = size
        if pos + rows > len(lines):
            raise FormatError(
                f"unexpected end of input: board {len(sizes) + 1} (size at line "
                f"{number}) needs {rows} rows, found {len(lines) - pos}",
                last,
            )
        body = lines[pos : pos + rows]
        pos += rows
        for i, (row_number, row) in enumerate(body):
            hint = ""
            if row.replace(" ", "").isdigit():  # a size line (or the final 0) read as a row
                hint = (
                    f" ({row!r} looks like a size line: does board {len(sizes) + 1} have "
                    f"only {i} of its {rows} rows?)"
                )
            _check_row(row, cols, f"row {i + 1} of board {len(sizes) + 1}", row_number, hint)
        sizes.append(size)
        cells.append("".join(row for _, row in body))
    if pos < len(lines):
        number, line = lines[pos]
        raise FormatError(f"expected nothing after the terminating '0', got {line!r}", number)
    density = pa.nulls(len(sizes), pa.float64())
    return GRID.read_table(sizes, cells, BOARDS.compute_schema(), density=density)


def write(boards: pa.Table) -> str:
    """A ``boards`` table in the seed input format (``n`` for square boards, else
    ``rows cols``), ids dropped: reading it back numbers the boards 0, 1, ..."""
    return "".join([*GRID.text_lines(boards), "0\n"])


def render_maxima(max_rooks: Sequence[int] | np.ndarray) -> str:
    """The seeds' output: one maximum per board, one per line."""
    return "".join(f"{int(v)}\n" for v in np.asarray(max_rooks).tolist())


def board_to_text(rows: int, cols: int, cells: np.ndarray, marks: str = ".X") -> str:
    """A board as text: ``rows`` lines of ``cols`` characters ('.' open, 'X' wall)."""
    grid = np.asarray(cells, dtype=np.uint8).reshape(rows, cols)
    table = np.frombuffer(marks.encode("ascii"), dtype=np.uint8)
    text = np.full((rows, cols + 1), ord("\n"), dtype=np.uint8)
    text[:, :cols] = table[grid]
    return text.tobytes().decode("ascii")


def placement_to_text(rows: int, cols: int, cells: np.ndarray, placement: np.ndarray) -> str:
    """A board as text with an ``R`` on every rook cell (``placement``: row-major indices)."""
    grid = np.asarray(cells, dtype=np.uint8).copy().reshape(-1)
    grid[np.asarray(placement, dtype=np.int64)] = 2
    return board_to_text(rows, cols, grid, ".XR")
