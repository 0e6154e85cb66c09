"""Slant solver and generator against a plain-Python brute force and known answers."""

from __future__ import annotations

import functools
import itertools
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardsweep.solvers import slant
from boardsweep.solvers.schema import ParamError

# ---------------------------------------------------------------------------------------------
# plain-Python reference: counts and loops written out, no shared code with the solver


def touches(rows: int, cols: int, fill: list[int]) -> list[int]:
    """How many slashes touch each point (row-major over the (rows+1) x (cols+1) points)."""
    width = cols + 1
    count = [0] * ((rows + 1) * width)
    for r in range(rows):
        for c in range(cols):
            if fill[r * cols + c] == 1:  # '\' joins (r, c) and (r+1, c+1)
                count[r * width + c] += 1
                count[(r + 1) * width + c + 1] += 1
            else:  # '/' joins (r, c+1) and (r+1, c)
                count[r * width + c + 1] += 1
                count[(r + 1) * width + c] += 1
    return count


def has_loop(rows: int, cols: int, fill: list[int]) -> bool:
    """Whether the slashes, as edges between points, contain a cycle (graph search)."""
    width = cols + 1
    adjacent: dict[int, list[int]] = {}
    for r in range(rows):
        for c in range(cols):
            if fill[r * cols + c] == 1:
                a, b = r * width + c, (r + 1) * width + c + 1
            else:
                a, b = r * width + c + 1, (r + 1) * width + c
            adjacent.setdefault(a, []).append(b)
            adjacent.setdefault(b, []).append(a)
    seen: set[int] = set()
    for start in adjacent:
        if start in seen:
            continue
        # a connected component is a tree iff edges == vertices - 1
        component, stack = {start}, [start]
        while stack:
            for nxt in adjacent[stack.pop()]:
                if nxt not in component:
                    component.add(nxt)
                    stack.append(nxt)
        seen |= component
        edges = sum(len(adjacent[p]) for p in component) // 2
        if edges != len(component) - 1:
            return True
    return False


def is_solution(rows: int, cols: int, clues, fill) -> bool:
    """Every clue holds and there is no loop."""
    fill = [int(v) for v in fill]
    if len(fill) != rows * cols or any(v not in (0, 1) for v in fill):
        return False
    count = touches(rows, cols, fill)
    if any(k >= 0 and k != n for k, n in zip((int(k) for k in clues), count, strict=True)):
        return False
    return not has_loop(rows, cols, fill)


def dfs_count(rows: int, cols: int, clues, cap: int = 2) -> int:
    """Solutions up to ``cap`` by the seed's search: row-major cells, ``\\`` then ``/``."""
    width = cols + 1
    need = [int(k) for k in clues]
    fill = [-1] * (rows * cols)
    count = 0

    def joined(a: int, b: int) -> bool:
        # walk the slashes placed so far from a, looking for b
        seen, stack = {a}, [a]
        while stack:
            q = stack.pop()
            if q == b:
                return True
            y, x = divmod(q, width)
            for r, c, v, o in (
                (y - 1, x - 1, 1, q - width - 1),
                (y - 1, x, 0, q - width + 1),
                (y, x - 1, 0, q + width - 1),
                (y, x, 1, q + width + 1),
            ):
                if 0 <= r < rows and 0 <= c < cols and fill[r * cols + c] == v and o not in seen:
                    seen.add(o)
                    stack.append(o)
        return False

    def place(k: int) -> bool:
        nonlocal count
        if k == rows * cols:
            count += 1
            return count >= cap
        r, c = divmod(k, cols)
        tl = r * width + c
        for v in (1, 0):
            a, b = (tl, tl + width + 1) if v == 1 else (tl + 1, tl + width)
            if need[a] == 0 or need[b] == 0 or joined(a, b):
                continue
            for p in (a, b):
                need[p] -= need[p] > 0
            fill[k] = v
            # the points this cell completes must have met their clues
            done = [tl]
            done += [tl + 1] if c == cols - 1 else []
            done += [tl + width] if r == rows - 1 else []
            done += [tl + width + 1] if r == rows - 1 and c == cols - 1 else []
            if all(need[p] <= 0 for p in done) and place(k + 1):
                return True
            fill[k] = -1
            for p in (a, b):
                need[p] += int(clues[p]) >= 0
        return False

    place(0)
    return count


