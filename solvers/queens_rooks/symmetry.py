"""Symmetry of the queens-and-rooks search: least borders, their orbit weights, and prefixes.

Notation as in :mod:`.kernel`: rows and columns 0..n-1, ``m = n - 1``.

Symmetry.  The eight symmetries of the square (D4) map permutations to permutations and keep
diagonals diagonals, so ``k`` and the typed counts are invariant.  A permutation's *border* is
``(top, bottom, left, right)``: the column of row 0's piece, the column of row m's piece, the row of
column 0's piece, the row of column m's piece; D4 acts on borders.  The search visits only
permutations whose border is the least of its D4 images (lexicographic); each stands for its
border's orbit, ``8 / |stabiliser|`` borders (the *orbit weight*), which counts every permutation
exactly once (a permutation with border b maps onto the least border by exactly |stab(b)| of the
eight symmetries, and the fibres over equal borders are equinumerous).

Prefixes (the split).  A prefix of depth d is the first d *decisions*: decisions 0-3 are
``top, bottom, left, right`` of a least border; decision 4 + i is the column of the i-th *open*
row (rows other than 0, m, left, right, ascending); -1 pads a prefix already complete.  Depth 0
is the one empty prefix.  Weights: 1 below depth 4 (counts then include the orbit weights of
every border below the prefix), the border's orbit weight from depth 4 on.

Everything here is numpy over whole tables of borders or prefixes; the searches are in
:mod:`.kernel`.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ..schema import ParamError

__all__ = [
    "MAX_TOTAL",
    "border_table",
    "border_keys",
    "fixed_from_decisions",
    "extend",
    "items",
    "paths",
]

MAX_TOTAL = 32


def _d4_images(n: int, r: np.ndarray, c: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The eight images of cells (r, c) under the symmetries of the n x n square."""
    m = n - 1
    return [
        (r, c),
        (r, m - c),
        (m - r, c),
        (m - r, m - c),
        (c, r),
        (c, m - r),
        (m - c, r),
        (m - c, m - r),
    ]


