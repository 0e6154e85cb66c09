"""M queens and N rooks: brute force, published values, symmetry split, parameters."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardsweep.solvers import queens_rooks as qr
from boardsweep.solvers.prefixes import Prefixes
from boardsweep.solvers.queens_rooks import kernel, symmetry, tail_seven
from boardsweep.solvers.schema import ParamError

# OEIS A000170, n = 0..12: non-attacking queens on the n x n board (M = n, N = 0)
A000170 = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200]


def attacks(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    """Piece a = (row, col, kind) attacks b: shared row or column, or a queen's diagonal."""
    if a[0] == b[0] or a[1] == b[1]:
        return True
    return a[2] == "Q" and abs(a[0] - b[0]) == abs(a[1] - b[1])


def naive(m: int, n_rooks: int) -> int:
    """Every choice of queen cells and rook cells on the board, every pair checked."""
    n = m + n_rooks
    cells = [(r, c) for r in range(n) for c in range(n)]
    total = 0
    for queens in itertools.combinations(cells, m):
        rest = [x for x in cells if x not in queens]
        for rooks in itertools.combinations(rest, n_rooks):
            pieces = [(*x, "Q") for x in queens] + [(*x, "R") for x in rooks]
            total += all(
                not attacks(a, b) and not attacks(b, a)
                for a, b in itertools.combinations(pieces, 2)
            )
    return total


def brute_row(n: int) -> list[int]:
    """Every permutation (one piece per row and column) times every queen/rook assignment."""
    row = [0] * (n + 1)
    for perm in itertools.permutations(range(n)):
        shared = 0  # pieces sharing a diagonal with another: a queen there attacks or is attacked
        for i, j in itertools.combinations(range(n), 2):
            if abs(i - j) == abs(perm[i] - perm[j]):
                shared |= 1 << i | 1 << j
        for queens in range(1 << n):
            if queens & shared == 0:
                row[bin(queens).count("1")] += 1
    return row


@pytest.mark.parametrize("n", range(1, 5))
def test_naive_cell_search_agrees(n):
    assert qr.row(n) == [naive(m, n - m) for m in range(n + 1)]


@pytest.mark.parametrize("n", range(1, 8))
def test_rows_match_brute_force(n):
    assert qr.row(n) == brute_row(n)


def test_seed_sample_and_empty_board():
    assert qr.placements(3, 1) == 8
    assert qr.placements(0, 0) == 1


@pytest.mark.parametrize("m", range(1, 13))
def test_queens_alone_are_nqueens(m):
    assert qr.placements(m, 0) == A000170[m]


@pytest.mark.parametrize("n", range(1, 11))
def test_free_histogram_sums_to_factorial(n):
    histogram = qr.free_histogram(n)
    assert sum(histogram) == math.factorial(n)
    assert histogram[n] == A000170[n]  # every piece free: the n-queens solutions
    assert qr.row(n)[0] == math.factorial(n)


def test_whole_row_of_ten():
    assert qr.row(10) == [
        3628800,
        9944400,
        12951636,
        10611384,
        6206236,
        2710048,
        900864,
        232264,
        46984,
        7240,
        724,
    ]


def test_rooks_alone_are_exact_past_64_bits():
    assert qr.placements(0, 21) == math.factorial(21)
    big = qr.count({"n": 21, "queens": [0]}, qr.prefixes({"n": 21, "queens": [0]}, 0))
    assert big.counts.dtype == object and big.counts[0, 0] == math.factorial(21)
    small = qr.count({"n": 20, "queens": [0]}, qr.prefixes({"n": 20, "queens": [0]}, 0))
    assert small.counts.dtype == np.uint64 and int(small.counts[0, 0]) == math.factorial(20)
    assert qr.placements(0, 32) == math.factorial(32)


def test_kernels_agree_on_a_whole_row():
    n = 8
    fixed, _, factor = symmetry.items(n, np.zeros((1, 0), np.int16))
    typed, _ = kernel._histograms(n, fixed, True, n, n)
    by_queens = (typed.astype(object) * factor[:, None]).sum(axis=0).tolist()
    assert by_queens == qr.row(n)


def free_pieces(perm: list[int]) -> int:
    """k(p): pieces of the permutation sharing neither diagonal with another, pair by pair."""
    n = len(perm)
    shared = [False] * n
    for i, j in itertools.combinations(range(n), 2):
        if abs(i - j) == abs(perm[i] - perm[j]):
            shared[i] = shared[j] = True
    return shared.count(False)


def brute_free_histogram(fixed: list[int]) -> list[int]:
    """H[k] over every permutation agreeing with the forced columns (-1: open row)."""
    n = len(fixed)
    open_rows = [r for r in range(n) if fixed[r] < 0]
    free_cols = sorted(set(range(n)) - {c for c in fixed if c >= 0})
    hist = [0] * (n + 1)
    for cols in itertools.permutations(free_cols):
        perm = list(fixed)
        for r, c in zip(open_rows, cols, strict=True):
            perm[r] = c
        hist[free_pieces(perm)] += 1
    return hist


@pytest.mark.parametrize(
    "n, forced",
    [
        (6, 0),
        (7, 1),
        (8, 1),
        (8, 2),
        (9, 2),
        (10, 3),
        (11, 4),
        (12, 5),
        (13, 6),
        (16, 9),
        (17, 10),
        (17, 12),
        (20, 13),
        (22, 15),
        (23, 16),
        (32, 25),
    ],
)
def test_bulk_tails_match_brute_force(n, forced):
    """The last seven open rows are counted in bulk (tail_seven, n <= 22: its kill field names
    15 placed pieces), else the last five (kernel._tail, every n up to 32: it marks free pieces
    by their rows, so every mask fits in 32 bits), the rows before them by the plain search.
    Random forced rows (some among the last rows, so the tail's rows are not always
    contiguous) and random columns, against every permutation of the open rows; each search
    also with the bulk tail capped at five rows, so the five-row tail meets every case too."""
    assert kernel.TAIL == 5 and tail_seven.ROWS == 7 and tail_seven.MAX_N == 22
    rng = np.random.default_rng(n)
    for _ in range(6 if n < 12 else 2):
        fixed = np.full(n, -1, np.int16)
        rows = rng.choice(n, forced, replace=False)
        fixed[rows] = rng.choice(n, forced, replace=False)
        want = brute_free_histogram(fixed.tolist())
        open_rows = n - forced  # every partial placement of the open rows, in order
        tree = forced + sum(math.perm(open_rows, d) for d in range(1, open_rows + 1))
        for widest in (7, 5):
            hist = np.zeros(n + 1, np.uint64)
            nodes = kernel._free_search(n, fixed, hist, widest)
            assert hist.tolist() == want and nodes == tree, widest


def test_which_bulk_tail_applies():
    """The seven-row tail takes a search when seven rows are open and n <= 22; the five-row
    tail (which gives the same histogram and nodes) takes the rest."""
    assert tail_seven.NODES == sum(math.perm(7, d) for d in range(1, 8))
    whole = np.full(12, -1, np.int16)
    six_open = whole.copy()
    six_open[:6] = np.arange(6)
    past = np.full(23, -1, np.int16)
    past[:16] = np.arange(16)
    assert tail_seven.applies(12, whole, 7) and tail_seven.applies(8, np.full(8, -1, np.int16), 7)
    assert not tail_seven.applies(12, whole, 5)  # capped
    assert not tail_seven.applies(12, six_open, 7)
    assert not tail_seven.applies(23, past, 7)  # past MAX_N
    assert not tail_seven.applies(7, np.full(7, -1, np.int16), 7)  # nothing left to place


@pytest.mark.parametrize("n", [9, 10, 11])
def test_bulk_tails_equal_the_plain_search_on_whole_rows(n):
    """Every least border of n: histograms and node counts with each bulk tail and without."""
    fixed, _, _ = symmetry.items(n, np.zeros((1, 0), np.int16))
    seven, seven_nodes = kernel._histograms(n, fixed, False, n, n)
    for widest in (5, 0):
        other, other_nodes = kernel._capped_histograms(n, fixed, widest)
        assert (seven == other).all() and (seven_nodes == other_nodes).all()
    assert int(seven.sum()) > 0


@pytest.mark.parametrize("n, opened", [(10, 5), (10, 7), (22, 7)])
def test_bulk_tails_see_many_free_pieces_and_kills(n, opened):
    """Prefixes that leave queen-like completions (many free pieces) and ones whose last rows
    take free pieces away, taken from real solutions: an n-queens solution with its last
    ``opened`` rows opened is one search with k = n possible, and a hit on every free piece.
    At n = 22 the fifteen placed pieces are all free: every bit of the seven-row tail's kill
    field is in use."""
    # completions this poor must occur: at most 2 free pieces at n = 10 (as before the
    # seven-row tail), fewer than the placed ones at n = 22
    poor = 3 if n < 20 else n - opened
    found = 0
    for perm in queens_solutions(n):
        fixed = np.array(perm, np.int16)
        fixed[n - opened :] = -1
        hist = np.zeros(n + 1, np.uint64)
        kernel._free_search(n, fixed, hist)
        want = brute_free_histogram(fixed.tolist())
        assert hist.tolist() == want and want[n] >= 1 and sum(want[:poor]) > 0
        found += 1
        if found == 12:
            break
    assert found == (12 if n < 20 else 3)


