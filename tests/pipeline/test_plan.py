"""Planning is pure: task counts follow cost and workers, and the tasks cover each prefix once."""

from __future__ import annotations

import numpy as np
import pytest
from pipeline.config import JobSpec
from pipeline.execute import local_runner
from pipeline.results import count_values

import solvers
from pipeline.jobs import solve_count
from pipeline.plan import (
    MAX_TASKS_PER_POINT,
    _cost_ranges,
    plan_count_job,
    plan_instance_job,
    task_count_for,
)


def test_task_count_follows_cost_and_workers():
    assert task_count_for(0.01, 8) == 1  # not worth splitting
    assert task_count_for(5.0, 2) == 16  # several tasks per worker
    assert task_count_for(1.0, 64) == 10  # but none below ~0.1 s
    assert task_count_for(1000.0, 2) == 500  # none above ~2 s
    assert task_count_for(1e9, 2) == MAX_TASKS_PER_POINT


@pytest.mark.parametrize("workers", [1, 2, 7, 64])
def test_tasks_cover_every_prefix_once(workers):
    module = solvers.get("nqueens")
    job = JobSpec("q", "nqueens", {"n": 13})
    tasks = plan_count_job(job, module, workers)
    depth, stride = tasks[0].depth, tasks[0].stride
    assert sorted(t.offset for t in tasks) == list(range(stride))
    assert all(t.depth == depth and t.stride == stride for t in tasks)
    assert len({t.key for t in tasks}) == len(tasks)
    assert count_values(solve_count("nqueens", {"n": 13}, local_runner, workers)) == [73712]


def test_keys_are_stable_and_depend_on_the_point():
    module = solvers.get("nqueens")
    first = plan_count_job(JobSpec("q", "nqueens", {"n": "12..13"}), module, 2)
    again = plan_count_job(JobSpec("q", "nqueens", {"n": "12..13"}), module, 2)
    assert [t.key for t in first] == [t.key for t in again]
    assert first[0].params == {"n": 13}  # biggest point first
    other = plan_count_job(JobSpec("q", "nqueens", {"n": 14}), module, 2)
    assert not {t.key for t in first} & {t.key for t in other}


def test_queens_rooks_split_sums_to_the_whole_row():
    spec = {"total": 11}
    for workers in (1, 3):
        table = solve_count("queens_rooks", spec, local_runner, workers)
        assert count_values(table)[0] == 39916800  # M = 0: 11!
        assert count_values(table)[-1] == 2680  # N = 0: Q(11)


def test_cost_ranges_are_consecutive_and_balanced():
    costs = np.array([5.0, 1, 1, 1, 1, 1, 5, 1])
    ranges = _cost_ranges(costs, 3)
    assert ranges[0][0] == 0 and ranges[-1][1] == 8
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert _cost_ranges(np.zeros(0), 3) == []


def test_generated_instance_tasks_split_index_ranges():
    module = solvers.get("max_rooks")
    spec = {"boards": {"generate": {"n": [4, 8], "density": 0.2, "count": 100_000, "seed": 1}},
            "counts": True}
    tasks = plan_instance_job(JobSpec("w", "max_rooks", spec), module, 2, {"counts": True})
    starts = sorted((t.generate["start"], t.generate["count"]) for t in tasks)
    assert starts[0][0] == 0 and sum(c for _, c in starts) == 200_000
    assert all(a[0] + a[1] == b[0] for a, b in zip(starts, starts[1:], strict=False))
    assert len(tasks) >= 8
