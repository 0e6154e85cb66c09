"""Slant puzzles in the seed's text format (UVa 11694), in and out.

Input: a line with ``T``, the number of cases; then per case a size line and the clue rows.
The seed's size line is ``n`` (an n x n grid of cells) followed by n+1 rows of n+1
characters, one per grid point: a digit ``0``-``4`` (the clue) or ``.`` (no clue).  As an
extension a size line ``rows cols`` (two integers) gives a rows x cols grid, followed by
rows+1 rows of cols+1 characters.  Blank lines and spaces around a line are ignored.

Output (:func:`render`): per case the rows of ``/`` and ``\\``, one line per row of cells,
nothing between cases, exactly as the seed prints them.
"""

from __future__ import annotations

import numpy as np

from pipeline.errors import InputError
from solvers.slant import pack

__all__ = ["parse", "render"]

_CLUE_CHARS = {".": -1, "0": 0, "1": 1, "2": 2, "3": 3, "4": 4}


def _lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of ``text``, stripped, with their 1-based line numbers."""
    return [(k, s.strip()) for k, s in enumerate(text.splitlines(), 1) if s.strip()]


def _count(line: tuple[int, str], path: str | None) -> int:
    """Parse the case count T."""
    number, s = line
    try:
        t = int(s)
    except ValueError:
        t = -1
    if t < 0:
        raise InputError(
            f"expected the number of cases T (an integer >= 0), found '{s}'", path, number
        )
    return t


def _size(line: tuple[int, str], case: int, path: str | None) -> tuple[int, int]:
    """Parse a size line ``n`` or ``rows cols``."""
    number, s = line
    parts = s.split()
    try:
        values = [int(v) for v in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2) or min(values) < 1:
        hint = ""
        if case > 1 and all(ch in _CLUE_CHARS for ch in s):
            hint = f" (a clue row: has case {case - 1} too many rows?)"
        raise InputError(
            f"case {case}: expected the grid size 'n' or 'rows cols' (integers >= 1), "
            f"found '{s}'{hint}",
            path,
            number,
        )
    return (values[0], values[0]) if len(values) == 1 else (values[0], values[1])


def _looks_like_size(s: str) -> bool:
    """Whether ``s`` reads as a size line (one or two integers)."""
    parts = s.split()
    return len(parts) in (1, 2) and all(p.isdigit() for p in parts)


def _clue_row(line: tuple[int, str], width: int, case: int, path: str | None) -> list[int]:
    """Parse one row of ``width`` clue characters."""
    number, s = line
    if len(s) != width:
        raise InputError(
            f"case {case}: expected a row of {width} characters (one per grid point: 0-4 or "
            f"'.'), found {len(s)} in '{s}'",
            path,
            number,
        )
    out = []
    for col, ch in enumerate(s, 1):
        if ch not in _CLUE_CHARS:
            what = f"clue {ch} is above 4" if ch.isdigit() else f"unexpected character {ch!r}"
            raise InputError(
                f"case {case}: {what} at column {col}: expected a digit 0-4 or '.'",
                path,
                number,
            )
        out.append(_CLUE_CHARS[ch])
    return out


def parse(text: str, path: str | None = None) -> dict[str, np.ndarray]:
    """Parse seed-format text into a puzzle batch (:mod:`solvers.slant`); ids count from 0.

    Raises :class:`InputError` naming ``path`` and the line at fault.
    """
    lines = _lines(text)
    if not lines:
        raise InputError("empty input: expected the number of cases T", path, None)
    total = _count(lines[0], path)
    at = 1
    grids = []
    for case in range(1, total + 1):
        if at >= len(lines):
            last = lines[-1][0]
            raise InputError(
                f"expected {total} cases (T = {total}), found {case - 1}", path, last
            )
        rows, cols = _size(lines[at], case, path)
        at += 1
        grid = []
        for k in range(rows + 1):
            if at >= len(lines):
                raise InputError(
                    f"case {case}: expected {rows + 1} rows of clues, found {k}",
                    path,
                    lines[-1][0],
                )
            if _looks_like_size(lines[at][1]) and len(lines[at][1]) != cols + 1:
                raise InputError(
                    f"case {case}: expected {rows + 1} rows of clues, found {k} before "
                    f"'{lines[at][1]}' (the next case's size?)",
                    path,
                    lines[at][0],
                )
            grid.append(_clue_row(lines[at], cols + 1, case, path))
            at += 1
        grids.append(np.array(grid, dtype=np.int8))
    if at < len(lines):
        raise InputError(
            f"T = {total} but more input follows: expected {total} cases", path, lines[at][0]
        )
    return pack(grids)


def render(rows: int, cols: int, solution: np.ndarray) -> str:
    """The seed's output for one solved case: ``rows`` lines of ``cols`` slashes."""
    cells = np.asarray(solution).reshape(rows, cols)
    return "".join("".join("\\" if v else "/" for v in row) + "\n" for row in cells)
