"""U(n), the fundamental N-queens solutions (OEIS A002562), from the symmetric search's classes.

Three ways in: the whole search in-process (the kernel, n <= 16), the work units of the counts
table split any way (the contract), and a pure-Python brute force that shares no code with the
kernel: it lists every solution for n <= 8 and counts their orbits under the 8 symmetries of
the square.
"""

from __future__ import annotations

import random
from decimal import Decimal
from functools import cache

import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

from boardsweep.pipeline.cli import cli
from boardsweep.solvers import nqueens
from boardsweep.solvers.nqueens import tree
from boardsweep.solvers.schema import Flag
from tests.contract_driver import run_in_process

PROBLEM = nqueens.PROBLEM

# OEIS A002562 (fundamental solutions) and A000170 (all solutions), n = 1..16
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955]
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]
U = dict(enumerate(A002562, 1))
Q = dict(enumerate(A000170, 1))


# ---------------------------------------------------------------------------------- brute force


def brute_solutions(n: int) -> list[tuple[int, ...]]:
    """Every solution (row r's column), by plain backtracking over rows."""
    out: list[tuple[int, ...]] = []

    def place(cols: tuple[int, ...]) -> None:
        r = len(cols)
        if r == n:
            out.append(cols)
            return
        for c in range(n):
            if all(c != q and abs(c - q) != r - i for i, q in enumerate(cols)):
                place(cols + (c,))

    place(())
    return out


