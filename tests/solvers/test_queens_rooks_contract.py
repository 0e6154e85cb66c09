"""queens_rooks through the contract: work units, splits, tables, judge, solve, report."""

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

from boardsweep.solvers import prefix_count
from boardsweep.solvers import queens_rooks as qr
from boardsweep.solvers.contract import FormatError
from boardsweep.solvers.prefixes import interleave
from boardsweep.solvers.queens_rooks import symmetry
from boardsweep.solvers.schema import ParamError
from tests.contract_checks import assert_param_error_at, report_of_one_table
from tests.contract_driver import run_in_process

PROBLEM = qr.PROBLEM
DATA = Path(__file__).resolve().parents[2] / "data"

# placements(M, n - M) for M = 0..n (README's triangle, from the seed's brute force and OEIS)
TRIANGLE = {
    1: [1, 1],
    2: [2, 0, 0],
    3: [6, 4, 0, 0],
    4: [24, 24, 20, 8, 2],
    5: [120, 168, 132, 100, 50, 10],
    6: [720, 1184, 996, 432, 120, 24, 4],
    7: [5040, 9668, 8780, 5288, 2504, 992, 280, 40],
    8: [40320, 88488, 92632, 59472, 28860, 11416, 3464, 736, 92],
    9: [362880, 894964, 1049940, 780488, 416088, 172992, 58792, 16048, 3168, 352],
    10: [3628800, 9944400, 12951636, 10611384, 6206236, 2710048, 900864, 232264, 46984, 7240, 724],
}


def job(**raw) -> dict:
    return PROBLEM.check_params(raw)


def cells(table: pa.Table) -> dict[tuple[int, int], int]:
    """(M, N) -> exact count of a merged counts table (n checked against M + N)."""
    rows = table.to_pylist()
    assert all(r["n"] == r["queens"] + r["rooks"] for r in rows)
    assert all(r["count"] is None or int(r["count"]) == int(r["count_text"]) for r in rows)
    return {(r["queens"], r["rooks"]): int(r["count_text"]) for r in rows}


# ---------------------------------------------------------------------------------- counts


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_splits_give_the_triangle(seed):
    out = run_in_process(PROBLEM, job(total="1..10"), random.Random(seed))
    assert list(out) == ["counts"]
    assert cells(out["counts"]) == {
        (m, n - m): c for n, row in TRIANGLE.items() for m, c in enumerate(row)
    }


@pytest.mark.parametrize("seed", [0, 1])
def test_random_splits_of_pairs(seed):
    pairs = [[3, 1], [0, 4], [2, 2], [1, 0], [7, 2], [9, 0], [0, 9], [2, 8], [10, 0]]
    out = run_in_process(PROBLEM, job(pairs=pairs), random.Random(seed))
    assert cells(out["counts"]) == {(m, r): TRIANGLE[m + r][m] for m, r in pairs}
    table = out["counts"]
    keys = list(zip(*(table.column(k).to_pylist() for k in ("n", "queens", "rooks")), strict=True))
    assert keys == sorted(keys)


def test_counts_past_64_bits_are_exact():
    out = run_in_process(PROBLEM, job(pairs=[[0, 21], [0, 32], [1, 0]]), random.Random(3))
    table = out["counts"]
    assert cells(table) == {(0, 21): math.factorial(21), (0, 32): math.factorial(32), (1, 0): 1}
    assert table.column("count").to_pylist()[-1] == Decimal(math.factorial(32))


def test_nodes_do_not_depend_on_the_split():
    whole = run_in_process(PROBLEM, job(total=[8, 9]))["counts"]
    for seed in range(3):
        assert run_in_process(PROBLEM, job(total=[8, 9]), random.Random(seed))["counts"].equals(
            whole
        )


