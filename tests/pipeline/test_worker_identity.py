"""Workers that run other code than the driver, on a real external cluster: one ``dask
scheduler`` process for the module, and ``dask worker`` processes started for each test.

- A worker whose problem code hashes differently (its ``PYTHONPATH`` leads to an edited copy of
  ``tests/toy_rooks.py``, registered as a third-party problem through ``BOARDSWEEP_PROBLEMS``)
  refuses every task: it is named in the log and gets no more tasks, its tasks are computed by
  the other workers, and with no other worker the job fails naming it.
- A worker with another numba, numpy, pyarrow or Python (``tests/other_versions.py``, a
  preload, makes the worker process report them) stops the run before any task, naming the
  worker, each library and both versions, as a worker with another boardsweep does
  (``tests/pipeline/test_external_cluster.py``).  One that no connect-time check saw (a client
  passed to ``boardsweep.run``, a worker that joins later) refuses every task it is sent, as a
  worker of other problem code does.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numba
import numpy
import pyarrow as pa
import pytest
from distributed import Client

from boardsweep.pipeline.tables import read_parquet
from tests.conftest import BOARDSWEEP, ROOT, run_env, start_dask_worker

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

SCHEDULER = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
PROBLEMS = {"BOARDSWEEP_PROBLEMS": "tests.toy_rooks"}
N = "1..8"  # toy_rooks boards: 36 units in 8 points, enough tasks for two workers


def _env(path: Path = ROOT, **more: str) -> dict:
    """This interpreter's environment with the toy problem registered, found under ``path``."""
    return {**run_env(), **PROBLEMS, "PYTHONPATH": str(path), **more}


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory) -> str:
    """The address of a plain-TCP scheduler on loopback, shared by the module's tests."""
    path = tmp_path_factory.mktemp("scheduler") / "scheduler.json"
    process = subprocess.Popen(
        [*SCHEDULER, "--scheduler-file", str(path), "--host", "127.0.0.1", "--port", "0"]
        + ["--dashboard-address", "127.0.0.1:0"],
        env=run_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not (path.exists() and path.read_text().endswith("}")):
            assert process.poll() is None and time.monotonic() < deadline, "no scheduler"
            time.sleep(0.1)
        yield json.loads(path.read_text())["address"]
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def workers(address: str, *settings: tuple[dict, Path]):
    """One single-threaded ``dask worker`` per (environment, working folder), all joined:
    yields their addresses, in order; they are gone from the scheduler when the block ends."""
    procs = [start_dask_worker(address, "--no-nanny", env=env, cwd=cwd) for env, cwd in settings]
    try:
        with Client(address, timeout=30) as client:
            client.wait_for_workers(len(procs), timeout=60)
            pids = {pid: address for address, pid in client.run(os.getpid).items()}
        yield [pids[proc.pid] for proc in procs]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        with Client(address, timeout=30) as client:  # the next test starts on an empty cluster
            deadline = time.monotonic() + 30
            while client.scheduler_info(n_workers=-1)["workers"]:
                assert time.monotonic() < deadline, "a stopped worker stayed on the scheduler"
                time.sleep(0.1)


def _run(tmp_path: Path, address: str, *more: str) -> subprocess.CompletedProcess:
    """``boardsweep run`` of one toy_rooks job on the scheduler at ``address``."""
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\njobs: [{{name: r, problem: toy_rooks, n: '{N}'}}]\n"
    )
    return subprocess.run(
        [*BOARDSWEEP, "run", str(config), "--scheduler", address, "--security", "none"]
        + ["--task-seconds", "0.01", *more],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _edited_rooks(folder: Path) -> tuple[dict, Path]:
    """A worker setting whose ``tests.toy_rooks`` is an edited copy: one more placement per
    unit, so any record it made would publish a wrong count."""
    package = folder / "tests"
    package.mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "__init__.py", package / "__init__.py")
    source = (ROOT / "tests" / "toy_rooks.py").read_text()
    sum_of_counts = "sum(f[0] for f in found)"
    assert source.count(sum_of_counts) == 1
    (package / "toy_rooks.py").write_text(source.replace(sum_of_counts, f"{sum_of_counts} + 1"))
    return _env(folder), folder  # run in the copy: the checkout would come first on sys.path


def _versions(text: str) -> list[tuple[str, str, str]]:
    """(worker, version here, version there) of each code refusal named in a log."""
    return re.findall(
        r"worker (tcp://127\.0\.0\.1:\d+) refused its tasks: code version mismatch: "
        r"toy_rooks is version (\w+) on this worker but (\w+) on the driver",
        text,
    )


