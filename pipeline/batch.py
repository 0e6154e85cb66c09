"""Dask workers as batch jobs (``cluster: {kind: slurm | pbs | sge | lsf | htcondor}``), through
dask-jobqueue's own classes.

The scheduler runs in the driver's process and each worker is one batch job running the
driver's interpreter.  By default the scheduler and the workers talk TLS with a certificate
authority made for this run alone (``distributed.security.Security.temporary()``): the workers'
certificate and key are written, readable by this user only, into ``<state>/keys/`` (which the
worker jobs must see: keep the state folder on a shared file system), so only this run's
workers can connect, and a process that reaches the scheduler without them is refused.

Whatever the batch system, the worker jobs are cancelled (``scancel``, ``qdel``, ``bkill``,
``condor_rm``) whenever the driver leaves the cluster: at the end, on an error, on Ctrl-C and
on SIGTERM (a time limit).  Slurm is asked first whether it would take the job script at all
(``sbatch --test-only``), and its ``squeue`` states say why workers do not come; the other
systems have no such question, and a run waits up to ``timeout`` for them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import ClusterError, Interrupted
from .progress import log, warn

__all__ = [
    "BATCH",
    "batch_settings",
    "batch_cluster",
    "job_ids",
    "wait_for_batch_workers",
    "cancel_on_signals",
    "squeue_states",
    "BATCH_TIMEOUT",
    "JOBQUEUE_KEYS",
    "OWN_KEYS",
    "slurm_settings",
]

BATCH_TIMEOUT = 600.0  # seconds for the first worker job to start and connect
GATHER_SECONDS = 30.0  # then at most this long for the other worker jobs before work starts
JOB_NAME = "boardsweep-worker"
SIGNAL_GRACE = 20.0  # seconds an interrupted run has to clean up before it just exits


class Batch:
    """What differs between batch systems: dask-jobqueue's class, the commands, the keys."""

    def __init__(
        self,
        kind: str,
        cls: str,
        submit: str,
        cancel: str,
        job_env: str,
        walltime_directive: str | None,
        own: tuple[str, ...],
    ):
        self.kind, self.cls, self.submit, self.cancel = kind, cls, submit, cancel
        self.job_env, self.walltime_directive, self.own = job_env, walltime_directive, own

    @property
    def name(self) -> str:
        """The batch system's name for messages."""
        return {"slurm": "Slurm", "pbs": "PBS", "sge": "SGE", "lsf": "LSF", "htcondor": "HTCondor"}[
            self.kind
        ]


BATCH = {
    b.kind: b
    for b in (
        Batch(
            "slurm",
            "SLURMCluster",
            "sbatch",
            "scancel",
            "SLURM_JOB_ID",
            "#SBATCH -t ",
            ("walltime", "queue", "account"),
        ),
        Batch(
            "pbs",
            "PBSCluster",
            "qsub",
            "qdel",
            "PBS_JOBID",
            "#PBS -l walltime=",
            ("walltime", "queue", "account", "resource_spec"),
        ),
        Batch(
            "sge",
            "SGECluster",
            "qsub",
            "qdel",
            "JOB_ID",
            "#$ -l h_rt=",
            ("walltime", "queue", "project", "resource_spec"),
        ),
        Batch(
            "lsf",
            "LSFCluster",
            "bsub",
            "bkill",
            "LSB_JOBID",
            "#BSUB -W ",
            ("walltime", "queue", "project"),
        ),
        Batch(
            "htcondor",
            "HTCondorCluster",
            "condor_submit",
            "condor_rm",
            "_CONDOR_JOB_AD",
            None,
            ("disk",),
        ),
    )
}
# keys handed to dask-jobqueue as they are, whatever the system (plus each system's own)
JOBQUEUE_KEYS = (
    "cores",
    "memory",
    "job_name",
    "job_script_prologue",
    "local_directory",
    "log_directory",
    "interface",
)
# boardsweep's own keys, and those rebuilt into other dask-jobqueue arguments
OWN_KEYS = {
    "workers",
    "timeout",
    "allowed_failures",
    "task_seconds",
    "dashboard_address",
    "job_extra_directives",
    "security",
}
SLURM_ENDED = {
    "BOOT_FAIL",
    "CANCELLED",
    "COMPLETED",
    "DEADLINE",
    "FAILED",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "PREEMPTED",
    "TIMEOUT",
}


