"""Jobs on a real Slurm cluster: worker jobs submitted by ``cluster: {kind: slurm}``, and the
README's nightly batch script submitted with ``sbatch``.

These need ``sbatch`` and a running controller (``.ci/start-slurm`` starts a one-node cluster on
this machine).  Without them the tests skip, unless ``BOARDSWEEP_REQUIRE_SLURM=1`` (set by
``.ci/run``), where they fail: CI never skips them silently.

Every test gives its worker jobs a name of its own and checks with ``squeue`` that none of them
is left pending or running afterwards, whether the run ended well, failed, or was interrupted.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from pipeline.config import load_config

from pipeline import results, store
from pipeline.errors import InputError
from pipeline.slurm import slurm_settings
from tests.conftest import BOARDSWEEP, ROOT, boardsweep, run_env

NIGHTLY = ROOT / "examples" / "nightly.sbatch"
ENDED = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL",
         "OUT_OF_MEMORY", "PREEMPTED", "TIMEOUT"}
# placements(M, n - M) for M = 0..n, n = 1..8 (README's triangle), in counts.parquet's row order
TRIANGLE_TO_8 = [
    1, 1, 2, 0, 0, 6, 4, 0, 0, 24, 24, 20, 8, 2, 120, 168, 132, 100, 50, 10,
    720, 1184, 996, 432, 120, 24, 4, 5040, 9668, 8780, 5288, 2504, 992, 280, 40,
    40320, 88488, 92632, 59472, 28860, 11416, 3464, 736, 92,
]


def _slurm_missing() -> str | None:
    """Why these tests cannot run here, or None."""
    if shutil.which("sbatch") is None:
        return "sbatch is not on PATH (start a one-node Slurm with .ci/start-slurm, as root)"
    ping = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    if "UP" not in ping.stdout:
        return f"slurmctld does not answer: {(ping.stdout + ping.stderr).strip()}"
    if importlib.util.find_spec("dask_jobqueue") is None:  # importing it takes over Ctrl-C
        return "dask-jobqueue is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def slurm():
    """A Slurm to submit to: skip without one, unless BOARDSWEEP_REQUIRE_SLURM says fail."""
    reason = _slurm_missing()
    if reason and os.environ.get("BOARDSWEEP_REQUIRE_SLURM", "") not in ("", "0"):
        pytest.fail(f"BOARDSWEEP_REQUIRE_SLURM is set but {reason}", pytrace=False)
    if reason:
        pytest.skip(reason)


@pytest.fixture
def job_name(slurm):
    """A Slurm job name for this test's worker jobs; afterwards none of them may be alive."""
    name = f"bsw-test-{uuid.uuid4().hex[:8]}"
    yield name
    left = _wait_ended(name, 20)
    if left:  # cancel them, so they do not hold the node for the tests after this one
        subprocess.run(["scancel", "--name", name], timeout=30)
    assert not left, f"Slurm jobs left behind: {left}"


def _jobs(name: str) -> dict[str, str]:
    """``{job id: state}`` of every job called ``name`` that Slurm still remembers."""
    out = subprocess.run(["squeue", "--noheader", "--states=all", "--name", name,
                          "--format=%i %T"], capture_output=True, text=True, timeout=30).stdout
    return dict(line.split() for line in out.splitlines() if line.strip())


def _wait_ended(name: str, seconds: float) -> dict[str, str]:
    """Wait until every job called ``name`` has ended; return those that have not."""
    deadline = time.monotonic() + seconds
    while True:
        alive = {j: s for j, s in _jobs(name).items() if s not in ENDED}
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.5)


def _job(job_id: str) -> dict[str, str]:
    """``scontrol show job`` as a dict (JobState, JobName, ExitCode, ...)."""
    out = subprocess.run(["scontrol", "--oneliner", "show", "job", job_id],
                         capture_output=True, text=True, timeout=30).stdout
    return dict(re.findall(r"(\w+)=(\S*)", out))


def _config(tmp_path: Path, name: str, cluster: str, jobs: str) -> Path:
    # workers on loopback, a free dashboard port: the test talks to this machine only
    path = tmp_path / "slurm.yaml"
    path.write_text(f"output: out\ncluster: {{kind: slurm, job_name: {name}, interface: lo, "
                    f"dashboard_address: ':0', {cluster}}}\njobs:\n{jobs}")
    return path


def _worker_jobs(stderr: str) -> list[str]:
    found = re.search(r"slurm: \d+ workers in Slurm jobs ([\d, ]+)", stderr)
    assert found, stderr
    return found.group(1).replace(",", " ").split()


