"""Dask workers as Slurm jobs (``cluster: {kind: slurm}``) through dask-jobqueue.

The scheduler runs in the driver's process and each worker is one Slurm job (``sbatch``)
running the driver's interpreter; the jobs are cancelled (``scancel``) whenever the driver
leaves the cluster: at the end, on an error, on Ctrl-C and on SIGTERM (a time limit).
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

from .errors import ClusterError
from .progress import log

__all__ = ["slurm_settings", "squeue_states", "slurm_cluster", "slurm_job_ids",
           "wait_for_slurm_workers", "cancel_on_signals", "SLURM_TIMEOUT", "JOBQUEUE_KEYS",
           "OWN_KEYS"]

SLURM_TIMEOUT = 600.0  # seconds for the first Slurm worker job to start and connect
SLURM_GATHER = 30.0  # then at most this long for the other worker jobs before work starts
SLURM_JOB_NAME = "boardsweep-worker"
SIGNAL_GRACE = 20.0  # seconds a run interrupted on Slurm has to clean up before it just exits
# keys of cluster: {kind: slurm} handed to dask-jobqueue's SLURMCluster as they are
JOBQUEUE_KEYS = ("cores", "memory", "walltime", "queue", "account", "job_name",
                 "job_script_prologue", "local_directory", "log_directory", "interface")
# boardsweep's own keys, and those rebuilt into other SLURMCluster arguments
OWN_KEYS = {"workers", "timeout", "allowed_failures", "task_seconds", "dashboard_address",
            "job_extra", "job_extra_directives"}
SLURM_ENDED = {"BOOT_FAIL", "CANCELLED", "COMPLETED", "DEADLINE", "FAILED", "NODE_FAIL",
               "OUT_OF_MEMORY", "PREEMPTED", "TIMEOUT"}


def slurm_settings(options: dict) -> dict:
    """``SLURMCluster`` keyword arguments for the options of ``cluster: {kind: slurm, ...}``.

    Only :data:`JOBQUEUE_KEYS` pass through as they are (lists as lists: the checked config
    holds tuples); boardsweep's own keys (:data:`OWN_KEYS`: ``workers``, ``timeout``,
    ``allowed_failures``, ``task_seconds``) never reach dask-jobqueue, whose ``Job`` refuses
    a keyword it does not know (a ``TypeError`` when the first worker job is made).

    One worker process per job with ``cores`` threads, running this interpreter
    (``sys.executable``) so that it imports the same boardsweep.  Without ``walltime`` the job
    script asks for no time limit and the partition's default applies (dask-jobqueue would
    otherwise ask for 30 minutes and lose a long sweep's workers midway).
    """
    unknown = set(options) - set(JOBQUEUE_KEYS) - OWN_KEYS
    if unknown:  # a key added to pipeline.spec but not here: a bug, not bad input
        raise ValueError(f"slurm_settings: no rule for the key(s) {', '.join(sorted(unknown))}")
    settings = {k: list(v) if isinstance(v, tuple | list) else v
                for k, v in options.items() if k in JOBQUEUE_KEYS}
    settings.setdefault("cores", 1)
    settings.setdefault("memory", "2GB")
    settings.setdefault("job_name", SLURM_JOB_NAME)
    settings["processes"] = 1
    settings["python"] = sys.executable
    # job_extra is the name dask-jobqueue used before 0.8; both are accepted
    settings["job_extra_directives"] = [*options.get("job_extra_directives", ()),
                                        *options.get("job_extra", ())]
    if "walltime" not in options:
        settings["job_directives_skip"] = ["#SBATCH -t "]
    settings["scheduler_options"] = {
        "dashboard_address": options.get("dashboard_address", ":8787")
    }
    return settings


def squeue_states(job_ids: list[str]) -> dict[str, str] | None:
    """``{job id: "STATE (reason)"}`` from ``squeue`` for those of ``job_ids`` Slurm still
    knows (it forgets ended jobs after ``MinJobAge``); None if squeue cannot be asked."""
    if not job_ids:
        return {}
    try:
        done = subprocess.run(
            ["squeue", "--noheader", "--states=all", "--jobs", ",".join(job_ids),
             "--format=%i|%T|%r"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0 and "Invalid job id" not in done.stderr:
        return None
    states = {}
    for line in done.stdout.splitlines():
        job, state, reason = (line.split("|") + ["", ""])[:3]
        states[job.strip()] = f"{state} ({reason})" if reason and reason != "None" else state
    return states


def _slurm_job_id() -> str | None:
    """Run on a worker: the Slurm job it runs in."""
    return os.environ.get("SLURM_JOB_ID")


def _import_slurm_cluster():
    """``dask_jobqueue.SLURMCluster``, keeping our Ctrl-C: importing dask_jobqueue (0.9) sets a
    SIGINT handler that calls ``sys.exit()``, so an interrupted run would exit 0, silently."""
    previous = signal.getsignal(signal.SIGINT)
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError:
        raise ClusterError(
            "cluster kind 'slurm' needs dask-jobqueue: pip install 'boardsweep[slurm]'"
        ) from None
    finally:
        if previous is not None and signal.getsignal(signal.SIGINT) is not previous:
            signal.signal(signal.SIGINT, previous)
    return SLURMCluster


def slurm_cluster(options: dict, workers: int | None):
    """A started ``SLURMCluster`` asking for ``workers`` worker jobs (ClusterError if Slurm
    or dask-jobqueue is missing, or Slurm refuses the job script)."""
    SLURMCluster = _import_slurm_cluster()  # noqa: N806 - a class
    if shutil.which("sbatch") is None:
        raise ClusterError("cluster kind 'slurm': sbatch is not on PATH; run boardsweep where "
                           "Slurm jobs can be submitted (a login node, or inside a job)")
    try:
        cluster = SLURMCluster(**slurm_settings(options))
    except (TypeError, ValueError) as exc:
        raise ClusterError(f"cluster (kind slurm): {exc}") from None
    try:
        _test_submit(cluster.job_script())
        cluster.scale(workers or options.get("workers", 1))
    except BaseException:
        cluster.close()
        raise
    return cluster


def _test_submit(script: str) -> None:
    """Ask Slurm whether it would take the worker job script (``sbatch --test-only``), so a bad
    partition, account or size is one clear error now rather than workers that never come."""
    done = subprocess.run(["sbatch", "--test-only"], input=script, capture_output=True,
                          text=True, timeout=60)
    if done.returncode != 0:
        reason = (done.stderr.strip() or done.stdout.strip()).splitlines()
        raise ClusterError("cluster (kind slurm): Slurm refuses the worker job: "
                           + (reason[-1] if reason else f"sbatch exit status {done.returncode}"))


def slurm_job_ids(cluster) -> list[str]:
    """The Slurm job ids of the cluster's worker jobs submitted so far."""
    return [str(job.job_id) for job in list(cluster.workers.values())
            if getattr(job, "job_id", None)]


