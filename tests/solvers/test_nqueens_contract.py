"""nqueens through the contract: work units, splits, tables, judge, solve, report."""

from __future__ import annotations

import io
import math
import random
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.pipeline.cli import _solve_flags
from boardsweep.solvers import nqueens, prefix_count
from boardsweep.solvers.nqueens import constellations, tree
from boardsweep.solvers.nqueens import format as fmt
from boardsweep.solvers.prefixes import interleave, prefix_numbers
from boardsweep.solvers.schema import Integer, ParamError
from tests.contract_checks import assert_param_error_at, report_of_one_table
from tests.contract_driver import run_in_process

PROBLEM = nqueens.PROBLEM
DATA = Path(__file__).resolve().parents[2] / "data"

# OEIS A000170, n = 1..13
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]


def job(**raw) -> dict:
    return PROBLEM.check_params(raw)


def counts_of(table: pa.Table) -> dict[int, int]:
    return dict(
        zip(
            table.column("n").to_pylist(),
            map(int, table.column("count_text").to_pylist()),
            strict=True,
        )
    )


# ---------------------------------------------------------------------------------- counts


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_random_splits_give_oeis(seed):
    out = run_in_process(PROBLEM, job(n="1..13"), random.Random(seed))
    assert list(out) == ["counts"]
    assert counts_of(out["counts"]) == dict(enumerate(A000170, 1))
    assert out["counts"].column("count").to_pylist() == [Decimal(q) for q in A000170]


def test_nodes_do_not_depend_on_the_split():
    whole = run_in_process(PROBLEM, job(n=[12, 13]))["counts"]
    for seed in range(3):
        cut = run_in_process(PROBLEM, job(n=[12, 13]), random.Random(seed))["counts"]
        assert cut.equals(whole)


def test_unit_plan_depends_on_n_alone():
    alone = {p.params["n"]: p for p in PROBLEM.points(job(n=12), "counts")}
    among = {p.params["n"]: p for p in PROBLEM.points(job(n="8..13", solutions=True), "counts")}
    assert alone[12] == among[12]
    assert alone[12].units == nqueens.unit_plan(12)[1]
    assert alone[12].seconds == nqueens.cost(12) and alone[12].label == "n=12"
    assert [p.params["n"] for p in among.values()] == list(range(8, 14))


def orbits_of_borders(n: int) -> int:
    """Classes under the 8 symmetries of the square of the border placements of side n (one
    queen on each border line, no two attacking), by brute force in Python: the depth-0 units
    (constellations) counted without the kernel."""
    last = n - 1
    seen, classes = set(), 0
    for t in range(n):
        for b in range(n):
            for left in range(n):
                for right in range(n):
                    queens = {(0, t), (last, b), (left, 0), (right, last)}
                    if any(
                        qr == pr or qc == pc or abs(qr - pr) == abs(qc - pc)
                        for qr, qc in queens
                        for pr, pc in queens
                        if (qr, qc) < (pr, pc)
                    ):
                        continue
                    if not (
                        {r for r, _ in queens} >= {0, last}
                        and len([1 for r, c in queens if c == 0]) == 1
                        and len([1 for r, c in queens if c == last]) == 1
                        and len([1 for r, c in queens if r == 0]) == 1
                        and len([1 for r, c in queens if r == last]) == 1
                    ):
                        continue
                    key = frozenset(queens)
                    if key in seen:
                        continue
                    classes += 1
                    for _ in range(2):
                        for _ in range(4):
                            seen.add(key)
                            key = frozenset((c, last - r) for r, c in key)
                        key = frozenset((c, r) for r, c in key)
    return classes


def test_depth_zero_units_are_the_classes_of_border_placements():
    for n in (4, 5, 6, 8, 12):
        assert len(constellations.units(n, 0)[0]) == orbits_of_borders(n)
    assert orbits_of_borders(16) == 3206


