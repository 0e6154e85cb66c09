"""The last five inner rows of a constellation's walk, scored at once by table (numba).

Notation as in :mod:`.constellations`.  When the walk reaches inner row ``e = D - 5``, five
columns are left, ``x1 < ... < x5`` (the set ``R``), and five inner rows, at offsets ``0 = o0 <
o1 < ... < o4`` from row ``e`` (border rows may lie between them, so ``o4 <= 6``).  A completion
is a permutation ``p`` of the five columns (inner row ``e + j`` gets column ``x[p[j]]``), one
of the 120 in :data:`PERMUTATIONS`, and so one bit of a two-word mask (bit ``i & 63`` of word
``i >> 6`` for permutation ``i``).  It is a leaf when

* each of its five cells is free: off the diagonals of the queens placed (``ld``, ``rd``,
  shifted to the row) and of the border queens (``fb``); and
* no two of its queens share a diagonal: ``|x[p[i]] - x[p[j]]| != o[j] - o[i]``.

The first condition depends on 25 cell bits: ``pext`` of each row's free columns on ``R`` gives
the row's 5.  Rows 0-1 and rows 2-3 each index a 1024-entry table of the permutations whose
two cells there are free (:func:`cells_table`), and row 4 a 32-entry one.  The second depends
only on the offsets and the four gaps ``x[i + 1] - x[i]``, each capped at 7 (a gap of 7 or more
puts every pair of columns across it further apart than any two rows): a 4096-entry table per
pattern of offsets (:func:`clash_free_table`; 15 patterns, ``o1 < o2 < o3 < o4`` in 1..6).  The
leaves are the set bits of the four tables' words ANDed, twice: no branch, where the walk would
place up to 5 more queens one by one.

``pext`` is the BMI2 instruction where the machine numba compiles for has it, else
:func:`soft_pext`, a loop over the mask's bits that gives the same value.
"""

from __future__ import annotations

import functools
import itertools
import platform
from typing import NamedTuple

import numpy as np
from llvmlite import binding, ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..bitops import ctz, popcount

__all__: list[str] = []  # private to solvers.nqueens

TAIL_ROWS = 5  # the inner rows scored at once
GAP_CAP = 7  # column gaps are capped here: beyond the largest row distance of the tail (6)
MAX_OFFSET = 6  # the last tail row's offset at most (five inner rows, two border rows between)

# the 120 orders of the five columns: PERMUTATIONS[i, j] is the column (0..4) of tail row j
PERMUTATIONS = np.array(list(itertools.permutations(range(TAIL_ROWS))), np.int64)


def _has_bmi2() -> bool:
    """Whether numba compiles for an x86-64 CPU with BMI2 (its ``pext``)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if config.CPU_NAME:  # a chosen target (portable caches): only the features it names
        return "+bmi2" in (config.CPU_FEATURES or "")
    return bool(binding.get_host_cpu_features().get("bmi2", False))


HARDWARE_PEXT = _has_bmi2()


@intrinsic
def _bmi2_pext(typingctx, x, mask):
    """BMI2 ``pext``: the bits of ``x`` at the set bits of ``mask``, packed from bit 0."""

    def codegen(context, builder, signature, args):
        word = ir.IntType(64)
        fnty = ir.FunctionType(word, [word, word])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@njit(cache=True, nogil=True, inline="always")
def soft_pext(x, mask):
    """``pext`` without BMI2: the bits of ``x`` at the set bits of ``mask``, packed from bit 0."""
    out = np.int64(0)
    k = 0
    while mask:
        low = mask & -mask
        out |= np.int64((x & low) != 0) << k
        k += 1
        mask ^= low
    return out


pext = _bmi2_pext if HARDWARE_PEXT else soft_pext


def _two_words(bits: np.ndarray) -> np.ndarray:
    """Boolean [m, 120] -> int64 [m, 2]: permutation i as bit ``i & 63`` of word ``i >> 6``."""
    out = np.zeros((bits.shape[0], 2), np.uint64)
    weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
    for word in range(2):
        part = bits[:, 64 * word : 64 * (word + 1)].astype(np.uint64)
        out[:, word] = (part * weights[: part.shape[1]]).sum(axis=1, dtype=np.uint64)
    return out.view(np.int64)


def cells_table(rows: tuple[int, ...]) -> np.ndarray:
    """int64 [32 ** len(rows), 2]: entry ``c0 | c1 << 5 | ...`` (``cj`` the free columns of tail
    row ``rows[j]``, as bits 0..4) holds the permutations whose cells in those rows are free."""
    index = np.arange(32 ** len(rows), dtype=np.int64)[:, None]
    ok = np.ones((index.shape[0], len(PERMUTATIONS)), bool)
    for j, row in enumerate(rows):
        ok &= ((index >> (5 * j)) >> PERMUTATIONS[None, :, row]) & 1 == 1
    return _two_words(ok)


def clash_free_table(offsets: tuple[int, ...]) -> np.ndarray:
    """int64 [4096, 2]: entry ``sum((g[i] - 1) << 3 * i)`` (``g`` the four column gaps, each
    capped at GAP_CAP) holds the permutations of which no two queens share a diagonal, the
    tail rows at ``offsets`` (five, the first 0)."""
    index = np.arange(4096, dtype=np.int64)
    gaps = (((index[:, None] >> (3 * np.arange(4))) & 7) + 1).astype(np.int8)
    x = np.concatenate([np.zeros((4096, 1), np.int8), np.cumsum(gaps, axis=1, dtype=np.int8)], 1)
    cols = x[:, PERMUTATIONS]  # [4096, 120, 5]: the column of each tail row (at most 32: int8)
    ok = np.ones((4096, len(PERMUTATIONS)), bool)
    for i, j in itertools.combinations(range(TAIL_ROWS), 2):
        ok &= np.abs(cols[:, :, i] - cols[:, :, j]) != offsets[j] - offsets[i]
    return _two_words(ok)


class Tables(NamedTuple):
    """The tail's tables (numba takes them as one argument and reads them by name)."""

    cells01: np.ndarray  # int64 [1024, 2]: tail rows 0 and 1 (cells_table((0, 1)))
    cells23: np.ndarray  # int64 [1024, 2]: tail rows 2 and 3
    cells4: np.ndarray  # int64 [32, 2]: tail row 4
    clash_free: np.ndarray  # int64 [15, 4096, 2]: clash_free_table of each offset pattern
    pattern: np.ndarray  # int64 [8, 8, 8, 8]: the pattern number of offsets o1..o4, -1 for none