def wait_for_slurm_workers(client, cluster, wanted: int, timeout: float,
                            log_directory: str | None) -> None:
    """Wait for the first worker job to connect, then briefly for the others.

    :class:`ClusterError` naming the jobs and their ``squeue`` state if none connects within
    ``timeout`` seconds, or as soon as every worker job has ended without connecting.
    """
    start = time.monotonic()
    submitted: list[str] = []
    next_check = start + 2.0
    while not client.nthreads():
        now = time.monotonic()
        if not submitted:
            submitted = slurm_job_ids(cluster)
            if submitted:
                log(f"slurm: worker jobs {', '.join(submitted)} submitted; waiting for them to "
                    f"start (at most {timeout:g} s)")
        if now >= next_check:
            next_check = now + 3.0
            ids = slurm_job_ids(cluster)
            states = squeue_states(ids)
            ended = states is not None and all(
                states.get(i, "GONE").split()[0] in SLURM_ENDED | {"GONE"} for i in ids)
            if ids and len(ids) >= wanted and ended and not client.nthreads():
                logs = (f"; their logs: {log_directory}/{cluster.job_name}-<job id>.err"
                        if log_directory else "")
                raise ClusterError(
                    "slurm: every worker job ended before its worker connected: "
                    + ", ".join(f"{i} {states.get(i, 'gone')}" for i in ids) + logs)
        if now - start >= timeout:
            ids = slurm_job_ids(cluster)
            states = squeue_states(ids)
            jobs = ", ".join(f"{i} {(states or {}).get(i, 'unknown to squeue')}" for i in ids)
            raise ClusterError(
                f"slurm: no worker connected within {timeout:g} s; worker jobs (squeue): "
                f"{jobs or 'none submitted'}. They are cancelled now. Check sinfo, the "
                "partition, account, cores and memory asked for, or raise the cluster's 'timeout'")
        time.sleep(0.25)
    try:
        client.wait_for_workers(wanted, timeout=SLURM_GATHER)
    except TimeoutError:
        log(f"slurm: {len(client.nthreads())} of {wanted} worker jobs running; the others join "
            "when Slurm starts them")
    jobs = sorted(set(client.run(_slurm_job_id).values()) - {None}, key=int)
    log(f"slurm: {len(client.nthreads())} workers in Slurm jobs {', '.join(jobs)}")


@contextmanager
def cancel_on_signals(job_ids: Callable[[], list[str]]) -> Iterator[None]:
    """On Ctrl-C (SIGINT) or SIGTERM (a Slurm time limit, ``scancel``, ``kill``), cancel the
    worker jobs ``job_ids()`` at once, in the handler, then unwind with ``SystemExit`` (130 or
    143) so the cluster closes.  An exception raised in a signal handler can be lost (C code
    such as numba's dispatcher may clear it), so the jobs are cancelled here, not only on the
    way out, and the process ends by itself :data:`SIGNAL_GRACE` seconds later regardless.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        for sig in (signal.SIGINT, signal.SIGTERM):  # once is enough; the rest is cleanup
            signal.signal(sig, signal.SIG_IGN)
        status = 128 + signum
        watchdog = threading.Timer(SIGNAL_GRACE, os._exit, (status,))
        watchdog.daemon = True
        watchdog.start()
        ids = job_ids()
        log(f"{signal.Signals(signum).name}: cancelling the Slurm worker jobs "
            f"{', '.join(ids) or '(none submitted yet)'}; run the same command again to resume")
        if ids:
            try:
                subprocess.run(["scancel", *ids], capture_output=True, timeout=SIGNAL_GRACE / 2)
            except (OSError, subprocess.TimeoutExpired) as exc:
                log(f"scancel failed: {exc}")
        raise SystemExit(status)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
