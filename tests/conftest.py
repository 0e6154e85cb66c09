"""Shared fixtures: a repository root, a real two-process Dask cluster, small config files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# the checks the problems' tests share: pytest's detailed assertion messages there too
pytest.register_assert_rewrite("tests.contract_checks")

ROOT = Path(__file__).resolve().parents[1]
BOARDSWEEP = [sys.executable, "-m", "boardsweep"]
# ``dask scheduler`` flags: on loopback, at any free port, its dashboard at another
SCHEDULER_ON_LOOPBACK = ["--host", "127.0.0.1", "--port", "0", "--dashboard-address", "127.0.0.1:0"]


def pytest_sessionstart(session):
    """Compile every built-in problem's kernels once for the whole run, before any test: each
    process of the run (``pytest -n``'s workers) warms them the way cluster workers do, one
    problem per process at a time under the machine's compile locks, so each kernel compiles
    once and every later test and subprocess loads it from the shared cache."""
    if not os.environ.get("PYTEST_XDIST_WORKER") and getattr(
        session.config.option, "numprocesses", None
    ):
        return  # the controller of pytest -n runs no test
    from boardsweep import solvers
    from boardsweep.pipeline.warm import warm_up

    warm_up(list(solvers.names()))


# files of long, independent tests (a page of examples each): under ``pytest -n`` every test is
# a unit of work of its own, where other files go to one process whole (``--dist loadfile``)
SPLIT_FILES = ("tests/docs/test_examples.py",)


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` with the tests of :data:`SPLIT_FILES` shared out one by one."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FileOrTest(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = nodeid.split("::", 1)[0]
            return nodeid if file in SPLIT_FILES else file

    return FileOrTest(config, log)


def pytest_collection_modifyitems(config, items):
    """Files marked ``slow`` (long tests of real processes) first, whole files before the
    tests of :data:`SPLIT_FILES` (each shorter), then the rest, in their own order: the longest
    work goes out first, and the short tests fill in at the end, so the workers of ``pytest -n``
    finish together rather than wait on one long file at the end."""

    def order(item) -> tuple[bool, bool]:
        slow = item.get_closest_marker("slow") is not None
        return (not slow, item.nodeid.split("::", 1)[0] in SPLIT_FILES)

    items.sort(key=order)


@pytest.fixture(scope="session")
def dask_client():
    """A real ``distributed.LocalCluster`` with 2 worker processes, shared by the session."""
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


@pytest.fixture
def toy_problems(monkeypatch):
    """Register the test problems (toy rooks, no-op) the way a third-party module is:
    through ``BOARDSWEEP_PROBLEMS``, which subprocesses and local workers inherit."""
    monkeypatch.setenv("BOARDSWEEP_PROBLEMS", "tests.toy_rooks,tests.noop")
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    from boardsweep import solvers

    return solvers.problems()


@pytest.fixture
def write_config(tmp_path):
    """Write a config file in a temp folder and return its path."""

    def write(text: str, name: str = "config.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text)
        return path

    return write


def run_env() -> dict:
    """Environment for subprocesses: this interpreter's packages, no terminal colour."""
    return {**os.environ, "NO_COLOR": "1"}


def boardsweep(
    *args: str, stdin: str | None = None, cwd=None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """Run the command line as a user would and capture everything (``env`` defaults to
    :func:`run_env`)."""
    return subprocess.run(
        [*BOARDSWEEP, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=run_env() if env is None else env,
        timeout=600,
    )


def run_ok(command: list[str], *, cwd, env: dict, timeout: float) -> subprocess.CompletedProcess:
    """Run ``command`` in ``cwd`` with ``env``, its output captured as text, and check that it
    exited 0 (its stderr the message when not)."""
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stderr
    return done


def start_boardsweep(
    *args: str, cwd, env: dict | None = None, stdin=None, stdout=subprocess.PIPE
) -> subprocess.Popen:
    """``boardsweep ARGS`` started as a user's terminal or a batch system would: a session of
    its own (a signal to its group reaches its workers and nothing else), text mode, stderr
    piped; ``env`` defaults to :func:`run_env`."""
    return subprocess.Popen(
        [*BOARDSWEEP, *args],
        cwd=cwd,
        env=run_env() if env is None else env,
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def start_dask_worker(*args: str, env: dict, cwd, python: str = sys.executable) -> subprocess.Popen:
    """``dask worker ARGS`` run by ``python``: on loopback, one thread, no dashboard, its
    output discarded."""
    return subprocess.Popen(
        [python, "-m", "distributed.cli.dask_worker", *args]
        + ["--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def records_stored(store: Path) -> int:
    """Records committed so far to the result store ``store`` while another process writes
    it (0 before the file or its table exists); opened read-only, so nothing is created."""
    if not store.exists():
        return 0
    try:
        db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5)
        try:
            return db.execute("SELECT count(*) FROM records").fetchone()[0]
        finally:
            db.close()
    except sqlite3.OperationalError:  # created but no table yet
        return 0
