"""Clause learning over the open cells (solvers.slant.learning), forced on at every size.

Checked against a brute force over every filling (small grids), the seed's plain search and
the depth-first search with probing (larger grids, which share only the root with it), and
an independent check of every solution it returns (clues counted, loops looked for in
plain Python)."""

from __future__ import annotations

import numpy as np
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.slant import kernel, learning, state
from tests.solvers.test_slant import (
    BENCH_DATA,
    brute_count,
    dfs_count,
    is_solution,
    random_cases,
    read_seed_text,
)

ALWAYS = np.int64(0)  # learn once the root leaves at least 0 open cells: always
NEVER = np.int64(-1)  # the depth-first search alone


def solve(rows: int, cols: int, clues, learn, max_nodes: int = 0):
    """(solutions found, up to 2; the first solution; open cells the root left; nodes)."""
    ws, st = kernel.make_workspace((rows + 1) * (cols + 1))
    sol = np.empty(rows * cols, np.int64)
    first = np.full(rows * cols, -1, np.int64)
    kernel.reset(ws, st, rows, cols, np.asarray(clues, np.int8))
    found, nodes = kernel.search(
        ws, st, rows, cols, np.int64(2), sol, first, True, np.int64(kernel.CHECK), max_nodes, learn
    )
    opened = int(st[state._NCAND]) if nodes > 1 else 0
    return int(found), sol, opened, int(nodes)


def learn_from_scratch(rows: int, cols: int, clues):
    """(solutions found, the first solution, open cells): clause learning on the bare
    puzzle, every cell open (no rule, class rule or probe first), so that it settles the
    puzzle alone."""
    ws, st = kernel.make_workspace((rows + 1) * (cols + 1))
    sol = np.empty(rows * cols, np.int64)
    kernel.reset(ws, st, rows, cols, np.asarray(clues, np.int8))
    opened = 0
    for i in range(rows * cols):
        if ws[state._CELL, i] < 0:
            ws.block[state._CAND, opened] = i
            ws.block[state._PHASE, i] = i % 2
            opened += 1
    st[state._NCAND] = opened
    found, _ = learning.solve_by_learning(ws, st, rows, cols, np.int64(2), sol, 0, 1)
    return int(found), sol, opened


def test_learning_matches_brute_force():
    rng = np.random.default_rng(2026)
    reached = set()
    for rows, cols, clues in random_cases(rng, 600):
        for run in (learn_from_scratch, lambda r, c, k: solve(r, c, k, ALWAYS)[:3]):
            found, sol, opened = run(rows, cols, clues)
            assert found == min(brute_count(rows, cols, clues), 2), (rows, cols, clues.tolist())
            if found:
                assert is_solution(rows, cols, clues, sol[: rows * cols])
            if opened:
                reached.add(found)
    # the learning search itself (not only the rules) reached every verdict
    assert reached == {slant.NONE, slant.UNIQUE, slant.MULTIPLE}


@pytest.mark.parametrize("n", [5, 6])
def test_learning_matches_the_seeds_search_on_perturbed_puzzles(n):
    rng = np.random.default_rng(100 + n)
    batch = slant.generate(n, 10, seed=n)
    points = (n + 1) ** 2
    opened = 0
    for j in range(10):
        clues = batch["clues"][j * points : (j + 1) * points].copy()
        for kind in range(3):
            c = clues.copy()
            if kind == 0:
                c[rng.random(points) < 0.4] = -1
            elif kind == 1:
                c[rng.integers(points)] = rng.integers(0, 5)
            found, sol, more, _ = solve(n, n, c, ALWAYS)
            assert found == min(dfs_count(n, n, c), 2), c.tolist()
            if found:
                assert is_solution(n, n, c, sol)
            opened += more > 0
    assert opened >= 10