@functools.cache
def tables() -> Tables:
    """The tail's tables, made once per process."""
    patterns = list(itertools.combinations(range(1, MAX_OFFSET + 1), TAIL_ROWS - 1))
    number = np.full((MAX_OFFSET + 2,) * (TAIL_ROWS - 1), -1, np.int64)
    clash_free = np.empty((len(patterns), 4096, 2), np.int64)
    for p, offsets in enumerate(patterns):
        number[offsets] = p
        clash_free[p] = clash_free_table((0, *offsets))
    return Tables(cells_table((0, 1)), cells_table((2, 3)), cells_table((4,)), clash_free, number)


@njit(cache=True, nogil=True)
def setup(rows, D, fb, number):
    """The tail of a walk whose inner rows are ``rows[:D]`` (border diagonals ``fb``; ``number``
    is :attr:`Tables.pattern`): (its pattern number, or -1 when the walk has fewer than
    TAIL_ROWS inner rows; the int64 tuple (fb of its five rows, offsets o1..o4))."""
    e = D - TAIL_ROWS
    if e < 0:
        return -1, (0, 0, 0, 0, 0, 0, 0, 0, 0)
    o = rows[e + 1 : e + TAIL_ROWS] - rows[e]
    if o[3] > MAX_OFFSET:  # cannot happen (two border rows at most in between); never guess
        return -1, (0, 0, 0, 0, 0, 0, 0, 0, 0)
    k = (fb[e], fb[e + 1], fb[e + 2], fb[e + 3], fb[e + 4], o[0], o[1], o[2], o[3])
    return number[o[0], o[1], o[2], o[3]], k


@njit(cache=True, nogil=True, inline="always")
def score(ld, cd, rd, full, k, clash_free, cells01, cells23, cells4):
    """The leaves below tail row ``e`` reached with masks (ld, cd, rd): five columns left; ``k``
    the tail's (fb of its rows, offsets) from :func:`setup`, ``clash_free`` its pattern's
    table."""
    left = ~cd & full
    c0 = pext(~(ld | rd | k[0]), left)
    c1 = pext(~((ld << k[5]) | (rd >> k[5]) | k[1]), left)
    c2 = pext(~((ld << k[6]) | (rd >> k[6]) | k[2]), left)
    c3 = pext(~((ld << k[7]) | (rd >> k[7]) | k[3]), left)
    c4 = pext(~((ld << k[8]) | (rd >> k[8]) | k[4]), left)
    x1 = ctz(left)
    rest = left & (left - 1)
    x2 = ctz(rest)
    rest &= rest - 1
    x3 = ctz(rest)
    rest &= rest - 1
    x4 = ctz(rest)
    rest &= rest - 1
    x5 = ctz(rest)
    gaps = min(x2 - x1, GAP_CAP) - 1
    gaps |= (min(x3 - x2, GAP_CAP) - 1) << 3
    gaps |= (min(x4 - x3, GAP_CAP) - 1) << 6
    gaps |= (min(x5 - x4, GAP_CAP) - 1) << 9
    i01 = c0 | (c1 << 5)
    i23 = c2 | (c3 << 5)
    lo = cells01[i01, 0] & cells23[i23, 0] & cells4[c4, 0] & clash_free[gaps, 0]
    hi = cells01[i01, 1] & cells23[i23, 1] & cells4[c4, 1] & clash_free[gaps, 1]
    return popcount(lo) + popcount(hi)
