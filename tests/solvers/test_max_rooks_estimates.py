"""The exhaustive program's planner: its estimates of time, states and memory grow as the
program does, and the time of a one-task job is its wall time in a plan."""

from __future__ import annotations

import tracemalloc

import pytest

from boardsweep.solvers.max_rooks.exact import (
    EXHAUSTIVE,
    PROCESS_BYTES,
    exhaustive_bytes,
    exhaustive_seconds,
    exhaustive_states,
)
from boardsweep.solvers.max_rooks.exhaustive import distribution_units, first_rows


@pytest.mark.parametrize("rows, cols", [(5, 5), (6, 6), (6, 9), (7, 6)])
def test_the_states_estimate_is_within_a_factor_of_two_of_the_widest_layer(rows, cols):
    width = min(rows, cols)
    _, widest = distribution_units(rows, cols, 0, len(first_rows(width)[0]))
    assert 0.5 < exhaustive_states(rows, cols) / widest < 2, widest


def test_the_estimates_grow_with_each_side_and_are_the_same_turned():
    for rows, cols in [(6, 6), (7, 7), (8, 8), (9, 9), (9, 12)]:
        for estimate in (exhaustive_seconds, exhaustive_states, exhaustive_bytes):
            assert estimate(rows, cols) == estimate(cols, rows)
            assert estimate(rows + 1, cols) > estimate(rows, cols)
            assert estimate(rows + 1, cols + 1) > estimate(rows + 1, cols)
    assert EXHAUSTIVE.memory({"rows": (7, 9)}) == exhaustive_bytes(9, 9)
    assert EXHAUSTIVE.memory({"rows": (9,), "cols": (6, 8)}) == exhaustive_bytes(9, 8)


@pytest.mark.parametrize("rows, cols", [(6, 12), (7, 11), (7, 8)])
def test_the_memory_estimate_is_within_a_factor_of_two_of_a_real_run(rows, cols):
    """The arrays the program allocates at its peak (traced; past the warm-up, whose compiled
    code the process estimate covers) against the estimate less that of the process."""
    distribution_units(3, 3, 0, len(first_rows(3)[0]))
    tracemalloc.start()
    try:
        distribution_units(rows, cols, 0, len(first_rows(min(rows, cols))[0]))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    data = exhaustive_bytes(rows, cols) - PROCESS_BYTES
    assert 0.5 < data / peak < 2, (peak, data)


def test_a_plan_gives_a_one_task_job_its_whole_time_as_wall_time(tmp_path, monkeypatch):
    """One shape is one task: on 4 workers it still takes its whole estimate."""
    import boardsweep

    monkeypatch.chdir(tmp_path)
    jobs = {"jobs": [{"name": "a", "problem": "max_rooks", "boards": {"all": {"rows": 8}}}]}
    plan = boardsweep.plan(jobs, workers=4).iloc[0]
    assert plan["tasks"] == 1 and plan["cpu_hours"] == plan["wall_hours"] > 0
    many = {"jobs": [{"name": "b", "problem": "nqueens", "n": "16..17"}]}
    plan = boardsweep.plan(many, workers=4).iloc[0]
    assert plan["tasks"] > 8 and plan["wall_hours"] < plan["cpu_hours"] / 3
