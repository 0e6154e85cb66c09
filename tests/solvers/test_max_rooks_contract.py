"""max_rooks through the problem contract: generated groups, splits, the seed sample, the judge,
set checks, cost estimates and parameter errors (the report: test_max_rooks_report.py)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.contract import InstanceProblem
from boardsweep.solvers.max_rooks.generate import group_key
from boardsweep.solvers.schema import ParamError
from tests.contract_checks import (
    assert_costs_rise,
    assert_judged_byte_for_byte,
    assert_set_check_refuses,
)
from tests.contract_driver import run_in_process
from tests.result_columns import MAXIMA_COLUMNS

P = mr.PROBLEM
DATA = Path(__file__).resolve().parents[2] / "data"


def job(generate: dict | None = None, **options) -> dict:
    """Checked params of a job generating ``generate`` (or ingesting a file)."""
    source = {"generate": generate} if generate is not None else {"ingest": "boards.txt"}
    return P.check_params({"boards": source, **options})


def boards_of(params: dict) -> dict[tuple, str]:
    """Every generated board of a job: (rows, cols, density, id) -> cells."""
    out = {}
    for point in P.points(params, "boards"):
        table = P.compute(point, 0, point.units)
        for row in table.to_pylist():
            out[(row["rows"], row["cols"], row["density"], row["board_id"])] = row["cells"]
    return out


def test_declarations():
    assert isinstance(P, InstanceProblem) and P.instances is not None and P.name == "max_rooks"
    assert P.modules == ("boardsweep.solvers.max_rooks",) and len(P.version) == 16
    assert [t.name for t in P.tables] == ["maxima", "boards", "distribution", "summary"]
    assert P.outputs(job({"n": 4, "density": 0.1, "count": 1, "seed": 0})) == ("maxima",)
    boards = P.instances.table.compute_schema()
    assert [(f.name, str(f.type), f.nullable) for f in boards] == [
        ("board_id", "int64", False),
        ("rows", "int32", False),
        ("cols", "int32", False),
        ("density", "double", True),
        ("cells", "string", False),
    ]
    maxima = P.result.compute_schema()
    assert maxima.names == MAXIMA_COLUMNS
    assert maxima.field("count_status").nullable and maxima.field("count_memory").nullable
    assert maxima.field("placement").type == pa.list_(pa.int32())
    assert maxima.field("max_placements").type == pa.decimal128(38, 0)
    assert P.instances.cost_columns == ("rows", "cols") and P.instances.id_column == "board_id"
    assert set(P.params.fields) == {"boards", "counts", "count_mib", "keep"}
    assert job({"n": 4, "density": 0.1, "count": 1, "seed": 0})["counts"] is False


def test_groups_one_per_shape_and_density_sorted():
    params = job({"n": [8, 4], "rows": [3, 2], "density": [0.3, 0.1], "count": 7, "seed": 5})
    groups = P.points(params, "boards")
    assert [(g.params["rows"], g.params["cols"], g.params["density"]) for g in groups] == [
        (r, c, d) for r in (2, 3) for c in (4, 8) for d in (0.1, 0.3)
    ]
    assert all(g.units == 7 and g.seconds > 0 and g.params["seed"] == 5 for g in groups)
    assert groups[0].label == "2x4 density 0.1" and groups[0].table == "boards"
    square = P.points(job({"n": [6, 5], "density": 0.25, "count": 2, "seed": 1}), "maxima")
    assert [g.label for g in square] == ["5x5 density 0.25", "6x6 density 0.25"]
    assert square[0].params["generate"] == {"seed": 1, "rows": 5, "cols": 5, "density": 0.25}


@pytest.mark.parametrize("counts", [False, True])
def test_random_splits_give_the_same_tables(counts):
    params = job(
        {"n": [3, 5, 7], "rows": [4, 6], "density": [0.0, 0.2, 0.45], "count": 13, "seed": 11},
        counts=counts,
    )
    whole = run_in_process(P, params)["maxima"]
    assert whole.num_rows == 6 * 3 * 13
    for seed in range(3):
        assert run_in_process(P, params, random.Random(seed))["maxima"].equals(whole)
    counted = whole.column("placements_text").null_count == 0
    assert counted == counts
    if counts:  # the counts agree with the seeds' exhaustive search
        batch = mr.table_to_batch(boards_table(params))
        for b in range(0, whole.num_rows, 17):
            ref = mr.max_rooks_dfs(mr.board_at(batch, b))
            row = whole.slice(b, 1).to_pylist()[0]
            assert (
                row["max_rooks"],
                int(row["max_placements_text"]),
                int(row["placements_text"]),
            ) == ref[:3]


def boards_table(params: dict) -> pa.Table:
    """The ``boards`` table of a generated job, in point order."""
    return pa.concat_tables(P.compute(p, 0, p.units) for p in P.points(params, "boards"))


def test_set_table_splits_and_densities():
    params = job({"n": 9, "density": [0.0, 0.3, 1.0], "count": 40, "seed": 2})
    whole = run_in_process(P, params, None)
    assert set(whole) == {"maxima"}  # a job writes its results only
    table = boards_table(params)
    assert table.schema.equals(P.instances.table.compute_schema())
    assert table.column("density").to_pylist() == [0.0] * 40 + [0.3] * 40 + [1.0] * 40
    cells = table.column("cells").to_pylist()
    assert set("".join(cells[:40])) == {"."} and set("".join(cells[80:])) == {"X"}
    walls = sum(c.count("X") for c in cells[40:80]) / (40 * 81)
    assert 0.25 < walls < 0.35
    for point in P.points(params, "boards"):
        pieces = [P.compute(point, lo, hi) for lo, hi in [(0, 1), (1, 17), (17, 40)]]
        assert pa.concat_tables(pieces).equals(P.compute(point, 0, 40))


def test_boards_depend_on_seed_shape_density_and_index_alone():
    base = boards_of(job({"n": [4, 6], "density": [0.2, 0.35], "count": 5, "seed": 9}))
    wider = boards_of(job({"n": [7, 6, 4, 3], "density": [0.5, 0.35, 0.2], "count": 8, "seed": 9}))
    again = boards_of(job({"n": [6, 4], "density": [0.35, 0.2], "count": 5, "seed": 9}))
    assert again == base
    assert len(base) == 20 and len(wider) == 96
    assert all(wider[key] == cells for key, cells in base.items())
    rect = boards_of(job({"n": [4, 6], "rows": [4, 5], "density": [0.2], "count": 5, "seed": 9}))
    assert all(rect[key] == base[key] for key in rect if key in base)
    other = boards_of(job({"n": [4, 6], "density": [0.2, 0.35], "count": 5, "seed": 10}))
    assert sum(other[k] != base[k] for k in base) >= 18
    # groups do not share random bits: 4x6 is not 6x4 transposed or reread
    shapes = boards_of(job({"n": [4, 6], "rows": [4, 6], "density": [0.5], "count": 3, "seed": 1}))
    assert shapes[(4, 6, 0.5, 0)] != shapes[(6, 4, 0.5, 0)]
    assert len(set(shapes.values())) == len(shapes)


def test_board_alone_equals_board_in_a_range():
    params = job({"n": 12, "rows": 5, "density": 0.4, "count": 1000, "seed": 3})
    (point,) = P.points(params, "boards")
    whole = P.compute(point, 0, 60)
    for i in (0, 1, 29, 59):
        assert P.compute(point, i, i + 1).equals(whole.slice(i, 1))
    assert P.compute(point, 999, 1000).column("board_id").to_pylist() == [999]
    (solving,) = P.points(params, "maxima")
    assert P.compute(solving, 29, 30).equals(P.compute(solving, 0, 60).slice(29, 1))


def test_generator_hash_keys():
    bits = np.array([0.25], np.float64).view(np.uint64)[0]
    keys = {
        int(group_key(np.uint64(s), np.uint64(r), np.uint64(c), b))
        for s, r, c, b in [
            (1, 4, 6, bits),
            (1, 6, 4, bits),
            (2, 4, 6, bits),
            (1, 4, 6, np.uint64(0)),
            (1, 4, 6, bits + np.uint64(1)),
        ]
    }
    assert len(keys) == 5
    a = mr.generate(5, 0.3, 4, seed=7, rows=3)
    assert a["rows"].tolist() == [3] * 4 and a["cols"].tolist() == [5] * 4
    assert np.array_equal(
        mr.generate(5, -0.0, 2, seed=7)["cells"], mr.generate(5, 0.0, 2, seed=7)["cells"]
    )


def sample() -> str:
    return (DATA / "max_rooks_sample.txt").read_text()


@pytest.mark.parametrize("counts", [False, True])
def test_seed_sample_through_the_contract(counts):
    table = P.seed_format.read(sample())
    P.instances.check(table)
    params = job(counts=counts)
    maxima = run_in_process(P, params, random.Random(4), rows=table)["maxima"]
    assert maxima.column("max_rooks").to_pylist() == [5, 1, 5, 2, 4]
    assert maxima.column("board_id").to_pylist() == [0, 1, 2, 3, 4]
    assert maxima.column("density").null_count == 5
    if counts:
        assert maxima.column("placements_text").to_pylist()[4] == "209"
        assert maxima.column("max_placements").to_pylist()[4] == 24
    else:
        assert maxima.column("placements").null_count == 5
    assert run_in_process(P, params, None, rows=table)["maxima"].equals(maxima)
    assert P.seed_format.write(table) == sample()


def test_judge_byte_for_byte():
    expected = (DATA / "max_rooks_sample.out").read_bytes()
    table = P.seed_format.read(sample())
    assert_judged_byte_for_byte(P, job(), table, "maxima", expected, (1, 2, 100))


def test_text_round_trip_of_generated_boards():
    table = boards_table(job({"n": [3, 5], "rows": [2, 5], "density": 0.4, "count": 3, "seed": 8}))
    again = P.seed_format.read(P.seed_format.write(table))
    assert again.column("cells").equals(table.column("cells"))
    assert again.column("board_id").to_pylist() == list(range(12))


def bad_set(**change) -> pa.Table:
    """A set of three good boards (ids 5, 7, 9) with one column changed."""
    columns = {
        "board_id": [5, 7, 9],
        "rows": [2, 3, 1],
        "cols": [2, 3, 4],
        "density": [None] * 3,
        "cells": ["..X.", ".X.X.X.X.", "XX.."],
    }
    columns.update(change)
    return pa.table(columns, schema=P.instances.table.compute_schema())


@pytest.mark.parametrize(
    "change, message",
    [
        ({"cells": ["..X.", ".X.X.X.X.XXX", "XX.."]}, "board 7: 12 cells for 3 x 3$"),
        ({"cells": ["..X.", ".X.X.X.X.", "XX."]}, "board 9: 3 cells for 1 x 4$"),
        (
            {"cells": ["..X.", ".X.X.x.X.", "XX.#"]},
            r"board 7: cells may hold only '\.' \(open\) "
            r"and 'X' \(wall\), not 'x'",
        ),
        ({"cells": ["..X.", ".X.X.X.X.", "XX.é"]}, "board 9: .* not 'é'$"),
        ({"cells": ["..X.", ".X.X.X.X.", "é"]}, "board 9: .* not 'é'$"),
        (
            {"rows": [2, 0, 1], "cells": ["..X.", "", "XX.."]},
            "board 7: 0 x 3 cells: rows and cols must be >= 1",
        ),
        (
            {"rows": [2, 3, 50000], "cols": [2, 3, 50000]},
            r"board 9: 50000 x 50000 has 2500000000 "
            r"cells: at most 2\*\*31 - 1",
        ),
    ],
)
def test_check_set_names_the_board(change, message):
    assert_set_check_refuses(P, bad_set, change, message)


def test_check_set_reports_the_first_bad_board():
    table = bad_set(rows=[2, 3, 0], cells=["..X.", ".X.X.X.X.X", "XX.."])
    with pytest.raises(ParamError, match="board 7: 10 cells"):
        P.instances.check(table)
    both = pa.concat_tables([bad_set(), bad_set(board_id=[1, 2, 3], cells=["..X.", "?" * 9, ""])])
    for table in (both, both.combine_chunks()):  # chunked, and a slice with an offset
        with pytest.raises(ParamError, match="board 2: cells may hold only .* not '\\?'"):
            P.instances.check(table.slice(3, 3))
        P.instances.check(table.slice(0, 3))
        assert mr.table_to_batch(table.slice(1, 3))["offsets"].tolist() == [0, 9, 13, 17]
    with pytest.raises(ParamError, match="board 9: cells may hold only"):
        mr.table_to_batch(bad_set(cells=["..X.", ".X.X.X.X.", "XX.?"]))


def test_costs():
    options = {"counts": False}
    rows = np.array([1, 8, 3000, 46340], dtype=np.int32)
    cost = P.instances.costs({"rows": rows, "cols": rows}, options)
    assert_costs_rise(cost)
    counted = P.instances.costs({"rows": rows[:2], "cols": np.array([30, 30])}, {"counts": True})
    assert (
        counted > P.instances.costs({"rows": rows[:2], "cols": np.array([30, 30])}, options)
    ).all()


@pytest.mark.parametrize("rows, cols", [(3000, 3000), (64, 100000), (50, 50)])
def test_counting_costs_are_bounded_for_boards_too_large_to_count(rows, cols):
    """Such a board stops at its memory cap and gets a status: its estimate is bounded, not
    infinite (which made the whole set bad input)."""
    columns = {
        "board_id": np.array([4, 11]),
        "rows": np.array([8, rows]),
        "cols": np.array([8, cols]),
    }
    counted = P.instances.costs(columns, {"counts": True})
    plain = P.instances.costs(columns, {"counts": False})
    assert np.isfinite(counted).all()
    assert counted[1] <= plain[1] + mr.COUNT_SECONDS_CAP


def test_points_of_groups_too_large_to_count_are_planned():
    params = job({"n": [8, 3000], "density": 0.3, "count": 2, "seed": 1}, counts=True)
    big = P.points(params, "maxima")[1]
    assert np.isfinite(big.seconds) and big.seconds <= 2 * (mr.COUNT_SECONDS_CAP + 1)
    small = P.points(
        job({"n": [8, 20], "density": 0.3, "count": 2, "seed": 1}, counts=True), "maxima"
    )
    assert small[1].seconds > small[0].seconds > 0


def test_count_memory_is_an_option_and_bounds_the_memory_estimate():
    columns = {"rows": np.array([8]), "cols": np.array([8])}
    default = P.instances.memory(columns, {"counts": True})[0]
    assert (
        P.instances.memory(columns, {"counts": True, "count_mib": 1024})[0] > default + 800 * 2**20
    )
    assert mr.count_words({"count_mib": 1}) == 2**20 // 16
    assert P.options.check({"counts": True, "count_mib": 4}, ())["count_mib"] == 4
    with pytest.raises(ParamError, match="out of range"):
        P.options.check({"counts": True, "count_mib": 0}, ())
    with pytest.raises(ParamError, match="applies only with counts") as caught:
        P.options.check({"count_mib": 4}, ())  # it would only change the task keys
    assert caught.value.key == ("count_mib",)


@pytest.mark.parametrize(
    "raw, key, message",
    [
        (
            {"boards": {"generate": {"n": 0, "density": 0.1, "count": 1, "seed": 0}}},
            ("boards", "generate", "n"),
            "out of range",
        ),
        (
            {"boards": {"generate": {"n": [4, 46341], "density": 0.1, "count": 1, "seed": 0}}},
            ("boards", "generate", "n", 1),
            "out of range",
        ),
        (
            {
                "boards": {
                    "generate": {"n": 4, "rows": "3..1", "density": 0.1, "count": 1, "seed": 0}
                }
            },
            ("boards", "generate", "rows"),
            "empty",
        ),
        (
            {"boards": {"generate": {"n": 4, "density": [0.1, 1.5], "count": 1, "seed": 0}}},
            ("boards", "generate", "density", 1),
            "out of range",
        ),
        (
            {"boards": {"generate": {"n": 4, "count": 1, "seed": 0}}},
            ("boards", "generate"),
            "missing key 'density'",
        ),
        (
            {"boards": {"generate": {"n": 4, "density": 0.1, "count": 0, "seed": 0}}},
            ("boards", "generate", "count"),
            "out of range",
        ),
        (
            {"boards": {"generate": {"n": 4, "density": 0.1, "count": 1, "seed": 2**63}}},
            ("boards", "generate", "seed"),
            "out of range",
        ),
        (
            {"boards": {"generate": {"n": 4, "density": 0.1, "count": 1, "seed": 0, "walls": 3}}},
            ("boards", "generate", "walls"),
            "unknown key",
        ),
        ({"boards": {"ingest": "a.txt"}, "counts": "yes"}, ("counts",), "true or false"),
        ({"boards": {"ingest": "a.txt"}, "colour": 1}, ("colour",), "unknown key"),
        ({"boards": {"download": "a.txt"}}, ("boards",), "expected one of"),
        ({"counts": True}, (), "missing key 'boards'"),
    ],
)
def test_params_errors_carry_the_key_path(raw, key, message):
    with pytest.raises(ParamError, match=message) as info:
        P.check_params(raw)
    assert info.value.key == key
