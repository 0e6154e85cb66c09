"""LLVM's bit intrinsics for the numba kernels: the lowest and highest set bit, and the count.

Each takes one integer and returns the same width: an ``int64`` for a signed argument and a
``uint64`` for an unsigned one, so a kernel on int64 masks (N-queens) and one on uint64 masks
(queens and rooks) compile to the same single instruction without a cast.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["ctz", "clz", "popcount"]


def _width(x):
    """The int64 or uint64 signature for an integer argument type ``x``, else None."""
    if not isinstance(x, types.Integer):
        return None
    kind = types.int64 if x.signed else types.uint64
    return kind(kind)  # numba casts the argument to it at the call


@intrinsic
def ctz(typingctx, x):
    """Trailing zero count of a nonzero integer: the index of its lowest set bit."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return _width(x), codegen


@intrinsic
def clz(typingctx, x):
    """Leading zero count of a nonzero integer (63 minus the index of its highest set bit)."""

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

    return _width(x), codegen


@intrinsic
def popcount(typingctx, x):
    """Set bits of an integer."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return _width(x), codegen
