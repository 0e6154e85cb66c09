"""Arrays handed to numba by address: for an entry point called once per item from Python.

numba's wrapper unboxes every array argument on every call: it checks the object, reads its
shape and strides, and wraps it in a counted meminfo that it frees on return.  An integer
argument unboxes with one conversion.  :class:`Addresses` holds C-contiguous int64 arrays
alive next to a table of their addresses and shapes; the entry point takes the table's
address and rebuilds each array with :func:`vector` or :func:`matrix`, which count no
reference.  The arrays are only safe while the :class:`Addresses` lives: whoever holds the
call holds it too (:meth:`Addresses.bind`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

__all__ = ["Addresses", "matrix", "vector"]


@intrinsic
def _int64_pointer(typingctx, address):
    """The int64 pointer at integer ``address``."""
    if not isinstance(address, types.Integer):
        return None
    pointer = types.CPointer(types.int64)

    def codegen(context, builder, sig, args):
        return builder.inttoptr(args[0], context.get_value_type(pointer))

    return pointer(address), codegen


@numba.njit(inline="always")
def vector(address, n):
    """The 1-D int64 array of ``n`` entries at ``address`` (borrowed: nothing counted)."""
    return numba.carray(_int64_pointer(address), n)


@numba.njit(inline="always")
def matrix(address, rows, cols):
    """The C-ordered ``rows`` x ``cols`` int64 array at ``address`` (borrowed)."""
    return numba.carray(_int64_pointer(address), (rows, cols))


class Addresses:
    """C-contiguous, writable int64 arrays held alive, and ``table``: for each in turn its
    address, then its shape (one entry for a vector, two for a matrix)."""

    def __init__(self, *arrays: np.ndarray) -> None:
        entries: list[int] = []
        for array in arrays:
            if array.dtype != np.int64 or array.ndim not in (1, 2):
                shape = f"{array.ndim}-D {array.dtype}"
                raise TypeError(f"a borrowed array must be a 1-D or 2-D int64 one, not {shape}")
            if not (array.flags.c_contiguous and array.flags.writeable):
                raise ValueError("a borrowed array must be C-contiguous and writable")
            entries += [array.ctypes.data, *array.shape]
        self.arrays = arrays
        self.table = np.array(entries, dtype=np.int64)

    @property
    def address(self) -> int:
        """The table's address, which the entry point takes."""
        return self.table.ctypes.data

    def bind(self, dispatcher: numba.core.registry.CPUDispatcher) -> Callable[..., object]:
        """``call(*rest)``: the compiled ``dispatcher(table address, *rest)`` for integer
        ``rest``, straight to its machine code (``get_overload``: no typing per call) through
        a partial with no Python frame, which holds these arrays alive."""
        signature = (types.int64,) * dispatcher.py_func.__code__.co_argcount
        dispatcher.compile(signature)  # from the cache, where it is there
        call = functools.partial(dispatcher.get_overload(signature), self.address)
        call.held = self  # the arrays live as long as the call does
        return call