@functools.cache
def all_fillings(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Every loop-free filling (as rows of slashes) and its touch counts."""
    good, counts = [], []
    for fill in itertools.product((0, 1), repeat=rows * cols):
        if not has_loop(rows, cols, list(fill)):
            good.append(fill)
            counts.append(touches(rows, cols, list(fill)))
    return np.array(good, dtype=np.int8), np.array(counts, dtype=np.int8)


def brute_count(rows: int, cols: int, clues: np.ndarray) -> int:
    """Number of solutions, by trying every filling."""
    _, counts = all_fillings(rows, cols)
    ok = np.all((clues < 0) | (counts == clues), axis=1)
    return int(ok.sum())


def solve_one(rows: int, cols: int, clues) -> tuple[int, np.ndarray, int]:
    """Status, solution and nodes of one puzzle through the public batch interface."""
    grid = np.asarray(clues, dtype=np.int8).reshape(rows + 1, cols + 1)
    out = slant.solve_batch(slant.pack([grid]))
    lo, hi = out["solution_offsets"][0], out["solution_offsets"][1]
    return int(out["status"][0]), out["solution"][lo:hi], int(out["nodes"][0])


def random_cases(rng: np.random.Generator, count: int):
    """Small clue sets: masked true counts (solvable), perturbed ones, and pure noise."""
    for k in range(count):
        rows, cols = int(rng.integers(1, 5)), int(rng.integers(1, 5))
        points = (rows + 1) * (cols + 1)
        if k % 3 == 2:
            clues = rng.integers(0, 5, points).astype(np.int8)
            clues[rng.random(points) < rng.uniform(0.3, 0.9)] = -1
        else:
            fill, _ = all_fillings(rows, cols)
            clues = touches(rows, cols, list(fill[rng.integers(len(fill))]))
            clues = np.array(clues, dtype=np.int8)
            clues[rng.random(points) < rng.uniform(0.2, 0.9)] = -1
            if k % 3 == 1:
                clues[rng.integers(points)] = rng.integers(0, 5)
        yield rows, cols, clues


# ---------------------------------------------------------------------------------------------
# the reference itself


def test_references_agree():
    rng = np.random.default_rng(7)
    for rows, cols, clues in random_cases(rng, 60):
        assert dfs_count(rows, cols, clues) == min(brute_count(rows, cols, clues), 2)


def test_reference_on_known_fillings():
    # a 2x2 diamond ('/\' over '\/') is a loop; an X is not
    assert has_loop(2, 2, [0, 1, 1, 0])
    assert not has_loop(2, 2, [1, 0, 0, 1])
    assert touches(1, 1, [1]) == [1, 0, 0, 1]
    # 2^(n*n) fillings minus those with a loop: only the diamond has one on 2x2
    assert len(all_fillings(2, 2)[0]) == 15


# ---------------------------------------------------------------------------------------------
# solver


def test_verdicts_match_brute_force():
    rng = np.random.default_rng(11694)
    seen = set()
    cases = list(random_cases(rng, 360))
    batch = slant.pack([c.reshape(r + 1, k + 1) for r, k, c in cases])
    out = slant.solve_batch(batch)
    assert out["status"].dtype == np.uint8 and out["nodes"].dtype == np.int64
    for j, (rows, cols, clues) in enumerate(cases):
        expected = min(brute_count(rows, cols, clues), 2)
        status = int(out["status"][j])
        assert status == expected, (rows, cols, clues.tolist())
        lo, hi = out["solution_offsets"][j], out["solution_offsets"][j + 1]
        if status == slant.NONE:
            assert hi == lo
        else:
            assert is_solution(rows, cols, clues, out["solution"][lo:hi])
        assert out["nodes"][j] >= 1
        seen.add(status)
    assert seen == {slant.NONE, slant.UNIQUE, slant.MULTIPLE}
    # the smallest check budget changes the path through the search, never the answers
    assert slant.solve_batch(batch, check=1)["status"].tolist() == out["status"].tolist()


def test_one_workspace_for_a_batch_leaks_nothing_between_puzzles():
    """A batch shares one workspace (size tables kept while the size stays): every puzzle's
    verdict, solution and nodes equal those of the puzzle solved alone, in either entry
    point, with sizes changing back and forth and unsolvable puzzles in between."""
    rng = np.random.default_rng(2026)
    cases = list(random_cases(rng, 90))
    cases += [(5, 5, slant.generate(5, 1, 3)["clues"]), cases[0], (1, 1, cases[0][2][:4])]
    batch = slant.pack([c.reshape(r + 1, k + 1) for r, k, c in cases])
    together = slant.solve_batch(batch)
    each = slant.solve_each(batch)
    for key in ("status", "solution_offsets", "solution", "nodes"):
        assert each[key].tolist() == together[key].tolist(), key
    calls = slant._Run(batch, slant.CHECK)  # one call per puzzle, in reverse order
    solve = calls.each()
    for j in reversed(range(len(cases))):
        solve(j)
    for key in ("status", "solution_offsets", "solution", "nodes"):
        assert calls.result()[key].tolist() == together[key].tolist(), key
    assert each["seconds"].shape == (len(cases),) and np.all(each["seconds"] >= 0)
    for j, (rows, cols, clues) in enumerate(cases):
        status, solution, nodes = solve_one(rows, cols, clues)
        lo, hi = together["solution_offsets"][j], together["solution_offsets"][j + 1]
        assert (int(together["status"][j]), int(together["nodes"][j])) == (status, nodes), j
        assert together["solution"][lo:hi].tolist() == solution.tolist(), j
    assert set(together["status"].tolist()) == {slant.NONE, slant.UNIQUE, slant.MULTIPLE}


def _in_a_new_thread(batch):
    """solve_batch in a thread of its own, which starts with no workspace."""
    out = []
    worker = threading.Thread(target=lambda: out.append(slant.solve_batch(batch)))
    worker.start()
    worker.join()
    return out[0]


def test_batches_in_one_thread_share_its_workspace_and_leak_nothing():
    """A thread keeps its workspace from batch to batch (grown when a batch needs more):
    every batch's answers equal those of the batch solved in a fresh thread."""
    rng = np.random.default_rng(7)
    small = [(r, k, c) for r, k, c in random_cases(rng, 30)]
    thinned = slant.generate(12, 2, 5)  # clues taken away: many solutions, a real search
    thinned["clues"] = np.where(
        rng.random(thinned["clues"].shape[0]) < 0.3, -1, thinned["clues"]
    ).astype(np.int8)
    batches = [
        slant.pack([c.reshape(r + 1, k + 1) for r, k, c in small[:15]]),
        thinned,
        slant.generate(4, 3, 6),
        thinned,
        slant.pack([c.reshape(r + 1, k + 1) for r, k, c in small[15:]]),
        slant.generate(12, 1, 8),
    ]
    held = []
    for batch in batches:
        got = slant.solve_batch(batch)
        held.append(slant._HELD.workspace[0])
        alone = _in_a_new_thread(batch)
        for key in ("status", "solution_offsets", "solution", "nodes"):
            assert got[key].tolist() == alone[key].tolist(), key
    assert held[1] is held[2] is held[3] is held[4] is held[5]  # made for 12 x 12, then kept
    assert held[0].shape[1] < held[1].shape[1]


@settings(max_examples=60, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    data=st.data(),
)
def test_random_clue_grids(shape, data):
    rows, cols = shape
    clues = np.array(
        data.draw(
            st.lists(
                st.integers(-1, 4),
                min_size=(rows + 1) * (cols + 1),
                max_size=(rows + 1) * (cols + 1),
            )
        ),
        dtype=np.int8,
    )
    status, sol, _ = solve_one(rows, cols, clues)
    assert status == min(brute_count(rows, cols, clues), 2)
    if status != slant.NONE:
        assert is_solution(rows, cols, clues, sol)


@pytest.mark.parametrize("n", [5, 6])
def test_verdicts_on_perturbed_puzzles(n):
    """Generated puzzles with clues dropped or changed, against the seed's search; tiny
    check budgets drive every path of the search loop, never the answers."""
    rng = np.random.default_rng(n)
    batch = slant.generate(n, 12, seed=n)
    points = (n + 1) * (n + 1)
    grids, expected = [], []
    for j in range(12):
        clues = batch["clues"][j * points : (j + 1) * points].copy()
        for kind in range(3):
            c = clues.copy()
            if kind == 0:
                c[rng.choice(np.flatnonzero(c >= 0), size=rng.integers(1, 3), replace=False)] = -1
            elif kind == 1:
                c[rng.integers(points)] = rng.integers(0, 5)
            grids.append(c.reshape(n + 1, n + 1))
            expected.append(min(dfs_count(n, n, c), 2))
    assert set(expected) == {slant.NONE, slant.UNIQUE, slant.MULTIPLE}
    for limits in ({}, {"check": 1}, {"check": 5}):
        out = slant.solve_batch(slant.pack(grids), **limits)
        assert out["status"].tolist() == expected
        for j, grid in enumerate(grids):
            if expected[j]:
                sol = out["solution"][out["solution_offsets"][j] : out["solution_offsets"][j + 1]]
                assert is_solution(n, n, grid.ravel(), sol)


@pytest.mark.parametrize(
    "rows, cols, clues, status, solution",
    [
        (1, 1, [1, -1, -1, -1], slant.UNIQUE, "\\"),
        (1, 1, [-1, 1, -1, -1], slant.UNIQUE, "/"),
        (1, 1, [-1] * 4, slant.MULTIPLE, None),
        (1, 1, [1, 1, -1, -1], slant.NONE, None),
        (2, 2, [-1, -1, -1, -1, 0, -1, -1, -1, -1], slant.NONE, None),  # only a diamond: a loop
        (2, 2, [-1, -1, -1, -1, 4, -1, -1, -1, -1], slant.UNIQUE, "\\//\\"),
        (1, 2, [-1, 3, -1, -1, -1, -1], slant.NONE, None),  # a clue above its point's cells
    ],
)
def test_known_small_puzzles(rows, cols, clues, status, solution):
    got, sol, _ = solve_one(rows, cols, clues)
    assert got == status
    if solution is not None:
        assert "".join("\\" if v else "/" for v in sol) == solution


SEED_SAMPLE = [
    (3, ["1.1.", "...0", ".3..", "..2."], ["\\//", "\\\\\\", "/\\/"]),
    (
        5,
        [".21...", "..33.0", "......", "..33..", "0..33.", "....11"],
        ["/\\\\//", "//\\\\\\", "\\\\\\//", "\\/\\\\/", "///\\\\"],
    ),
]


def test_seed_sample_answers():
    grids = [
        [[-1 if ch == "." else int(ch) for ch in row] for row in rows] for _, rows, _ in SEED_SAMPLE
    ]
    out = slant.solve_batch(slant.pack(grids))
    assert out["status"].tolist() == [slant.UNIQUE, slant.UNIQUE]
    for j, (n, _, answer) in enumerate(SEED_SAMPLE):
        sol = out["solution"][out["solution_offsets"][j] : out["solution_offsets"][j + 1]]
        text = ["".join("\\" if v else "/" for v in sol[r * n : (r + 1) * n]) for r in range(n)]
        assert text == answer


def test_empty_batch():
    out = slant.solve_batch(slant.pack([]))
    assert out["status"].shape == (0,) and out["solution_offsets"].tolist() == [0]


def test_bad_batches_are_refused():
    good = slant.pack([np.full((3, 3), -1)])
    with pytest.raises(ValueError, match="clues must lie in -1..4"):
        slant.solve_batch({**good, "clues": np.full(9, 5, dtype=np.int8)})
    with pytest.raises(ValueError, match="offsets"):
        slant.solve_batch({**good, "offsets": np.array([0, 8])})
    with pytest.raises(ValueError, match="lacks column 'clues'"):
        slant.solve_batch({k: v for k, v in good.items() if k != "clues"})
    with pytest.raises(ValueError, match="at least one row"):
        slant.solve_batch({**good, "rows": np.array([0], dtype=np.int32)})
    with pytest.raises(ParamError, match="unknown option"):
        slant.solve_batch(good, limit=3)
    with pytest.raises(ParamError, match=">= 1"):
        slant.solve_batch(good, check=0)


def test_module_interface():
    assert slant.to_text(np.array([0, 1, 1, 0], dtype=np.uint8)) == "/\\\\/"
    assert slant.PROBLEM.instances is not None and len(slant.PROBLEM.version) == 16
    assert slant.STATUS_NAMES == ("none", "unique", "multiple")
    assert set(slant.__all__) <= set(dir(slant))


# ---------------------------------------------------------------------------------------------
# generator


def test_generated_puzzles_are_unique_and_minimal():
    """Brute force: one solution, and dropping any remaining clue lets in a second."""
    for rows, cols in [(3, 3), (4, 4), (2, 4)]:
        batch = slant.generate(cols, 4, seed=5, rows=rows)
        for j in range(4):
            clues = batch["clues"][batch["offsets"][j] : batch["offsets"][j + 1]].copy()
            assert brute_count(rows, cols, clues) == 1
            for p in np.flatnonzero(clues >= 0):
                fewer = clues.copy()
                fewer[p] = -1
                assert brute_count(rows, cols, fewer) >= 2


def test_generated_batch_layout_and_uniqueness():
    batch = slant.generate(10, 6, seed=3, start=40, rows=7)
    assert batch["puzzle_id"].tolist() == list(range(40, 46))
    assert batch["rows"].dtype == np.int32 and batch["cols"].dtype == np.int32
    assert batch["offsets"].dtype == np.int64 and batch["clues"].dtype == np.int8
    assert batch["rows"].tolist() == [7] * 6 and batch["cols"].tolist() == [10] * 6
    assert batch["offsets"].tolist() == [88 * j for j in range(7)]
    out = slant.solve_batch(batch)
    assert out["status"].tolist() == [slant.UNIQUE] * 6
    for j in range(6):
        clues = batch["clues"][88 * j : 88 * (j + 1)]
        sol = out["solution"][70 * j : 70 * (j + 1)]
        assert is_solution(7, 10, clues, sol)
        assert 0 < (clues >= 0).sum() < 88


def test_generation_is_reproducible_and_split_independent():
    whole = slant.generate(6, 5, seed=9)
    parts = [slant.generate(6, 2, seed=9), slant.generate(6, 3, seed=9, start=2)]
    assert np.array_equal(whole["clues"], np.concatenate([p["clues"] for p in parts]))
    assert np.array_equal(whole["clues"], slant.generate(6, 5, seed=9)["clues"])
    assert not np.array_equal(whole["clues"], slant.generate(6, 5, seed=10)["clues"])


def test_generator_refuses_bad_sizes():
    with pytest.raises(ValueError, match="rows, cols >= 1"):
        slant.generate(0, 1, seed=1)
    with pytest.raises(ValueError, match="seed"):
        slant.generate(3, 1, seed=-1)


# ---------------------------------------------------------------------------------------------
# the stored benchmark sets (benchmarks/data, read by benchmarks/slant_kernel.py)

BENCH_DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


def read_seed_text(text: str) -> list[tuple[int, int, np.ndarray]]:
    """Puzzles of a seed-format file as (rows, cols, clues), read without the pipeline."""
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    count, at, out = int(lines[0]), 1, []
    for _ in range(count):
        n = int(lines[at])
        rows = lines[at + 1 : at + n + 2]
        assert all(len(r) == n + 1 for r in rows)
        clues = np.array([-1 if ch == "." else int(ch) for r in rows for ch in r], dtype=np.int8)
        out.append((n, n, clues))
        at += n + 2
    assert at == len(lines)
    return out


@pytest.mark.parametrize("n", [5, 7, 10, 20, 50, 100])
def test_stored_benchmark_puzzles_are_unique(n):
    """Every stored benchmark puzzle is unique, and its solution passes the plain checker."""
    puzzles = read_seed_text((BENCH_DATA / f"slant_{n}.txt").read_text())
    assert puzzles and all(rows == n for rows, _, _ in puzzles)
    out = slant.solve_batch(slant.pack([c.reshape(r + 1, k + 1) for r, k, c in puzzles]))
    assert out["status"].tolist() == [slant.UNIQUE] * len(puzzles)
    for j, (rows, cols, clues) in enumerate(puzzles):
        sol = out["solution"][out["solution_offsets"][j] : out["solution_offsets"][j + 1]]
        assert is_solution(rows, cols, clues, sol)
        assert 0 < (clues >= 0).sum() < clues.size