def queens_solutions(n: int):
    """N-queens solutions of n: every permutation with n free pieces below 20, else the
    even-then-odd construction (a solution for n mod 6 not in {2, 3}) and its mirror images."""
    if n < 20:
        yield from (list(p) for p in itertools.permutations(range(n)) if free_pieces(list(p)) == n)
        return
    assert n % 6 not in (2, 3)
    base = list(range(1, n, 2)) + list(range(0, n, 2))
    for perm in (base, base[::-1], [n - 1 - c for c in base]):
        assert free_pieces(perm) == n
        yield perm


def test_strategy_choice():
    assert qr.strategy({"n": 12, "queens": list(range(13))}) == "free"
    assert qr.strategy({"n": 12, "queens": [0]}) == "formula"
    assert qr.strategy({"n": 12, "queens": [0, 11, 12]}) == "typed"
    assert qr.strategy({"n": 12, "queens": [10, 12]}) == "free"
    assert qr.strategy({"n": 16, "queens": [13, 16]}) == "typed"
    assert qr.strategy({"n": 16, "queens": [12, 16]}) == "free"
    assert qr.row(9)[7:] == [qr.placements(m, 9 - m) for m in (7, 8, 9)]  # typed vs free


def weighted_totals(params: dict, depth: int) -> list[int]:
    """sum_i weight[i] * counts[i, j] for each output j at one split depth."""
    pre = qr.prefixes(params, depth)
    result = qr.count(params, pre)
    assert result.counts.shape == (len(pre), len(params["queens"]))
    assert result.nodes.shape == (len(pre),) and (result.nodes >= 0).all()
    assert pre.choices.shape == (len(pre), depth) and pre.choices.dtype == np.int16
    return [
        sum(int(w) * int(c) for w, c in zip(pre.weight, result.counts[:, j], strict=True))
        for j in range(result.counts.shape[1])
    ]


@pytest.mark.parametrize(
    "params",
    [
        {"n": 1, "queens": [0, 1]},
        {"n": 2, "queens": [0, 1, 2]},
        {"n": 3, "queens": [0, 1, 2, 3]},
        {"n": 6, "queens": list(range(7))},
        {"n": 7, "queens": [0, 7]},
        {"n": 8, "queens": [6, 8]},
        {"n": 5, "queens": [0]},
    ],
)
def test_every_split_depth_sums_to_the_answer(params):
    expected = [qr.placements(m, params["n"] - m) for m in params["queens"]]
    assert weighted_totals(params, 0) == expected
    for depth in range(1, qr.max_depth(params) + 1):
        assert weighted_totals(params, depth) == expected, depth


def test_prefix_subsets_add_up():
    params = {"n": 9, "queens": list(range(10))}
    pre = qr.prefixes(params, 5)
    whole = qr.count(params, pre).counts.astype(object)
    half = len(pre) // 2
    first = qr.count(params, pre.take(slice(0, half))).counts.astype(object)
    rest = qr.count(params, pre.take(np.arange(half, len(pre)))).counts.astype(object)
    assert (np.concatenate([first, rest]) == whole).all()


def test_least_borders_cover_every_border_once():
    for n in range(1, 7):
        table, weight = qr.border_table(n)
        borders = set()
        for perm in itertools.permutations(range(n)):
            borders.add((perm[0], perm[n - 1], perm.index(0), perm.index(n - 1)))
        assert int(weight.sum()) == len(borders)
        assert {tuple(b) for b in table.tolist()} <= borders


def test_bad_prefixes_are_refused():
    params = {"n": 6, "queens": list(range(7))}
    with pytest.raises(ParamError, match="least border"):
        qr.count(params, Prefixes(np.array([[5, 0, 5, 0]], np.int16), np.ones(1, np.int64)))
    border = qr.border_table(6)[0][0].tolist()  # (0, 1, 0, 1): open rows 2..4, columns 2..4
    for decisions in ([2, 2], [9], [-1, 3], [-2]):
        choices = np.array([border + decisions], np.int16)
        with pytest.raises(ParamError, match="not a partial placement"):
            qr.count(params, Prefixes(choices, np.ones(1, np.int64)))
    with pytest.raises(ParamError, match="depth"):
        qr.prefixes(params, qr.max_depth(params) + 1)
    with pytest.raises(ParamError, match="depth"):
        qr.prefixes({"n": 6, "queens": [0]}, 1)


def points(spec: dict) -> list[dict]:
    """The params of a job's points, in output order."""
    return [p.params for p in qr.PROBLEM.points(qr.PROBLEM.check_params(spec), "counts")]


