"""Workers that die mid-task: the task reruns elsewhere, or the job ends naming it.

Real processes throughout: a LocalCluster whose nannies restart dead workers, tasks of the
test problem ``noop`` (tests/noop.py) that end their worker with ``os._exit`` (``die: UNIT``;
only the first time with ``marker``), and a worker of a real ``boardsweep run`` killed with
SIGKILL.  Worker deaths are counted from the scheduler's own events (``remove-worker``).
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pyarrow.parquet as pq
import pytest

from boardsweep import solvers
from boardsweep.pipeline.cluster import open_client
from boardsweep.pipeline.errors import JobError
from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.plan import plan_job
from boardsweep.pipeline.publish import prepare_state
from boardsweep.pipeline.run import dask_runner, local_runner
from boardsweep.pipeline.spec import cluster_spec, make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context
from tests.conftest import ROOT, boardsweep, records_stored, run_env, start_boardsweep

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

PROBLEMS = "tests.toy_rooks,tests.noop"  # what the toy_problems fixture registers
ALLOWED_FAILURES = 1
TARGET = 1.0  # target task seconds: noop's units are 1 s each, so one unit per task


@pytest.fixture(scope="module")
def fragile():
    """Two restartable single-threaded workers that know the test problems; a task may kill
    one worker and still be retried once (``allowed_failures: 1``)."""
    with pytest.MonkeyPatch.context() as patch:  # before the workers start: they inherit it
        patch.setenv("BOARDSWEEP_PROBLEMS", PROBLEMS)
        patch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        spec = cluster_spec(
            {
                "kind": "local",
                "workers": 2,
                "allowed_failures": ALLOWED_FAILURES,
                "dashboard_address": "127.0.0.1:0",
                "task_seconds": TARGET,
            },
            Context(),
        )
        with open_client(spec) as client:
            yield client


class Output:
    """An output folder with its state folder and store, as ``boardsweep run`` prepares them."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.state = state_folder(folder)
        prepare_state(folder, self.state)
        self.store = Store(self.state / "store.sqlite")

    def run(self, job, runner, threads: int = 2) -> dict:
        return run_job(job, self.folder, self.state, self.store, runner, threads, TARGET, "test")

    def ranges(self, job) -> list[list[tuple[int, int]]]:
        """The unit ranges with records, for each point of ``job``."""
        return [
            self.store.ranges(job.name, p.table, p.point_id) for p in plan_job(job, None).points
        ]


@pytest.fixture
def output(tmp_path):
    made = Output(tmp_path / "out")
    yield made
    made.store.close()


def _noop(**params):
    return make_job(solvers.get("noop"), "q", params, Context())


def _pids(client) -> set[int]:
    return set(client.run(os.getpid).values())


def _deaths(client) -> int:
    """Workers the scheduler lost without being asked to close them, so far."""
    return sum(
        1
        for _, event in client.get_events("all")
        if isinstance(event, dict)
        and event.get("action") == "remove-worker"
        and not event.get("expected")
    )


def _folder_digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_task_that_killed_its_worker_reruns_elsewhere(tmp_path, fragile, output):
    marker = tmp_path / "marker"
    marker.mkdir()
    job = _noop(units=8, die=3, marker=str(marker))
    pids, deaths = _pids(fragile), _deaths(fragile)
    manifest = output.run(job, dask_runner(fragile, 2))
    assert (marker / "died").exists(), "no worker was killed: the test proved nothing"
    assert _deaths(fragile) - deaths == 1
    # every unit computed exactly once, as an uninterrupted run computes it
    assert output.ranges(job) == [[(0, 8)]]
    assert manifest["run"]["tasks_run"] == 8 and manifest["run"]["units_run"] == 8
    clean = Output(tmp_path / "clean")
    clean.run(_noop(units=8, die=3, marker=str(marker)), local_runner)  # marker: no death now
    clean.store.close()
    published = pq.read_table(output.folder / "q" / "noop.parquet").to_pylist()
    expected = pq.read_table(clean.folder / "q" / "noop.parquet").to_pylist()
    assert (
        [{k: r[k] for k in ("point", "first", "units")} for r in published]
        == [{k: r[k] for k in ("point", "first", "units")} for r in expected]
        == [{"point": 0, "first": sum(range(8)), "units": 8}]
    )
    fragile.wait_for_workers(2, timeout=60)
    assert len(_pids(fragile) - pids) == 1  # the nanny started one new worker


