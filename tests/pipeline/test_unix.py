"""A run that behaves like a good Unix citizen: signals and exit codes, no orphans, no
tracebacks, files that cannot be turned against the user, logs in one format."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from tests.conftest import boardsweep, records_stored, start_boardsweep

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d ")
STORE = Path(".boardsweep", "out", "store.sqlite")  # of CONFIG's output, in its folder
CONFIG = (
    "output: out\ncluster: {kind: local, workers: 2, task_seconds: 0.5}\n"
    "jobs:\n  - {name: q, problem: nqueens, n: [16, 17]}\n"
)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_run_with_its_status_one_line_and_no_orphans(tmp_path, signum):
    """SIGINT to the whole process group (Ctrl-C in a terminal) or SIGTERM to the driver (a
    batch system's time limit): exit 130 or 143, one error line, no traceback from the driver
    or its workers, no process left behind, finished tasks kept."""
    (tmp_path / "c.yaml").write_text(CONFIG)
    proc = start_boardsweep("run", "c.yaml", cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not records_stored(tmp_path / STORE):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.1)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert len(family) >= 2  # the workers
        if signum == signal.SIGINT:
            os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        else:
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signum, err
    assert out == ""
    word = "interrupted" if signum == signal.SIGINT else "terminated"
    errors = [line for line in err.splitlines() if "error" in line.lower()]
    assert len(errors) == 1, err
    assert re.fullmatch(
        rf"boardsweep: error: {word} \({signal.Signals(signum).name}\); \d+ "
        r"tasks? of this run kept, rerun to resume",
        errors[0],
    ), err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert len(err.splitlines()) <= 6, err
    time.sleep(1)
    alive = [p for p in family if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not alive, alive
    assert records_stored(tmp_path / STORE) >= 1


def _run_on_one_worker(tmp_path: Path, n: str) -> subprocess.CompletedProcess:
    """``boardsweep run c.yaml`` in ``tmp_path``: one N-queens job q of ``n`` on one local
    worker, its output ``out``."""
    (tmp_path / "c.yaml").write_text(
        "output: out\ncluster: {kind: local, workers: 1}\n"
        f"jobs:\n  - {{name: q, problem: nqueens, n: {n}}}\n"
    )
    return boardsweep("run", "c.yaml", cwd=tmp_path)


def test_a_clean_run_logs_timestamped_lines_in_one_format_and_no_traceback(tmp_path):
    done = _run_on_one_worker(tmp_path, "[8, 12]")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines and all(STAMP.match(line) for line in lines), done.stderr
    assert all(" boardsweep INFO: " in line or " WARNING: " in line for line in lines), lines
    assert "Traceback" not in done.stderr and "CommClosedError" not in done.stderr
    # the run's Dask performance report is kept, and opens offline (BokehJS inline)
    (report,) = (tmp_path / "out" / "_runs").glob("*/dask-performance.html")
    page = report.read_text()
    assert "cdn.bokeh.org" not in page and "Bokeh" in page
    again = boardsweep("-q", "run", "c.yaml", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == "", again.stderr
    logged = tmp_path / "run.log"
    third = boardsweep("--log-file", str(logged), "run", "c.yaml", cwd=tmp_path)
    assert third.returncode == 0 and third.stderr == "", third.stderr
    assert "boardsweep INFO: q: 0 tasks run" in logged.read_text()
    verbose = boardsweep("-v", "solve", "nqueens", "12", "--workers", "1", cwd=tmp_path)
    assert verbose.returncode == 0 and verbose.stdout == "14200\n"
    assert " distributed." in verbose.stderr  # Dask's own lines, in the same format
    assert all(STAMP.match(line) for line in verbose.stderr.splitlines())


def test_a_symlink_planted_as_the_lock_is_refused_and_its_target_untouched(tmp_path):
    (tmp_path / "c.yaml").write_text("output: out\njobs:\n  - {name: q, problem: nqueens, n: 6}\n")
    state = tmp_path / ".boardsweep" / "out"
    state.mkdir(parents=True)
    victim = tmp_path / "precious.txt"
    victim.write_text("do not truncate me\n")
    (state / "lock").symlink_to(victim)
    done = boardsweep("run", "c.yaml", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"boardsweep: error: {state}: cannot use the state folder: Too many "
        "levels of symbolic links\n"
    )
    assert victim.read_text() == "do not truncate me\n"
    assert not (tmp_path / "out").exists()


def test_the_state_folders_a_run_makes_are_private(tmp_path):
    done = _run_on_one_worker(tmp_path, "6")
    assert done.returncode == 0, done.stderr
    for folder in (
        tmp_path / ".boardsweep",
        tmp_path / ".boardsweep" / "out",
        tmp_path / ".boardsweep" / "out" / "tmp",
    ):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    assert (tmp_path / ".boardsweep" / "out" / "lock").stat().st_mode & 0o777 == 0o600


def test_help_lists_the_exit_codes():
    """``--help`` ends with every exit status of ``EXIT_CODES``, in its order, with its words."""
    from boardsweep.pipeline.errors import EXIT_CODES

    text = " ".join(boardsweep("--help").stdout.split())
    expected = "; ".join(f"{code} {status.words}" for code, status in EXIT_CODES.items())
    assert f"Exit status: {expected}." in text