def images(n: int, sol: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The 8 images of a solution under the rotations and reflections of the square."""
    cells = list(enumerate(sol))
    m = n - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, m - r),
        lambda r, c: (m - r, m - c),
        lambda r, c: (m - c, r),
        lambda r, c: (r, m - c),
        lambda r, c: (m - r, c),
        lambda r, c: (c, r),
        lambda r, c: (m - c, m - r),
    ]
    out = []
    for f in maps:
        board = [0] * n
        for r, c in cells:
            r2, c2 = f(r, c)
            board[r2] = c2
        out.append(tuple(board))
    return out


@cache
def brute_orbits(n: int) -> tuple[int, int, dict[int, int]]:
    """(solutions, orbits, {orbit size: orbits of that size}) by brute force."""
    sols = brute_solutions(n)
    seen: set[tuple[int, ...]] = set()
    sizes: dict[int, int] = {}
    for s in sols:
        if s in seen:
            continue
        orbit = set(images(n, s))
        assert orbit <= set(sols)  # a symmetry maps a solution to a solution
        seen |= orbit
        sizes[len(orbit)] = sizes.get(len(orbit), 0) + 1
    return len(sols), sum(sizes.values()), sizes


@pytest.mark.parametrize("n", range(1, 9))
def test_brute_force_orbits_are_a002562(n):
    solutions, orbits, sizes = brute_orbits(n)
    assert (solutions, orbits) == (Q[n], U[n])
    assert sum(size * k for size, k in sizes.items()) == solutions
    assert set(sizes) <= ({1} if n == 1 else {2, 4, 8})


@pytest.mark.parametrize("n", range(1, 9))
def test_kernel_equals_brute_force(n):
    _, orbits, _ = brute_orbits(n)
    assert nqueens.unique(n)[0] == orbits


# ---------------------------------------------------------------------------------- the kernel


def test_whole_search_gives_a002562_to_16():
    # one in-process search of the kernel per n (n = 16 is ~2 s): Q and U from the same walk
    for n in range(1, 17):
        q, u, _ = tree.whole(n)
        assert (int(q), int(u)) == (Q[n], U[n]), n
    assert nqueens.unique(12) == (U[12], nqueens.total(12)[1])


@pytest.mark.parametrize("n", range(1, 14))
def test_every_unit_of_the_counts_table(n):
    _, units = nqueens.unit_plan(n)
    found, classes, _ = nqueens.count_units(n, 0, units)
    assert (found, classes) == (Q[n], U[n])


@pytest.mark.parametrize("n", [5, 8, 11, 12])
def test_every_split_depth_sums_to_u(n):
    for depth in range(n + 1):
        pre = nqueens.prefixes({"n": n}, depth)
        res = nqueens.count({"n": n}, pre)
        assert res.counts.dtype == np.uint64 and res.counts.shape == (len(pre), 2)
        per = res.counts.astype(object)
        assert int((per[:, 1] * pre.weight).sum()) == U[n], (n, depth)
        assert int((per[:, 0] * pre.weight).sum()) == Q[n], (n, depth)
        # a prefix holds a class iff it holds a solution, at most 8 per class
        assert ((per[:, 1] == 0) == (per[:, 0] == 0)).all()
        assert (per[:, 1] <= per[:, 0]).all() and (per[:, 0] <= 8 * per[:, 1]).all()


def test_full_depth_leaves_count_one_class_each():
    n = 8
    res = nqueens.count({"n": n}, nqueens.prefixes({"n": n}, n))
    sizes = res.counts[:, 0].tolist()
    assert res.counts[:, 1].tolist() == [1 if s else 0 for s in sizes]
    _, _, orbit_sizes = brute_orbits(n)
    assert {s: sizes.count(s) for s in set(sizes) - {0}} == orbit_sizes


def test_a_split_into_several_units_adds_up():
    # n = 14: 1.6k units cut at random places into 7 ranges, U(14) from their sum
    n = 14
    _, units = nqueens.unit_plan(n)
    rng = random.Random(14)
    cuts = sorted(rng.sample(range(1, units), 6))
    bounds = [0, *cuts, units]
    parts = [nqueens.count_units(n, lo, hi) for lo, hi in zip(bounds, bounds[1:], strict=False)]
    assert sum(p[1] for p in parts) == U[n]
    assert sum(p[0] for p in parts) == Q[n]
    assert all(p[1] > 0 for p in parts)  # every range holds classes: the split is real


# ---------------------------------------------------------------------------------- the table


@pytest.mark.parametrize("seed", [0, 1])
def test_random_splits_give_the_unique_column(seed):
    out = run_in_process(PROBLEM, PROBLEM.check_params({"n": "1..13"}), random.Random(seed))
    table = out["counts"]
    assert dict(
        zip(
            table.column("n").to_pylist(),
            map(int, table.column("unique_text").to_pylist()),
            strict=True,
        )
    ) == {n: U[n] for n in range(1, 14)}
    assert table.column("unique").to_pylist() == [Decimal(U[n]) for n in range(1, 14)]


def test_unique_column_sits_beside_q():
    names = PROBLEM.table("counts").compute_schema().names
    assert names == ["n", "count", "count_text", "unique", "unique_text", "nodes"]
    columns = {c.name: c for c in PROBLEM.table("counts").columns}
    assert columns["unique"].role == "count" and columns["unique_text"].role == "count_text"


def test_solve_answer_with_and_without_the_flag():
    solve = PROBLEM.solve
    assert isinstance(PROBLEM.params.fields["unique"].validator, Flag)  # solve's --unique
    args = {"n": 12}
    params = PROBLEM.check_params({**solve.job(args), "unique": True})
    assert params == {"n": (12,), "solutions": False, "unique": True}
    table = run_in_process(PROBLEM, params, random.Random(3))["counts"]
    assert solve.answer(table, args) == "14200"
    assert solve.answer(table, {**args, "unique": True}) == "1787"


def test_command_line_prints_u(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args, out in ((["12", "--unique"], "1787\n"), (["12"], "14200\n")):
        done = CliRunner().invoke(
            cli, ["solve", "nqueens", *args], prog_name="boardsweep", catch_exceptions=False
        )
        assert (done.exit_code, done.stdout) == (0, out), done.stderr
    assert list(tmp_path.iterdir()) == []  # solve leaves nothing behind


def test_report_shows_u_and_reads_tables_without_it():
    out = run_in_process(PROBLEM, PROBLEM.check_params({"n": "1..10"}), random.Random(4))
    table = out["counts"]
    table = table.append_column("units", pa.array([1] * table.num_rows, pa.int64()))
    table = table.append_column("cpu_seconds", pa.array([0.5] * table.num_rows, pa.float64()))
    ((_, frame),) = PROBLEM.report("queens", {"counts": lambda columns=None: table}).tables
    assert frame["U(n)"].tolist() == A002562[:10] and frame["Q(n)"].tolist() == A000170[:10]
    old = table.drop_columns(["unique", "unique_text"])  # published before U(n) existed
    ((_, frame),) = PROBLEM.report("queens", {"counts": lambda columns=None: old}).tables
    assert "U(n)" not in frame and frame["Q(n)"].tolist() == A000170[:10]
