"""A driver killed with SIGKILL at random moments, again and again: nothing lost, counts exact.

Each run is the same ``boardsweep run`` command; the whole process group (driver and its local
workers) is killed as a batch system does at a time limit.  After every kill each fragment on
disk must read whole, and the final run must compute only the tasks without a fragment.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time

import pyarrow.parquet as pq
from pipeline.config import load_config
from pipeline.execute import local_runner

from pipeline import results, store
from pipeline.jobs import run_job
from tests.conftest import BOARDSWEEP, ROOT, run_env

KILLS = 5
EXACT = [14200, 2279184, 14772512]  # Q(12), Q(15), Q(16)
CONFIG = """output: {out}
cluster: {{kind: local, workers: 2}}
jobs:
  - {{name: q, problem: nqueens, n: [12, 15, 16]}}
  - name: walled
    problem: max_rooks
    counts: true
    boards: {{generate: {{n: [6, 10], density: [0.2, 0.4], count: 6000, seed: 3}}}}
"""


def _start(config) -> subprocess.Popen:
    return subprocess.Popen([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _fragments(out) -> list:
    return list(out.glob("*/fragments/*/*.parquet"))


def test_driver_sigkilled_at_random_moments_resumes_with_exact_results(tmp_path):
    seed = int(os.environ.get("BOARDSWEEP_KILL_SEED", time.time_ns() % 10**6))
    rng = random.Random(seed)
    out = tmp_path / "out"
    config = tmp_path / "c.yaml"
    config.write_text(CONFIG.format(out=out))
    reference = tmp_path / "reference"
    for job in load_config(config).jobs:  # uninterrupted, with the same plan (2 workers)
        run_job(job, reference, local_runner, workers=2)
    total = len(_fragments(reference))
    history = []
    for attempt in range(KILLS):
        before = len(_fragments(out))
        proc = _start(config)
        # a random moment: after 0 (during start-up) to a fair share of the fragments left
        share = (total - before) // (KILLS - attempt + 1)
        target, delay = before + rng.randint(0, share), rng.uniform(0.0, 0.2)
        deadline = time.monotonic() + 300
        while len(_fragments(out)) < target and proc.poll() is None:
            assert time.monotonic() < deadline, f"seed {seed}: stuck: {history}"
            time.sleep(0.02)
        time.sleep(delay)
        alive = proc.poll() is None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        after = _fragments(out)
        history.append((target - before, round(delay, 2), before, len(after)))
        assert alive, f"seed {seed}: run {attempt} finished before the kill: {history}"
        for path in after:  # a fragment is only ever visible whole
            pq.read_table(path)
        merged = out / "q" / "counts.parquet"
        if merged.exists():  # the job may finish before a kill; its merge is then whole
            assert results.count_values(pq.read_table(merged)) == EXACT, (seed, history)
    kept = {p.stem for p in _fragments(out) if not p.parent.name.endswith("-points")}
    assert kept, f"seed {seed}: no run got as far as a fragment: {history}"
    final = subprocess.run([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                           capture_output=True, text=True, timeout=600)
    assert final.returncode == 0, final.stderr
    counts = results.count_values(store.read_table(out / "q" / "counts.parquet"))
    assert counts == EXACT, f"seed {seed}: {history}"
    walled = pq.read_table(out / "walled" / "maxima.parquet")
    assert walled.equals(pq.read_table(reference / "walled" / "maxima.parquet")), seed
    tasks = {job: json.loads((out / job / "manifest.json").read_text())["tasks"]
             for job in ("q", "walled")}
    assert sum(t["skipped"] for t in tasks.values()) == len(kept), (seed, history)
    assert all(t["run"] + t["skipped"] == t["planned"] for t in tasks.values())
