"""Walled boards (max_rooks): matching, counts and generation against brute force and formulas."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.schema import ParamError

# ----------------------------------------------------------------------------- brute force


def sees(board: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two open cells see each other: same row or column and only open cells between them."""
    (i1, j1), (i2, j2) = a, b
    if i1 == i2:
        lo, hi = sorted((j1, j2))
        return all(board[i1, j] == 0 for j in range(lo + 1, hi))
    if j1 == j2:
        lo, hi = sorted((i1, i2))
        return all(board[i, j1] == 0 for i in range(lo + 1, hi))
    return False


def brute_force(board: np.ndarray) -> tuple[int, int, int]:
    """(max rooks, placements reaching it, legal placements) over all subsets of open cells."""
    cells = [
        (i, j) for i in range(board.shape[0]) for j in range(board.shape[1]) if board[i, j] == 0
    ]
    masks = np.arange(2 ** len(cells), dtype=np.uint32)
    legal = np.ones(masks.shape, dtype=bool)
    for (p, a), (q, b) in itertools.combinations(enumerate(cells), 2):
        if sees(board, a, b):
            legal &= (masks & np.uint32((1 << p) | (1 << q))) != np.uint32((1 << p) | (1 << q))
    sizes = np.bitwise_count(masks)[legal]
    best = int(sizes.max())
    return best, int((sizes == best).sum()), int(legal.sum())


def random_boards(rng: np.random.Generator, count: int, max_side: int) -> list[np.ndarray]:
    """Random rectangular boards with sides 1..max_side and wall density drawn per board."""
    out = []
    for _ in range(count):
        r, c = rng.integers(1, max_side + 1, size=2)
        out.append((rng.random((r, c)) < rng.random()).astype(np.uint8))
    return out


def check_placement(board: np.ndarray, placement: np.ndarray) -> None:
    """The rooks stand on distinct open cells, sorted, and no two see each other."""
    c = board.shape[1]
    assert np.all(np.diff(placement) > 0)
    rooks = [(int(t) // c, int(t) % c) for t in placement]
    assert all(board[i, j] == 0 for i, j in rooks)
    assert not any(sees(board, a, b) for a, b in itertools.combinations(rooks, 2))


def isolated(k: int) -> np.ndarray:
    """A board with k open cells, no two in a common row or column segment."""
    side = 2 * int(np.ceil(np.sqrt(k))) - 1
    board = np.ones((side, side), dtype=np.uint8)
    spots = [(i, j) for i in range(0, side, 2) for j in range(0, side, 2)][:k]
    for i, j in spots:
        board[i, j] = 0
    return board


# ----------------------------------------------------------------------------- the seed sample


def from_rows(rows: list[str]) -> np.ndarray:
    """A board from text rows of '.' and 'X'."""
    return np.array([[ch == "X" for ch in row] for row in rows], dtype=np.uint8)


def test_seed_sample_boards():
    batch = mr.make_batch(
        [
            from_rows([".X..", "....", "XX..", "...."]),
            from_rows(["XX", ".X"]),
            from_rows([".X.", "X.X", ".X."]),
            from_rows(["...", ".XX", ".XX"]),
            from_rows(["....", "....", "....", "...."]),
        ]
    )
    out = mr.solve_batch(batch, counts=True)
    assert out["max_rooks"].tolist() == [5, 1, 5, 2, 4]
    # the empty 4 x 4 board: sum over k of C(4, k)^2 k! placements, 4! of them maximum
    assert int(out["placements"][4]) == 1 + 16 + 72 + 96 + 24
    assert int(out["max_placements"][4]) == 24


# ----------------------------------------------------------------------------- maximum


def test_matching_and_counts_agree_with_dfs_on_small_boards():
    rng = np.random.default_rng(639)
    boards = random_boards(rng, 3000, 5)
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    po = out["placement_offsets"]
    for b, board in enumerate(boards):
        ref = mr.max_rooks_dfs(board)
        assert out["max_rooks"][b] == ref.max_rooks
        assert int(out["max_placements"][b]) == ref.max_placements
        assert int(out["placements"][b]) == ref.placements
        assert out["walls"][b] == board.sum()
        placement = out["placement"][po[b] : po[b + 1]]
        assert placement.shape[0] == ref.max_rooks
        check_placement(board, placement)


def test_counts_agree_with_dfs_on_larger_boards():
    rng = np.random.default_rng(1315)
    boards = [
        (rng.random((r, c)) < 0.3).astype(np.uint8)
        for r, c in [(6, 6)] * 150 + [(7, 6), (6, 7), (7, 7)] * 6 + [(3, 14), (12, 3)] * 5
    ]
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    for b, board in enumerate(boards):
        ref = mr.max_rooks_dfs(board)
        assert (out["max_rooks"][b], int(out["max_placements"][b]), int(out["placements"][b])) == (
            ref.max_rooks,
            ref.max_placements,
            ref.placements,
        )


@pytest.mark.parametrize("side, count, most_open", [(4, 80, 16), (5, 40, 18)])
def test_dfs_and_counts_agree_with_subset_brute_force(side, count, most_open):
    rng = np.random.default_rng(side)
    boards = [np.zeros((side, side), np.uint8), np.ones((side, side), np.uint8)]
    while len(boards) < count:
        board = (rng.random((side, side)) < rng.uniform(0.1, 0.6)).astype(np.uint8)
        if (board == 0).sum() <= most_open:
            boards.append(board)
    boards[0] = boards[0] if side == 4 else boards[2]  # 2**25 subsets would be too slow
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    for b, board in enumerate(boards):
        best, at_best, total = brute_force(board)
        assert mr.max_rooks_dfs(board)[:3] == (best, at_best, total)
        assert (out["max_rooks"][b], int(out["max_placements"][b]), int(out["placements"][b])) == (
            best,
            at_best,
            total,
        )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda r: st.integers(1, 6).flatmap(
            lambda c: st.lists(st.integers(0, 1), min_size=r * c, max_size=r * c).map(
                lambda v: np.array(v, dtype=np.uint8).reshape(r, c)
            )
        )
    )
)
def test_hypothesis_boards(board):
    out = mr.solve_batch(mr.make_batch([board, board.T.copy()]), counts=True)
    ref = mr.max_rooks_dfs(board)
    for b in range(2):  # a board and its transpose have the same answers
        assert (out["max_rooks"][b], int(out["max_placements"][b]), int(out["placements"][b])) == (
            ref.max_rooks,
            ref.max_placements,
            ref.placements,
        )
    po = out["placement_offsets"]
    check_placement(board, out["placement"][po[0] : po[1]])


