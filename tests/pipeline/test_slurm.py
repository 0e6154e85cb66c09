"""Jobs on a real Slurm cluster: worker jobs submitted by ``cluster: {kind: slurm}``, and the
nightly batch script (``examples/nightly.sbatch``) submitted by the cron line of
``examples/nightly.crontab``, both of which the manual's page on clusters (docs/clusters.md)
shows by including those files.

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

import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.batch import BATCH, JOBQUEUE_KEYS, OWN_KEYS, SLURM_ENDED, slurm_settings
from boardsweep.pipeline.errors import InputError
from boardsweep.pipeline.plan import plan_job
from boardsweep.pipeline.spec import CLUSTER_KINDS, cluster_spec, load_config
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context
from tests.conftest import BOARDSWEEP, ROOT, boardsweep, records_stored, run_env
from tests.pipeline.tls import no_certificate
from tests.solvers.test_queens_rooks_crosscheck import published_triangle

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

NIGHTLY = ROOT / "examples" / "nightly.sbatch"
NO_TIME_LIMIT = {"UNLIMITED", "365-00:00:00"}
CRONTAB = ROOT / "examples" / "nightly.crontab"
CLUSTERS_PAGE = ROOT / "docs" / "clusters.md"
# placements(M, n - M) for M = 0..n, n = 1..8 (the published triangle), in counts.parquet's order
TRIANGLE_TO_8 = [v for n in range(1, 9) for v in published_triangle()[n]]


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
    out = subprocess.run(
        ["squeue", "--noheader", "--states=all", "--name", name, "--format=%i %T"],
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout
    return dict(line.split() for line in out.splitlines() if line.strip())


def _wait_ended(name: str, seconds: float) -> dict[str, str]:
    """Wait until every job called ``name`` has ended; return those that have not."""
    deadline = time.monotonic() + seconds
    while True:
        alive = {j: s for j, s in _jobs(name).items() if s not in SLURM_ENDED}
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.5)


def _job(job_id: str) -> dict[str, str]:
    """``scontrol show job`` as a dict (JobState, JobName, ExitCode, ...)."""
    out = subprocess.run(
        ["scontrol", "--oneliner", "show", "job", job_id],
        capture_output=True,
        text=True,
        timeout=30,
    ).stdout
    return dict(re.findall(r"(\w+)=(\S*)", out))


def _config(tmp_path: Path, name: str, cluster: str, jobs: str) -> Path:
    # workers on loopback, a free dashboard port: the test talks to this machine only
    path = tmp_path / "slurm.yaml"
    path.write_text(
        f"output: out\ncluster: {{kind: slurm, job_name: {name}, interface: lo, "
        f"dashboard_address: ':0', {cluster}}}\njobs:\n{jobs}"
    )
    return path


def _start_run(config: Path) -> subprocess.Popen:
    """``boardsweep run CONFIG`` started from the repository root, its stderr piped as text."""
    return subprocess.Popen(
        [*BOARDSWEEP, "run", str(config)],
        cwd=ROOT,
        env=run_env(),
        stderr=subprocess.PIPE,
        text=True,
    )


def _counts(path: Path) -> list[int]:
    """The exact counts of a published counts table, in its row order."""
    return [int(text) for text in pq.read_table(path).column("count_text").to_pylist()]


def _records(config: Path, job: str) -> dict[str, int]:
    """``{point label: records}`` in the store of ``config``'s output, for each point of
    ``job`` (records: the tasks stored for it)."""
    cfg = load_config(config)
    (found,) = [j for j in cfg.jobs if j.name == job]
    store = Store(cfg.state / "store.sqlite")
    try:
        return {
            p.point.label: len(list(store.records(job, p.table, p.point_id, payloads=False)))
            for p in plan_job(found, None).points
        }
    finally:
        store.close()


def _units(config: Path, job: str) -> dict[str, int]:
    """``{point label: work units}`` of ``job`` as ``config`` plans it."""
    (found,) = [j for j in load_config(config).jobs if j.name == job]
    return {p.point.label: p.point.units for p in plan_job(found, None).points}


def _worker_jobs(stderr: str) -> list[str]:
    found = re.search(r"slurm: \d+ workers in Slurm jobs ([\d, ]+)", stderr)
    assert found, stderr
    return found.group(1).replace(",", " ").split()


def test_run_on_slurm_worker_jobs(tmp_path, job_name):
    config = _config(
        tmp_path,
        job_name,
        "workers: 2, cores: 1, memory: 1GB, walltime: '00:10:00'",
        "  - {name: q, problem: nqueens, n: [8, 10, 12, 15]}\n"
        "  - {name: mixed, problem: queens_rooks, total: '1..8'}\n",
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    assert _counts(tmp_path / "out" / "q" / "counts.parquet") == [92, 724, 14200, 2279184]
    assert _records(config, "q")["n=15"] >= 2  # n = 15 was split into several tasks
    assert _counts(tmp_path / "out" / "mixed" / "counts.parquet") == TRIANGLE_TO_8
    # dashboard_address ':0' binds every interface, and the log says so
    assert re.search(
        r"dashboard: http://127\.0\.0\.1:\d+/status \(on every interface\);", done.stderr
    ), done.stderr
    # the workers were these two Slurm jobs, each with the resources asked for and its own log
    jobs = _worker_jobs(done.stderr)
    assert len(jobs) == 2 and set(jobs) <= set(_jobs(job_name)), (jobs, _jobs(job_name))
    for job in jobs:
        info = _job(job)
        assert info["JobName"] == job_name and info["NumCPUs"] == "1", info
        assert info["MinMemoryNode"] == "954M" and info["TimeLimit"] == "00:10:00", info
        log = (tmp_path / "slurm-logs" / f"{job_name}-{job}.err").read_text()
        assert "Registered to:      tls://127.0.0.1:" in log, log  # TLS, the run's own CA
    assert re.search(r"scheduler: tls://[^;]+;", done.stderr), done.stderr
    keys = tmp_path / ".boardsweep" / "out" / "keys"
    assert keys.is_dir() and keys.stat().st_mode & 0o777 == 0o700
    assert not list(keys.iterdir())  # the workers' key files are gone with the cluster
    assert not {j: s for j, s in _jobs(job_name).items() if s not in SLURM_ENDED}


def test_plain_and_foreign_clients_cannot_join_a_slurm_run(tmp_path, job_name):
    """While a run works on Slurm, its scheduler refuses a client without the run's
    certificate and one with a certificate from another authority: neither runs code."""
    from distributed import Client
    from distributed.security import Security

    config = _config(
        tmp_path, job_name, "workers: 1", "  - {name: q, problem: nqueens, n: [15, 16]}\n"
    )
    with _start_run(config) as proc:
        try:
            address = None
            deadline = time.monotonic() + 120
            while address is None:
                line = proc.stderr.readline()
                assert line and time.monotonic() < deadline, "no scheduler line"
                found = re.search(r"scheduler: (tls://\S+);", line)
                address = found and found.group(1)
            marker = tmp_path / "intruder-ran"
            for target, security in (
                (address.replace("tls://", "tcp://"), None),
                (address, no_certificate()),
                (address, Security.temporary()),
            ):
                with pytest.raises((OSError, TimeoutError)):
                    with Client(target, timeout=5, security=security) as intruder:
                        intruder.submit(marker.touch).result(timeout=5)
            err = proc.stderr.read()
            assert proc.wait(timeout=300) == 0, err
        finally:
            if proc.poll() is None:
                proc.kill()
    assert not marker.exists()
    assert _counts(tmp_path / "out" / "q" / "counts.parquet") == [2279184, 14772512]


def test_security_none_is_plain_tcp_and_warned_about(tmp_path, job_name):
    config = _config(
        tmp_path, job_name, "workers: 1, security: none", "  - {name: q, problem: nqueens, n: 10}\n"
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    assert "cluster (kind slurm): security is none: the scheduler speaks plain TCP" in done.stderr
    assert re.search(r"scheduler: tcp://", done.stderr), done.stderr


def test_refused_worker_job_is_one_clear_error(tmp_path, job_name):
    config = _config(
        tmp_path, job_name, "queue: no-such-partition", "  - {name: q, problem: nqueens, n: 8}\n"
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "Slurm refuses the worker job: allocation failure: Invalid partition name specified"
    ), done.stderr
    assert not _jobs(job_name)


def test_no_worker_in_time_names_the_pending_jobs_and_cancels_them(tmp_path, job_name):
    config = _config(
        tmp_path,
        job_name,
        "workers: 2, timeout: 3, job_extra_directives: ['--begin=now+1hour']",
        "  - {name: q, problem: nqueens, n: 8}\n",
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 2
    pending = re.search(
        r"no worker connected within 3 s; worker jobs \(squeue\): "
        r"(\d+) PENDING \(BeginTime\), (\d+) PENDING \(BeginTime\)\. "
        r"They are cancelled now",
        done.stderr,
    )
    assert pending, done.stderr
    assert not _wait_ended(job_name, 20)
    assert {_jobs(job_name)[j] for j in pending.groups()} == {"CANCELLED"}
    assert not (tmp_path / "out" / "q").exists()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_run_cancels_its_worker_jobs(tmp_path, job_name, signum):
    config = _config(
        tmp_path, job_name, "workers: 2", "  - {name: q, problem: nqueens, n: [16, 17]}\n"
    )  # ~18 tasks of ~1 s
    with _start_run(config) as proc:
        try:
            deadline = time.monotonic() + 60
            store = load_config(config).state / "store.sqlite"
            while not records_stored(store):  # once a task has finished
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
    word = "interrupted" if signum == signal.SIGINT else "terminated"
    assert re.search(
        rf"^boardsweep: error: {word} \({signal.Signals(signum).name}\); \d+ "
        r"tasks? of this run kept, rerun to resume$",
        err,
        re.M,
    ), err
    assert "Traceback" not in err
    assert not _wait_ended(job_name, 20)
    assert {_jobs(job_name)[j] for j in running} == {"CANCELLED"}
    assert not (tmp_path / "out" / "q").exists()
    # what the finished tasks computed is kept in the store for the next run
    assert sum(_records(config, "q").values()) >= 1


def _cron_line() -> tuple[str, str]:
    """The one entry of examples/nightly.crontab: its schedule and its command."""
    entries = [
        line
        for line in CRONTAB.read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert len(entries) == 1, entries
    fields = entries[0].split(maxsplit=5)
    return " ".join(fields[:5]), fields[5]


def _submit_nightly(tmp_path: Path, config: Path) -> tuple[str, str]:
    """Submit examples/nightly.sbatch with the cron line of examples/nightly.crontab (its
    folders replaced by this test's), in cron's bare environment; wait for the job to end and
    return its id and log."""
    _, cron = _cron_line()
    for example, here in (
        ("/home/me/boardsweep/examples/nightly.sbatch", str(NIGHTLY)),
        ("/home/me/boardsweep/.venv", sys.prefix),
        ("/home/me/sweeps", str(tmp_path)),
        (" nightly.yaml", f" {config.name}"),
    ):
        assert example in cron, (example, cron)
        cron = cron.replace(example, here)
    submitted = subprocess.run(
        [
            "env",
            "-i",
            f"HOME={Path.home()}",
            "PATH=/usr/bin:/bin",
            "SHELL=/bin/sh",
            "sh",
            "-c",
            cron,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert submitted.returncode == 0, submitted.stderr
    job = re.fullmatch(r"Submitted batch job (\d+)\n", submitted.stdout).group(1)
    deadline = time.monotonic() + 180  # a worker job may compile the kernels first
    while (state := _job(job).get("JobState")) not in SLURM_ENDED:
        if time.monotonic() > deadline:
            subprocess.run(["scancel", job])
            pytest.fail(f"nightly job {job} still {state} after 180 s")
        time.sleep(0.5)
    log = (tmp_path / f"boardsweep-nightly-{job}.log").read_text()
    info = _job(job)
    assert (state, info["ExitCode"], info["JobName"]) == (
        "COMPLETED",
        "0:0",
        "boardsweep-nightly",
    ), log
    assert f"boardsweep nightly: job {job} on " in log
    return job, log


def test_nightly_sbatch_script_from_cron_then_extended(tmp_path, job_name):
    """The nightly batch script runs the sweep with a Slurm worker job of its own; the next
    night, with a point added to the config, computes only that point."""
    jobs = (
        "  - {name: q, problem: nqueens, n: [8, 10, 12]}\n"
        "  - {name: mixed, problem: queens_rooks, total: '1..8'}\n"
    )
    config = _config(tmp_path, job_name, "workers: 1, cores: 1, memory: 1GB", jobs)
    job, log = _submit_nightly(tmp_path, config)
    q_units, mixed_units = sum(_units(config, "q").values()), sum(_units(config, "mixed").values())
    assert f"0 of {q_units} units reused" in _line(
        log, "q"
    ) and f"0 of {mixed_units} units reused" in _line(log, "mixed"), log
    workers = _worker_jobs(log)
    assert len(workers) == 1 and workers[0] != job and workers[0] in _jobs(job_name), log
    # no walltime: the partition's (MaxTime=INFINITE), which scontrol shows as UNLIMITED, or as
    # 365-00:00:00 when the backfill scheduler started the job (it stores YEAR_MINUTES for it)
    assert _job(workers[0])["TimeLimit"] in NO_TIME_LIMIT
    counts = tmp_path / "out" / "q" / "counts.parquet"
    assert _counts(counts) == [92, 724, 14200]
    assert _counts(tmp_path / "out" / "mixed" / "counts.parquet") == TRIANGLE_TO_8
    first = {name: _runs(tmp_path / "out" / name) for name in ("q", "mixed")}

    config.write_text(config.read_text().replace("[8, 10, 12]", "[8, 10, 12, 13]"))
    _, log = _submit_nightly(tmp_path, config)
    new = _units(config, "q")["n=13"]
    assert f"({new} units), {q_units} of {q_units + new} units reused" in _line(log, "q"), log
    assert f"q: {_records(config, 'q')['n=13']} tasks run" in _line(log, "q"), log
    assert f"mixed: 0 tasks run (0 units), {mixed_units} of {mixed_units} units reused" in _line(
        log, "mixed"
    ), log
    assert _counts(counts) == [92, 724, 14200, 73712]
    # runs.parquet: the first night's row kept, the second night's row says what it reused
    for name, units, added in (("q", q_units, new), ("mixed", mixed_units, 0)):
        runs = _runs(tmp_path / "out" / name)
        assert runs[0] == first[name][0] and [r["run"] for r in runs] == [1, 2]
        assert (runs[0]["units_run"], runs[0]["units_reused"]) == (units, 0)
        assert (runs[1]["units_run"], runs[1]["units_reused"]) == (added, units)
        assert runs[1]["tasks_run"] == (0 if name == "mixed" else _records(config, "q")["n=13"])
        assert runs[1]["tasks_reused"] == runs[0]["tasks_run"]


def _line(log: str, job: str) -> str:
    """The line of ``run_job`` that sums up ``job`` in a log (``q: N tasks run (U units), ...``)."""
    found = re.search(rf"^.*boardsweep INFO: {re.escape(job)}: \d+ tasks run .*$", log, re.M)
    assert found, log
    return found.group(0)


def _runs(folder: Path) -> list[dict]:
    return pq.read_table(folder / "runs.parquet").to_pylist()


def test_cron_line_is_a_nightly_crontab_entry():
    """examples/nightly.crontab holds one entry: 02:30 every night, running sbatch on the
    batch script with BOARDSWEEP_VENV set (cron passes no environment on)."""
    schedule, command = _cron_line()
    assert schedule == "30 2 * * *"
    assert re.fullmatch(
        r"cd (\S+) && BOARDSWEEP_VENV=(\S+) sbatch (\S+/examples/nightly\.sbatch) (\S+\.yaml)",
        command,
    ), command


def test_manual_includes_the_nightly_files():
    """The manual shows the batch script and the cron lines by including the files the tests
    submit, never a copy of them."""
    page = CLUSTERS_PAGE.read_text()
    for name in ("nightly.sbatch", "nightly.crontab", "nightly.scrontab", "nightly.yaml"):
        assert (ROOT / "examples" / name).is_file(), name
        assert re.search(
            rf"^```\{{literalinclude\}} \.\./examples/{re.escape(name)}$", page, re.M
        ), name
    assert "#!/bin/bash" not in page and "30 2 * * *" not in page  # no pasted copies


def test_slurm_settings_for_dask_jobqueue():
    spec = cluster_spec(
        {
            "kind": "slurm",
            "workers": 4,
            "walltime": "01:00:00",
            "queue": "batch",
            "job_extra_directives": ["--qos=low"],
            "job_script_prologue": ["module load gcc"],
            "dashboard_address": ":0",
            "timeout": 30,
            "allowed_failures": 2,
            "task_seconds": 60,
        },
        Context(),
    )
    settings = slurm_settings(spec.options)
    assert settings["python"] == sys.executable and settings["processes"] == 1
    assert (settings["cores"], settings["memory"], settings["job_name"]) == (
        1,
        "2GB",
        "boardsweep-worker",
    )
    # the checked config holds tuples; dask-jobqueue gets lists
    assert settings["job_extra_directives"] == ["--qos=low"]
    assert settings["job_script_prologue"] == ["module load gcc"]
    assert settings["scheduler_options"] == {"dashboard_address": ":0"}
    assert "job_directives_skip" not in settings and settings["walltime"] == "01:00:00"
    # boardsweep's own keys never reach dask-jobqueue
    assert (
        not {
            "workers",
            "timeout",
            "dashboard_address",
            "allowed_failures",
            "task_seconds",
        }
        & settings.keys()
    )
    # no walltime: no --time line, so the partition's default applies, not dask-jobqueue's 30 min
    unset = cluster_spec({"kind": "slurm"}, Context()).options
    assert slurm_settings(unset)["job_directives_skip"] == ["#SBATCH -t "]
    # every key pipeline.spec allows for each batch kind has a rule here
    for kind, batch in BATCH.items():
        assert set(CLUSTER_KINDS[kind].fields) == set(JOBQUEUE_KEYS) | OWN_KEYS | set(batch.own), (
            kind
        )


def test_slurm_job_script_from_a_checked_config(tmp_path):
    """The keys of a checked config make the worker job script dask-jobqueue would submit."""
    pytest.importorskip("dask_jobqueue")
    from dask_jobqueue.slurm import SLURMJob

    spec = cluster_spec(
        {
            "kind": "slurm",
            "cores": 2,
            "memory": "3GB",
            "queue": "batch",
            "account": "proj",
            "job_extra_directives": ["--qos=low", "--constraint=avx2"],
            "task_seconds": 60,
            "allowed_failures": 2,
            "job_script_prologue": ["module load gcc"],
            "log_directory": "logs",
        },
        Context(str(tmp_path)),
    )
    settings = slurm_settings(spec.options)
    settings.pop("scheduler_options")
    script = SLURMJob(scheduler="tcp://127.0.0.1:8786", name="w", **settings).job_script()
    for line in (
        "#SBATCH -p batch",
        "#SBATCH -A proj",
        "#SBATCH --cpus-per-task=2",
        "#SBATCH --qos=low",
        "#SBATCH --constraint=avx2",
        "module load gcc",
        f"#SBATCH -e {tmp_path / 'logs'}/boardsweep-worker-%J.err",
    ):
        assert line in script.splitlines(), script
    assert "#SBATCH -t " not in script and "task_seconds" not in script, script
    assert f"{sys.executable} -m distributed.cli.dask_worker tcp://127.0.0.1:8786" in script


def test_nightly_example_config(tmp_path):
    """examples/nightly.yaml reads, and its cluster keys (with the commented ones set too) make
    worker job settings."""
    example = ROOT / "examples" / "nightly.yaml"
    config = load_config(example)
    assert config.cluster.kind == "slurm" and [j.name for j in config.jobs] == ["queens", "mixed"]
    assert config.output == ROOT / "examples" / "results-nightly"
    assert config.cluster.options["log_directory"] == str(ROOT / "examples" / "slurm-logs")
    settings = slurm_settings(config.cluster.options)
    assert (settings["walltime"], settings["memory"]) == ("08:00:00", "2GB")
    commented = tmp_path / "nightly.yaml"
    commented.write_text(re.sub(r"^  # (\w+: )", r"  \1", example.read_text(), flags=re.M))
    options = load_config(commented).cluster.options
    assert {
        "task_seconds",
        "allowed_failures",
        "queue",
        "account",
        "job_extra_directives",
    } <= options.keys()
    assert slurm_settings(options)["job_extra_directives"] == ["--qos=low"]


def test_slurm_config_keys(write_config):
    config = write_config(
        "cluster: {kind: slurm, workers: 2, log_directory: logs}\n"
        "jobs: [{name: q, problem: nqueens, n: 8}]\n"
    )
    options = load_config(config).cluster.options
    assert options == {  # the keys given, the log folder, and the other keys' defaults
        "workers": 2,
        "log_directory": str(config.parent / "logs"),
        "cores": 1,
        "memory": "2GB",
        "job_name": "boardsweep-worker",
        "job_extra_directives": (),
        "dashboard_address": "127.0.0.1:8787",
        "timeout": 600.0,
        "security": "tls",
    }
    assert load_config(
        write_config("cluster: {kind: slurm}\njobs: [{name: q, problem: nqueens, n: 8}]\n")
    ).cluster.options["log_directory"] == str(config.parent / "slurm-logs")
    # YAML reads an unquoted 1:00:00 as 3600 (sexagesimal), which Slurm would take as minutes
    bad = write_config(
        "cluster:\n  kind: slurm\n  walltime: 1:00:00\njobs: [{name: q, problem: nqueens, n: 8}]\n"
    )
    with pytest.raises(
        InputError,
        match=r"config.yaml:3: cluster \(kind slurm\): 'walltime': "
        r"expected a walltime like \"02:00:00\" \(quoted\), "
        r"not 3600",
    ):
        load_config(bad)