@lru_cache(maxsize=8)
def border_table(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Least borders of n (int16 [k, 4]: top, bottom, left, right; sorted) and orbit weights."""
    if not 1 <= n <= MAX_TOTAL:
        raise ParamError(f"n = {n} is out of range: expected 1 <= n <= {MAX_TOTAL}")
    m = n - 1
    grid = np.indices((n, n, n, n)).reshape(4, -1).astype(np.int64)
    top, bottom, left, right = grid
    if n == 1:
        ok = np.ones(top.shape, bool)
    else:  # the four border pieces form a partial permutation (corner pieces shared)
        ok = (
            (top != bottom)
            & (left != right)
            & ((top == 0) == (left == 0))
            & ((top == m) == (right == 0))
            & ((bottom == 0) == (left == m))
            & ((bottom == m) == (right == m))
        )
    top, bottom, left, right = top[ok], bottom[ok], left[ok], right[ok]
    rows = [np.zeros_like(top), np.full_like(top, m), left, right]
    cols = [top, bottom, np.zeros_like(top), np.full_like(top, m)]
    key = ((top * n + bottom) * n + left) * n + right
    least = key.copy()
    stab = np.zeros_like(key)
    for g in range(8):
        image = [_d4_images(n, rows[i], cols[i])[g] for i in range(4)]
        border = []
        for on_row, at in ((True, 0), (True, m), (False, 0), (False, m)):
            value = np.full_like(top, -1)
            for r, c in image:
                value = np.where((r if on_row else c) == at, c if on_row else r, value)
            border.append(value)
        g_key = ((border[0] * n + border[1]) * n + border[2]) * n + border[3]
        least = np.minimum(least, g_key)
        stab += g_key == key
    keep = least == key
    table = np.stack([top, bottom, left, right], axis=1)[keep].astype(np.int16)
    weight = (8 // stab[keep]).astype(np.int64)
    table.flags.writeable = False
    weight.flags.writeable = False
    return table, weight


def border_keys(n: int, table: np.ndarray, width: int) -> np.ndarray:
    """Integer keys of the first ``width`` border entries (sorted when ``table`` is)."""
    key = np.zeros(table.shape[0], np.int64)
    for j in range(width):
        key = key * n + table[:, j]
    return key


def fixed_from_decisions(n: int, choices: np.ndarray) -> np.ndarray:
    """Forced column per row (int16 [k, n], -1 open) of prefixes of depth >= 4."""
    k, depth = choices.shape
    m = n - 1
    fixed = np.full((k, n), -1, np.int16)
    idx = np.arange(k)
    fixed[idx, 0] = choices[:, 0]
    fixed[idx, m] = choices[:, 1]
    fixed[idx, choices[:, 2]] = 0
    fixed[idx, choices[:, 3]] = m
    for j in range(4, depth):
        col = choices[:, j]
        live = col >= 0
        row = np.argmax(fixed == -1, axis=1)
        fixed[idx[live], row[live]] = col[live]
    return fixed


def extend(n: int, choices: np.ndarray, weight: np.ndarray, levels: int):
    """Append ``levels`` open-row decisions to full-border prefixes (-1 once a prefix is full)."""
    weight = np.asarray(weight, np.int64).copy()
    for _ in range(levels):
        fixed = fixed_from_decisions(n, choices)
        complete = ~(fixed == -1).any(axis=1)
        taken = np.zeros(fixed.shape, bool)
        who, row = np.nonzero(fixed >= 0)
        taken[who, fixed[who, row]] = True
        parent, col = np.nonzero(~taken & ~complete[:, None])
        kept = np.nonzero(complete)[0]
        parent = np.concatenate([kept, parent])
        col = np.concatenate([np.full(len(kept), -1, np.int64), col])
        order = np.lexsort((col, parent))
        parent, col = parent[order], col[order]
        choices = np.concatenate([choices[parent], col[:, None].astype(np.int16)], axis=1)
        weight = weight[parent]
    return choices, weight


def items(n: int, choices: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Searches below prefixes: forced columns (int16 [items, n]), owning prefix, orbit factor.

    Below depth 4 a prefix stands for every least border it starts, each searched on its own with
    its orbit weight as factor; from depth 4 on a prefix is one search with factor 1.
    """
    k, depth = choices.shape
    table, weight = border_table(n)
    if depth >= 4:
        keys = border_keys(n, table, 4)
        want = border_keys(n, choices.astype(np.int64), 4)
        spot = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        bad = np.nonzero(keys[spot] != want)[0]
        if len(bad):
            raise ParamError(
                f"prefix {choices[bad[0]].tolist()} does not start with a least border of n = {n}"
            )
        rows = choices[:, 4:].astype(np.int64)
        padded = np.maximum.accumulate(rows < 0, axis=1)
        bad = np.nonzero(((rows < -1) | (rows >= n) | (padded & (rows >= 0))).any(axis=1))[0]
        fixed = fixed_from_decisions(n, choices) if not len(bad) else None
        if fixed is not None:
            ordered = np.sort(fixed, axis=1)
            bad = np.nonzero(
                ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] >= 0)).any(axis=1)
            )[0]
        if len(bad):
            raise ParamError(
                f"prefix {choices[bad[0]].tolist()} is not a partial placement of "
                f"n = {n} (a column twice, out of range, or a column after -1)"
            )
        return fixed, np.arange(k), np.ones(k, np.int64)
    keys = border_keys(n, table, depth)
    want = border_keys(n, choices.astype(np.int64), depth)
    lo = np.searchsorted(keys, want, "left")
    hi = np.searchsorted(keys, want, "right")
    size = hi - lo
    owner = np.repeat(np.arange(k), size)
    index = np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size) + np.repeat(lo, size)
    return fixed_from_decisions(n, table[index]), owner, weight[index]


def paths(n: int, depth: int) -> int:
    """The number of prefixes of ``depth`` decisions (those :func:`extend` would list), counted
    without listing them: below depth 4 the distinct border heads; from depth 4 + i on, a
    border with o open rows has o (o - 1) ... (o - i + 1) prefixes while i <= o, then o!."""
    if depth == 0:
        return 1
    table, _ = border_table(n)
    if depth < 4:
        return len(np.unique(border_keys(n, table.astype(np.int64), depth)))
    levels = depth - 4
    open_rows = (fixed_from_decisions(n, table) == -1).sum(axis=1)
    sizes, borders = np.unique(open_rows, return_counts=True)
    return sum(
        int(b) * math.perm(int(o), min(levels, int(o))) for o, b in zip(sizes, borders, strict=True)
    )