def test_units_depend_on_the_point_alone():
    alone = PROBLEM.points(job(pairs=[[3, 1]]), "counts")
    among = PROBLEM.points(job(pairs=[[5, 5], [3, 1], [1, 2]]), "counts")
    assert [p.params["n"] for p in among] == [3, 4, 10]
    assert among[1] == alone[0]
    assert alone[0].params == {"n": 4, "queens": [3]}
    assert alone[0].label == "n=4 (M=3, N=1)"
    for point in among:
        assert point.units == qr.unit_plan(point.params)[1]
        assert point.seconds == qr.cost(point.params)
    whole = PROBLEM.points(job(total=[10]), "counts")[0]
    assert whole.label == "n=10 (M=0..10)" and whole.params["queens"] == list(range(11))


def test_unit_plan_rule():
    assert qr.unit_plan({"n": 9, "queens": [0]}) == (0, 1)  # the formula: one unit
    for n in (8, 12, 13, 14, 16, 20, 32):
        point = {"n": n, "queens": list(range(n + 1))}
        depth, units = qr.unit_plan(point)
        assert units == symmetry.paths(n, depth) <= qr.MAX_UNITS
        target = max(qr.MIN_UNITS, qr.cost(point) / prefix_count.UNIT_SECONDS)
        assert units >= target or symmetry.paths(n, depth + 1) > qr.MAX_UNITS
        assert depth == 0 or symmetry.paths(n, depth - 1) < target
    assert qr.unit_plan({"n": 14, "queens": list(range(15))}) == (3, 335)


@pytest.mark.parametrize("n", range(1, 9))
def test_prefix_counts_without_listing_them(n):
    for depth in range(qr.max_depth({"n": n}) + 1):
        assert symmetry.paths(n, depth) == len(qr.prefixes({"n": n}, depth))


