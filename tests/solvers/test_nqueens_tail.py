"""The constellation walk's five-row tail (:mod:`solvers.nqueens.tail`): its table score against
a count of the permutations written here by cells, on random positions, and its ``pext``
against the definition."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from numba import njit

from boardsweep.solvers.nqueens import tail

TABS = tail.tables()


@njit(cache=False)
def _score(ld, cd, rd, full, k, clash_free, cells01, cells23, cells4):
    """tail.score called from compiled code, as the walk calls it (it is inlined there)."""
    return tail.score(ld, cd, rd, full, k, clash_free, cells01, cells23, cells4)


def completions_by_cells(n, columns, offsets, ld, rd, fb):
    """Orders of ``columns`` down the tail rows at ``offsets`` whose cells are off the
    diagonals (ld, rd shifted to each row; ``fb`` per row) and no two queens share a diagonal."""
    found = 0
    for order in itertools.permutations(columns):
        free = all(
            not (ld >> (c - o) & 1 if c >= o else 0)
            and not (rd >> (c + o) & 1)
            and not (fb[j] >> c & 1)
            for j, (c, o) in enumerate(zip(order, offsets, strict=True))
        )
        apart = all(
            abs(order[i] - order[j]) != offsets[j] - offsets[i]
            for i, j in itertools.combinations(range(5), 2)
        )
        found += free and apart
    return found


def sparse(rng, width, p):
    """A random mask of ``width`` bits, each set with probability p."""
    return sum(1 << b for b in range(width) if rng.random() < p)


def test_score_counts_the_completions_by_cells():
    """On random tails (every offset pattern, boards 5..32 wide, sparse random diagonals and
    border cells), the table score is the count by cells; the cases reach many leaves."""
    rng = random.Random(5)
    patterns = list(itertools.combinations(range(1, tail.MAX_OFFSET + 1), 4))
    seen = []
    for case in range(4000):
        n = rng.randint(5, 32)
        offsets = (0, *patterns[case % len(patterns)])
        columns = sorted(rng.sample(range(n), 5))
        ld = sparse(rng, n + 6, rng.choice([0.0, 0.1, 0.25]))
        rd = sparse(rng, n + 6, rng.choice([0.0, 0.1, 0.25]))
        fb = [sparse(rng, n, rng.choice([0.0, 0.1])) for _ in range(5)]
        full = (1 << n) - 1
        cd = full & ~sum(1 << c for c in columns)
        p = int(TABS.pattern[offsets[1:]])
        k = tuple(np.int64(v) for v in (*fb, *offsets[1:]))
        got = _score(
            np.int64(ld),
            np.int64(cd),
            np.int64(rd),
            np.int64(full),
            k,
            TABS.clash_free[p],
            TABS.cells01,
            TABS.cells23,
            TABS.cells4,
        )
        want = completions_by_cells(n, columns, offsets, ld, rd, fb)
        assert got == want, (n, offsets, columns, ld, rd, fb)
        seen.append(want)
    assert max(seen) >= 10 and sum(v > 0 for v in seen) > 1000


def test_setup_reads_the_last_five_inner_rows():
    rows = np.array([1, 2, 4, 5, 6, 8, 9, 11, 12, 13], np.int64)
    fb = np.arange(11, dtype=np.int64) * 3
    pattern, k = tail.setup(rows, 10, fb, TABS.pattern)
    assert k == (15, 18, 21, 24, 27, 1, 3, 4, 5)  # rows 8, 9, 11, 12, 13: inner rows 5..9
    assert pattern == TABS.pattern[1, 3, 4, 5] >= 0
    assert tail.setup(rows, 4, fb, TABS.pattern)[0] == -1  # fewer than five inner rows


@pytest.mark.parametrize("seed", range(3))
def test_pext_is_its_definition(seed):
    """Both pext versions give the bits of x at the mask's set bits, packed from bit 0."""
    rng = random.Random(seed)
    soft = njit(lambda x, m: tail.soft_pext(x, m))
    chosen = njit(lambda x, m: tail.pext(x, m))
    for _ in range(2000):
        x, m = rng.getrandbits(63), sparse(rng, 63, rng.random())
        want = sum(((x >> b) & 1) << i for i, b in enumerate(b for b in range(63) if m >> b & 1))
        assert soft(np.int64(x), np.int64(m)) == want == chosen(np.int64(x), np.int64(m))
