"""Jobs end to end: fragments, merge, manifest, resume after an interruption, and a real cluster."""

from __future__ import annotations

import json

import pytest
from pipeline.config import JobSpec
from pipeline.execute import dask_runner, local_runner

import solvers
from pipeline import results, store
from pipeline.errors import JobError
from pipeline.jobs import run_job, solve_count
from pipeline.plan import plan_count_job

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184]


def _counts(folder):
    return results.count_values(store.read_table(folder / "counts.parquet"))


def test_run_job_writes_counts_and_manifest(tmp_path):
    job = JobSpec("q", "nqueens", {"n": "1..15"})
    manifest = run_job(job, tmp_path, local_runner, workers=2)
    assert _counts(tmp_path / "q") == A000170
    saved = json.loads((tmp_path / "q" / "manifest.json").read_text())
    assert saved["complete"] is True and saved["tasks"] == manifest["tasks"]
    assert saved["tasks"]["failed"] == 0
    assert saved["tasks"]["run"] == saved["tasks"]["planned"] > 15  # n = 15 is split
    assert saved["versions"]["numba"] and saved["job"]["spec"] == {"n": "1..15"}


class Interrupt(Exception):
    """Stands for Ctrl-C or a killed driver after some tasks finished."""


def interrupted_after(limit):
    """A runner that runs ``limit`` tasks, then stops the run as a crash would."""

    def run(calls):
        for i, item in enumerate(local_runner(calls)):
            if i == limit:
                raise Interrupt
            yield item

    return run


def test_rerun_after_interruption_computes_only_missing_tasks(tmp_path):
    job = JobSpec("q", "nqueens", {"n": "15..16"})
    planned = len(plan_count_job(job, solvers.get("nqueens"), 2))
    assert planned > 5
    with pytest.raises(Interrupt):
        run_job(job, tmp_path, interrupted_after(5), workers=2)
    assert len(store.existing_fragments(tmp_path, "q", "counts")) == 5
    assert not (tmp_path / "q" / "counts.parquet").exists()
    manifest = run_job(job, tmp_path, local_runner, workers=2)
    assert manifest["tasks"]["skipped"] == 5
    assert manifest["tasks"]["run"] == planned - 5
    assert _counts(tmp_path / "q") == [2279184, 14772512]


def test_failed_task_keeps_fragments_and_reports(tmp_path):
    job = JobSpec("q", "nqueens", {"n": "14..15"})

    def flaky(calls):
        for i, (call, result, error) in enumerate(local_runner(calls)):
            yield call, (None if i == 1 else result), (RuntimeError("boom") if i == 1 else error)

    with pytest.raises(JobError, match=r"job q: 1 of \d+ tasks failed, first: count-\w+ "
                                       r"\(n=\d+\): RuntimeError: boom"):
        run_job(job, tmp_path, flaky, workers=2)
    manifest = json.loads((tmp_path / "q" / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["tasks"]["failed"] == 1
    rerun = run_job(job, tmp_path, local_runner, workers=2)
    assert rerun["tasks"]["run"] == 1
    assert _counts(tmp_path / "q") == [365596, 2279184]


def test_real_cluster_matches_direct_call(dask_client, tmp_path):
    job = JobSpec("q", "nqueens", {"n": [8, 13, 15]}, solutions=True)
    manifest = run_job(job, tmp_path, dask_runner(dask_client), workers=2)
    module = solvers.get("nqueens")
    direct = [module.total(n)[0] for n in (8, 13, 15)]
    assert _counts(tmp_path / "q") == direct == [92, 73712, 2279184]
    assert manifest["tasks"]["planned"] > 3 + 15 + 15  # counting n = 15 is split too
    sols = store.read_table(tmp_path / "q" / "solutions.parquet")
    assert sols.num_rows == sum(direct)
    table = solve_count("nqueens", {"n": 16}, dask_runner(dask_client), 2)
    assert results.count_values(table) == [14772512]


def test_extended_sweep_reuses_finished_points_with_any_worker_count(tmp_path):
    first = run_job(JobSpec("q", "nqueens", {"n": "13..16"}), tmp_path, local_runner, workers=2)
    assert first["tasks"]["points"] == 4 and first["tasks"]["points_reused"] == 0
    wider = JobSpec("q", "nqueens", {"n": "8..16"})
    nqueens = solvers.get("nqueens")
    split = {w: [t.stride for t in plan_count_job(wider, nqueens, w) if t.params["n"] == 16]
             for w in (1, 2)}
    assert split[1] != split[2], "n = 16 must be split differently for 1 and 2 workers"
    again = run_job(wider, tmp_path, local_runner, workers=1)
    assert again["tasks"]["points"] == 9 and again["tasks"]["points_reused"] == 4
    assert again["tasks"]["run"] == 5  # n = 8..12, one task each
    assert _counts(tmp_path / "q") == [*A000170[7:15], 14772512]


def test_point_finished_before_a_crash_is_joined_on_rerun(tmp_path):
    job = JobSpec("q", "nqueens", {"n": "14..15"})
    tasks = plan_count_job(job, solvers.get("nqueens"), 2)
    first_point = [t for t in tasks if t.point == tasks[0].point]
    with pytest.raises(Interrupt):
        run_job(job, tmp_path, interrupted_after(len(first_point)), workers=2)
    joined = store.existing_fragments(tmp_path, "q", "counts-points")
    assert joined == {tasks[0].point}
    store.fragment_path(tmp_path, "q", "counts-points", tasks[0].point).unlink()
    manifest = run_job(job, tmp_path, local_runner, workers=2)  # joins it again from its tasks
    assert manifest["tasks"]["skipped"] == len(first_point)
    assert _counts(tmp_path / "q") == A000170[13:15]
