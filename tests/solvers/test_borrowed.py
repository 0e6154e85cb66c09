"""Arrays handed to numba by address (solvers.borrowed): the table, the checks, and that a
bound call keeps its arrays alive after every other reference is gone."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from numba import njit

from boardsweep.solvers.borrowed import Addresses, matrix, vector


@njit(cache=False)
def _add_row_sums(table, row, scale):
    """Into vector 0, at ``row``: the sum of matrix 1's row ``row`` times ``scale``."""
    at = vector(table, 5)
    out = vector(at[0], at[1])
    grid = matrix(at[2], at[3], at[4])
    total = 0
    for c in range(at[4]):
        total += grid[row, c]
    out[row] += total * scale


def test_the_table_holds_each_address_then_its_shape():
    out = np.zeros(3, dtype=np.int64)
    grid = np.arange(12, dtype=np.int64).reshape(3, 4)
    held = Addresses(out, grid)
    assert held.table.tolist() == [out.ctypes.data, 3, grid.ctypes.data, 3, 4]
    assert held.address == held.table.ctypes.data


def test_a_bound_call_reads_and_writes_the_arrays_and_keeps_them_alive():
    out = np.zeros(3, dtype=np.int64)
    grid = np.arange(12, dtype=np.int64).reshape(3, 4)
    call = Addresses(out, grid).bind(_add_row_sums)
    gone = weakref.ref(out)
    del out, grid
    gc.collect()
    assert gone() is not None  # held by the call
    for row in (2, 0, 2):
        call(row, 10)
    assert call.held.arrays[0].tolist() == [10 * (0 + 1 + 2 + 3), 0, 2 * 10 * (8 + 9 + 10 + 11)]
    del call
    gc.collect()
    assert gone() is None  # and let go with it


@pytest.mark.parametrize(
    "array, error",
    [
        (np.zeros(4, dtype=np.int32), TypeError),
        (np.zeros((2, 2, 2), dtype=np.int64), TypeError),
        (np.zeros((4, 4), dtype=np.int64)[:, ::2], ValueError),
        (np.zeros((4, 4), dtype=np.int64).T, ValueError),
    ],
)
def test_only_c_ordered_int64_vectors_and_matrices_are_taken(array, error):
    with pytest.raises(error):
        Addresses(array)


def test_a_read_only_array_is_refused():
    frozen = np.zeros(4, dtype=np.int64)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        Addresses(frozen)
