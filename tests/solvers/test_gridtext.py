"""Grids as Arrow string columns (solvers.gridtext): both ways, chunked, sliced, bad input."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers import gridtext


def test_chunk_ranges():
    offsets = np.array([0, 3, 3, 7, 8, 20, 21])
    assert gridtext.chunk_ranges(offsets) == [(0, 6)]
    assert gridtext.chunk_ranges(offsets, 7) == [(0, 3), (3, 4), (4, 5), (5, 6)]
    assert gridtext.chunk_ranges(np.array([0])) == [(0, 0)]
    for most in range(1, 25):
        ranges = gridtext.chunk_ranges(offsets, most)
        assert ranges[0][0] == 0 and ranges[-1][1] == 6
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
        assert all(hi - lo == 1 or offsets[hi] - offsets[lo] <= most for lo, hi in ranges)


@pytest.mark.parametrize("most", [1, 4, 5, 100])
def test_strings_and_codes_round_trip(most):
    values = np.array([-1, 0, 4, 2, -1, 3, 1, 1, 0], dtype=np.int8)
    offsets = np.array([0, 4, 4, 9])
    column = gridtext.strings(values, offsets, ".01234", -1, most)
    assert column.type == pa.string()
    assert column.to_pylist() == [".042", "", ".3110"]
    back = gridtext.codes(column, ".01234", -1, np.int8)
    assert back.offsets.tolist() == offsets.tolist() and back.bad_row == -1
    assert back.values.dtype == np.int8 and back.values.tolist() == values.tolist()
    lists = gridtext.int32_lists(values, offsets, most)
    assert lists.type == pa.list_(pa.int32())
    assert lists.to_pylist() == [[-1, 0, 4, 2], [], [-1, 3, 1, 1, 0]]


def test_codes_of_slices_large_strings_and_empty():
    array = pa.array(["X..", "zz", "..X.", "X"], pa.large_string())
    got = gridtext.codes(array.slice(2, 2), ".X", 0)
    assert got.offsets.tolist() == [0, 4, 5] and got.values.tolist() == [0, 0, 1, 0, 1]
    empty = gridtext.codes(pa.array([], pa.string()), ".X", 0)
    assert empty.offsets.tolist() == [0] and empty.values.shape == (0,)
    assert gridtext.codes(pa.array(["", ""]), ".X", 0).offsets.tolist() == [0, 0, 0]
    assert gridtext.strings(np.zeros(0, np.uint8), np.array([0]), ".X", 0).to_pylist() == []
    with pytest.raises(ValueError, match="nulls"):
        gridtext.codes(pa.array(["X", None]), ".X", 0)


def test_codes_name_the_first_bad_row_and_character():
    got = gridtext.codes(pa.chunked_array([["..", "X."], ["X", ".Xé.", "?"]]), ".X", 0)
    assert (got.bad_row, got.bad_char) == (3, "é")
    assert gridtext.codes(pa.array(["X", "x"]), ".X", 0)[2:] == (1, "x")


def test_first_bad_grid_order():
    rows, cols = np.array([2, 2, 0, 70000]), np.array([2, 2, 2, 70000])
    lengths = np.array([4, 3, 0, 0])
    assert gridtext.first_bad_grid(rows, cols, lengths, rows * cols, -1) == (1, gridtext.LENGTH)
    assert gridtext.first_bad_grid(rows, cols, lengths, rows * cols, 1) == (1, gridtext.CHAR)
    assert gridtext.first_bad_grid(rows, cols, lengths, rows * cols, 0) == (0, gridtext.CHAR)
    good = np.array([4, 4, 0, 0])
    assert gridtext.first_bad_grid(rows, cols, good, good, -1) == (2, gridtext.SIZE)
    assert gridtext.first_bad_grid(rows[3:], cols[3:], good[3:], good[3:], -1) == (
        0,
        gridtext.LARGE,
    )
    assert gridtext.first_bad_grid(rows[:1], cols[:1], good[:1], good[:1], -1) is None
