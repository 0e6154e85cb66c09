"""A driver killed with SIGKILL mid-run, then the same command again: only missing tasks run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

from pipeline import results, store
from tests.conftest import BOARDSWEEP, ROOT, run_env


def test_sigkilled_run_resumes_with_exact_counts(tmp_path):
    out = tmp_path / "out"
    config = tmp_path / "c.yaml"
    config.write_text(f"output: {out}\ncluster: {{kind: local, workers: 2}}\n"
                      "jobs:\n  - {name: q, problem: nqueens, n: [12, 16, 17]}\n")
    fragments = out / "q" / "fragments" / "counts"
    proc = subprocess.Popen([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while len(list(fragments.glob("*.parquet"))) < 3:
            assert proc.poll() is None, "the run ended before it could be killed"
            assert time.monotonic() < deadline, "no fragments appeared"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # driver and local workers, as a batch system does
        proc.wait()
    kept = store.existing_fragments(out, "q", "counts")
    assert len(kept) >= 3 and not (out / "q" / "counts.parquet").exists()
    again = subprocess.run([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    manifest = json.loads((out / "q" / "manifest.json").read_text())
    assert manifest["tasks"]["skipped"] == len(kept)
    assert manifest["tasks"]["run"] == manifest["tasks"]["planned"] - len(kept)
    counts = results.count_values(store.read_table(out / "q" / "counts.parquet"))
    assert counts == [14200, 14772512, 95815104]