def test_run_on_slurm_worker_jobs(tmp_path, job_name):
    config = _config(tmp_path, job_name, "workers: 2, cores: 1, memory: 1GB, walltime: '00:10:00'",
                     "  - {name: q, problem: nqueens, n: [8, 10, 12, 15]}\n"
                     "  - {name: mixed, problem: queens_rooks, total: '1..8'}\n")
    done = boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    counts = store.read_table(tmp_path / "out" / "q" / "counts.parquet")
    assert results.count_values(counts) == [92, 724, 14200, 2279184]
    assert counts.column("tasks").to_pylist()[-1] >= 2  # n = 15 was split
    mixed = store.read_table(tmp_path / "out" / "mixed" / "counts.parquet")
    assert results.count_values(mixed) == TRIANGLE_TO_8
    # the workers were these two Slurm jobs, each with the resources asked for and its own log
    jobs = _worker_jobs(done.stderr)
    assert len(jobs) == 2 and set(jobs) <= set(_jobs(job_name)), (jobs, _jobs(job_name))
    for job in jobs:
        info = _job(job)
        assert info["JobName"] == job_name and info["NumCPUs"] == "1", info
        assert info["MinMemoryNode"] == "954M" and info["TimeLimit"] == "00:10:00", info
        log = (tmp_path / "slurm-logs" / f"{job_name}-{job}.err").read_text()
        assert "Registered to:      tcp://127.0.0.1:" in log, log
    assert not {j: s for j, s in _jobs(job_name).items() if s not in ENDED}


def test_refused_worker_job_is_one_clear_error(tmp_path, job_name):
    config = _config(tmp_path, job_name, "queue: no-such-partition",
                     "  - {name: q, problem: nqueens, n: 8}\n")
    done = boardsweep("run", str(config))
    assert done.returncode == 2
    assert done.stderr.strip().endswith("Slurm refuses the worker job: allocation failure: "
                                        "Invalid partition name specified"), done.stderr
    assert not _jobs(job_name)


def test_no_worker_in_time_names_the_pending_jobs_and_cancels_them(tmp_path, job_name):
    config = _config(tmp_path, job_name,
                     "workers: 2, timeout: 3, job_extra_directives: ['--begin=now+1hour']",
                     "  - {name: q, problem: nqueens, n: 8}\n")
    done = boardsweep("run", str(config))
    assert done.returncode == 2
    pending = re.search(r"no worker connected within 3 s; worker jobs \(squeue\): "
                        r"(\d+) PENDING \(BeginTime\), (\d+) PENDING \(BeginTime\)\. "
                        r"They are cancelled now", done.stderr)
    assert pending, done.stderr
    assert not _wait_ended(job_name, 20)
    assert {_jobs(job_name)[j] for j in pending.groups()} == {"CANCELLED"}
    assert not (tmp_path / "out" / "q" / "counts.parquet").exists()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_run_cancels_its_worker_jobs(tmp_path, job_name, signum):
    config = _config(tmp_path, job_name, "workers: 2",
                     "  - {name: q, problem: nqueens, n: [16, 17]}\n")  # about 60 tasks
    fragments = tmp_path / "out" / "q" / "fragments"
    with subprocess.Popen([*BOARDSWEEP, "run", str(config)], cwd=ROOT, env=run_env(),
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            deadline = time.monotonic() + 60
            while not list(fragments.glob("*/*.parquet")):  # once a task has finished
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.1)
            running = {j: s for j, s in _jobs(job_name).items() if s == "RUNNING"}
            proc.send_signal(signum)
            err = proc.stderr.read()
            assert proc.wait(timeout=60) == 128 + signum, err
        finally:
            if proc.poll() is None:
                proc.kill()
    assert len(running) == 2, (err, _jobs(job_name))
    assert f"{signal.Signals(signum).name}: cancelling the Slurm worker jobs " in err, err
    assert not _wait_ended(job_name, 20)
    assert {_jobs(job_name)[j] for j in running} == {"CANCELLED"}
    assert not (tmp_path / "out" / "q" / "counts.parquet").exists()
    # what the finished tasks computed is kept for the next run (tests/pipeline/test_resume.py)
    assert list(fragments.glob("*/*.parquet"))


