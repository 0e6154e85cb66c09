"""The N-queens seed format (AcWing 843): input one integer n; output every solution as n rows
of ``.`` and ``Q`` followed by a blank line, solutions in lexicographic order.

Bad input raises :class:`solvers.contract.FormatError` with the 1-based line at fault (the
pipeline adds the file name).
"""

from __future__ import annotations

import numpy as np

from ..contract import FormatError
from ..gridtext import numbered

__all__ = ["parse", "render", "MAX_JUDGE_N"]

MAX_JUDGE_N = 32


def parse(text: str) -> int:
    """Read the board size n from the seed's input (one integer; blank lines around it ignored)."""
    lines = numbered(text.splitlines())
    if not lines:
        raise FormatError("expected one integer n (the board size), found no input")
    number, first = lines[0]
    try:
        n = int(first)
    except ValueError:
        raise FormatError(
            f"expected one integer n (the board size), not {first!r}", number
        ) from None
    if len(lines) > 1:
        raise FormatError(f"expected nothing after n, found {lines[1][1]!r}", lines[1][0])
    if not 1 <= n <= MAX_JUDGE_N:
        raise FormatError(f"n = {n} is out of range: expected 1 <= n <= {MAX_JUDGE_N}", number)
    return n


def render(n: int, solutions: np.ndarray) -> bytes:
    """The seed's output for ``solutions`` (int8 [k, n], column of each row's queen)."""
    k = solutions.shape[0]
    board = np.full((k, n + 1, n + 1), ord("."), dtype=np.uint8)
    board[:, :, n] = ord("\n")
    board[:, n, :] = 0  # the blank line: a lone newline, padding removed below
    board[:, n, 0] = ord("\n")
    rows = np.arange(n)
    board[np.arange(k)[:, None], rows[None, :], solutions.astype(np.intp)] = ord("Q")
    flat = board.reshape(-1)
    return flat[flat != 0].tobytes()
