"""The constellation search (:mod:`solvers.nqueens.constellations`): Q(n) and U(n) against
OEIS, against the symmetric tree search, and against a brute force written here that shares no
code with it; and its units, cut at any depth and summed in any groups, against the whole."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from boardsweep.solvers.nqueens import constellations, tail, tree

TABS = tail.tables()

# OEIS A000170 (all solutions) and A002562 (fundamental solutions), n = 1..16
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955]


def brute(n: int) -> tuple[int, int]:
    """(Q(n), U(n)) from every permutation: solutions, and their orbits under the 8 symmetries
    of the square (a board is the column of each row)."""
    sols = set()
    for p in itertools.permutations(range(n)):
        if len({r + c for r, c in enumerate(p)}) == n == len({r - c for r, c in enumerate(p)}):
            sols.add(p)
    seen: set[tuple[int, ...]] = set()
    classes = 0
    for p in sols:
        if p in seen:
            continue
        classes += 1
        cells = [(r, c) for r, c in enumerate(p)]
        for _ in range(2):
            for _ in range(4):
                cells = [(c, n - 1 - r) for r, c in cells]  # a quarter turn
                seen.add(tuple(c for _, c in sorted(cells)))
            cells = [(c, r) for r, c in cells]  # the transpose
    return len(sols), classes


@pytest.mark.parametrize("n", range(1, 9))
def test_brute_force(n):
    q, u, _ = constellations.whole(n, TABS)
    assert (int(q), int(u)) == brute(n)


@pytest.mark.parametrize("n", range(1, 16))
def test_oeis_and_tree(n):
    q, u, nodes = constellations.whole(n, TABS)
    assert (int(q), int(u)) == (A000170[n - 1], A002562[n - 1])
    tq, tu, _ = tree.whole(n)
    assert (int(q), int(u)) == (int(tq), int(tu))
    assert nodes >= 0


def test_sixteen():
    q, u, _ = constellations.whole(16, TABS)
    assert (int(q), int(u)) == (A000170[15], A002562[15])


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 9, 10, 11, 12])
def test_canonical_orbits(n):
    """The canonical constellations' orbits (8 / |stabilizer| images each) are the valid
    border tuples, once each: counted against every tuple of a brute check."""
    cons = constellations.canonical(n)
    orbit_total = sum(8 // bin(int(s)).count("1") for s in cons[:, 4])
    valid = 0
    for t, b, left, right in itertools.product(range(n), repeat=4):
        cells = {(0, t), (n - 1, b), (left, 0), (right, n - 1)}
        ok = all(
            p == q or (p[0] != q[0] and p[1] != q[1] and abs(p[0] - q[0]) != abs(p[1] - q[1]))
            for p in cells
            for q in cells
        )
        # one queen per border line
        ok &= all(
            sum(1 for c in cells if f(c)) == 1
            for f in (
                lambda c: c[0] == 0,
                lambda c: c[0] == n - 1,
                lambda c: c[1] == 0,
                lambda c: c[1] == n - 1,
            )
        )
        valid += ok
    assert orbit_total == valid


@pytest.mark.parametrize(
    "n,depth",
    [
        (5, 1),
        (8, 0),
        (8, 1),
        (8, 3),
        (9, 2),
        (11, 1),
        (11, 2),
        (12, 3),
        (13, 2),
        (6, 5),
        (4, 3),
        (1, 2),
    ],
)
def test_units_sum_to_whole(n, depth):
    """Units of any depth, in any split, add up to Q(n) and U(n)."""
    rows, stabs = constellations.units(n, depth)
    assert rows.shape[1] == 4 + depth
    k = rows.shape[0]
    counts = np.zeros(k, np.int64)
    classes = np.zeros(k, np.int64)
    nodes = np.zeros(k, np.int64)
    rng = random.Random(n * 100 + depth)
    order = list(range(k))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(k + 1), min(3, k + 1)))
    for a, b in zip([0, *cuts], [*cuts, k], strict=True):  # a few batches, in a random order
        idx = np.array(order[a:b], np.int64)
        c = np.zeros(len(idx), np.int64)
        u = np.zeros(len(idx), np.int64)
        m = np.zeros(len(idx), np.int64)
        constellations.count_batch(n, rows[idx], stabs[idx], c, u, m, TABS)
        counts[idx], classes[idx], nodes[idx] = c, u, m
    assert int(counts.sum()) == A000170[n - 1]
    assert int(classes.sum()) == A002562[n - 1]
    assert (nodes >= 0).all()


def test_unit_with_clashing_columns_counts_nothing():
    rows, stabs = constellations.units(10, 1)
    bad = rows[0].copy()
    bad[4] = bad[0]  # the top queen's column again
    assert constellations.count_unit(10, bad, stabs[0], TABS) == (0, 0, 0)


@pytest.mark.parametrize("n,depth", [(1, 0), (1, 2), (4, 3), (8, 0), (8, 2), (11, 1), (12, 3)])
def test_select_keeps_the_wanted_units(n, depth):
    """select numbers the units as units() lists them, stores only the wanted ones, and stops
    at its cap."""
    every, stabs = constellations.units(n, depth)
    total = every.shape[0]
    rng = random.Random(n * 10 + depth)
    none = np.zeros(0, np.int64)
    cons = constellations.canonical(n)
    walked, kept = constellations.select(
        n, cons, depth, none, 1 << 62, np.zeros((0, 4 + depth), np.int64), none
    )
    assert (walked, kept) == (total, 0)
    for _ in range(4):
        wanted = np.array(sorted(rng.sample(range(total), min(total, rng.randint(1, 9)))), np.int64)
        out = np.full((len(wanted), 4 + depth), -7, np.int64)
        got_stabs = np.zeros(len(wanted), np.int64)
        walked, kept = constellations.select(n, cons, depth, wanted, total, out, got_stabs)
        assert (walked, kept) == (total, len(wanted))
        assert (out == every[wanted]).all() and (got_stabs == stabs[wanted]).all()
    if total > 2:
        walked, _ = constellations.select(
            n, cons, depth, none, 1, np.zeros((0, 4 + depth), np.int64), none
        )
        assert 1 < walked <= total


def test_large_boards_count_units_without_listing_them():
    """n = 27 at depth 2: tens of millions of units, counted by a walk that stores none."""
    none = np.zeros(0, np.int64)
    cons = constellations.canonical(27)
    walked, kept = constellations.select(
        27, cons, 2, none, 1 << 62, np.zeros((0, 6), np.int64), none
    )
    assert walked > 10_000_000 and kept == 0
    wanted = np.array([0, walked // 2, walked - 1], np.int64)
    out = np.zeros((3, 6), np.int64)
    stabs = np.zeros(3, np.int64)
    constellations.select(27, cons, 2, wanted, walked, out, stabs)
    for row in out.tolist():  # border and inner queens: no two attack
        t, b, left, right, c0, c1 = row
        assert all(0 <= v < 27 for v in row)
        assert t != b and c0 != c1 and {c0, c1}.isdisjoint({0, 26, t, b})


def nodes_above_tail(n, d, D, ld, cd, rd, fb, sh):
    """The queens a walk from inner row d places one by one: every inner row above the last
    five, or all of them when the walk starts in the last seven rows, counted here by a plain
    recursion."""
    stop = D - tail.TAIL_ROWS if d < D - tail.TAIL_ROWS - 2 else D
    full = (1 << n) - 1

    def below(d, ld, cd, rd):
        if d >= stop:
            return 0
        avail = ~(ld | cd | rd | int(fb[d])) & full
        total = bin(avail).count("1")
        while avail:
            bit = avail & -avail
            avail ^= bit
            s = int(sh[d])
            total += below(d + 1, (ld | bit) << s, cd | bit, (rd | bit) >> s)
        return total

    return below(d, ld, cd, rd)


@pytest.mark.parametrize("n", [6, 9, 11, 12])
def test_walk_counts_the_plain_walks_leaves(n):
    """The hot walk's table tail and nested rows change no leaf: the plain walk (every row
    placed, the board's fullness tested) finds the same from every start row; its nodes are
    the queens above the tail (every queen where it starts in the last seven rows)."""
    starts = set()
    for depth in range(n):
        for unit, stab in zip(*constellations.units(n, depth), strict=True):
            if stab != 1 or (depth and unit[4 + depth - 1] < 0):
                continue
            rows, fb, sh, D, cd = constellations.setup(n, unit)
            ld = rd = 0
            for d in range(depth):
                bit = 1 << int(unit[4 + d])
                ld, rd, cd = (ld | bit) << int(sh[d]), (rd | bit) >> int(sh[d]), cd | bit
            args = (n, depth, D, np.int64(ld), np.int64(cd), np.int64(rd), fb, sh)
            leaves, nodes = constellations.walk(*args, rows, TABS)
            assert leaves == constellations.plain_walk(*args)[0]
            assert nodes == nodes_above_tail(n, depth, D, ld, int(cd), rd, fb, sh)
            starts.add(D - depth)
    if n >= 11:  # the walk's both ways: the loop into the tail, and the plain walk
        assert {tail.TAIL_ROWS + 2, tail.TAIL_ROWS + 3} <= starts


def images(n: int, t: int, b: int, left: int, right: int) -> list[tuple[int, int, int, int]]:
    """The 8 images (t, b, left, right) of a constellation, by turning its queens' cells."""
    cells = {(0, t), (n - 1, b), (left, 0), (right, n - 1)}
    out = []
    for _ in range(2):
        for _ in range(4):
            cells = {(c, n - 1 - r) for r, c in cells}  # a quarter turn
            out.append(
                (
                    next(c for r, c in cells if r == 0),
                    next(c for r, c in cells if r == n - 1),
                    next(r for r, c in cells if c == 0),
                    next(r for r, c in cells if c == n - 1),
                )
            )
        cells = {(c, r) for r, c in cells}  # the transpose
    return out


