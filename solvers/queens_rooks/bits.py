"""Bit helpers of the queens-and-rooks kernels: LLVM bit intrinsics and the row order.

Notation as in :mod:`.kernel`.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.extending import intrinsic

__all__: list[str] = []  # private helpers of the kernels

_U1 = uint64(1)
_LOW32 = uint64(0xFFFFFFFF)


@intrinsic
def _cttz(typingctx, x):
    """Index of the lowest set bit of a uint64 (LLVM ``cttz``; x must be nonzero)."""
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    """Number of leading zero bits of a uint64 (LLVM ``ctlz``; x must be nonzero)."""
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.uint64(types.uint64), codegen


@intrinsic
def _popc(typingctx, x):
    """Number of set bits of a uint64 (LLVM ``ctpop``)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(cache=True, nogil=True)
def _row_order(fixed: np.ndarray) -> np.ndarray:
    """Rows in search order: rows with a forced column (``fixed[r] >= 0``) first, then the rest."""
    n = fixed.shape[0]
    order = np.empty(n, np.int64)
    t = 0
    for r in range(n):
        if fixed[r] >= 0:
            order[t] = r
            t += 1
    for r in range(n):
        if fixed[r] < 0:
            order[t] = r
            t += 1
    return order


@njit(cache=True, nogil=True)
def _row_candidates(fixed: np.ndarray, r: int, full: np.uint64, used: np.uint64) -> np.uint64:
    """Columns row r may take: its forced column or any column, minus the ``used`` ones."""
    if fixed[r] >= 0:
        return (_U1 << uint64(fixed[r])) & ~used
    return full & ~used
