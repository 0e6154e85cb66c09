"""The one loop: bundles sized by measured time, records stored, failures collected by task."""

from __future__ import annotations

import math

import pytest

from boardsweep.pipeline import run as run_module
from boardsweep.pipeline.plan import plan_job
from boardsweep.pipeline.run import execute, local_runner
from boardsweep.pipeline.spec import make_job
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context


def _job(params):
    return make_job("noop", "n", params, Context("."))


def test_every_task_becomes_one_record_and_short_tasks_share_bundles(tmp_path, toy_problems):
    store = Store(tmp_path / "s.sqlite")
    plan = plan_job(_job({"units": 500, "seconds": 1.0}), store)
    stats = execute(plan, local_runner, store, 1.0, "noop")
    assert stats.tasks == 500 and stats.units == 500 and not stats.failures
    assert stats.bundles < 50  # no-op tasks are packed once their real length is known
    assert store.ranges("n", "noop", plan.points[0].point_id) == [(0, 500)]
    again = plan_job(_job({"units": 500, "seconds": 1.0}), store)
    assert again.points[0].gaps == [] and again.units_done == 500


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_bundles_shrink_toward_the_end_so_the_threads_finish_together(
    tmp_path, toy_problems, monkeypatch, threads
):
    monkeypatch.setattr(run_module, "BUNDLE_SECONDS", 8.0)
    sizes = []

    def runner(source):  # records each bundle's task count
        for batch in local_runner(source):
            sizes.extend(len(bundle.tasks) for bundle, _, _ in batch)
            yield batch

    store = Store(tmp_path / "s.sqlite")
    plan = plan_job(_job({"units": 64, "seconds": 1.0}), store)
    stats = execute(plan, runner, store, 1.0, "noop", threads)
    assert stats.tasks == 64 and sum(sizes) == 64
    left = 64
    for size in sizes:  # tasks of one unit, 1 s each: a bundle takes at most its share
        assert size <= math.ceil(left / (run_module.TAIL_SHARE * threads)), sizes
        left -= size
    assert sizes[-1] == 1 and len(sizes) < 64


def test_a_failing_task_is_reported_by_its_units_and_the_others_are_kept(tmp_path, toy_problems):
    store = Store(tmp_path / "s.sqlite")
    plan = plan_job(_job({"units": 40, "seconds": 1.0, "fail": [17]}), store)
    stats = execute(plan, local_runner, store, 1.0, "noop")
    assert stats.tasks == 39
    assert len(stats.failures) == 1
    assert "units 17..17" in stats.failures[0] and "unit 17 fails on purpose" in stats.failures[0]
    ranges = store.ranges("n", "noop", plan.points[0].point_id)
    assert ranges == [(0, 17), (18, 40)]


def test_a_lost_bundle_is_split_so_only_the_crashing_task_fails(
    tmp_path, toy_problems, monkeypatch
):
    lost = run_module.WorkerLost("every worker that ran it died")

    def runner(source):  # a bundle holding unit 7 loses its worker, as Dask reports it
        for batch in local_runner(source):
            yield [
                (bundle, None, lost)
                if any(t.lo <= 7 < t.hi for t in bundle.tasks)
                else (bundle, outcomes, error)
                for bundle, outcomes, error in batch
            ]

    monkeypatch.setattr(run_module, "BUNDLE_SECONDS", 5.0)
    store = Store(tmp_path / "s.sqlite")
    plan = plan_job(_job({"units": 20, "seconds": 1.0}), store)
    stats = execute(plan, runner, store, 1.0, "noop")
    assert stats.tasks == 19
    assert len(stats.failures) == 1 and "units 7..7" in stats.failures[0]


@pytest.mark.parametrize("target", [0.5, 3.0, 1000.0])
def test_tasks_cover_every_unit_once_whatever_their_length(tmp_path, toy_problems, target):
    store = Store(tmp_path / "s.sqlite")
    plan = plan_job(_job({"units": 97, "seconds": 1.0}), store)
    stats = execute(plan, local_runner, store, target, "noop")
    assert stats.units == 97
    assert store.ranges("n", "noop", plan.points[0].point_id) == [(0, 97)]
