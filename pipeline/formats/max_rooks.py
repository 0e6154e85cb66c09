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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from solvers.max_rooks import make_batch

from ..errors import InputError

__all__ = ["parse", "render_maxima", "render_boards", "board_to_text", "placement_to_text"]

_SIZE_HELP = "a size line: 'n' or 'rows cols' (integers >= 1), or '0' to end the input"


def _size(line: str, path: str, number: int) -> tuple[int, int] | None:
    """Read a size line: (rows, cols), or None for the terminating 0."""
    parts = line.split()
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2) or len(values) != len(parts):
        raise InputError(f"expected {_SIZE_HELP}, got {line!r}", path, number)
    if values == [0]:
        return None
    if min(values) < 1:
        raise InputError(f"board size must be >= 1, got {line!r}", path, number)
    rows, cols = (values[0], values[0]) if len(values) == 1 else (values[0], values[1])
    if rows * cols >= 2**31:
        raise InputError(f"board {rows} x {cols} is too large (at most 2**31 - 1 cells)", path,
                         number)
    return rows, cols


def _check_row(row: str, cols: int, where: str, path: str, number: int, hint: str = "") -> None:
    """A row must hold exactly ``cols`` characters, each '.' or 'X'; ``hint`` ends the error."""
    if len(row) != cols:
        raise InputError(f"{where} has {len(row)} cells, expected {cols}{hint}", path, number)
    if row.count(".") + row.count("X") != cols:
        col, ch = next((j, ch) for j, ch in enumerate(row) if ch not in ".X")
        raise InputError(f"{where}, column {col + 1}: expected '.' (open) or 'X' (wall), "
                         f"got {ch!r}{hint}", path, number)


def parse(text: str, path: str = "<stdin>") -> dict[str, np.ndarray]:
    """Read a seed-format board file into a board batch (ids 0, 1, ... in file order)."""
    every = text.splitlines()
    lines = [(number, line.strip()) for number, line in enumerate(every, 1) if line.strip()]
    last = max(len(every), 1)  # where an early end of input is reported
    boards: list[np.ndarray] = []
    pos = 0
    while True:
        if pos == len(lines):
            raise InputError(f"unexpected end of input: expected {_SIZE_HELP} (the input must "
                             "end with a line '0')", path, last)
        number, line = lines[pos]
        pos += 1
        size = _size(line, path, number)
        if size is None:
            break
        rows, cols = size
        if pos + rows > len(lines):
            raise InputError(f"unexpected end of input: board {len(boards) + 1} (size at line "
                             f"{number}) needs {rows} rows, found {len(lines) - pos}", path, last)
        body = lines[pos:pos + rows]
        pos += rows
        for i, (row_number, row) in enumerate(body):
            hint = ""
            if row.replace(" ", "").isdigit():  # a size line (or the final 0) read as a row
                hint = (f" ({row!r} looks like a size line: does board {len(boards) + 1} have "
                        f"only {i} of its {rows} rows?)")
            _check_row(row, cols, f"row {i + 1} of board {len(boards) + 1}", path, row_number,
                       hint)
        raw = np.frombuffer("".join(row for _, row in body).encode("ascii"), dtype=np.uint8)
        boards.append((raw == ord("X")).astype(np.uint8).reshape(rows, cols))
    if pos < len(lines):
        number, line = lines[pos]
        raise InputError(f"expected nothing after the terminating '0', got {line!r}", path,
                         number)
    return make_batch(boards)


def render_maxima(max_rooks: Sequence[int] | np.ndarray) -> str:
    """The seeds' output: one maximum per board, one per line."""
    return "".join(f"{int(v)}\n" for v in max_rooks)


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


def render_boards(batch: Mapping[str, np.ndarray]) -> str:
    """A board batch in the seed input format (``n`` for square boards, else ``rows cols``)."""
    out = []
    offsets = batch["offsets"]
    for b, (r, c) in enumerate(zip(batch["rows"].tolist(), batch["cols"].tolist(), strict=True)):
        out.append(f"{r}\n" if r == c else f"{r} {c}\n")
        out.append(board_to_text(r, c, batch["cells"][offsets[b]:offsets[b + 1]]))
    out.append("0\n")
    return "".join(out)
