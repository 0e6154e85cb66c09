"""Grids of one-character codes as Arrow string columns, both ways, with numpy buffers only.

The instance problems store each instance's grid (a walled board's cells, a Slant puzzle's
clue points) as one string, row-major, one character per cell; their kernels read a flat code
array plus ``offsets`` (Arrow's list layout, ``k + 1`` entries, instance ``j`` being
``codes[offsets[j]:offsets[j + 1]]``).  A string column's buffers *are* that layout, so each
way costs one table lookup per cell and no Python per cell: ``chars[code - base]`` is the
character of ``code``.

``pa.string`` offsets are 32-bit: :func:`strings` cuts a column into chunks whose text stays
under 2**31 bytes (one instance never needs more: a grid has fewer than 2**31 cells).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pyarrow as pa

__all__ = [
    "MOST_BYTES",
    "MOST_CELLS",
    "numbered",
    "chunk_ranges",
    "strings",
    "int32_lists",
    "Codes",
    "codes",
    "first_bad_grid",
    "SIZE",
    "LARGE",
    "LENGTH",
    "CHAR",
]

MOST_BYTES = 2**31 - 1  # the most data one chunk of a 32-bit-offset Arrow array may hold
MOST_CELLS = 2**31 - 1  # the most cells one grid may have (its text fits one such chunk)
_BAD = -128  # lookup value of a character outside the alphabet


def numbered(lines: Sequence[str]) -> list[tuple[int, str]]:
    """The non-blank lines, stripped, with their 1-based line numbers (the seed formats')."""
    return [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]


def chunk_ranges(offsets: np.ndarray, most: int = MOST_BYTES) -> list[tuple[int, int]]:
    """Consecutive row ranges ``(lo, hi)`` covering ``len(offsets) - 1`` rows, each holding
    at most ``most`` values (a row larger than ``most`` gets a range of its own)."""
    k = offsets.shape[0] - 1
    if k <= 0 or offsets[-1] - offsets[0] <= most:
        return [(0, max(k, 0))]
    out, lo = [], 0
    while lo < k:
        hi = int(np.searchsorted(offsets, offsets[lo] + most, "right")) - 1
        hi = min(max(hi, lo + 1), k)
        out.append((lo, hi))
        lo = hi
    return out


def strings(
    values: np.ndarray, offsets: np.ndarray, chars: str, base: int, most: int = MOST_BYTES
) -> pa.ChunkedArray:
    """A string column: row ``j`` spells ``values[offsets[j]:offsets[j + 1]]`` through
    ``chars`` (code ``c`` is ``chars[c - base]``), in chunks of at most ``most`` bytes."""
    offsets = np.asarray(offsets, dtype=np.int64)
    table = np.frombuffer(chars.encode("ascii"), dtype=np.uint8)
    values = np.asarray(values)
    text = table[values if base == 0 else values.astype(np.int16) - base]
    chunks = []
    for lo, hi in chunk_ranges(offsets, most):
        start = offsets[lo]
        local = (offsets[lo : hi + 1] - start).astype(np.int32)
        data = text[start - offsets[0] : offsets[hi] - offsets[0]]
        chunks.append(
            pa.StringArray.from_buffers(
                hi - lo, pa.py_buffer(local), pa.py_buffer(np.ascontiguousarray(data))
            )
        )
    return pa.chunked_array(chunks, pa.string())


def int32_lists(values: np.ndarray, offsets: np.ndarray, most: int = MOST_BYTES) -> pa.ChunkedArray:
    """A ``list<int32>`` column from flat values and ``k + 1`` offsets, in chunks of at most
    ``most`` values."""
    offsets = np.asarray(offsets, dtype=np.int64)
    values = np.asarray(values, dtype=np.int32)
    chunks = []
    for lo, hi in chunk_ranges(offsets, most):
        start = offsets[lo]
        local = pa.array((offsets[lo : hi + 1] - start).astype(np.int32))
        flat = pa.array(values[start - offsets[0] : offsets[hi] - offsets[0]])
        chunks.append(pa.ListArray.from_arrays(local, flat))
    return pa.chunked_array(chunks, pa.list_(pa.int32()))


class Codes(NamedTuple):
    """A string column read as codes: ``offsets`` (int64, from 0), ``values`` (the codes, in
    ``dtype``), and the first row holding a character outside the alphabet (-1 if none) with
    that character."""

    offsets: np.ndarray
    values: np.ndarray
    bad_row: int
    bad_char: str


def codes(
    column: pa.Array | pa.ChunkedArray, chars: str, base: int, dtype: type = np.uint8
) -> Codes:
    """The codes of a string column (no nulls): character ``chars[i]`` is code ``i + base``."""
    text = column.cast(pa.large_string())
    if isinstance(text, pa.ChunkedArray):
        text = text.combine_chunks()
    if text.null_count:
        raise ValueError("a grid column holds nulls")
    k = len(text)
    if k == 0:
        return Codes(np.zeros(1, np.int64), np.zeros(0, dtype), -1, "")
    _, offsets_buf, data_buf = text.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=np.int64)[text.offset : text.offset + k + 1]
    data = (
        np.frombuffer(data_buf, dtype=np.uint8)[offsets[0] : offsets[-1]]
        if data_buf is not None
        else np.zeros(0, np.uint8)
    )
    offsets = offsets - offsets[0]
    lookup = np.full(256, _BAD, dtype=np.int16)
    for i, char in enumerate(chars):
        lookup[ord(char)] = i + base
    values = lookup[data]
    bad = values == _BAD
    if bad.any():
        at = int(np.argmax(bad))
        row = int(np.searchsorted(offsets, at, "right")) - 1
        # the whole character (UTF-8) the bad byte starts or continues
        lo = int(offsets[row])
        start = at
        while start > lo and data[start] & 0xC0 == 0x80:
            start -= 1
        end = at + 1
        while end < offsets[row + 1] and data[end] & 0xC0 == 0x80:
            end += 1
        char = bytes(data[start:end]).decode("utf-8", "replace")
        return Codes(offsets, values.astype(dtype), row, char)
    return Codes(offsets, values.astype(dtype), -1, "")


# reasons a grid row is bad, in the order they are reported for one row
SIZE, LARGE, CHAR, LENGTH = range(4)


def first_bad_grid(
    rows: np.ndarray, cols: np.ndarray, lengths: np.ndarray, expected: np.ndarray, bad_row: int
) -> tuple[int, int] | None:
    """The first bad row of a set and why (:data:`SIZE`: rows or cols < 1; :data:`LARGE`:
    more than :data:`MOST_CELLS` cells; :data:`CHAR`: ``bad_row`` holds a character outside
    the alphabet; :data:`LENGTH`: ``lengths != expected``), or None; a row bad in several ways
    gives the first reason of that order."""
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    small = (rows < 1) | (cols < 1)
    large = ~small & (rows * cols > MOST_CELLS)
    wrong = ~small & ~large & (np.asarray(lengths) != np.asarray(expected))
    found = []
    for reason, mask in ((SIZE, small), (LARGE, large), (LENGTH, wrong)):  # CHAR: bad_row
        index = np.flatnonzero(mask)
        if index.size:
            found.append((int(index[0]), reason))
    if bad_row >= 0:
        found.append((bad_row, CHAR))
    return min(found) if found else None
