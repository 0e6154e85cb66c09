"""The queens-and-rooks seed format (b510): input lines ``M N`` until the end of input, output
one placement count per line (decimal, newline-terminated), in input order.

``M`` queens and ``N`` rooks go on the (M + N) x (M + N) board; ``0 0`` is the empty board (one
placement).  Blank lines are ignored; anything else must be exactly two non-negative integers.
Bad input raises :class:`solvers.contract.FormatError` with the 1-based line at fault (the
pipeline adds the file name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..contract import FormatError

__all__ = ["parse", "render", "MAX_TOTAL"]

MAX_TOTAL = 32  # the kernel's board limit (solvers.queens_rooks.MAX_TOTAL)

_INTEGER = re.compile(r"[+-]?[0-9]+")
_EXPECTED = "expected a line 'M N': two non-negative integers (queens, rooks)"


def parse(text: str) -> list[tuple[int, int]]:
    """Read every ``M N`` line of the seed's input; :class:`FormatError` names the bad line."""
    pairs: list[tuple[int, int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2 or not all(_INTEGER.fullmatch(f) for f in fields):
            raise FormatError(f"{_EXPECTED}, not {line.strip()!r}", number)
        digits = max(len(f.lstrip("+-").lstrip("0")) for f in fields)
        if digits > 9:  # before int(): Python refuses to read over 4300 digits
            raise FormatError(
                f"a number of {digits} digits is too large: expected M + N <= {MAX_TOTAL}", number
            )
        m, n = int(fields[0]), int(fields[1])
        if m < 0 or n < 0:
            raise FormatError(f"{_EXPECTED}, not M = {m}, N = {n}", number)
        if m + n > MAX_TOTAL:
            raise FormatError(
                f"M + N = {m + n} is too large: expected M + N <= {MAX_TOTAL}", number
            )
        pairs.append((m, n))
    return pairs


def render(counts: Iterable[int]) -> str:
    """The seed's output: each count on its own line, every line newline-terminated."""
    return "".join(f"{int(c)}\n" for c in counts)