def test_points_and_outputs():
    assert points({"total": 2}) == [{"n": 2, "queens": [0, 1, 2]}]
    assert [p["n"] for p in points({"total": "3..5"})] == [3, 4, 5]
    assert [p["n"] for p in points({"total": [7, 4]})] == [4, 7]  # output order: ascending n
    pts = points({"pairs": [[3, 1], [0, 4], [2, 2], [1, 0]]})
    assert pts == [{"n": 1, "queens": [1]}, {"n": 4, "queens": [0, 2, 3]}]
    point = qr.PROBLEM.points(
        qr.PROBLEM.check_params({"pairs": [[3, 1], [0, 4], [2, 2]]}), "counts"
    )[0]
    rows = qr.PROBLEM.compute(point, 0, point.units).select(["n", "queens", "rooks"])
    assert rows.to_pylist() == [
        {"n": 4, "queens": 0, "rooks": 4},
        {"n": 4, "queens": 2, "rooks": 2},
        {"n": 4, "queens": 3, "rooks": 1},
    ]


@pytest.mark.parametrize(
    "spec, message, key",
    [
        ({}, "exactly one", ()),
        ({"total": 3, "pairs": [[1, 2]]}, "exactly one", ()),
        ({"total": 0}, "out of range", ("total",)),
        ({"total": 33}, "out of range", ("total",)),
        ({"total": "1..x"}, "lo..hi", ("total",)),
        ({"total": 2.5}, "integer", ("total",)),
        ({"pairs": [[0, 0]]}, "empty board", ("pairs", 0)),
        ({"pairs": [[1, 1], [20, 13]]}, "M \\+ N = 33", ("pairs", 1)),
        ({"pairs": [[-1, 3]]}, "-1 is out of range", ("pairs", 0, 0)),
        ({"pairs": [[1.5, 3]]}, "expected an integer", ("pairs", 0, 0)),
        ({"pairs": [[2, True]]}, "expected an integer", ("pairs", 0, 1)),
        ({"pairs": [[1, 2, 3]]}, "pair", ("pairs", 0)),
        ({"pairs": []}, "non-empty", ("pairs",)),
        ({"pairs": [[1, 2], [3, 4], [1, 2]]}, "twice", ("pairs", 2)),
        ({"n": 4}, "unknown key", ("n",)),
    ],
)
def test_bad_specs(spec, message, key):
    with pytest.raises(ParamError, match=message) as caught:
        qr.PROBLEM.check_params(spec)
    assert caught.value.key == key


@pytest.mark.parametrize(
    "params, message",
    [
        ({"n": 0, "queens": [0]}, "out of range"),
        ({"n": 4, "queens": [5]}, "out of range"),
        ({"n": 4, "queens": []}, "non-empty"),
        ({"n": 4, "queens": [1, 1]}, "twice"),
        ({"n": "4", "queens": [1]}, "integer"),
        ({"queens": [1]}, "missing key 'n'"),
    ],
)
def test_bad_points(params, message):
    with pytest.raises(ParamError, match=message):
        qr.strategy(params)
    with pytest.raises(ParamError, match=message):
        qr.count(params, Prefixes(np.zeros((1, 0), np.int16), np.ones(1, np.int64)))


def test_bad_convenience_values():
    with pytest.raises(ParamError, match="-1 is out of range") as caught:
        qr.placements(-1, 2)
    assert caught.value.key == ("M",)
    with pytest.raises(ParamError, match="M \\+ N = 40"):
        qr.placements(20, 20)
    with pytest.raises(ParamError, match="integer"):
        qr.row(3.0)


@settings(max_examples=15, deadline=None)  # each example plans its points (~0.7 s)
@given(
    st.lists(
        st.tuples(st.integers(0, 32), st.integers(0, 32)).filter(lambda p: 1 <= p[0] + p[1] <= 32),
        min_size=1,
        max_size=8,
        unique=True,
    )
)
def test_pairs_become_exactly_their_outputs(pairs):
    rows = [
        (q, p["n"] - q) for p in points({"pairs": [list(x) for x in pairs]}) for q in p["queens"]
    ]
    assert sorted(rows) == sorted(pairs)


def test_binomial_combination_is_exact_past_64_bits():
    histogram = np.array([[3, 2**62, 5], [1, 2, 3]], dtype=object)
    for scale in (1, 2**40):  # below and above the int64 shortcut
        h = histogram * scale
        perms = h.sum(axis=1)
        got = qr._choose_queens(h, perms, [0, 1, 2])
        want = [
            [sum(int(x) * math.comb(k, q) for k, x in enumerate(r)) for q in (0, 1, 2)]
            for r in h.tolist()
        ]
        assert got.tolist() == want


def test_cost_estimates_follow_the_strategy():
    qr.PROBLEM.warm_up()
    assert qr.cost({"n": 30, "queens": [0]}) == 0.0
    whole = qr.cost({"n": 14, "queens": list(range(15))})
    assert 3 < whole < 1000  # seconds of one core: the row of 14 is a matter of seconds
    assert 0 < qr.cost({"n": 14, "queens": [14]}) < whole / 100
    assert qr.cost({"n": 15, "queens": list(range(16))}) > 10 * whole
