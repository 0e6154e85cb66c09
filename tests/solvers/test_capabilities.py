"""The problem contract's capabilities: a small required core, and everything else optional.

What a problem offers (a command, a set source, a table) follows from which capabilities it
has, never from its name or kind: checked here on the toy instance problem
(:mod:`tests.toy_boards`) with capabilities taken away, and on the built-in problems.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from boardsweep import solvers
from boardsweep.pipeline import app, cli
from boardsweep.pipeline.errors import InputError
from boardsweep.solvers.contract import (
    CAPABILITIES,
    GENERATE,
    INGEST,
    PARQUET,
    CountProblem,
    InstanceProblem,
    Point,
)
from tests import toy_boards


def _required(cls) -> set[str]:
    return {
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }


def test_the_required_core_is_small():
    assert _required(InstanceProblem) == {
        "name",
        "doc",
        "modules",
        "instances",
        "result",
        "solve_rows",
    }
    assert _required(CountProblem) == {
        "name",
        "doc",
        "params",
        "tables",
        "modules",
        "points_of",
        "compute_units",
    }


def _sources(problem: InstanceProblem) -> list[str]:
    return list(problem.params.fields[problem.instances.key].validator.options)


def test_set_sources_follow_the_capabilities():
    toy = toy_boards.PROBLEM
    assert _sources(toy) == [INGEST, PARQUET, GENERATE]
    bare = dataclasses.replace(toy, generator=None, seed_format=None, report=None)
    assert _sources(bare) == [PARQUET]  # a Parquet set is always read
    assert not any(bare.has(c) for c in CAPABILITIES if c != "instances")
    assert bare.tables == (toy_boards.MOST, toy_boards.BOARDS)
    no_text = dataclasses.replace(toy, seed_format=None)
    assert _sources(no_text) == [PARQUET, GENERATE]
    assert solvers.get("max_rooks").params.fields["boards"].validator.options.keys() == {
        INGEST,
        PARQUET,
        GENERATE,
        "all",
    }


def test_commands_follow_the_capabilities():
    toy = toy_boards.PROBLEM
    bare = dataclasses.replace(toy, generator=None, seed_format=None)
    assert cli._generate_command(toy) is not None and cli._generate_command(bare) is None
    assert cli._solve_command(bare) is not None  # a set file is always solved
    help_text = cli._solve_command(bare).help
    assert help_text.endswith("(Parquet).") and "seed-format" not in help_text
    nqueens = solvers.get("nqueens")
    assert cli._generate_command(nqueens) is None
    assert cli._solve_command(dataclasses.replace(nqueens, solve=None)) is None


def test_a_problem_is_found_by_what_it_has():
    assert solvers.names("instances") == ["max_rooks", "slant"]
    assert solvers.names("solve") == ["nqueens", "queens_rooks"]
    assert solvers.names("summary") == ["max_rooks"]
    assert set(solvers.names("seed_format")) == set(solvers.names())
    with pytest.raises(InputError, match=r"^nqueens has no instance set \(problems with one: "):
        app.problem("nqueens", "instances")
    with pytest.raises(KeyError):
        solvers.get("nqueens").has("kind")


def test_summary_and_exhaustive_add_their_tables_and_sources():
    rooks = solvers.get("max_rooks")
    names = [t.name for t in rooks.tables]
    assert names == ["maxima", "boards", "distribution", "summary"]
    params = rooks.check_params(
        {"boards": {"generate": {"n": 4, "density": 0.3, "count": 3, "seed": 1}}, "keep": "summary"}
    )
    assert rooks.outputs(params) == ("summary",)
    plain = dataclasses.replace(rooks, summary=None, exhaustive=None)
    assert [t.name for t in plain.tables] == ["maxima", "boards"]
    assert "keep" not in plain.params.fields and "all" not in _sources(plain)


def test_an_instance_set_gives_the_cost_columns_of_generated_groups():
    groups = [
        Point("boards", {"seed": 0, "rows": n, "cols": n + 1}, 5, 1.0, f"{n}") for n in (2, 3)
    ]
    shape = toy_boards.PROBLEM.instances.shape(groups)
    assert shape.keys() == {"rows", "cols"}
    assert np.array_equal(shape["rows"], [2, 3]) and np.array_equal(shape["cols"], [3, 4])


def test_solve_takes_the_flags_of_the_params():
    nqueens = solvers.get("nqueens")
    assert cli._solve_flags(nqueens) == (["solutions"], ["unique"])
    assert cli._solve_flags(solvers.get("queens_rooks")) == ([], [])
    names = {p.name for p in cli._solve_command(nqueens).params}
    assert {"solutions", "unique", "n"} <= names