@pytest.mark.parametrize("n", [5, 7, 8, 10, 11])
def test_every_image_walks_the_same_leaves(n):
    """The search may walk any image of a constellation: all 8 have the same leaves (the
    walk_score choice changes nodes, never counts)."""
    for con in constellations.canonical(n):
        found = set()
        for image in images(n, *map(int, con[:4])):
            rows, fb, sh, D, cd = constellations.setup(n, np.array(image, np.int64))
            z = np.int64(0)
            found.add(int(constellations.walk(n, 0, D, z, cd, z, fb, sh, rows, TABS)[0]))
        assert len(found) == 1


def features_by_hand(n: int, t: int, b: int, left: int, right: int) -> list[float]:
    """image_features written out from its definition, by cells rather than bit masks."""
    queens = {(0, t), (n - 1, b), (left, 0), (right, n - 1)}
    qrows = {r for r, _ in queens}
    qcols = {c for _, c in queens}
    inner = [r for r in range(n) if r not in qrows]
    D = len(inner)
    f = [min(b, n - 1 - b) / max(n - 1, 1)] + [0.0] * (2 * constellations.POWERS)
    for d, row in enumerate(inner):
        x = (d + 0.5) / D
        blocked = sum(
            1
            for c in range(n)
            if c not in qcols and any(abs(row - qr) == abs(c - qc) for qr, qc in queens)
        )
        jump = d < D - 1 and inner[d + 1] != row + 1
        for k in range(constellations.POWERS):
            f[1 + k] += blocked / n * x**k
            f[1 + constellations.POWERS + k] += jump / n * x**k
    return f


@pytest.mark.parametrize("n", [5, 8, 9, 12])
def test_canonical_walks_the_image_of_least_score(n):
    """Each canonical row is the image of least walk_score (ties: least code), the score being
    the features (checked against a count by cells) weighted by IMAGE_WEIGHTS; feature 1 is
    the same in every image, which is why its weight is 0."""
    for con in constellations.canonical(n):
        keys = []
        for image in images(n, *map(int, con[:4])):
            t, b, left, right = image
            code = ((t * n + b) * n + left) * n + right
            got = constellations.image_features(n, code)
            assert got == pytest.approx(features_by_hand(n, *image), rel=1e-12, abs=1e-12)
            keys.append((float(constellations.walk_score(n, code)), code, image, got[1]))
        assert tuple(map(int, con[:4])) == min(keys)[2]
        assert max(k[3] for k in keys) == pytest.approx(min(k[3] for k in keys), rel=1e-12)
    assert constellations.IMAGE_WEIGHTS[1] == 0