def test_unit_plan_rule():
    # the smallest depth with max(1024, cost / 0.05 s) units; the depth with the most units when
    # none reaches it; depth 0 with one (empty) unit when there is no constellation
    assert [nqueens.unit_plan(n) for n in (1, 2, 3)] == [(0, 1)] * 3
    assert nqueens.unit_plan(8) == (1, 138)
    assert nqueens.unit_plan(12) == (1, 3680)
    assert nqueens.unit_plan(16) == (0, 3206)  # 3206: orbits_of_borders(16), the test above
    assert nqueens.unit_plan(17) == (0, 4319)
    assert nqueens.unit_plan(18) == (0, 5728)
    assert nqueens.unit_plan(20) == (1, 119400)
    for n in (8, 12, 16, 17, 18, 20):
        depth, units = nqueens.unit_plan(n)
        target = max(nqueens.MIN_UNITS, nqueens.cost(n) / prefix_count.UNIT_SECONDS)
        listed = [len(constellations.units(n, d)[0]) for d in range(depth + 1)]
        assert listed[depth] == units  # the listing agrees with the counting walk
        assert all(k < target for k in listed[:depth])
        if n > 8:
            assert units >= target
        else:  # no depth reaches the target: the one with the most units
            assert units == max(len(constellations.units(n, d)[0]) for d in range(n + 1))


def test_unit_plan_of_large_boards_is_capped_and_never_lists_the_units():
    # cost(24) ~ 9e6 s would want 1.8e8 units; depth 4 has more than 3e8
    assert nqueens.unit_plan(24) == (3, 59506456)
    # 59,506,456 and 180,103,175 (and 138, 3,680 and 119,400 above, at depth 1) were also
    # counted by an odometer over the first inner rows' columns of each canonical constellation
    # in its searched image, every pair of queens checked by coordinates, without select or
    # setup (too slow to run here); the images are walk_score's, so they change with it
    assert nqueens.unit_plan(27) == (3, 180103175)
    assert nqueens._units(27, 4, nqueens.MAX_UNITS) > nqueens.MAX_UNITS
    _, units = nqueens.unit_plan(27)
    got, stabs = nqueens.unit_prefixes(27, units // 2, units // 2 + 5)
    assert got.shape == (5, 7) and stabs.shape == (5,)
    for row, stab in zip(got.tolist(), stabs.tolist(), strict=True):
        t, b, left, right, *cols = row  # border and inner queens: no two share a column
        assert all(0 <= v < 27 for v in row) and stab & 1
        assert len({t, b, *cols}) == 5 and {0, 26}.isdisjoint(cols)


@pytest.mark.parametrize("n", [10, 12, 14])
def test_a_unit_range_split_in_two_sums_to_the_whole(n):
    _, units = nqueens.unit_plan(n)
    whole = nqueens.count_units(n, 0, units)
    assert whole[0] == nqueens.total(n)[0]
    rng = random.Random(n)
    for cut in [0, 1, units // 2, units - 1, units, *rng.sample(range(units), 3)]:
        a, b = nqueens.count_units(n, 0, cut), nqueens.count_units(n, cut, units)
        assert (a[0] + b[0], a[1] + b[1], a[2] + b[2]) == whole
    lo, hi = sorted(rng.sample(range(units + 1), 2))
    mid = (lo + hi) // 2
    a, b = nqueens.count_units(n, lo, mid), nqueens.count_units(n, mid, hi)
    assert tuple(map(sum, zip(a, b, strict=True))) == nqueens.count_units(n, lo, hi)


def test_bad_unit_ranges_are_refused():
    _, units = nqueens.unit_plan(10)
    for lo, hi in [(-1, 2), (3, 2), (0, units + 1)]:
        with pytest.raises(ValueError):
            nqueens.count_units(10, lo, hi)


# ---------------------------------------------------------------------------------- selection


@pytest.mark.parametrize("units", [1, 2, 3, 10, 64, 92, 1031, 221593, 289262952])
def test_interleave_is_a_bijection_spreading_neighbours(units):
    g, g_inv = interleave(units)
    assert math.gcd(g, units) == 1 and g * g_inv % units == 1 % units
    assert abs(g - 0.618 * units) <= max(2, 0.01 * units)
    if units <= 250_000:
        assert sorted(prefix_numbers(units, 0, units).tolist()) == list(range(units))


@pytest.mark.parametrize("n", range(4, 12))
def test_selection_kernel_equals_a_numpy_selection(n):
    rng = random.Random(n)
    for depth in range(1, min(n, 6) + 1):
        every = nqueens.prefixes({"n": n}, depth).choices.astype(np.int64)
        total = len(every)
        for _ in range(4):
            lo, hi = sorted(rng.sample(range(total + 1), 2)) if total else (0, 0)
            wanted = np.sort(
                (np.arange(lo, hi, dtype=np.int64) * interleave(max(total, 1))[0]) % max(total, 1)
            )
            out = np.full((hi - lo, depth), -7, np.int64)
            walked, kept = tree.select(n, depth, wanted, total, out)
            assert (walked, kept) == (total, hi - lo)
            assert (out == every[wanted]).all()


@pytest.mark.parametrize("n", [8, 11, 13, 16])
def test_unit_prefixes_are_the_interleaved_units(n):
    depth, units = nqueens.unit_plan(n)
    every, every_stabs = constellations.units(n, depth)
    g, _ = interleave(units)
    rng = random.Random(n)
    for lo, hi in [(0, units), (0, 1), (units - 1, units), sorted(rng.sample(range(units), 2))]:
        got, stabs = nqueens.unit_prefixes(n, lo, hi)
        want = np.sort([u * g % units for u in range(lo, hi)]).astype(np.int64)
        assert got.shape == (hi - lo, 4 + depth) and (got == every[want]).all()
        assert (stabs == every_stabs[want]).all()


@pytest.mark.parametrize("n", [13, 14])
def test_a_random_partition_of_the_units_gives_oeis(n):
    # OEIS A000170 and A002562 at n = 13, 14: Q and U, summed over random unit ranges
    want = {13: (73712, 9233), 14: (365596, 45752)}[n]
    _, units = nqueens.unit_plan(n)
    rng = random.Random(n)
    cuts = [0, *sorted(rng.sample(range(1, units), 6)), units]
    parts = [nqueens.count_units(n, lo, hi) for lo, hi in zip(cuts, cuts[1:], strict=False)]
    assert (sum(p[0] for p in parts), sum(p[1] for p in parts)) == want


def test_compute_never_lists_every_prefix(monkeypatch):
    def refuse(*args):
        raise AssertionError("compute listed every unit")

    monkeypatch.setattr(nqueens, "prefixes", refuse)
    monkeypatch.setattr(constellations, "units", refuse)
    point = PROBLEM.points(job(n=13), "counts")[0]
    first = PROBLEM.compute(point, 0, 100)
    rest = PROBLEM.compute(point, 100, point.units)
    assert int(first["count_text"][0].as_py()) + int(rest["count_text"][0].as_py()) == 73712


def test_the_walk_stops_at_its_cap():
    walked, kept = tree.select(16, 4, np.zeros(0, np.int64), 100, np.zeros((0, 4), np.int64))
    assert 100 < walked < 164 and kept == 0


# ---------------------------------------------------------------------------------- solutions


@pytest.mark.parametrize("n", range(1, 11))
def test_solution_units_concatenate_to_the_lexicographic_enumeration(n):
    want = nqueens.solutions(n)
    for seed in range(3):
        out = run_in_process(PROBLEM, job(n=n, solutions=True), random.Random(seed))
        assert list(out) == ["counts", "solutions"]
        table = out["solutions"]
        assert table.column("n").to_pylist() == [n] * len(want)
        assert table.column("solution").to_pylist() == want.tolist()


def test_solution_units_depend_on_n_alone():
    assert [nqueens.solution_depth(n) for n in (1, 7, 8, 11, 12, 14, 15, 32)] == [
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
    ]
    points = PROBLEM.points(job(n=[6, 9, 12, 16], solutions=True), "solutions")
    assert [p.units for p in points] == [1, 9, 110, 2236]
    assert points[2] == PROBLEM.points(job(n=12, solutions=True), "solutions")[0]
    prefixes = nqueens.solution_prefixes(12)
    assert [tuple(r) for r in prefixes.tolist()] == sorted(
        (a, b) for a in range(12) for b in range(12) if abs(a - b) > 1
    )


def test_solutions_of_several_boards_in_point_order():
    out = run_in_process(PROBLEM, job(n=[8, 5, 6], solutions=True), random.Random(5))
    table = out["solutions"]
    assert table.column("n").to_pylist() == [5] * 10 + [6] * 4 + [8] * 92
    assert table.column("solution").to_pylist()[:10] == nqueens.solutions(5).tolist()


def test_no_solutions_table_unless_asked():
    assert PROBLEM.outputs(job(n=8)) == ("counts",)
    assert PROBLEM.outputs(job(n=8, solutions=False)) == ("counts",)
    assert PROBLEM.outputs(job(n=8, solutions=True)) == ("counts", "solutions")


# ---------------------------------------------------------------------------------- judge


def judged(text: str, seed: int = 0, chunk: int = 3) -> bytes:
    params = PROBLEM.check_params(PROBLEM.seed_format.read(text))
    out = run_in_process(PROBLEM, params, random.Random(seed))
    tables = {name: iter(table.to_batches(max_chunksize=chunk)) for name, table in out.items()}
    notes: list[str] = []
    data = b"".join(PROBLEM.seed_format.answer(tables, params, notes.append))
    assert notes == []
    return data


def test_judge_reproduces_the_seed_sample():
    text = (DATA / "nqueens_sample.txt").read_text()
    want = (DATA / "nqueens_sample.out").read_bytes()
    for seed in range(3):
        assert judged(text, seed) == want


@pytest.mark.parametrize("n", [1, 2, 3, 6, 9])
def test_judge_streams_every_solution_in_order(n):
    assert judged(f"{n}\n", seed=n, chunk=7) == fmt.render(n, nqueens.solutions(n))


def test_judge_write_holds_one_batch_at_a_time():
    params = PROBLEM.check_params({"n": 8, "solutions": True})
    rows = nqueens.solutions(8)
    batches = (
        nqueens.solutions_table(8, rows[i : i + 10]).to_batches()[0] for i in range(0, 92, 10)
    )
    pieces = list(
        PROBLEM.seed_format.answer({"solutions": batches, "counts": iter(())}, params, print)
    )
    assert len(pieces) == 10 and b"".join(pieces) == fmt.render(8, rows)


def test_judge_read_refuses_bad_input():
    from boardsweep.solvers.contract import FormatError

    with pytest.raises(FormatError) as caught:
        PROBLEM.seed_format.read("8\n9\n")
    assert caught.value.line == 2


# ---------------------------------------------------------------------------------- solve


def test_solve_command():
    solve = PROBLEM.solve
    ((name, validator, _),) = solve.arguments
    assert name == "n" and validator == Integer(1, nqueens.MAX_N)
    args = {"n": validator.parse("10")}
    params = PROBLEM.check_params(solve.job(args))
    assert params == {"n": (10,), "solutions": False, "unique": False}
    table = run_in_process(PROBLEM, params, random.Random(1))["counts"]
    assert solve.answer(table, args) == "724"
    # `solve` takes the params' flags: --solutions PATH (a flag named after a table), --unique
    assert _solve_flags(PROBLEM) == (["solutions"], ["unique"])
    with pytest.raises(ParamError) as caught:
        validator.parse("33", ("n",))
    assert caught.value.key == ("n",)


# ---------------------------------------------------------------------------------- params


@pytest.mark.parametrize(
    "raw, key, message",
    [
        ({"n": 40}, ("n",), "40 is out of range"),
        ({"n": [4, 40]}, ("n", 1), "40 is out of range"),
        ({"n": [4, 4]}, ("n", 1), "twice"),
        ({"n": "0..8"}, ("n",), "out of range"),
        ({"n": "8.5"}, ("n",), "expected"),
        ({"n": 8, "solutions": "yes"}, ("solutions",), "true or false"),
        ({"n": 8, "extra": 1}, ("extra",), "unknown key"),
        ({}, (), "missing key 'n'"),
        ([8], (), "expected"),
    ],
)
def test_param_errors_carry_their_key_path(raw, key, message):
    assert_param_error_at(PROBLEM, raw, key, message, ("jobs", 3))


def test_messages_read_well_after_the_key():
    with pytest.raises(ParamError) as caught:
        PROBLEM.check_params({"n": 40})
    assert str(caught.value).startswith("'n': 40 is out of range: expected 1 <= ")


# ---------------------------------------------------------------------------------- report


def published(out: dict[str, pa.Table]):
    """Loaders of the published tables (run_in_process's, plus the columns the pipeline adds)."""

    def loader(name):
        table = out[name]
        if PROBLEM.table(name).merge == "sum":
            table = table.append_column("units", pa.array([1] * table.num_rows, pa.int64()))
            table = table.append_column(
                "cpu_seconds", pa.array([0.5] * table.num_rows, pa.float64())
            )
        return lambda columns=None: table if columns is None else table.select(columns)

    return {name: loader(name) for name in out}


def test_report_has_exact_counts_and_a_log_figure():
    report, frame = report_of_one_table(PROBLEM, job(n="1..12"), 2, "queens", published)
    assert frame["n"].tolist() == list(range(1, 13))
    assert [type(q) for q in frame["Q(n)"]] == [int] * 12
    assert frame["Q(n)"].tolist() == A000170[:12]
    ((stem, figure),) = report.figures
    assert stem == "queens"
    (ax,) = figure.axes
    assert ax.get_yscale() == "log" and ax.get_title() and "n" in ax.get_xlabel()
    assert "Q(n)" in ax.get_ylabel()
    assert list(ax.lines[0].get_xdata()) == [1, *range(4, 13)]  # Q(2) = Q(3) = 0: not on a log axis
    figure.savefig(io.BytesIO(), format="png")


# ---------------------------------------------------------------------------------- problem


def test_problem_declares_its_tables_and_version():
    assert PROBLEM.name == "nqueens" and PROBLEM.solve is not None
    assert [t.name for t in PROBLEM.tables] == ["counts", "solutions"]
    assert PROBLEM.table("counts").keys == ("n",)
    assert PROBLEM.table("solutions").merge == "rows"
    assert PROBLEM.table("solutions").compute_schema().field("solution").type == pa.list_(pa.int8())
    assert PROBLEM.modules == ("boardsweep.solvers.nqueens",)
    from boardsweep.solvers.identity import closure

    inside = set(closure(PROBLEM.modules))
    own = "boardsweep.solvers.nqueens"
    assert {
        f"{own}.kernel",
        f"{own}.tree",
        f"{own}.symmetry",
        f"{own}.bits",
        f"{own}.format",
        "boardsweep.solvers.prefixes",
    } <= inside
    assert f"{own}.report" not in inside  # presentation: not part of the version
    assert len(PROBLEM.version) == 16


def test_registered_and_warm():
    from boardsweep.solvers import registry

    assert "boardsweep.solvers.nqueens" in registry.BUILTIN
    PROBLEM.warm_up()


def test_importing_the_package_does_not_import_numba():
    code = "import sys, boardsweep.solvers.nqueens; assert 'numba' not in sys.modules"
    subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2]
    )


def test_solutions_table_cuts_large_tasks_into_batches(monkeypatch):
    monkeypatch.setattr(nqueens, "_BATCH_ROWS", 7)
    rows = nqueens.solutions(8)
    table = nqueens.solutions_table(8, rows)
    assert table.schema.equals(PROBLEM.table("solutions").compute_schema())
    assert table.column("solution").num_chunks == 14
    assert table.column("solution").to_pylist() == rows.tolist()