def batch_settings(kind: str, options: dict) -> dict:
    """dask-jobqueue keyword arguments for the options of ``cluster: {kind: KIND, ...}``.

    Only :data:`JOBQUEUE_KEYS` and the system's own keys pass through (lists as lists: the
    checked config holds tuples); boardsweep's own keys (:data:`OWN_KEYS`) never reach
    dask-jobqueue, whose ``Job`` refuses a keyword it does not know.  One worker process per
    job with ``cores`` threads, running this interpreter (``sys.executable``) so that it
    imports the same boardsweep.  Without ``walltime`` the job script asks for no time limit
    and the queue's default applies (dask-jobqueue would ask for 30 minutes).
    """
    batch = BATCH[kind]
    passing = set(JOBQUEUE_KEYS) | set(batch.own)
    unknown = set(options) - passing - OWN_KEYS
    if unknown:  # a key added to pipeline.spec but not here: a bug, not bad input
        raise ValueError(
            f"batch_settings({kind}): no rule for the key(s) {', '.join(sorted(unknown))}"
        )
    settings = {
        k: list(v) if isinstance(v, tuple | list) else v for k, v in options.items() if k in passing
    }
    settings["processes"] = 1
    settings["python"] = sys.executable
    settings["job_extra_directives"] = list(options["job_extra_directives"])
    if batch.walltime_directive and "walltime" not in options:
        settings["job_directives_skip"] = [batch.walltime_directive]
    settings["scheduler_options"] = {"dashboard_address": options["dashboard_address"]}
    return settings


def slurm_settings(options: dict) -> dict:
    """:func:`batch_settings` for Slurm."""
    return batch_settings("slurm", options)