def test_a_worker_with_edited_problem_code_is_refused_and_the_others_compute(tmp_path, scheduler):
    bad = _edited_rooks(tmp_path / "edited")
    with workers(scheduler, (_env(), ROOT), bad) as (_, edited):
        done = _run(tmp_path, scheduler)
    assert done.returncode == 0, done.stderr
    refusals = _versions(done.stderr)
    assert len(refusals) == 1, done.stderr  # named once, then given no more tasks
    worker, theirs, mine = refusals[0]
    assert worker == edited and theirs != mine
    table = read_parquet(tmp_path / "out" / "r" / "counts.parquet")
    assert table.column("n").to_pylist() == list(range(1, 9))
    assert [int(t) for t in table.column("count_text").to_pylist()] == [
        math.factorial(n) for n in range(1, 9)
    ]


def test_with_only_workers_of_other_code_the_job_fails_naming_them(tmp_path, scheduler):
    with workers(scheduler, _edited_rooks(tmp_path / "edited")) as (worker,):
        done = _run(tmp_path, scheduler)
    assert done.returncode == 1, done.stderr
    refusals = _versions(done.stderr)
    assert [w for w, _, _ in refusals] == [worker], done.stderr
    assert re.search(
        r"\nboardsweep: error: job r: \d+ tasks failed, first: n=\d \(counts, units \d+\.\.\d+\): "
        r"code version mismatch: toy_rooks is version \w+ on this worker but \w+ on the driver "
        r"\(install the same boardsweep and problem modules everywhere\); the 0 tasks",
        done.stderr,
    ), done.stderr
    assert done.stderr.endswith("boardsweep: error: 1 of 1 jobs failed (see above)\n")
    assert not (tmp_path / "out" / "r").exists()  # nothing published


def _liar(lies: dict[str, str]) -> tuple[dict, Path]:
    """A worker setting in which ``tests/other_versions.py`` reports the versions ``lies``."""
    env = _env(BOARDSWEEP_TEST_VERSIONS=json.dumps(lies))
    env["DASK_DISTRIBUTED__WORKER__PRELOAD"] = '["tests.other_versions"]'
    return env, ROOT


def _python() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def test_a_worker_with_other_libraries_stops_the_run_naming_each(tmp_path, scheduler):
    lies = {"numba": "0.1.0", "numpy": "2.0.0", "pyarrow": "1.0.0", "python": "3.1"}
    with workers(scheduler, _liar(lies)) as (worker,):
        done = _run(tmp_path, scheduler)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    line = (
        f"boardsweep: error: version mismatch with worker {worker}: numba {numba.__version__} "
        f"here but 0.1.0 there, numpy {numpy.__version__} here but 2.0.0 there, pyarrow "
        f"{pa.__version__} here but 1.0.0 there, python {_python()} here but 3.1 there\n"
    )
    assert done.stderr.endswith(line), done.stderr
    assert not (tmp_path / "out" / "r").exists()


DRIVER = """
import sys
from distributed import Client
import boardsweep
with Client(sys.argv[1]) as client:  # a client one has: boardsweep checks no versions on it
    boardsweep.run(sys.argv[2], client=client, task_seconds=0.01, verify=0)
"""


def test_a_worker_with_another_numba_that_no_connect_check_saw_refuses_its_tasks(
    tmp_path, scheduler
):
    """The same mismatch on a worker the connect-time check never sees (a client passed to
    ``boardsweep.run``; a worker that joins later is alike): every task it is sent carries the
    driver's versions, it refuses them, is named and banned, and the others compute."""
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\njobs: [{{name: r, problem: toy_rooks, n: '{N}'}}]\n"
    )
    liar = _liar({"numba": "0.1.0"})
    with workers(scheduler, (_env(), ROOT), liar) as (_, lying):
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, scheduler, str(config)],
            cwd=ROOT,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    refusals = re.findall(
        r"worker (\S+) refused its tasks: (.*); it gets no more tasks", done.stderr
    )
    assert refusals == [
        (
            lying,
            f"version mismatch: numba 0.1.0 on this worker but {numba.__version__} on the "
            "driver (install the same versions everywhere)",
        )
    ], done.stderr
    table = read_parquet(tmp_path / "out" / "r" / "counts.parquet")
    assert [int(t) for t in table.column("count_text").to_pylist()] == [
        math.factorial(n) for n in range(1, 9)
    ]