@pytest.mark.parametrize("n, count", [(12, 12), (20, 6), (30, 3)])
def test_learning_matches_the_depth_first_search(n, count):
    """Clues dropped (several solutions, long searches) or changed (often none)."""
    rng = np.random.default_rng(n)
    batch = slant.generate(n, count, seed=n)
    points = (n + 1) ** 2
    verdicts = set()
    for j in range(count):
        clues = batch["clues"][j * points : (j + 1) * points]
        for kind in range(3):
            c = clues.copy()
            if kind == 0:
                c[rng.random(points) < 0.15] = -1
            elif kind == 1:
                c[rng.choice(np.flatnonzero(c >= 0), size=3, replace=False)] = rng.integers(0, 5)
            expected, dfs_sol, _, _ = solve(n, n, c, NEVER)
            for run in (learn_from_scratch, lambda r, k, g: solve(r, k, g, ALWAYS)[:3]):
                found, sol, opened = run(n, n, c)
                assert found == expected
                if found:
                    assert is_solution(n, n, c, sol)
                if found == slant.UNIQUE:
                    assert np.array_equal(sol, dfs_sol)
                if opened:
                    verdicts.add(found)
    assert verdicts == {slant.NONE, slant.UNIQUE, slant.MULTIPLE}


def test_stored_100x100_puzzles_are_unique_by_learning():
    puzzles = read_seed_text((BENCH_DATA / "slant_100.txt").read_text())
    assert len(puzzles) == 15
    for rows, cols, clues in puzzles:
        found, sol, opened, _ = solve(rows, cols, clues, ALWAYS)
        expected, dfs_sol, _, _ = solve(rows, cols, clues, NEVER)
        assert found == expected == slant.UNIQUE
        assert opened > 100  # the root leaves the learning search real work
        assert np.array_equal(sol, dfs_sol)
        assert is_solution(rows, cols, clues, sol)


def test_a_node_budget_stops_the_learning_search():
    n = 12
    clues = slant.generate(n, 1, seed=3)["clues"].copy()
    clues[np.random.default_rng(0).random(clues.shape[0]) < 0.5] = -1
    found, _, opened, nodes = solve(n, n, clues, ALWAYS, max_nodes=3)
    assert opened > 0 and found == -1 and nodes == 4
    found, sol, _, _ = solve(n, n, clues, ALWAYS)
    assert found == slant.MULTIPLE and is_solution(n, n, clues, sol)


def test_the_batch_solver_learns_past_its_threshold_only():
    """solve_batch takes the learning search once the root leaves LEARN_CELLS open cells:
    a puzzle with every clue dropped opens every cell; its verdict and nodes show the path."""
    n = 6
    grid = np.full((n + 1, n + 1), -1, np.int8)
    out = slant.solve_batch(slant.pack([grid]))
    assert int(out["status"][0]) == slant.MULTIPLE
    found, _, opened, nodes = solve(n, n, grid.ravel(), np.int64(kernel.LEARN_CELLS))
    assert opened == n * n >= kernel.LEARN_CELLS
    assert found == slant.MULTIPLE and int(out["nodes"][0]) == nodes


def test_clause_store_grows_and_keeps_every_clause_and_watch():
    rng = np.random.default_rng(4)
    n = 6
    cl, cstart, clen = np.empty(2, np.int64), np.empty(1, np.int64), np.empty(1, np.int64)
    wnext, whead = np.empty(2, np.int64), np.full(2 * n, -1, np.int64)
    counts = np.zeros(2, np.int64)
    stored = []
    for k in range(200):
        m = int(rng.integers(2, 6))
        lits = 2 * rng.choice(n, m, replace=False) + rng.integers(0, 2, m)
        c, cl, cstart, clen, wnext = learning._store(
            cl, cstart, clen, wnext, whead, counts, lits.astype(np.int64), m
        )
        assert c == k
        stored.append(lits.tolist())
    assert cl.shape[0] >= counts[1] == sum(map(len, stored)) and counts[0] == 200
    for c, lits in enumerate(stored):
        assert cl[cstart[c] : cstart[c] + clen[c]].tolist() == lits
    watched = []
    for lit in range(2 * n):
        node = whead[lit]
        while node >= 0:
            c, k = divmod(int(node), 2)
            assert stored[c][k] == lit
            watched.append(node)
            node = wnext[node]
    assert sorted(watched) == list(range(400))