@pytest.mark.parametrize(
    "point",
    [
        {"n": 9, "queens": list(range(10))},  # free
        {"n": 12, "queens": [11, 12]},  # typed
        {"n": 11, "queens": [0]},  # formula
        {"n": 10, "queens": [0, 3, 10]},
    ],
)
def test_a_unit_range_split_in_two_sums_to_the_whole(point):
    _, units = qr.unit_plan(point)
    whole = qr.count_units(point, 0, units)
    n = point["n"]
    assert whole[0] == [qr.placements(m, n - m) for m in point["queens"]]
    rng = random.Random(n)
    for cut in {0, units // 2, units, *rng.sample(range(units + 1), min(3, units + 1))}:
        a, b = qr.count_units(point, 0, cut), qr.count_units(point, cut, units)
        assert ([x + y for x, y in zip(a[0], b[0], strict=True)], a[1] + b[1]) == whole


def test_unit_prefixes_are_the_interleaved_prefixes():
    point = {"n": 9, "queens": list(range(10))}
    depth, units = qr.unit_plan(point)
    every = qr.prefixes(point, depth)
    g, _ = interleave(units)
    for lo, hi in [(0, units), (3, 40), (units - 1, units), (5, 5)]:
        got = qr.unit_prefixes(point, lo, hi)
        index = np.sort([u * g % units for u in range(lo, hi)]).astype(np.int64)
        assert (got.choices == every.choices[index]).all()
        assert (got.weight == every.weight[index]).all()


# ---------------------------------------------------------------------------------- judge


def judged(text: str, seed: int = 0) -> bytes:
    params = PROBLEM.check_params(PROBLEM.seed_format.read(text))
    out = run_in_process(PROBLEM, params, random.Random(seed))
    tables = {name: iter(table.to_batches(max_chunksize=2)) for name, table in out.items()}
    return b"".join(PROBLEM.seed_format.answer(tables, params, print))


def test_judge_reproduces_the_seed_sample():
    text = (DATA / "queens_rooks_sample.txt").read_text()
    assert judged(text) == (DATA / "queens_rooks_sample.out").read_bytes()


def test_judge_answers_every_line_in_input_order():
    text = "3 1\n0 0\n\n2 2\n3 1\n0 4\n1 0\n0 0\n9 1\n"
    assert judged(text, 4) == b"8\n1\n20\n8\n24\n1\n1\n7240\n"


def test_judge_reads_the_distinct_pairs_and_keeps_the_lines():
    params = PROBLEM.seed_format.read("3 1\n0 0\n3 1\n2 2\n")
    assert params == {"pairs": ((3, 1), (2, 2)), "lines": ((3, 1), (0, 0), (3, 1), (2, 2))}
    assert PROBLEM.check_params(params) == params


@pytest.mark.parametrize(
    "text, out", [("0 0\n", b"1\n"), ("0 0\n\n0 0", b"1\n1\n"), ("", b""), ("\n\n", b"")]
)
def test_judge_of_empty_boards_alone(text, out):
    params = PROBLEM.seed_format.read(text)
    assert params["pairs"] == (qr.STAND_IN,)
    assert judged(text) == out


def test_judge_read_refuses_bad_input():
    with pytest.raises(FormatError) as caught:
        PROBLEM.seed_format.read("3 1\n\n40 0\n")
    assert caught.value.line == 3


# ---------------------------------------------------------------------------------- solve


def solved(m: int, n: int) -> str:
    solve = PROBLEM.solve
    args = {
        name: validator.parse(str(v), (name,))
        for (name, validator, _), v in zip(solve.arguments, (m, n), strict=True)
    }
    params = PROBLEM.check_params(solve.job(args))
    return solve.answer(run_in_process(PROBLEM, params, random.Random(m))["counts"], args)


def test_solve_command():
    assert [a[0] for a in PROBLEM.solve.arguments] == ["queens", "rooks"]
    assert solved(3, 1) == "8"
    assert solved(0, 0) == "1"  # the empty board, through the stand-in job
    assert solved(1, 0) == "1" and solved(0, 3) == "6" and solved(2, 2) == "20"
    assert PROBLEM.solve.job({"queens": 0, "rooks": 0}) == {"pairs": (qr.STAND_IN,)}
    with pytest.raises(ParamError, match="M \\+ N = 40"):
        PROBLEM.solve.job({"queens": 20, "rooks": 20})
    with pytest.raises(ParamError) as caught:
        PROBLEM.solve.arguments[0][1].parse("-1", ("m",))
    assert caught.value.key == ("m",)


# ---------------------------------------------------------------------------------- params


@pytest.mark.parametrize(
    "raw, key, message",
    [
        ({"pairs": [[1, 2], [3, 4], [0, 0]]}, ("pairs", 2), "empty board"),
        ({"pairs": [[1, 2], [20, 13]]}, ("pairs", 1), "M \\+ N = 33 is out of range"),
        ({"pairs": [[1, 2], [40, 0]]}, ("pairs", 1, 0), "40 is out of range"),
        ({"pairs": [[1, 2], [1, 2]]}, ("pairs", 1), "twice"),
        ({"pairs": [[1, 2], [1]]}, ("pairs", 1), "pair"),
        ({"pairs": "1 2"}, ("pairs",), "expected"),
        ({"total": [3, 40]}, ("total", 1), "40 is out of range"),
        ({"total": 3, "pairs": [[1, 2]]}, (), "exactly one"),
        ({}, (), "exactly one"),
        ({"total": 3, "rooks": 2}, ("rooks",), "unknown key"),
        ({"pairs": [[1, 2]], "lines": [[1, 2], [0, 0], [2, 1]]}, ("lines", 2), "not one of"),
        ({"total": [3], "lines": [[1, 2], [2, 2]]}, ("lines", 1), "not one of"),
    ],
)
def test_param_errors_carry_their_key_path(raw, key, message):
    assert_param_error_at(PROBLEM, raw, key, message, ("jobs", 1))


def test_lines_may_repeat_and_hold_the_empty_board():
    params = job(total=[4], lines=[[3, 1], [3, 1], [0, 0]])
    assert params["lines"] == ((3, 1), (3, 1), (0, 0))
    assert [p.params for p in PROBLEM.points(params, "counts")] == [
        {"n": 4, "queens": [0, 1, 2, 3, 4]}
    ]


# ---------------------------------------------------------------------------------- report


def published(out: dict[str, pa.Table]):
    table = out["counts"]
    table = table.append_column("units", pa.array([1] * table.num_rows, pa.int64()))
    table = table.append_column("cpu_seconds", pa.array([0.1] * table.num_rows, pa.float64()))
    return {"counts": lambda columns=None: table if columns is None else table.select(columns)}


def test_report_has_the_exact_triangle_and_its_figure():
    report, frame = report_of_one_table(PROBLEM, job(total="1..9"), 7, "mixed", published)
    assert frame.index.tolist() == list(range(1, 10))
    for n in range(1, 10):
        row = frame.loc[n].tolist()
        assert row[: n + 1] == TRIANGLE[n] and all(v == "" for v in row[n + 1 :])
        assert all(type(v) is int for v in row[: n + 1])
    ((stem, figure),) = report.figures
    assert stem == "triangle"
    heat, curves = figure.axes[:2]
    assert heat.get_xlabel() == "M (queens)" and "n = M + N" in heat.get_ylabel()
    assert curves.get_yscale() == "log" and len(curves.lines) == 9
    assert figure.get_suptitle()
    figure.savefig(io.BytesIO(), format="png")


def test_report_figure_of_the_whole_triangle_stays_within_the_caps():
    from matplotlib.colors import LogNorm

    from boardsweep.solvers.figures import MAX_HEIGHT, MAX_WIDTH
    from boardsweep.solvers.queens_rooks.report import triangle_figure

    cells = {
        n: {m: (0 if n in (2, 3) and m >= n - 1 else 3**n * (m + 1)) for m in range(n + 1)}
        for n in range(1, qr.MAX_TOTAL + 1)
    }
    figure = triangle_figure(cells, "all")
    heat, curves = figure.axes[:2]
    assert isinstance(heat.images[0].norm, LogNorm)  # counts span 60 decades
    assert len(heat.collections[0].get_offsets()) == 4  # the four zero counts: crosses
    assert len(curves.lines) == qr.MAX_TOTAL and curves.get_legend() is None  # a colour bar
    width, height = figure.get_size_inches()
    assert width <= MAX_WIDTH and height <= MAX_HEIGHT
    figure.savefig(io.BytesIO(), format="png")


def test_report_of_a_few_pairs():
    out = run_in_process(PROBLEM, job(pairs=[[3, 1], [8, 2]]), random.Random(1))
    frame = PROBLEM.report("few", published(out)).tables[0][1]
    assert frame.loc[4, 3] == 8 and frame.loc[10, 8] == 46984 and frame.loc[4, 0] == ""


# ---------------------------------------------------------------------------------- problem


def test_problem_declares_its_table_and_version():
    assert PROBLEM.name == "queens_rooks" and PROBLEM.solve is not None
    counts = PROBLEM.table("counts")
    assert counts.merge == "sum" and counts.keys == ("n", "queens", "rooks")
    assert [c.name for c in counts.columns] == [
        "n",
        "queens",
        "rooks",
        "count",
        "count_text",
        "nodes",
    ]
    from boardsweep.solvers.identity import closure

    inside = set(closure(PROBLEM.modules))
    assert {
        "boardsweep.solvers.queens_rooks.kernel",
        "boardsweep.solvers.queens_rooks.free",
        "boardsweep.solvers.queens_rooks.tail_seven",
        "boardsweep.solvers.queens_rooks.typed",
        "boardsweep.solvers.queens_rooks.bits",
        "boardsweep.solvers.queens_rooks.symmetry",
        "boardsweep.solvers.queens_rooks.format",
        "boardsweep.solvers.prefixes",
    } <= inside
    assert "boardsweep.solvers.queens_rooks.report" not in inside  # presentation: unversioned
    assert len(PROBLEM.version) == 16
    PROBLEM.warm_up()


def test_importing_the_package_does_not_import_numba():
    code = "import sys, boardsweep.solvers.queens_rooks; assert 'numba' not in sys.modules"
    subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2]
    )