def test_task_that_keeps_killing_workers_ends_the_job_naming_it(fragile, output):
    first = _noop(units=8)
    output.run(first, local_runner)  # a published generation, which must stay as it is
    before = _folder_digest(output.folder / "q")
    deaths = _deaths(fragile)
    job = _noop(units=8, die=0)  # unit 0: the first task, alone in the first bundle
    with pytest.raises(JobError) as failure:
        output.run(job, dask_runner(fragile, 2))
    assert _deaths(fragile) - deaths == ALLOWED_FAILURES + 1
    message = str(failure.value)
    assert message.startswith(
        "job q: 1 task failed, first: noop (noop, units 0..0): "
        "WorkerLost: every worker that ran it died (2 in a row, last "
        "tcp://127.0.0.1:"
    ), message
    assert "distributed.scheduler.allowed-failures = 1" in message
    assert message.endswith(
        "the 7 tasks that finished are kept in the store, and a rerun computes only what is missing"
    ), message
    assert _folder_digest(output.folder / "q") == before
    assert output.ranges(job) == [[(1, 8)]] and output.ranges(first) == [[(0, 8)]]
    fragile.wait_for_workers(2, timeout=60)


def test_run_exits_1_naming_the_task_that_keeps_killing_workers(tmp_path, toy_problems):
    config = tmp_path / "c.yaml"
    config.write_text(
        "output: out\ncluster: {kind: local, workers: 2, allowed_failures: 1, "
        "task_seconds: 1}\njobs:\n  - {name: q, problem: noop, units: 8, die: 5}\n"
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    # the local dashboard binds 127.0.0.1 alone (port 8787 unless another run holds it)
    assert re.search(r"dashboard: http://127\.0\.0\.1:\d+/status;", done.stderr), done.stderr
    assert (
        "boardsweep: error: job q: 1 task failed, first: noop (noop, units 5..5): "
        "WorkerLost: every worker that ran it died (2 in a row" in done.stderr
    ), done.stderr
    assert "marked as failed because 2 workers died" in done.stderr  # Dask's own count
    assert "the 7 tasks that finished are kept in the store" in done.stderr
    assert done.stderr.rstrip().endswith("boardsweep: error: 1 of 1 jobs failed (see above)")
    assert not (tmp_path / "out" / "q").exists()


def _worker_processes(driver: psutil.Process) -> list[psutil.Process]:
    """The driver's Dask worker processes (children started by multiprocessing spawn)."""
    return [
        p
        for p in driver.children(recursive=True)
        if "spawn_main" in " ".join(p.cmdline()) and "resource_tracker" not in " ".join(p.cmdline())
    ]


def test_worker_sigkilled_mid_run_changes_nothing(tmp_path):
    out = tmp_path / "out"
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {out}\ncluster: {{kind: local, workers: 2}}\n"
        "jobs:\n  - {name: q, problem: nqueens, n: [12, 16, 17]}\n"
    )
    store = state_folder(out) / "store.sqlite"
    env = {k: v for k, v in run_env().items() if k != "BOARDSWEEP_PROBLEMS"}  # nqueens only
    proc = start_boardsweep("run", str(config), cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while (stored := records_stored(store)) < 2:
            assert proc.poll() is None, "the run ended before a worker could be killed"
            assert time.monotonic() < deadline, "no task finished"
            time.sleep(0.05)
        workers = _worker_processes(psutil.Process(proc.pid))
        assert len(workers) == 2, [w.cmdline() for w in workers]
        workers[0].send_signal(signal.SIGKILL)  # mid-task: the tasks of n = 17 take seconds
        assert proc.poll() is None
        _, stderr = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, stderr
    counts = pq.read_table(out / "q" / "counts.parquet")
    assert [int(c) for c in counts.column("count_text").to_pylist()] == [14200, 14772512, 95815104]
    (run,) = pq.read_table(out / "q" / "runs.parquet").to_pylist()
    assert run["tasks_run"] == records_stored(store) > stored  # the kill came before the end
    assert run["units_run"] == run["units"] and run["units_reused"] == 0