def covered(board: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Mask of the cells lying in the listed row segments and column segments."""
    r, c = board.shape
    mask = np.zeros_like(board, dtype=bool)
    for start in rows:
        i, j = divmod(int(start), c)
        assert board[i, j] == 0 and (j == 0 or board[i, j - 1] == 1)  # a segment's first cell
        while j < c and board[i, j] == 0:
            mask[i, j] = True
            j += 1
    for start in cols:
        i, j = divmod(int(start), c)
        assert board[i, j] == 0 and (i == 0 or board[i - 1, j] == 1)
        while i < r and board[i, j] == 0:
            mask[i, j] = True
            i += 1
    return mask


@pytest.mark.parametrize("n, density", [(7, 0.3), (60, 0.1), (300, 0.2), (200, 0.0)])
def test_konig_cover_proves_large_maxima(n, density):
    batch = mr.generate(n, density, 1, seed=n)
    board = mr.board_at(batch, 0)
    out = mr.solve_batch(batch)
    rows, cols = mr.konig_cover(board)
    assert rows.shape[0] + cols.shape[0] == out["max_rooks"][0]  # as many segments as rooks
    assert covered(board, rows, cols)[board == 0].all()  # and every open cell is in one
    if n <= 60:
        check_placement(board, out["placement"])
    placed = out["placement"]
    assert placed.shape[0] == out["max_rooks"][0] and (batch["cells"][placed] == 0).all()
    if density == 0.0:
        assert out["max_rooks"][0] == n


def test_no_open_cells_and_single_cells():
    boards = [
        np.ones((3, 4), np.uint8),
        np.zeros((1, 1), np.uint8),
        np.ones((1, 1), np.uint8),
        np.zeros((1, 9), np.uint8),
        np.zeros((9, 1), np.uint8),
    ]
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    assert out["max_rooks"].tolist() == [0, 1, 0, 1, 1]
    assert out["max_placements"].tolist() == [1, 1, 1, 9, 9]
    assert out["placements"].tolist() == [1, 2, 1, 10, 10]
    assert out["placement_offsets"].tolist() == [0, 0, 1, 1, 2, 3]


def test_empty_batch():
    out = mr.solve_batch(mr.make_batch([]), counts=True)
    assert out["max_rooks"].shape == (0,) and out["placement_offsets"].tolist() == [0]
    assert out["placements"].shape == (0,)


def by_components(board: np.ndarray) -> tuple[int, int, int] | None:
    """Brute force per 4-connected piece of open cells (pieces share no segment, so maxima add
    and counts multiply); None when a piece is too big to enumerate."""
    labels, pieces = ndimage.label(board == 0)
    best, at_best, total = 0, 1, 1
    for piece in range(1, pieces + 1):
        rows, cols = np.nonzero(labels == piece)
        if rows.shape[0] > 16:
            return None
        window = labels[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
        b, a, t = brute_force((window != piece).astype(np.uint8))
        best, at_best, total = best + b, at_best * a, total * t
    return best, at_best, total


def test_sparse_boards_up_to_64_open_cells_any_shape():
    rng = np.random.default_rng(64)
    boards, expected = [], []
    while len(boards) < 40:
        r, c = rng.integers(8, 40, size=2)
        board = np.ones((r, c), np.uint8)
        spots = rng.choice(r * c, size=min(r * c, int(rng.integers(40, 65))), replace=False)
        board.ravel()[spots] = 0
        want = by_components(board)
        if want is not None:
            boards.append(board)
            expected.append(want)
    combs = np.ones((2, 63), np.uint8)  # 32 vertical dominoes side by side: 64 open cells
    combs[:, ::2] = 0
    boards.append(combs)
    expected.append((32, 2**32, 3**32))
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    assert max(int((b == 0).sum()) for b in boards) == 64
    for b, want in enumerate(expected):
        assert (
            out["max_rooks"][b],
            int(out["max_placements"][b]),
            int(out["placements"][b]),
        ) == want


# ----------------------------------------------------------------------------- exact big counts


def test_isolated_cells_count_past_two_to_the_64():
    boards = [isolated(63), isolated(64), isolated(100), isolated(3)]
    out = mr.solve_batch(mr.make_batch(boards), counts=True)
    assert out["max_rooks"].tolist() == [63, 64, 100, 3]
    assert out["placements"].dtype == object
    assert out["placements"].tolist() == [2**63, 2**64, 2**100, 8]
    assert out["max_placements"].dtype == np.uint64
    assert out["max_placements"].tolist() == [1, 1, 1, 1]
    alone = mr.solve_batch(mr.make_batch([isolated(63)]), counts=True)
    assert alone["placements"].dtype == np.uint64 and alone["placements"][0] == 2**63


def test_block_products_exercise_carries():
    """Blocks apart from each other multiply: open 2 x 2 has 7 placements (2 maximum), open
    3 x 3 has 34 (6 maximum).  Fifty of each overflow 64 bits in every count column."""
    blocks = [np.zeros((2, 2), np.uint8)] * 50 + [np.zeros((3, 3), np.uint8)] * 50
    board = np.ones((3, 4 * 100), np.uint8)
    for q, block in enumerate(blocks):
        board[: block.shape[0], 4 * q : 4 * q + block.shape[1]] = block
    out = mr.solve_batch(mr.make_batch([board, board.T.copy()]), counts=True)
    assert out["max_rooks"].tolist() == [2 * 50 + 3 * 50] * 2
    assert out["max_placements"].tolist() == [2**50 * 6**50] * 2
    assert out["placements"].tolist() == [7**50 * 34**50] * 2


def test_boards_the_counting_program_cannot_hold_get_a_status_not_an_error():
    """A board too wide (frontier over 63 segments both ways) or too large (over the memory
    cap) gets that status and null counts; the boards beside it in the batch are counted."""
    small = [np.array(b, np.uint8) for b in ([[0, 1], [0, 0]], [[0, 0, 0], [1, 0, 0]])]
    batch = mr.make_batch([small[0], np.zeros((64, 64), np.uint8), small[1]])
    out = mr.solve_batch(batch, counts=True)
    assert out["count_status"].tolist() == ["counted", "too_wide", "counted"]
    assert out["count_memory"].tolist() == [None, None, None]
    assert out["max_rooks"].tolist()[1] == 64  # the matching still answers
    for i, board in ((0, small[0]), (2, small[1])):
        dfs = mr.max_rooks_dfs(board)
        assert out["max_placements"][i] == dfs.max_placements
        assert out["placements"][i] == dfs.placements
    assert out["max_placements"][1] is None and out["placements"][1] is None
    wide = mr.generate(14, 0.05, 1, seed=3)
    capped = mr.solve_batch(wide, counts=True, count_words=1 << 12)
    assert capped["count_status"].tolist() == ["too_large"]
    assert capped["count_memory"][0] > (1 << 12) * 16  # more than the cap allowed
    assert capped["placements"][0] is None
    roomy = mr.solve_batch(wide, counts=True)
    assert roomy["count_status"].tolist() == ["counted"]
    assert roomy["count_memory"][0] is None and roomy["placements"][0] > 0
    assert mr.solve_batch(mr.make_batch([np.zeros((64, 64), np.uint8)]))["max_rooks"][0] == 64


# ----------------------------------------------------------------------------- generation


def test_generate_reproducible_and_split_independent():
    whole = mr.generate(7, 0.3, 10, seed=42)
    again = mr.generate(7, 0.3, 10, seed=42)
    parts = [mr.generate(7, 0.3, 4, seed=42), mr.generate(7, 0.3, 6, seed=42, start=4)]
    for key in whole:
        assert np.array_equal(whole[key], again[key])
    assert np.array_equal(whole["cells"], np.concatenate([p["cells"] for p in parts]))
    assert whole["board_id"].tolist() == list(range(10))
    assert parts[1]["board_id"].tolist() == list(range(4, 10))
    assert np.array_equal(mr.board_at(whole, 9), mr.board_at(mr.generate(7, 0.3, 1, 42, 9), 0))
    assert not np.array_equal(whole["cells"], mr.generate(7, 0.3, 10, seed=43)["cells"])
    assert len({mr.board_at(whole, b).tobytes() for b in range(10)}) == 10


def test_generate_density_and_dtypes():
    batch = mr.generate(50, 0.25, 20, seed=1)
    assert batch["cells"].dtype == np.uint8 and batch["rows"].dtype == np.int32
    assert batch["offsets"].dtype == np.int64 and batch["offsets"][-1] == 20 * 2500
    assert abs(batch["cells"].mean() - 0.25) < 0.01
    assert mr.generate(5, 0.0, 3, seed=1)["cells"].sum() == 0
    assert mr.generate(5, 1.0, 3, seed=1)["cells"].min() == 1
    assert mr.generate(5, 0.5, 0, seed=1)["offsets"].tolist() == [0]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 0},
        {"n": -3},
        {"n": 2.5},
        {"n": True},
        {"density": -0.1},
        {"density": 1.5},
        {"density": float("nan")},
        {"density": "0.3"},
        {"count": -1},
        {"seed": -1},
        {"start": -1},
    ],
)
def test_generate_bad_parameters(kwargs):
    args = {"n": 4, "density": 0.3, "count": 2, "seed": 1} | kwargs
    with pytest.raises(ParamError):
        mr.generate(**args)


# ----------------------------------------------------------------------------- batch checks


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda b: b.pop("cells"), "lacks column 'cells'"),
        (lambda b: b.__setitem__("rows", b["rows"][:1]), "disagree"),
        (lambda b: b.__setitem__("offsets", b["offsets"] + 1), "offsets"),
        (lambda b: b["cells"].__setitem__(0, 2), "0 \\(open\\) or 1"),
        (lambda b: b.__setitem__("cells", b["cells"][:-1]), "cells"),
        (lambda b: b.__setitem__("cols", np.array([0, 3], np.int32)), ">= 1"),
        (lambda b: b.__setitem__("rows", np.array([[2, 3]])), "1-D integer"),
        (lambda b: b.__setitem__("cells", b["cells"].astype(float)), "1-D integer"),
        (lambda b: b.__setitem__("cells", b["cells"].astype(np.int64) + 256), "outside uint8"),
        (lambda b: b.__setitem__("rows", np.array([2**32 + 2, 3])), "outside int32"),
    ],
)
def test_bad_batches(change, message):
    batch = mr.make_batch([np.zeros((2, 2), np.uint8), np.zeros((3, 3), np.uint8)])
    change(batch)
    with pytest.raises(ParamError, match=message):
        mr.solve_batch(batch)


def test_bad_boards():
    with pytest.raises(ParamError):
        mr.max_rooks_dfs(np.zeros((0, 3)))
    with pytest.raises(ParamError):
        mr.make_batch([np.full((2, 2), 3)])
    with pytest.raises(ParamError):
        mr.make_batch([np.zeros((2, 2))], board_ids=[1, 2])
