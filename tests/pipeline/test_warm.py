"""Kernels compiled once per machine: on a cold cache, each problem compiles in one worker
while another worker compiles another problem, and the rest load what was compiled."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import run_env

SCRIPT = """
import json, logging, sys
from distributed import Client, LocalCluster
from boardsweep.pipeline.progress import setup_logging
from boardsweep.pipeline.warm import warm_workers
setup_logging(0)
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        ready = warm_workers(client, sys.argv[1].split(","))
        again = warm_workers(client, sys.argv[1].split(","))
    print(json.dumps([ready, again]))
"""


def test_a_cold_cache_compiles_each_problem_once_on_different_workers(tmp_path):
    problems = ["queens_rooks", "max_rooks"]
    (tmp_path / "warm.py").write_text(SCRIPT)
    env = {**run_env(), "BOARDSWEEP_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "warm.py", ",".join(problems)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    ready, again = json.loads(done.stdout.splitlines()[-1])
    assert len(ready) == 2
    for name in problems:
        compiled = [w for w, r in ready.items() if r["problems"][name]["compiled"]]
        assert len(compiled) == 1, (name, ready)  # one compile; the other worker loaded it
    # each worker compiled a problem of its own (they started at different problems)
    assert sorted(sum(1 for p in r["problems"].values() if p["compiled"])
                  for r in ready.values()) == [1, 1], ready
    # warm now: nothing compiles again, anywhere
    assert not any(p["compiled"] for r in again.values() for p in r["problems"].values())
    slowest = max(r["seconds"] for r in ready.values())
    if slowest > 12:  # the driver spoke while it waited
        assert "kernels: ready" in done.stderr, done.stderr


def test_a_phase_without_progress_of_its_own_says_it_is_alive(caplog):
    """``ticking`` logs its line on schedule while the block runs, and stops after it."""
    import logging
    import time

    from boardsweep.pipeline.progress import LOGGER, ticking

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.getMessage().startswith("busy")]

    LOGGER.propagate, was = True, LOGGER.propagate
    try:
        with caplog.at_level(logging.INFO, logger="boardsweep"):
            with ticking(lambda s: f"busy {s:.2f} s", every=0.05):
                time.sleep(0.5)
            during = said()
            time.sleep(0.3)
            after = said()
    finally:
        LOGGER.propagate = was
    assert len(during) >= 2, during
    assert all(float(line.split()[1]) >= 0.05 for line in during), during
    assert len(after) <= len(during) + 1, after  # at most one tick in flight at the exit
