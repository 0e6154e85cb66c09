"""Tests for solvers/nqueens against brute force, OEIS A000170 and the symmetry group."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardsweep.solvers import nqueens
from boardsweep.solvers.nqueens import tree
from boardsweep.solvers.prefixes import Prefixes
from boardsweep.solvers.schema import ParamError

# OEIS A000170, n = 1..15
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]


@cache
def brute(n: int) -> tuple[tuple[int, ...], ...]:
    """Every solution as a column tuple, in lexicographic order (permutations come out sorted)."""
    return tuple(
        p
        for p in itertools.permutations(range(n))
        if all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))
    )


def orbit(p: tuple[int, ...]) -> set[tuple[int, ...]]:
    """The images of a board under the 8 symmetries of the square."""
    n = len(p)

    def turn(q):  # quarter turn clockwise: (r, c) -> (c, n-1-r)
        out = [0] * n
        for r, c in enumerate(q):
            out[c] = n - 1 - r
        return tuple(out)

    images = set()
    q = tuple(p)
    for _ in range(4):
        images.add(q)
        images.add(tuple(n - 1 - c for c in q))  # left-right mirror
        q = turn(q)
    return images


def constructed(n: int) -> tuple[int, ...]:
    """A known solution for even n (the classical evens-then-odds construction)."""
    evens, odds = list(range(2, n + 1, 2)), list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1] + [o for o in odds if o not in (1, 3, 5)] + [5]
    return tuple(c - 1 for c in evens + odds)


def weighted_sum(params: dict, pre: Prefixes) -> int:
    """sum(weight * count) as a Python int."""
    res = nqueens.count(params, pre)
    return sum(int(w) * int(c) for w, c in zip(pre.weight, res.counts[:, 0], strict=True))


# ---------------------------------------------------------------------------------- known values


@pytest.mark.parametrize("n", range(1, 16))
def test_total_matches_oeis(n):
    q, nodes = nqueens.total(n)
    assert q == A000170[n - 1]
    assert nodes >= 0


def test_node_count_of_the_symmetric_search_n16():
    # the figure measured for the corner/bound1/bound2 search tree.py implements
    assert tree.whole(16) == (14772512, 1846955, 246135107)


def test_total_is_the_constellation_search():
    # total() and unique() count with the constellation search (fewer nodes than the tree's);
    # its nodes are the depth-0 work units' (the constellations') nodes summed
    q, nodes = nqueens.total(16)
    assert (q, nqueens.unique(16)) == (14772512, (1846955, nodes))
    assert nqueens.count_units(16, 0, nqueens.unit_plan(16)[1]) == (14772512, 1846955, nodes)
    assert nodes < tree.whole(16)[2]


def test_brute_force_itself_knows_small_values():
    assert [len(brute(n)) for n in range(1, 9)] == A000170[:8]


# ---------------------------------------------------------------------------------- solutions


@pytest.mark.parametrize("n", range(1, 10))
def test_solutions_equal_brute_force_in_order(n):
    got = nqueens.solutions(n)
    assert got.dtype == np.int8 and got.shape == (len(brute(n)), n)
    assert [tuple(row) for row in got.tolist()] == list(brute(n))


@pytest.mark.parametrize("n", range(1, 9))
def test_solutions_below_every_short_prefix(n):
    for d in range(0, min(n, 3) + 1):
        for prefix in itertools.product(range(n), repeat=d):
            want = [s for s in brute(n) if s[:d] == prefix]
            got = nqueens.solutions(n, prefix)
            assert got.shape == (len(want), n)
            assert [tuple(row) for row in got.tolist()] == want
            assert nqueens.completions(n, prefix) == len(want)


def test_solutions_of_invalid_prefixes_are_empty():
    assert nqueens.solutions(6, (0, 1)).shape == (0, 6)  # diagonal attack
    assert nqueens.solutions(6, (2, 2)).shape == (0, 6)  # same column
    assert nqueens.solutions(6, (9,)).shape == (0, 6)  # off the board
    assert nqueens.solutions(4, (1, 3, 0, 2, 1)).shape == (0, 4)  # longer than the board
    assert nqueens.completions(6, (0, 1)) == 0
    assert nqueens.completions(6, (-1,)) == 0


def test_full_prefix_is_its_own_only_solution():
    s = brute(8)[17]
    assert nqueens.completions(8, s) == 1
    assert [tuple(r) for r in nqueens.solutions(8, s).tolist()] == [s]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 9), data=st.data())
def test_completions_of_random_prefixes(n, data):
    d = data.draw(st.integers(0, n))
    prefix = tuple(data.draw(st.lists(st.integers(0, n - 1), min_size=d, max_size=d)))
    want = [s for s in brute(n) if s[:d] == prefix]
    assert nqueens.completions(n, prefix) == len(want)
    assert [tuple(r) for r in nqueens.solutions(n, prefix).tolist()] == want


def test_plain_kernels_with_32_bit_masks():
    s = constructed(32)
    assert nqueens.completions(32, s) == 1
    got = nqueens.solutions(32, s[:24])
    assert s in {tuple(r) for r in got.tolist()}
    assert nqueens.completions(32, s[:24]) == got.shape[0]


# ---------------------------------------------------------------------------------- the split


@pytest.mark.parametrize("n", range(1, 11))
def test_every_split_depth_sums_to_q(n):
    params = {"n": n}
    total_nodes = int(tree.whole(n)[2])  # prefixes and count are the tree search's
    above = 0  # nodes of rows above the split: one per prefix of each shallower depth
    for depth in range(0, nqueens.max_depth(params) + 1):
        pre = nqueens.prefixes(params, depth)
        assert pre.choices.dtype == np.int16 and pre.choices.shape == (len(pre), depth)
        assert pre.weight.dtype == np.int64 and (pre.weight == 1).all()
        assert weighted_sum(params, pre) == A000170[n - 1]
        res = nqueens.count(params, pre)
        assert res.counts.dtype == np.uint64 and res.counts.shape == (len(pre), 2)
        assert res.nodes.dtype == np.int64 and res.nodes.shape == (len(pre),)
        if depth > 0:
            above += len(pre)
        assert int(res.nodes.sum()) + above == total_nodes


@pytest.mark.parametrize("n", [11, 12, 13])
def test_split_depths_for_larger_boards(n):
    for depth in (1, 2, 3, 5):
        assert weighted_sum({"n": n}, nqueens.prefixes({"n": n}, depth)) == A000170[n - 1]


@pytest.mark.parametrize("n", range(4, 11))
def test_prefixes_are_paths_of_the_symmetric_search(n):
    pre = nqueens.prefixes({"n": n}, 3)
    rows = [tuple(r) for r in pre.choices.tolist()]
    assert rows == sorted(set(rows))  # unique, in lexicographic order
    for p in rows:
        assert p[0] == 0 or 1 <= p[0] <= (n - 2) // 2
        if p[0] == 0:
            assert 2 <= p[1] <= n - 2
        assert all(p[i] != p[j] and abs(p[i] - p[j]) != j - i for i in range(3) for j in range(i))


@pytest.mark.parametrize("n", range(4, 11))
def test_full_depth_prefixes_are_one_representative_per_class(n):
    params = {"n": n}
    pre = nqueens.prefixes(params, n)
    counts = nqueens.count(params, pre).counts[:, 0]
    seen: set[tuple[int, ...]] = set()
    for board, c in zip(pre.choices.tolist(), counts.tolist(), strict=True):
        assert c in (0, 2, 4, 8)
        if c:
            images = orbit(tuple(board))
            assert len(images) == c
            assert not images & seen  # each class counted once
            seen |= images
    assert seen == set(brute(n))


def test_symmetric_search_accepts_one_image_per_class_at_n32():
    s = constructed(32)
    params = {"n": 32}
    images = sorted(orbit(s))
    full = Prefixes(np.array(images, np.int16), np.ones(len(images), np.int64))
    counts = nqueens.count(params, full).counts[:, 0].tolist()
    accepted = [img for img, c in zip(images, counts, strict=True) if c]
    assert len(accepted) == 1 and sum(counts) == len(images)
    # the kernels run with 32-bit boards below a deep prefix of the accepted image
    deep = Prefixes(np.array([accepted[0][:27]], np.int16), np.ones(1, np.int64))
    res = nqueens.count(params, deep)
    assert int(res.counts[0, 0]) >= len(images) and int(res.nodes[0]) >= 5


def test_prefix_outside_the_search_counts_zero():
    params = {"n": 8}
    pre = Prefixes(np.array([[7], [4], [0]], np.int16), np.ones(3, np.int64))
    res = nqueens.count(params, pre)
    assert res.counts[:, 0].tolist()[:2] == [0, 0] and res.nodes.tolist()[:2] == [0, 0]
    assert int(res.counts[2, 0]) > 0  # row 0 = column 0 is the corner search


def test_empty_prefix_set():
    pre = nqueens.prefixes({"n": 3}, 2)
    assert len(pre) == 0
    res = nqueens.count({"n": 3}, pre)
    assert res.counts.shape == (0, 2) and res.nodes.shape == (0,)


# ---------------------------------------------------------------------------------- interface


def test_points_outputs_and_depth():
    def ns(spec):
        params = nqueens.PROBLEM.check_params(spec)
        return [p.params for p in nqueens.PROBLEM.points(params, "counts")]

    assert ns({"n": "4..6"}) == [{"n": 4}, {"n": 5}, {"n": 6}]
    assert ns({"n": [10, 8]}) == [{"n": 8}, {"n": 10}]
    assert ns({"n": 32}) == [{"n": 32}]
    assert nqueens.PROBLEM.outputs(nqueens.PROBLEM.check_params({"n": 9})) == ("counts",)
    assert nqueens.max_depth({"n": 9}) == 9
    assert nqueens.PROBLEM.solve is not None and nqueens.MAX_N == 32
    assert len(nqueens.PROBLEM.version) == 16 and int(nqueens.PROBLEM.version, 16) >= 0


@pytest.mark.parametrize("bad", [0, -1, 33, 100, "8", 8.0, True, None])
def test_bad_n_raises_param_error(bad):
    with pytest.raises(ParamError):
        nqueens.total(bad)
    with pytest.raises(ParamError):
        nqueens.solutions(bad)
    with pytest.raises(ParamError):
        nqueens.completions(bad, ())
    with pytest.raises(ParamError):
        nqueens.prefixes({"n": bad}, 0)


@pytest.mark.parametrize("spec", [{"n": "1..33"}, {"n": 0}, {"m": 4}, {}, {"n": 4, "k": 1}])
def test_bad_specs_raise_param_error(spec):
    with pytest.raises(ParamError):
        nqueens.PROBLEM.check_params(spec)


def test_bad_depth_and_prefix_shape_raise_param_error():
    with pytest.raises(ParamError, match="depth"):
        nqueens.prefixes({"n": 5}, 6)
    with pytest.raises(ParamError, match="depth"):
        nqueens.prefixes({"n": 5}, -1)
    too_deep = Prefixes(np.zeros((1, 6), np.int16), np.ones(1, np.int64))
    with pytest.raises(ParamError):
        nqueens.count({"n": 5}, too_deep)
    with pytest.raises(ParamError):
        nqueens.solutions(5, ("a",))


def test_error_message_names_the_range():
    with pytest.raises(ParamError, match=r"1 <= n <= 32") as caught:
        nqueens.total(33)
    assert caught.value.key == ("n",)
