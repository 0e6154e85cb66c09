"""The driver SIGKILLed at random instants, merge and publication included: what is published
is always one whole generation, and the final run is exact; resume across worker counts.

Each attempt is a real ``boardsweep run`` whose whole process group (driver and local
workers) is killed, as a batch system does at a time limit.  Half the kills land at a random
moment of the run, half a random few milliseconds after the driver logs that it is merging
and publishing a job, so the publication window is hit on purpose.  ``BOARDSWEEP_KILL_SEED``
replays a sequence.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.tables import file_digest
from tests.conftest import BOARDSWEEP, run_env, start_boardsweep

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

KILLS = 10  # the issue asks for ten or more random instants
WORKERS = 1  # per killed run: what is killed is the driver's publication, and each of the
# dozen runs would start a second worker process for nothing
Q = {12: 14200, 13: 73712, 14: 365596}
CONFIG = """output: out
cluster: {{kind: local, workers: {workers}, task_seconds: 0.5}}
jobs:
  - {{name: q, problem: nqueens, n: [12, 13, 14]}}
  - name: w
    problem: max_rooks
    counts: true
    boards: {{generate: {{n: [6, 10], density: [0.2, 0.4], count: {count}, seed: 3}}}}
"""


def _start(folder: Path, workers: int = 2, count: int = 6000) -> subprocess.Popen:
    (folder / "c.yaml").write_text(CONFIG.format(workers=workers, count=count))
    return start_boardsweep("run", "c.yaml", cwd=folder, stdout=subprocess.DEVNULL)


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def _wait_line(process: subprocess.Popen, text: str, deadline: float) -> bool:
    """Read stderr until a line holds ``text`` (True) or the process ends (False)."""
    os.set_blocking(process.stderr.fileno(), True)
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            return False
        if text in line:
            return True
    return False


def _consistent(out: Path, reference: dict) -> list[str]:
    """Each published job is one whole generation whose rows agree with the reference."""
    problems = []
    for job in sorted(p for p in out.iterdir() if p.is_dir() and p.name[0] not in "_."):
        manifest = json.loads((job / "_boardsweep" / "manifest.json").read_text())
        names = {f"{t}.parquet" for t in manifest["tables"]} | {"runs.parquet", "_boardsweep"}
        if {p.name for p in job.iterdir()} != names:
            problems.append(f"{job.name}: files {sorted(p.name for p in job.iterdir())}")
        for table, info in manifest["tables"].items():
            path = job / f"{table}.parquet"
            if file_digest(path) != info["sha256"]:
                problems.append(f"{job.name}/{table}: not the manifest's file")
            if pq.read_metadata(path).num_rows != info["rows"]:
                problems.append(f"{job.name}/{table}: rows differ from the manifest's")
        runs = pq.read_table(job / "runs.parquet").to_pylist()
        if runs[-1]["generation"] != manifest["generation"]:
            problems.append(f"{job.name}: runs.parquet is of another generation")
        if job.name == "q":
            table = pq.read_table(job / "counts.parquet").to_pylist()
            if any(Q[r["n"]] != int(r["count_text"]) for r in table):
                problems.append("q: a wrong count is published")
        if job.name == "w":
            got = pq.read_table(job / "maxima.parquet").to_pandas()
            key = ["rows", "density", "board_id"]
            want = reference["w"].set_index(key).loc[got.set_index(key).index]
            if not (want["max_rooks"].to_numpy() == got["max_rooks"].to_numpy()).all():
                problems.append("w: published maxima differ from the reference")
    return problems


def _tables(out: Path) -> dict:
    return {
        "q": pq.read_table(out / "q" / "counts.parquet").to_pandas(),
        "w": pq.read_table(out / "w" / "maxima.parquet").to_pandas(),
    }


def test_kills_at_random_instants_never_publish_a_mix(tmp_path):
    seed = int(os.environ.get("BOARDSWEEP_KILL_SEED", time.time_ns() % 10**6))
    rng = random.Random(seed)
    ref_dir = tmp_path / "reference"
    ref_dir.mkdir()
    start = time.monotonic()
    done = _start(ref_dir, WORKERS)
    _, err = done.communicate(timeout=900)
    assert done.returncode == 0, err
    duration = time.monotonic() - start
    reference = _tables(ref_dir / "out")
    assert {int(c) for c in reference["q"]["count_text"]} == set(Q.values())

    work = tmp_path / "work"
    work.mkdir()
    history = []
    kills = attempts = 0
    while kills < KILLS and attempts < 3 * KILLS:
        attempts += 1
        process = _start(work, WORKERS)
        if attempts % 2:  # a random moment of the run
            delay = rng.uniform(0.5, duration)
            try:
                process.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                _kill(process)
                kills += 1
                history.append(f"{delay:.2f}s")
        else:  # a few milliseconds into some job's merge and publication
            target = rng.choice(["q: merging", "w: merging"])
            if _wait_line(process, target, time.monotonic() + 300):
                time.sleep(rng.uniform(0, 0.4))
                _kill(process)
                kills += 1
                history.append(f"{target}+")
            else:
                process.wait()
        problems = _consistent(work / "out", reference) if (work / "out").exists() else []
        assert not problems, f"seed {seed}, kills {history}: {problems}"
    assert kills >= 10, f"seed {seed}: only {kills} kills landed ({history})"
    final = _start(work, WORKERS)
    _, err = final.communicate(timeout=900)
    assert final.returncode == 0, f"seed {seed}: {err}"
    result = _tables(work / "out")
    assert result["q"][["n", "count_text"]].equals(reference["q"][["n", "count_text"]])
    columns = [
        "rows",
        "cols",
        "density",
        "board_id",
        "walls",
        "max_rooks",
        "max_placements_text",
        "placements_text",
    ]
    assert result["w"][columns].equals(reference["w"][columns]), f"seed {seed}"
    assert not _consistent(work / "out", reference)


def _units(folder: Path) -> dict[str, int]:
    """Units recorded in the store so far, by job."""
    path = folder / ".boardsweep" / "out" / "store.sqlite"
    if not path.exists():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return dict(db.execute("SELECT job, sum(hi - lo) FROM records GROUP BY job"))
    except sqlite3.OperationalError:  # the tables are not made yet
        return {}
    finally:
        db.close()


def _kill_once_recorded(process: subprocess.Popen, folder: Path, job: str) -> None:
    """Kill the run half a second after the store first holds units of ``job``."""
    deadline = time.monotonic() + 300
    while not _units(folder).get(job) and process.poll() is None:
        assert time.monotonic() < deadline, "no units were recorded"
        time.sleep(0.1)
    time.sleep(0.5)
    _kill(process)


def test_resume_across_one_two_three_workers_reuses_every_finished_unit(tmp_path):
    _kill_once_recorded(_start(tmp_path, 1, 25000), tmp_path, "q")  # while counting queens
    _kill_once_recorded(_start(tmp_path, 2, 25000), tmp_path, "w")  # while solving boards
    recorded = _units(tmp_path)
    assert 0 < recorded.get("w", 0) < 100000, recorded
    final = _start(tmp_path, 3, 25000)
    _, err = final.communicate(timeout=900)
    assert final.returncode == 0, err
    for job in ("q", "w"):
        last = pq.read_table(tmp_path / "out" / job / "runs.parquet").to_pylist()[-1]
        assert last["units_reused"] == recorded[job], (job, last, recorded)
        assert last["units_run"] + last["units_reused"] == last["units"]
    last = pq.read_table(tmp_path / "out" / "w" / "runs.parquet").to_pylist()[-1]
    assert last["workers"] == 3 and last["units_run"] > 0
    counts = pq.read_table(tmp_path / "out" / "q" / "counts.parquet").to_pylist()
    assert {r["n"]: int(r["count_text"]) for r in counts} == Q


def test_damaged_store_records_are_recomputed_by_the_next_run(tmp_path):
    """Real processes: records swapped, truncated and flipped in the SQLite store between two
    runs are found when the next run merges them, and computed again; the result is exact."""
    (tmp_path / "c.yaml").write_text(
        "output: out\ncluster: {kind: local, workers: 2}\n"
        "jobs:\n  - {name: q, problem: nqueens, n: [10, 11, 12]}\n"
    )

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(
            [*BOARDSWEEP, "run", "c.yaml"],
            cwd=tmp_path,
            env=run_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )

    assert run().returncode == 0
    db = sqlite3.connect(tmp_path / ".boardsweep" / "out" / "store.sqlite")
    rows = db.execute("SELECT point, lo, payload FROM records ORDER BY point, lo").fetchall()
    assert len(rows) >= 3
    (p1, lo1, a), (p2, lo2, b), (p3, lo3, c) = rows[0], rows[len(rows) // 2], rows[-1]
    with db:
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (b, p1, lo1))
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (a, p2, lo2))
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (c[:-5], p3, lo3))
    db.close()
    (tmp_path / "c.yaml").write_text(
        "output: out\ncluster: {kind: local, workers: 2}\njobs:\n"
        "  - {name: q, problem: nqueens, n: [10, 11, 12, 13]}\n"
    )
    again = run()
    assert again.returncode == 0, again.stderr
    assert "failed verification" in again.stderr
    counts = pq.read_table(tmp_path / "out" / "q" / "counts.parquet").to_pylist()
    assert {r["n"]: int(r["count_text"]) for r in counts} == {
        10: 724,
        11: 2680,
        12: 14200,
        13: 73712,
    }
