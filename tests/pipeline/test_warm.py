"""Kernels compiled once per machine: on a cold cache, each problem compiles in one worker
while another worker compiles another problem, and the rest load what was compiled."""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.conftest import run_env, run_ok

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

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
    done = run_ok(
        [sys.executable, "warm.py", ",".join(problems)], cwd=tmp_path, env=env, timeout=900
    )
    ready, again = json.loads(done.stdout.splitlines()[-1])
    assert len(ready) == 2
    for name in problems:
        compiled = [w for w, r in ready.items() if r["problems"][name]["compiled"]]
        assert len(compiled) == 1, (name, ready)  # one compile; the other worker loaded it
    # a worker that was at work before the other's first compile ended compiled a problem of
    # its own (they start at different problems); one that started later may find every
    # problem compiled already (a busy machine can start a worker process seconds late)
    for worker, mine in ready.items():
        for other, theirs in ready.items():
            ends = [p["began"] + p["seconds"] for p in theirs["problems"].values() if p["compiled"]]
            if other != worker and ends and mine["started"] < min(ends) - 1.0:
                assert any(p["compiled"] for p in mine["problems"].values()), ready
    # warm now: nothing compiles again, anywhere
    assert not any(p["compiled"] for r in again.values() for p in r["problems"].values())
    slowest = max(r["seconds"] for r in ready.values())
    if slowest > 12:  # the driver spoke while it waited, in steps and functions compiled
        assert re.search(
            r"kernels: .*(compiling \w+ kernels \(first run on this machine\)|"
            r"loading \w+ kernels): \d of \d steps",
            done.stderr,
        ), done.stderr


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


def test_the_warm_up_line_counts_steps_and_compiled_functions():
    """What the driver says while workers warm up: per problem compiling or loading, its
    steps done and the functions compiled so far, and the problems ready, from the events."""
    from boardsweep.pipeline.warm import progress_line

    run = "r1"
    events = [
        (0, {"run": run, "worker": "w1", "state": "start", "problem": "a"}),
        (0, {"run": run, "worker": "w2", "state": "start", "problem": "b"}),
        (
            1,
            {
                "run": run,
                "worker": "w1",
                "state": "step",
                "problem": "a",
                "step": 1,
                "steps": 3,
                "functions": 12,
            },
        ),
        (
            1,
            {
                "run": run,
                "worker": "w2",
                "state": "step",
                "problem": "b",
                "step": 1,
                "steps": 2,
                "functions": 0,
            },
        ),
        (2, {"run": "other", "worker": "w2", "state": "done", "problem": "b"}),
        (2, {"run": run, "worker": "w2", "state": "done", "problem": "b"}),
    ]
    text, share = progress_line(events, run, ["a", "b"], 2, 40.2)
    assert text == (
        "kernels: compiling a kernels (first run on this machine): 1 of 3 steps, "
        "12 functions compiled; ready: b (1 of 2 workers); 40 s"
    ), text
    assert abs(share - (1 + 1 / 3) / 4) < 1e-9, share
    text, _ = progress_line(events[:4], run, ["a", "b"], 2, 9.0)
    assert text.endswith("; loading b kernels: 1 of 2 steps; 9 s"), text
    text, share = progress_line([], run, ["a"], 2, 3.0)
    assert text == "kernels: starting; 3 s" and share == 0


def test_a_status_line_is_a_bar_on_a_terminal_and_a_log_line_elsewhere():
    """On a terminal the line is redrawn in place (with a bar); off one it is logged once
    per interval."""
    import io
    import logging

    from boardsweep.pipeline.progress import LOGGER, Status

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    class Said(logging.Handler):  # the logger's own records, whatever other handlers it has
        def __init__(self):
            super().__init__(logging.INFO)
            self.lines: list[str] = []

        def emit(self, record):
            self.lines.append(record.getMessage())

    said = Said()
    LOGGER.addHandler(said)
    level, LOGGER.level = LOGGER.level, logging.INFO
    try:
        term = Terminal()
        status = Status(term, interval=10)
        assert status.tty and status.due()
        status.show("compiling x kernels: 1 of 2 steps", 0.5)
        status.show("compiling x kernels: 2 of 2 steps", 1.0)
        status.close()
        assert term.getvalue() == (
            "\r[" + "#" * 15 + "-" * 15 + "] compiling x kernels: 1 of 2 steps\033[K"
            "\r[" + "#" * 30 + "] compiling x kernels: 2 of 2 steps\033[K\n"
        )
        plain = Status(io.StringIO(), interval=10, first=0)
        plain.show("one", 0.5)
        plain.show("two", 0.6)  # not due again for 10 s
        plain.close()
    finally:
        LOGGER.removeHandler(said)
        LOGGER.level = level
    assert said.lines == ["one"], said.lines