def _submit_nightly(tmp_path: Path, config: Path) -> tuple[str, str]:
    """Submit examples/nightly.sbatch as README's cron line does, in cron's bare environment;
    wait for the job to end and return its id and log."""
    cron = f"cd {tmp_path} && BOARDSWEEP_VENV={sys.prefix} sbatch {NIGHTLY} {config.name}"
    submitted = subprocess.run(["env", "-i", f"HOME={Path.home()}", "PATH=/usr/bin:/bin",
                                "SHELL=/bin/sh", "sh", "-c", cron],
                               capture_output=True, text=True, timeout=60)
    assert submitted.returncode == 0, submitted.stderr
    job = re.fullmatch(r"Submitted batch job (\d+)\n", submitted.stdout).group(1)
    deadline = time.monotonic() + 60
    while (state := _job(job).get("JobState")) not in ENDED:
        if time.monotonic() > deadline:
            subprocess.run(["scancel", job])
            pytest.fail(f"nightly job {job} still {state} after 60 s")
        time.sleep(0.5)
    log = (tmp_path / f"boardsweep-nightly-{job}.log").read_text()
    info = _job(job)
    assert (state, info["ExitCode"], info["JobName"]) == ("COMPLETED", "0:0",
                                                          "boardsweep-nightly"), log
    assert f"boardsweep nightly: job {job} on " in log
    return job, log


def test_nightly_sbatch_script_from_cron_then_extended(tmp_path, job_name):
    """The nightly batch script runs the sweep with a Slurm worker job of its own; the next
    night, with a point added to the config, computes only that point."""
    jobs = ("  - {name: q, problem: nqueens, n: [8, 10, 12]}\n"
            "  - {name: mixed, problem: queens_rooks, total: '1..8'}\n")
    config = _config(tmp_path, job_name, "workers: 1, cores: 1, memory: 1GB", jobs)
    job, log = _submit_nightly(tmp_path, config)
    assert "q: 3 tasks run, 0 skipped" in log and "mixed: 8 tasks run, 0 skipped" in log, log
    workers = _worker_jobs(log)
    assert len(workers) == 1 and workers[0] != job and workers[0] in _jobs(job_name), log
    assert _job(workers[0])["TimeLimit"] == "UNLIMITED"  # no walltime: the partition's default
    counts = tmp_path / "out" / "q" / "counts.parquet"
    assert results.count_values(store.read_table(counts)) == [92, 724, 14200]
    assert results.count_values(store.read_table(tmp_path / "out" / "mixed" /
                                                 "counts.parquet")) == TRIANGLE_TO_8

    config.write_text(config.read_text().replace("[8, 10, 12]", "[8, 10, 12, 13]"))
    _, log = _submit_nightly(tmp_path, config)
    assert "q: 1 tasks run, 3 skipped" in log and "mixed: 0 tasks run, 8 skipped" in log, log
    assert results.count_values(store.read_table(counts)) == [92, 724, 14200, 73712]


def test_readme_shows_the_nightly_script_verbatim():
    readme = (ROOT / "README.md").read_text()
    assert f"```bash\n{NIGHTLY.read_text()}```\n" in readme


def test_slurm_settings_for_dask_jobqueue():
    settings = slurm_settings({"workers": 4, "walltime": "01:00:00", "queue": "batch",
                               "job_extra": ["--qos=low"], "dashboard_address": ":0",
                               "timeout": 30})
    assert settings["python"] == sys.executable and settings["processes"] == 1
    assert (settings["cores"], settings["memory"], settings["job_name"]) == (
        1, "2GB", "boardsweep-worker")
    assert settings["job_extra_directives"] == ["--qos=low"]
    assert settings["scheduler_options"] == {"dashboard_address": ":0"}
    assert "job_directives_skip" not in settings and settings["walltime"] == "01:00:00"
    assert not {"workers", "timeout", "job_extra", "dashboard_address"} & settings.keys()
    # no walltime: no --time line, so the partition's default applies, not dask-jobqueue's 30 min
    assert slurm_settings({})["job_directives_skip"] == ["#SBATCH -t "]


def test_slurm_config_keys(write_config):
    config = write_config("cluster: {kind: slurm, workers: 2, log_directory: logs}\n"
                          "jobs: [{name: q, problem: nqueens, n: 8}]\n")
    options = load_config(config).cluster.options
    assert options == {"workers": 2, "log_directory": str(config.parent / "logs")}
    assert load_config(write_config("cluster: {kind: slurm}\njobs: [{name: q, problem: "
                                     "nqueens, n: 8}]\n")).cluster.options["log_directory"] \
        == str(config.parent / "slurm-logs")
    # YAML reads an unquoted 1:00:00 as 3600 (sexagesimal), which Slurm would take as minutes
    bad = write_config("cluster:\n  kind: slurm\n  walltime: 1:00:00\n"
                       "jobs: [{name: q, problem: nqueens, n: 8}]\n")
    with pytest.raises(InputError, match=r"config.yaml:3: cluster \(kind slurm\): 'walltime' "
                                         r"must be a non-empty string like \"02:00:00\" "
                                         r"\(quoted\), not 3600"):
        load_config(bad)