def squeue_states(ids: list[str]) -> dict[str, str] | None:
    """``{job id: "STATE (reason)"}`` from ``squeue`` for those of ``ids`` Slurm still knows
    (it forgets ended jobs after ``MinJobAge``); None if squeue cannot be asked."""
    if not ids:
        return {}
    try:
        done = subprocess.run(
            ["squeue", "--noheader", "--states=all", "--jobs", ",".join(ids), "--format=%i|%T|%r"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0 and "Invalid job id" not in done.stderr:
        return None
    states = {}
    for line in done.stdout.splitlines():
        job, state, reason = (line.split("|") + ["", ""])[:3]
        states[job.strip()] = f"{state} ({reason})" if reason and reason != "None" else state
    return states


def _import_cluster_class(kind: str):
    """dask-jobqueue's class for ``kind``, keeping our Ctrl-C: importing dask_jobqueue (0.9)
    sets a SIGINT handler that calls ``sys.exit()``, so an interrupted run would exit 0."""
    previous = signal.getsignal(signal.SIGINT)
    try:
        import dask_jobqueue
    except ImportError:
        raise ClusterError(
            f"cluster kind '{kind}' needs dask-jobqueue: pip install 'boardsweep[slurm]'"
        ) from None
    finally:
        if previous is not None and signal.getsignal(signal.SIGINT) is not previous:
            signal.signal(signal.SIGINT, previous)
    return getattr(dask_jobqueue, BATCH[kind].cls)


def run_security(kind: str, options: dict, keys: Path | None) -> tuple[dict, str]:
    """dask-jobqueue's security arguments: a per-run certificate authority, the workers'
    files in ``keys`` (made private to this user) — or plain TCP for ``security: none``."""
    if options["security"] == "none":
        warn(
            f"cluster (kind {kind}): security is none: the scheduler speaks plain TCP, and "
            "anyone who can reach it can run code as this user"
        )
        return {}, "tcp"
    from distributed.security import Security

    if keys is None:
        raise ClusterError(f"cluster (kind {kind}): TLS needs a folder for the workers' keys")
    keys.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(keys, 0o700)
    return {
        "security": Security.temporary(),
        "protocol": "tls://",
        "shared_temp_directory": str(keys),
    }, "tls"


def batch_cluster(kind: str, options: dict, workers: int | None, keys: Path | None = None):
    """A started dask-jobqueue cluster asking for ``workers`` worker jobs (ClusterError if
    the batch system or dask-jobqueue is missing, or Slurm refuses the job script)."""
    batch = BATCH[kind]
    cluster_class = _import_cluster_class(kind)
    if shutil.which(batch.submit) is None:
        raise ClusterError(
            f"cluster kind '{kind}': {batch.submit} is not on PATH; run "
            f"boardsweep where {batch.name} jobs can be submitted (a login "
            "node, or inside a job)"
        )
    security, _ = run_security(kind, options, keys)
    try:
        cluster = cluster_class(**batch_settings(kind, options), **security)
    except (TypeError, ValueError) as exc:
        raise ClusterError(f"cluster (kind {kind}): {exc}") from None
    try:
        if kind == "slurm":
            _test_submit(cluster.job_script())
        cluster.scale(workers or options["workers"])
    except BaseException:
        cluster.close()
        raise
    return cluster


def _test_submit(script: str) -> None:
    """Ask Slurm whether it would take the worker job script (``sbatch --test-only``), so a bad
    partition, account or size is one clear error now rather than workers that never come."""
    done = subprocess.run(
        ["sbatch", "--test-only"], input=script, capture_output=True, text=True, timeout=60
    )
    if done.returncode != 0:
        reason = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise ClusterError(
            "cluster (kind slurm): Slurm refuses the worker job: "
            + (reason[-1] if reason else f"sbatch exit status {done.returncode}")
        )


def job_ids(cluster) -> list[str]:
    """The batch job ids of the cluster's worker jobs submitted so far."""
    return [
        str(job.job_id) for job in list(cluster.workers.values()) if getattr(job, "job_id", None)
    ]


def _job_env(name: str) -> str | None:
    """Run on a worker: its batch job's id (from the environment variable ``name``)."""
    return os.environ.get(name)


def _ended_without_workers(kind: str, ids: list[str], wanted: int) -> dict | None:
    """Slurm's states of ``ids`` when every one of them has ended (None otherwise)."""
    if kind != "slurm" or len(ids) < wanted:
        return None
    states = squeue_states(ids)
    if states is None or not all(
        states.get(i, "GONE").split()[0] in SLURM_ENDED | {"GONE"} for i in ids
    ):
        return None
    return states


def wait_for_batch_workers(
    kind: str, client, cluster, wanted: int, timeout: float, log_directory: str | None
) -> None:
    """Wait for the first worker job to connect, then briefly for the others.

    :class:`ClusterError` naming the jobs (and, on Slurm, their ``squeue`` state) if none
    connects within ``timeout`` seconds, or as soon as every worker job has ended without
    connecting.
    """
    batch = BATCH[kind]
    start = time.monotonic()
    submitted: list[str] = []
    next_check = start + 2.0
    while not client.nthreads():
        now = time.monotonic()
        if not submitted:
            submitted = job_ids(cluster)
            if submitted:
                log(
                    f"{kind}: worker jobs {', '.join(submitted)} submitted; waiting for them "
                    f"to start (at most {timeout:g} s)"
                )
        if now >= next_check:
            next_check = now + 3.0
            ids = job_ids(cluster)
            states = _ended_without_workers(kind, ids, wanted)
            if ids and states is not None and not client.nthreads():
                logs = (
                    f"; their logs: {log_directory}/{cluster.job_name}-<job id>.err"
                    if log_directory
                    else ""
                )
                raise ClusterError(
                    f"{kind}: every worker job ended before its worker connected: "
                    + ", ".join(f"{i} {states.get(i, 'gone')}" for i in ids)
                    + logs
                )
        if now - start >= timeout:
            ids = job_ids(cluster)
            if kind == "slurm":
                states = squeue_states(ids) or {}
                jobs = ", ".join(f"{i} {states.get(i, 'unknown to squeue')}" for i in ids)
                where = "worker jobs (squeue)"
                hint = "Check sinfo, the partition, account, cores and memory asked for"
            else:
                jobs, where = ", ".join(ids), "worker jobs"
                hint = f"Check the {batch.name} queue, the resources asked for"
            raise ClusterError(
                f"{kind}: no worker connected within {timeout:g} s; {where}: "
                f"{jobs or 'none submitted'}. They are cancelled now. {hint}, or raise the "
                "cluster's 'timeout'"
            )
        time.sleep(0.25)
    try:
        client.wait_for_workers(wanted, timeout=GATHER_SECONDS)
    except TimeoutError:
        log(
            f"{kind}: {len(client.nthreads())} of {wanted} worker jobs running; the others "
            f"join when {batch.name} starts them"
        )
    jobs = sorted(
        set(client.run(_job_env, batch.job_env).values()) - {None}, key=lambda j: (len(j), j)
    )
    log(f"{kind}: {len(client.nthreads())} workers in {batch.name} jobs {', '.join(jobs)}")


@contextmanager
def cancel_on_signals(kind: str, ids: Callable[[], list[str]]) -> Iterator[None]:
    """On Ctrl-C (SIGINT) or SIGTERM (a time limit, a cancel, ``kill``), cancel the worker jobs
    ``ids()`` at once, in the handler, then unwind with :class:`Interrupted` (exit 130 or 143)
    so the cluster closes.  An exception raised in a signal handler can be lost (C code such as
    numba's dispatcher may clear it), so the jobs are cancelled here, not only on the way out,
    and the process ends by itself :data:`SIGNAL_GRACE` seconds later regardless.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    batch = BATCH[kind]

    def stop(signum, frame):
        for sig in (signal.SIGINT, signal.SIGTERM):  # once is enough; the rest is cleanup
            signal.signal(sig, signal.SIG_IGN)
        status = 128 + signum
        watchdog = threading.Timer(SIGNAL_GRACE, os._exit, (status,))
        watchdog.daemon = True
        watchdog.start()
        jobs = ids()
        log(
            f"{signal.Signals(signum).name}: cancelling the {batch.name} worker jobs "
            f"{', '.join(jobs) or '(none submitted yet)'}"
        )
        if jobs:
            try:
                subprocess.run([batch.cancel, *jobs], capture_output=True, timeout=SIGNAL_GRACE / 2)
            except (OSError, subprocess.TimeoutExpired) as exc:
                log(f"{batch.cancel} failed: {exc}")
        raise Interrupted(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
