"""Jobs on a cluster started apart: `dask scheduler` and `dask worker` as separate processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import results, store
from tests.conftest import ROOT, boardsweep, run_env

DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]


@pytest.fixture
def scheduler_file(tmp_path):
    """A scheduler and two single-threaded worker processes on loopback, found by a file."""
    path = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([*DASK, "--scheduler-file", str(path), "--host", "127.0.0.1",
                               "--port", "0", "--no-dashboard"], env=run_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    procs += [subprocess.Popen([*WORKER, "--scheduler-file", str(path), "--nthreads", "1",
                                "--host", "127.0.0.1", "--no-dashboard"], env=run_env(),
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
              for _ in range(2)]
    try:
        yield path
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


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
