"""The N-queens walks' bit helpers against brute force, and the walks' node counts against a
plain recursive search that shares no code with them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from boardsweep.solvers import nqueens
from boardsweep.solvers.nqueens import tree
from boardsweep.solvers.nqueens.bits import dead


@njit(cache=True)
def _dead_of(free):
    return dead(free)


def _dead_brute(free: int, width: int) -> int:
    """Columns c of the row whose queen (covering c - 1, c, c + 1 of the next row) leaves
    ``free`` empty, by trying each column."""
    out = 0
    for c in range(width):
        cover = (1 << c) | (1 << (c + 1)) | ((1 << c) >> 1)
        if free & ~cover == 0:
            out |= 1 << c
    return out


@pytest.mark.parametrize("width", [1, 2, 3, 4, 5, 8, 32])
def test_dead_columns_equal_brute_force(width):
    rng = random.Random(width)
    cases = {0, (1 << width) - 1, 1, 1 << (width - 1)}
    if width <= 8:
        cases |= set(range(1 << width))  # every free set
    else:
        for k in (1, 2, 3, 4):  # sparse sets, where columns die
            for _ in range(2000):
                cases.add(sum(1 << c for c in rng.sample(range(width), k)))
        cases |= {rng.getrandbits(width) for _ in range(2000)}
    for free in sorted(cases):
        got = int(_dead_of(np.int64(free)))
        # every column of the row (and only within the board) is compared
        assert got & ((1 << width) - 1) == _dead_brute(free, width), (width, bin(free))


def _plain_nodes(n: int) -> tuple[int, int]:
    """(Q(n), queens placed) of the plain search with no symmetry: a recursive reference."""
    full = (1 << n) - 1
    placed = found = 0

    def go(ld: int, cd: int, rd: int) -> None:
        nonlocal placed, found
        if cd == full:
            found += 1
            return
        avail = ~(ld | cd | rd) & full
        while avail:
            bit = avail & -avail
            avail ^= bit
            placed += 1
            go(((ld | bit) << 1) & full, cd | bit, (rd | bit) >> 1)

    go(0, 0, 0)
    return found, placed


@pytest.mark.parametrize("n", [4, 6, 8, 9])
def test_completions_visit_the_plain_tree(n):
    # the plain count skips no queen: completions of the empty placement is Q(n), and its
    # nodes (through the kernel's count) are those of a plain recursive search
    q, placed = _plain_nodes(n)
    from boardsweep.solvers.nqueens import kernel

    found, nodes = kernel.plain_count(n, np.int64(0), np.int64(0), np.int64(0))
    assert (found, nodes) == (q, placed) and nqueens.completions(n, []) == q


def _symmetric_nodes(n: int) -> int:
    """Queens placed by the symmetric search (rules of solvers/nqueens/kernel.py's docstring and
    symmetry.py), written again as a plain recursion that visits every child, dead ones too."""
    full = (1 << n) - 1
    last = n - 1
    side = 1 | (1 << last)
    placed = 0

    def go(row: int, ld: int, cd: int, rd: int, allowed) -> None:
        nonlocal placed
        if row == n:
            return
        avail = allowed(row, cd) & ~(ld | cd | rd) & full
        while avail:
            bit = avail & -avail
            avail ^= bit
            placed += 1
            go(row + 1, ((ld | bit) << 1) & full, cd | bit, (rd | bit) >> 1, allowed)

    if n == 1:
        return 1
    if n >= 4:
        placed += 1  # the corner queen of row 0
        for b1 in range(2, n - 1):
            placed += 1
            bit = 1 << b1
            go(
                2,
                ((2 | bit) << 1) & full,
                1 | bit,
                bit >> 1,
                lambda r, cd, b1=b1: full & ~2 if r < b1 else full,
            )
    for b1 in range(1, (n - 2) // 2 + 1):
        b2 = last - b1
        lastmask = 0
        for k in range(b1):
            lastmask |= (1 << k) | (1 << (last - k))

        def allowed(r, cd, b1=b1, b2=b2, lastmask=lastmask):
            m = full & ~side if r < b1 else full
            if r == last:
                m &= ~lastmask
            if r == b2 and cd & side != side:
                m &= side if cd & side else 0
            return m

        placed += 1
        bit = 1 << b1
        go(1, bit << 1, bit, bit >> 1, allowed)
    return placed


@pytest.mark.parametrize("n", range(1, 12))
def test_symmetric_nodes_equal_a_plain_recursion(n):
    # the walks skip dead children but still count them: the nodes are the whole tree's
    assert tree.whole(n)[2] == _symmetric_nodes(n)
