"""Workers that die mid-task: the task reruns elsewhere, or the job ends naming it.

Real processes throughout: a LocalCluster whose nannies restart dead workers, tasks that end
their worker with ``os._exit``, and a worker of a real ``boardsweep run`` killed with SIGKILL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import psutil
import pytest
from pipeline.config import ClusterSpec, JobSpec
from pipeline.execute import dask_runner

from pipeline import results, store
from pipeline.cluster import open_client
from pipeline.errors import JobError
from pipeline.jobs import run_job
from tests.conftest import BOARDSWEEP, ROOT, run_env
from tests.pipeline import crashing_solver

Q = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596}


@pytest.fixture(scope="module")
def fragile_client():
    """Two restartable workers; a task may kill one worker and still be retried once."""
    crashing_solver.register()
    spec = ClusterSpec("local", {"workers": 2, "allowed_failures": 1, "dashboard_address": ":0"})
    with open_client(spec) as client:
        client.register_plugin(crashing_solver.Register())
        yield client


def _job(tmp_path, mode: str) -> JobSpec:
    crash = {"n": 12, "mode": mode, "marker": str(tmp_path)}
    return JobSpec("q", crashing_solver.NAME, {"n": "8..14", "crash": crash})


def _pids(client) -> set[int]:
    return set(client.run(os.getpid).values())


def test_task_that_killed_its_worker_reruns_elsewhere(tmp_path, fragile_client):
    before = _pids(fragile_client)
    manifest = run_job(_job(tmp_path, "once"), tmp_path, dask_runner(fragile_client), 2)
    assert (tmp_path / "crashed").exists(), "no worker was killed: the test proved nothing"
    assert manifest["complete"] and manifest["tasks"]["failed"] == 0
    counts = store.read_table(tmp_path / "q" / "counts.parquet")
    assert dict(zip(counts.column("n").to_pylist(), results.count_values(counts),
                    strict=True)) == Q
    fragile_client.wait_for_workers(2, timeout=60)
    assert len(_pids(fragile_client) - before) == 1  # the nanny started one new worker


def test_task_that_keeps_killing_workers_ends_the_job_naming_it(tmp_path, fragile_client):
    with pytest.raises(JobError) as failure:
        run_job(_job(tmp_path, "always"), tmp_path, dask_runner(fragile_client), 2)
    message = str(failure.value)
    assert message.startswith("job q: 1 of 7 tasks failed, first: count-")
    assert "(n=12, crash=" in message
    assert "WorkerLost: every worker that ran it died (2 in a row" in message
    assert "distributed.scheduler.allowed-failures = 1" in message
    assert message.endswith("the 6 finished fragments are kept, run again to retry the rest")
    manifest = json.loads((tmp_path / "q" / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["tasks"]["run"] == 6
    assert not (tmp_path / "q" / "counts.parquet").exists()
    kept = store.existing_fragments(tmp_path, "q", "counts-points")
    assert len(kept) == 6


def _worker_processes(driver: psutil.Process) -> list[psutil.Process]:
    """The driver's Dask worker processes (children started by multiprocessing spawn)."""
    return [p for p in driver.children(recursive=True)
            if "spawn_main" in " ".join(p.cmdline()) and "resource_tracker" not in
            " ".join(p.cmdline())]


def test_worker_sigkilled_mid_run_changes_nothing(tmp_path):
    out = tmp_path / "out"
    config = tmp_path / "c.yaml"
    config.write_text(f"output: {out}\ncluster: {{kind: local, workers: 2}}\n"
                      "jobs:\n  - {name: q, problem: nqueens, n: [12, 16, 17]}\n")
    fragments = out / "q" / "fragments" / "counts"
    proc = subprocess.Popen([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while len(list(fragments.glob("*.parquet"))) < 2:
            assert proc.poll() is None, "the run ended before a worker could be killed"
            assert time.monotonic() < deadline, "no fragments appeared"
            time.sleep(0.05)
        workers = _worker_processes(psutil.Process(proc.pid))
        assert len(workers) == 2, [w.cmdline() for w in workers]
        workers[0].send_signal(signal.SIGKILL)  # mid-task: every task of n = 17 takes seconds
        _, stderr = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, stderr
    manifest = json.loads((out / "q" / "manifest.json").read_text())
    assert manifest["complete"] and manifest["tasks"]["run"] == manifest["tasks"]["planned"]
    counts = results.count_values(store.read_table(out / "q" / "counts.parquet"))
    assert counts == [14200, 14772512, 95815104]
