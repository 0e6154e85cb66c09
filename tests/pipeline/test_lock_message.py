"""The lock refusal, word for word: a second ``boardsweep run`` on an output folder that a live
``boardsweep run`` holds is refused (exit 2) with the holder's pid, host and start time.

The holder is a real run: it takes the output's lock, then waits for a scheduler file that
does not exist yet, so it holds the lock for as long as its cluster ``timeout`` and uses no
CPU.  (``tests/pipeline/test_store_damage.py`` has the same refusal with a holder that calls
``claim_output`` itself, through another state folder.)
"""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import time
from datetime import datetime
from pathlib import Path

from tests.conftest import BOARDSWEEP, ROOT, boardsweep, run_env


def _wait_for_holder(lock: Path, process: subprocess.Popen, timeout: float = 60) -> str:
    """The lock file's text once the run ``process`` has written its own pid into it."""
    deadline = time.monotonic() + timeout
    while True:
        text = lock.read_text() if lock.exists() else ""
        if text.startswith(f"pid {process.pid} "):
            return text
        assert process.poll() is None, f"the holder ended first: {process.communicate()}"
        assert time.monotonic() < deadline, "the holder never took the lock"
        time.sleep(0.05)


def test_a_second_run_names_the_live_runs_pid_host_and_start_time(tmp_path):
    """The second run exits 2 with one line naming the first: its pid, this host, and a start
    time between the first's launch and the moment its lock was seen."""
    out = tmp_path / "results"
    config = tmp_path / "c.yaml"
    config.write_text(f"output: {out}\njobs: [{{name: q, problem: nqueens, n: 8}}]\n")
    never = tmp_path / "no-scheduler-yet.json"  # the holder waits for it while holding the lock
    launched = datetime.now().replace(microsecond=0)
    holder = subprocess.Popen(
        [*BOARDSWEEP, "run", str(config), "--scheduler-file", str(never)],
        cwd=ROOT,
        env=run_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        held = _wait_for_holder(out / "_boardsweep" / "lock", holder)
        seen = datetime.now()
        second = boardsweep("run", str(config))
        assert holder.poll() is None, "the holder must still be running"
    finally:
        holder.send_signal(signal.SIGTERM)
        try:
            holder.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.communicate()
    assert second.returncode == 2, second.stderr
    assert second.stdout == ""
    found = re.fullmatch(
        rf"boardsweep: error: {re.escape(str(out))}: the output folder is in use by pid "
        rf"{holder.pid} on {re.escape(socket.gethostname())} since "
        r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d); wait for it or choose another --output\n",
        second.stderr,
    )
    assert found, second.stderr
    since = datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S")
    assert launched <= since <= seen, (launched, since, seen)
    assert held == f"pid {holder.pid} on {socket.gethostname()} since {found.group(1)}\n"
    assert not (out / "q").exists()  # the refused run wrote nothing
