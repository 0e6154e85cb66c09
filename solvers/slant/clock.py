"""A clock that numba code can read: the CPU's time-stamp counter, and its rate in seconds.

The batch solver times each puzzle inside its one numba call (:func:`solvers.slant.kernel.
solve_range`), so that timing a puzzle does not cost a call from Python (more than a whole
small puzzle takes: ``benchmarks/slant_tatham.py``'s *per call* column, on the speed page,
docs/speed.md).  numba cannot call ``time.perf_counter``; it can read the
counter (LLVM's ``readcyclecounter``, ``rdtsc`` on x86), which on current CPUs ticks at a
constant rate whatever the core's clock speed.  :func:`tick_rate` measures that rate against
``time.perf_counter`` twice and returns ``None`` when the counter is missing (reads 0, as
LLVM gives on machines without one) or when the two measurements disagree (a counter that
varies with the clock speed); callers then time from Python instead.
"""

from __future__ import annotations

import functools
import time

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["ticks", "tick_rate"]

CALIBRATE_SECONDS = 0.01  # each of the two windows tick_rate measures
AGREE = 0.01  # the two rates may differ by this share


@intrinsic
def _read_counter(typingctx):
    """The time-stamp counter (LLVM ``readcyclecounter``)."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return types.int64(), codegen


@njit(cache=True, nogil=True)
def ticks():
    """The time-stamp counter now, in ticks (callable from numba code and from Python)."""
    return _read_counter()


def _window() -> float:
    """Ticks per second over one busy window of CALIBRATE_SECONDS."""
    start, first = time.perf_counter(), ticks()
    while time.perf_counter() - start < CALIBRATE_SECONDS:
        pass
    return (ticks() - first) / (time.perf_counter() - start)


@functools.cache
def tick_rate() -> float | None:
    """Ticks per second of :func:`ticks`, or None where they cannot be trusted as a clock."""
    ticks()  # load or compile it before timing anything
    one, two = _window(), _window()
    if one <= 0 or two <= 0 or abs(one - two) > AGREE * max(one, two):
        return None
    return (one + two) / 2
