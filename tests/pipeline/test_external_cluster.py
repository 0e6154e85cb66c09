"""Jobs on a cluster started apart: `dask scheduler` and `dask worker` as separate processes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from importlib.metadata import version as package_version
from pathlib import Path

import pytest
from distributed import Client

from pipeline import results, store
from tests.conftest import ROOT, boardsweep, run_env

DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]


@contextmanager
def cluster_on_loopback(path: Path, worker_envs: list[tuple[dict, Path]]):
    """A scheduler found by the file ``path`` and one single-threaded worker per (environment,
    working directory)."""
    procs = [subprocess.Popen([*DASK, "--scheduler-file", str(path), "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard"], env=run_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    procs += [subprocess.Popen([*WORKER, "--scheduler-file", str(path), "--nthreads", "1",
                                "--host", "127.0.0.1", "--no-dashboard"], env=env,
                               cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
              for env, cwd in worker_envs]
    try:
        yield path
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


@pytest.fixture
def scheduler_file(tmp_path):
    """A scheduler and two worker processes with this interpreter's packages."""
    workers = [(run_env(), ROOT), (run_env(), ROOT)]
    with cluster_on_loopback(tmp_path / "scheduler.json", workers) as path:
        yield path


def _other_boardsweep(folder: Path) -> tuple[dict, Path]:
    """A worker setting in which ``boardsweep`` reports version 0.0.1 (a stale install).

    It runs in ``folder``, not the checkout, whose ``boardsweep.egg-info`` would come first.
    """
    info = folder / "boardsweep-0.0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: boardsweep\nVersion: 0.0.1\n")
    return {**run_env(), "PYTHONPATH": str(folder)}, folder


def test_worker_with_another_version_is_refused(tmp_path):
    mine = package_version("boardsweep")
    envs = [(run_env(), ROOT), _other_boardsweep(tmp_path / "stale")]
    with cluster_on_loopback(tmp_path / "scheduler.json", envs) as path:
        address = None
        deadline = time.monotonic() + 60
        while address is None:  # wait until both workers are in, or the check may miss one
            assert time.monotonic() < deadline, "the cluster did not come up"
            text = path.read_text() if path.exists() else ""
            if text.endswith("}"):  # the scheduler may have written only part of it yet
                address = json.loads(text)["address"]
                with Client(address, timeout=30) as client:
                    client.wait_for_workers(2, timeout=60)
            else:
                time.sleep(0.1)
        done = boardsweep("solve", "nqueens", "8", "--scheduler", address)
    assert done.returncode == 2, done.stderr
    assert re.search(rf"version mismatch with worker tcp://127\.0\.0\.1:\d+: boardsweep "
                     rf"{re.escape(mine)} here but 0\.0\.1 there", done.stderr), done.stderr
    assert done.stdout == ""


def test_run_on_scheduler_file_and_address(tmp_path, scheduler_file):
    config = tmp_path / "c.yaml"
    config.write_text(f"output: {tmp_path / 'out'}\n"
                      "jobs:\n  - {name: q, problem: nqueens, n: [10, 15]}\n")
    done = boardsweep("run", str(config), "--scheduler-file", str(scheduler_file))
    assert done.returncode == 0, done.stderr
    counts = store.read_table(tmp_path / "out" / "q" / "counts.parquet")
    assert results.count_values(counts) == [724, 2279184]
    address = json.loads(Path(scheduler_file).read_text())["address"]
    done = boardsweep("solve", "nqueens", "15", "--scheduler", address)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2279184\n"


def test_missing_scheduler_file_times_out_with_a_message(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("cluster: {kind: scheduler-file, path: nowhere.json, timeout: 1}\n"
                      "jobs: [{name: q, problem: nqueens, n: 4}]\n")
    done = boardsweep("run", str(config), "--output", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "nowhere.json: scheduler file did not appear within 1 s" in done.stderr


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("cluster: {kind: address, address: 'tcp://127.0.0.1:9', timeout: 2}\n"
                      "jobs: [{name: q, problem: nqueens, n: 4}]\n")
    done = boardsweep("run", str(config), "--output", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr
