"""Slant puzzles in the seed's text format (UVa 11694), in and out.

Input: a line with ``T``, the number of cases; then per case a size line and the clue rows.
The seed's size line is ``n`` (an n x n grid of cells) followed by n+1 rows of n+1
characters, one per grid point: a digit ``0``-``4`` (the clue) or ``.`` (no clue).  As an
extension a size line ``rows cols`` (two integers) gives a rows x cols grid, followed by
rows+1 rows of cols+1 characters.  Blank lines and spaces around a line are ignored.

Output (:func:`render`): per case the rows of ``/`` and ``\\``, one line per row of cells,
nothing between cases, exactly as the seed prints them.

The clue rows of a case, joined, are its ``clues`` string in the ``puzzles`` table
(:mod:`solvers.slant.tables`), so reading and writing never look at a point alone.

Simon Tatham's game IDs (his Portable Puzzle Collection's ``slant``): ``WxH:DESC`` with ``W``
columns and ``H`` rows of cells, ``DESC`` the points row-major, a digit per clue and a letter
per run of points without one (``a`` one point ... ``z`` 26; longer runs take several
letters).  :func:`game_id` writes one, :func:`read_game_id` reads one back.
"""

from __future__ import annotations

import re

import pyarrow as pa

from .. import grid_sets, gridtext
from ..contract import FormatError
from .tables import CLUE_CHARS, GRID, PUZZLES

__all__ = ["read", "write", "render", "game_id", "read_game_id"]

_CLUES = set(".01234")


def _count(line: tuple[int, str]) -> int:
    """Parse the case count T."""
    number, s = line
    try:
        t = int(s)
    except ValueError:
        t = -1
    if t < 0:
        raise FormatError(f"expected the number of cases T (an integer >= 0), found '{s}'", number)
    return t


def _size(line: tuple[int, str], case: int) -> tuple[int, int]:
    """Parse a size line ``n`` or ``rows cols``."""
    number, s = line
    values = grid_sets.size_numbers(s)
    if values is None or min(values) < 1:
        hint = ""
        if case > 1 and all(ch in _CLUES for ch in s):
            hint = f" (a clue row: has case {case - 1} too many rows?)"
        raise FormatError(
            f"case {case}: expected the grid size 'n' or 'rows cols' (integers "
            f">= 1), found '{s}'{hint}",
            number,
        )
    rows, cols = grid_sets.shape(values)
    if not grid_sets.fits(rows, cols):
        raise FormatError(
            f"case {case}: {rows} x {cols} cells is too large (at most 2**31 - 1)", number
        )
    return rows, cols


def _looks_like_size(s: str) -> bool:
    """Whether ``s`` reads as a size line (one or two integers)."""
    parts = s.split()
    return len(parts) in (1, 2) and all(p.isdigit() for p in parts)


def _clue_row(line: tuple[int, str], width: int, case: int) -> str:
    """Check one row of ``width`` clue characters."""
    number, s = line
    if len(s) != width:
        raise FormatError(
            f"case {case}: expected a row of {width} characters (one per grid "
            f"point: 0-4 or '.'), found {len(s)} in '{s}'",
            number,
        )
    outside = grid_sets.first_outside(s, CLUE_CHARS)
    if outside is not None:
        col, ch = outside[0] + 1, outside[1]
        what = f"clue {ch} is above 4" if ch.isdigit() else f"unexpected character {ch!r}"
        raise FormatError(
            f"case {case}: {what} at column {col}: expected a digit 0-4 or '.'", number
        )
    return s


def read(text: str) -> pa.Table:
    """Seed-format text as a ``puzzles`` table (ids 0, 1, ... in file order);
    :class:`FormatError` names the line at fault."""
    lines = gridtext.numbered(text.splitlines())
    if not lines:
        raise FormatError("empty input: expected the number of cases T", None)
    total = _count(lines[0])
    at = 1
    sizes: list[tuple[int, int]] = []
    clues: list[str] = []
    for case in range(1, total + 1):
        if at >= len(lines):
            raise FormatError(
                f"expected {total} cases (T = {total}), found {case - 1}", lines[-1][0]
            )
        rows, cols = _size(lines[at], case)
        at += 1
        grid = []
        for k in range(rows + 1):
            if at >= len(lines):
                raise FormatError(
                    f"case {case}: expected {rows + 1} rows of clues, found {k}", lines[-1][0]
                )
            if _looks_like_size(lines[at][1]) and len(lines[at][1]) != cols + 1:
                raise FormatError(
                    f"case {case}: expected {rows + 1} rows of clues, found {k} "
                    f"before '{lines[at][1]}' (the next case's size?)",
                    lines[at][0],
                )
            grid.append(_clue_row(lines[at], cols + 1, case))
            at += 1
        sizes.append((rows, cols))
        clues.append("".join(grid))
    if at < len(lines):
        raise FormatError(
            f"T = {total} but more input follows: expected {total} cases", lines[at][0]
        )
    return GRID.read_table(sizes, clues, PUZZLES.compute_schema())


def write(puzzles: pa.Table) -> str:
    """A ``puzzles`` table in the seed input format (``n`` for square grids, else
    ``rows cols``), ids dropped: reading it back numbers the puzzles 0, 1, ..."""
    return "".join([f"{puzzles.num_rows}\n", *GRID.text_lines(puzzles)])


def render(rows: int, cols: int, solution: str) -> str:
    """The seed's output for one solved case: ``rows`` lines of ``cols`` slashes
    (``solution``: the row-major slash string of the ``slant`` table)."""
    return "".join(solution[i * cols : (i + 1) * cols] + "\n" for i in range(rows))


def game_id(rows: int, cols: int, clues: str) -> str:
    """A puzzle (its ``clues`` string of the ``puzzles`` table) as Tatham's game ID."""
    if len(clues) != (rows + 1) * (cols + 1):
        raise ValueError(f"{len(clues)} clue points for {rows} x {cols} cells")
    if not set(clues) <= _CLUES:
        raise ValueError(f"clues may hold only '.' and the digits 0-4, not {clues!r}")
    out = [f"{cols}x{rows}:"]
    for run, digit in re.findall(r"(\.*)([0-4]?)", clues):
        n = len(run)
        while n > 0:
            step = min(n, 26)
            out.append(chr(ord("a") + step - 1))
            n -= step
        out.append(digit)
    return "".join(out)


def read_game_id(text: str) -> tuple[int, int, str]:
    """``(rows, cols, clues)`` of Tatham's game ID ``WxH:DESC`` (``W`` alone for a square)."""
    match = re.fullmatch(r"(\d+)(?:x(\d+))?(?:d[eh])?:([a-z0-4]*)", text.strip())
    if match is None:
        raise ValueError(f"not a Slant game ID: {text!r}")
    cols = int(match.group(1))
    rows = int(match.group(2) or cols)
    clues = "".join("." * (ord(ch) - ord("a") + 1) if ch.isalpha() else ch for ch in match.group(3))
    if len(clues) != (rows + 1) * (cols + 1):
        raise ValueError(
            f"game ID {text!r}: {len(clues)} points for {cols}x{rows} cells "
            f"(expected {(rows + 1) * (cols + 1)})"
        )
    return rows, cols, clues
