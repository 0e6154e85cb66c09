"""Slant through the problem contract: generated groups, splits, the seed sample, the judge,
set checks, parameter errors and the report."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.contract import InstanceProblem, Report
from boardsweep.solvers.schema import ParamError
from tests.contract_checks import (
    assert_costs_rise,
    assert_judged_byte_for_byte,
    assert_set_check_refuses,
)
from tests.contract_driver import run_in_process
from tests.result_columns import SLANT_COLUMNS

P = slant.PROBLEM
DATA = Path(__file__).resolve().parents[2] / "data"


def job(generate: dict | None = None) -> dict:
    """Checked params of a job generating ``generate`` (or ingesting a file)."""
    source = {"generate": generate} if generate is not None else {"ingest": "puzzles.txt"}
    return P.check_params({"puzzles": source})


def puzzles_of(params: dict) -> dict[tuple, str]:
    """Every generated puzzle of a job: (rows, cols, id) -> clues."""
    out = {}
    for point in P.points(params, "puzzles"):
        for row in P.compute(point, 0, point.units).to_pylist():
            out[(row["rows"], row["cols"], row["puzzle_id"])] = row["clues"]
    return out


def without_seconds(table: pa.Table) -> pa.Table:
    return table.drop_columns(["seconds"])


def test_declarations():
    assert isinstance(P, InstanceProblem) and P.instances is not None and P.name == "slant"
    assert P.modules == ("boardsweep.solvers.slant",) and len(P.version) == 16
    assert [t.name for t in P.tables] == ["slant", "puzzles"]
    assert [(f.name, str(f.type)) for f in P.instances.table.compute_schema()] == [
        ("puzzle_id", "int64"),
        ("rows", "int32"),
        ("cols", "int32"),
        ("clues", "string"),
    ]
    assert P.result.compute_schema().names == SLANT_COLUMNS
    assert set(P.params.fields) == {"puzzles"} and dict(P.options.fields) == {}
    assert P.instances.cost_columns == ("rows", "cols") and P.instances.id_column == "puzzle_id"


def test_groups_one_per_size_sorted():
    groups = P.points(job({"n": [6, 3], "rows": [4, 2], "count": 9, "seed": 1}), "puzzles")
    assert [(g.params["rows"], g.params["cols"]) for g in groups] == [
        (2, 3),
        (2, 6),
        (4, 3),
        (4, 6),
    ]
    assert [g.label for g in groups] == ["2x3", "2x6", "4x3", "4x6"]
    assert all(
        g.units == 9
        and g.seconds > 0
        and g.params == {"seed": 1, "rows": g.params["rows"], "cols": g.params["cols"]}
        for g in groups
    )
    solving = P.points(job({"n": [5, 3], "count": 2, "seed": 1}), "slant")
    assert [p.params["generate"] for p in solving] == [
        {"seed": 1, "rows": 3, "cols": 3},
        {"seed": 1, "rows": 5, "cols": 5},
    ]
    assert solving[1].seconds > solving[0].seconds > 0


def test_random_splits_give_the_same_tables():
    params = job({"n": [2, 4, 5], "rows": [3, 4], "count": 7, "seed": 12})
    whole = run_in_process(P, params)["slant"]
    assert whole.num_rows == 6 * 7
    assert whole.column("status").to_pylist() == ["unique"] * 42
    seconds = whole.column("seconds").to_numpy()
    assert (seconds > 0).all() and (seconds < 5).all()
    for seed in range(3):
        again = run_in_process(P, params, random.Random(seed))["slant"]
        assert without_seconds(again).equals(without_seconds(whole))
    puzzles = pa.concat_tables(P.compute(p, 0, p.units) for p in P.points(params, "puzzles"))
    batch = slant.table_to_batch(puzzles)
    out = slant.solve_batch(batch)  # the table says what the solver says
    assert whole.column("nodes").to_pylist() == out["nodes"].tolist()
    assert whole.column("solution")[5].as_py() == slant.to_text(
        out["solution"][out["solution_offsets"][5] : out["solution_offsets"][6]]
    )


def test_puzzles_depend_on_seed_size_and_index_alone():
    base = puzzles_of(job({"n": [3, 4], "count": 3, "seed": 5}))
    wider = puzzles_of(job({"n": [5, 4, 3, 2], "count": 5, "seed": 5}))
    assert puzzles_of(job({"n": [4, 3], "count": 3, "seed": 5})) == base
    assert len(base) == 6 and len(wider) == 20
    assert all(wider[key] == clues for key, clues in base.items())
    rect = puzzles_of(job({"n": [3, 4], "rows": [3, 2], "count": 3, "seed": 5}))
    assert all(rect[key] == base[key] for key in rect if key in base)
    # the generator's own keying: puzzle j is default_rng([seed, rows, cols, j])
    batch = slant.generate(4, 1, seed=5, start=2)
    assert slant.batch_to_table(batch).column("clues")[0].as_py() == base[(4, 4, 2)]


def test_puzzle_alone_equals_puzzle_in_a_range():
    params = job({"n": 6, "rows": 3, "count": 100, "seed": 4})
    (point,) = P.points(params, "puzzles")
    whole = P.compute(point, 0, 12)
    for i in (0, 5, 11):
        assert P.compute(point, i, i + 1).equals(whole.slice(i, 1))
    assert P.compute(point, 99, 100).column("puzzle_id").to_pylist() == [99]


def sample() -> str:
    return (DATA / "slant_sample.txt").read_text()


def test_seed_sample_through_the_contract():
    table = P.seed_format.read(sample())
    P.instances.check(table)
    result = run_in_process(P, job(), random.Random(3), rows=table)["slant"]
    assert result.column("status").to_pylist() == ["unique", "unique"]
    assert result.column("solution")[0].as_py() == "\\//\\\\\\/\\/"
    assert P.seed_format.write(table) == sample()


def test_judge_byte_for_byte():
    expected = (DATA / "slant_sample.out").read_bytes()
    table = P.seed_format.read(sample())
    assert_judged_byte_for_byte(P, job(), table, "slant", expected, (1, 5))


def test_judge_notes_a_case_without_solution():
    text = "3\n1\n1.\n..\n1\n11\n..\n2 1\n..\n..\n..\n"  # case 2 has no solution
    table = P.seed_format.read(text)
    params = job()
    result = run_in_process(P, params, rows=table)["slant"]
    assert result.column("status").to_pylist() == ["unique", "none", "multiple"]
    assert result.column("solution")[1].as_py() == ""
    notes: list[str] = []
    out = b"".join(
        P.seed_format.answer(
            {"slant": iter(result.to_batches(max_chunksize=1))}, params, notes.append
        )
    )
    assert notes == ["case 2 has no solution"]
    assert out.decode().splitlines()[0] == "\\"
    assert len(out.decode().splitlines()) == 1 + 2


def bad_set(**change) -> pa.Table:
    """Three good puzzles (ids 3, 8, 21) with one column changed."""
    columns = {
        "puzzle_id": [3, 8, 21],
        "rows": [1, 2, 1],
        "cols": [1, 1, 2],
        "clues": ["1...", "..2...", "0....."],
    }
    columns.update(change)
    return pa.table(columns, schema=P.instances.table.compute_schema())


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"clues": ["1...", "..2..", "0....."]},
            r"puzzle 8: 5 clue points for 2 x 1 cells \(expected 6\)$",
        ),
        (
            {"clues": ["1...", "..2...", "0....5"]},
            "puzzle 21: clues may hold only '.' and the digits 0-4, not '5'$",
        ),
        (
            {"rows": [1, 0, 1], "clues": ["1...", "..", "0....."]},
            "puzzle 8: 0 x 1 cells: a puzzle needs at least one row and one column",
        ),
        (
            {"rows": [1, 2, 60000], "cols": [1, 1, 60000]},
            r"puzzle 21: 60000 x 60000 has 3600000000 cells: at most 2\*\*31 - 1",
        ),
    ],
)
def test_check_set_names_the_puzzle(change, message):
    assert_set_check_refuses(P, bad_set, change, message)


def test_costs():
    cost = P.instances.costs(
        {"rows": np.array([1, 10, 46339]), "cols": np.array([1, 10, 46339])}, {}
    )
    assert_costs_rise(cost)


@pytest.mark.parametrize(
    "raw, key, message",
    [
        (
            {"puzzles": {"generate": {"n": 0, "count": 1, "seed": 0}}},
            ("puzzles", "generate", "n"),
            "out of range",
        ),
        (
            {"puzzles": {"generate": {"n": [3, 3], "count": 1, "seed": 0}}},
            ("puzzles", "generate", "n", 1),
            "twice",
        ),
        (
            {"puzzles": {"generate": {"n": 3, "rows": 0, "count": 1, "seed": 0}}},
            ("puzzles", "generate", "rows"),
            "out of range",
        ),
        (
            {"puzzles": {"generate": {"n": 3, "count": 1}}},
            ("puzzles", "generate"),
            "missing key 'seed'",
        ),
        (
            {"puzzles": {"generate": {"n": 3, "count": 1, "seed": -1}}},
            ("puzzles", "generate", "seed"),
            "out of range",
        ),
        (
            {"puzzles": {"generate": {"n": 3, "count": 1, "seed": 0, "density": 0.3}}},
            ("puzzles", "generate", "density"),
            "unknown key",
        ),
        ({"puzzles": {"ingest": "a.txt"}, "counts": True}, ("counts",), "unknown key"),
        ({"puzzles": 3}, ("puzzles",), "expected one of"),
    ],
)
def test_params_errors_carry_the_key_path(raw, key, message):
    with pytest.raises(ParamError, match=message) as info:
        P.check_params(raw)
    assert info.value.key == key


def test_report():
    from matplotlib.figure import Figure

    params = job({"n": [2, 4], "count": 6, "seed": 1})
    published = run_in_process(P, params)["slant"]

    def load(columns=None):
        return published.select(columns) if columns is not None else published

    result = P.report("slants", {"slant": load})
    assert isinstance(result, Report)
    ((title, frame),) = result.tables
    assert "slants" in title
    assert frame["puzzles"].tolist() == [6, 6] and frame["unique"].tolist() == [6, 6]
    figures = dict(result.figures)
    assert list(figures) == ["slant_times", "slant_status", "slant_nodes"]
    for figure in figures.values():
        ax = figure.axes[0]
        assert isinstance(figure, Figure)
        assert ax.get_title() and "(" in ax.get_xlabel() and "(" in ax.get_ylabel()
    times = figures["slant_times"].axes[0]
    assert "ms" in times.get_ylabel() and times.get_yscale() == "log"
    assert [line.get_label() for line in times.lines] == ["median", "99th percentile"]
    bars = figures["slant_status"].axes[0].patches  # one stacked bar per size and status
    assert len(bars) == 2 * 3 and bars[0].get_height() == 100.0
    assert "nodes" in figures["slant_nodes"].axes[0].get_ylabel()
