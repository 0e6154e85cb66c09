"""Dask clients: a local cluster of worker processes, an existing scheduler, a scheduler file,
or worker jobs submitted to Slurm.

This is the only module that makes clients.  Worker processes import ``solvers`` as an
installed package, so every worker must have the same boardsweep installed; the versions are
compared at connect time and a mismatch stops the run.

Slurm's worker jobs are made and watched in :mod:`pipeline.slurm`.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from importlib.metadata import version as package_version
from pathlib import Path

import dask

from .errors import ClusterError
from .progress import adopt_dask_logging, log
from .slurm import (
    SLURM_TIMEOUT,
    cancel_on_signals,
    slurm_cluster,
    slurm_job_ids,
    wait_for_slurm_workers,
)
from .spec import ClusterSpec

__all__ = ["open_client", "wait_for_file", "check_versions", "boardsweep_version",
           "dashboard_link"]

DEFAULT_TIMEOUT = 60.0
VERSION_PACKAGES = ("boardsweep", "numba", "numpy", "pyarrow")


def boardsweep_version() -> dict[str, str]:
    """Versions of the packages whose mismatch between client and workers would change results."""
    return {name: package_version(name) for name in VERSION_PACKAGES}


def wait_for_file(path: str | Path, timeout: float) -> None:
    """Wait until ``path`` exists, at most ``timeout`` seconds; :class:`ClusterError` after."""
    deadline = time.monotonic() + timeout
    while not Path(path).exists():
        if time.monotonic() >= deadline:
            raise ClusterError(f"{path}: scheduler file did not appear within {timeout:g} s")
        time.sleep(0.2)


def check_versions(client) -> None:
    """Stop with :class:`ClusterError` if any worker runs other package versions than we do
    (or cannot say which: it has no boardsweep at all)."""
    mine = boardsweep_version()
    try:
        theirs = client.run(boardsweep_version)
    except ImportError as exc:  # PackageNotFoundError too: no boardsweep installed there
        raise ClusterError(f"a worker cannot tell its boardsweep version ({type(exc).__name__}: "
                           f"{exc}); install the same boardsweep on every worker") from None
    for worker, versions in theirs.items():
        diff = {k: (mine[k], v) for k, v in versions.items() if mine.get(k) != v}
        if diff:
            detail = ", ".join(f"{k} {a} here but {b} there" for k, (a, b) in diff.items())
            raise ClusterError(f"version mismatch with worker {worker}: {detail}")


def _scheduler_settings(options: dict) -> dict:
    """Dask settings for a scheduler started here.

    A worker thread holds one task at a time (``worker-saturation`` 1.0), so a worker that dies
    takes down only the task it was running: with Dask's default of 1.1, a task queued behind
    a crashing one counts that death against itself and may fail though it did nothing wrong.
    ``allowed_failures`` is how many worker deaths one task may cause before it fails.
    """
    settings = {"distributed.scheduler.worker-saturation": 1.0}
    if options.get("allowed_failures") is not None:
        settings["distributed.scheduler.allowed-failures"] = options["allowed_failures"]
    return settings


def dashboard_link(client) -> str:
    """The dashboard's address as the scheduler really bound it (``none`` without one).

    Dask's own ``client.dashboard_link`` puts the scheduler's host in front of the dashboard's
    port, whatever interface the dashboard listens on; this asks the scheduler for its HTTP
    server's sockets instead.  A dashboard on every interface (``:8787``) is shown with the
    scheduler's host and says so, since anyone who reaches that host reaches it.
    """
    from distributed.comm import get_address_host
    from distributed.utils import format_dashboard_link

    def bound(dask_scheduler):  # nested: pickled by value, the scheduler needs no boardsweep
        server = dask_scheduler.services.get("dashboard")
        sockets = getattr(server, "_sockets", None) or {}
        return [tuple(sock.getsockname()[:2]) for sock in sockets.values()]

    sockets = client.run_on_scheduler(bound)
    if not sockets:
        return "none"
    port = sockets[0][1]
    hosts = [host for host, _ in sockets]
    if any(host in ("0.0.0.0", "::", "") for host in hosts):
        host = get_address_host(client.scheduler.address)
        suffix = " (on every interface)"
    else:
        host = next((h for h in hosts if ":" not in h), hosts[0])
        suffix = ""
    if ":" in host:
        host = f"[{host}]"
    return format_dashboard_link(host, port) + suffix


def _wait_for_a_worker(client, timeout: float) -> None:
    """Wait until an existing scheduler has a worker, at most ``timeout`` seconds.

    Without one, the version check would pass vacuously and the plan would be cut for no
    worker threads; workers that join later are welcome (their code versions are checked
    with every task they run).
    """
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise ClusterError(f"no worker joined the Dask scheduler at {client.scheduler.address} "
                           f"within {timeout:g} s: start workers with `dask worker "
                           f"{client.scheduler.address}`, or raise the cluster's 'timeout'"
                           ) from None


def _allowed_failures(client) -> int:
    """The scheduler's own ``allowed-failures`` (an existing scheduler has its own config)."""
    return client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.allowed_failures)


@contextmanager
def _port_taken_is_no_news() -> Iterator[None]:
    """Hide Dask's warning that the dashboard's port is taken (another run holds 8787): the
    dashboard moves to a free port, and the ``dashboard:`` log line gives the one it got."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", r"Port \d+ is already in use", UserWarning)
        yield


def _local_cluster(options: dict, workers: int | None):
    from distributed import LocalCluster

    count = workers or options.get("workers") or os.cpu_count() or 1
    with _port_taken_is_no_news():
        return LocalCluster(
            n_workers=count,
            threads_per_worker=options.get("threads_per_worker", 1),
            processes=True,
            memory_limit=options.get("memory_limit", "auto"),
            dashboard_address=options.get("dashboard_address", "127.0.0.1:8787"),
            silence_logs=logging.ERROR,
        )


@contextmanager
def open_client(
    spec: ClusterSpec,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    scheduler_file: str | None = None,
) -> Iterator:
    """Yield a connected ``distributed.Client``; command-line choices override ``spec``."""
    from distributed import Client

    adopt_dask_logging()

    kind, options = spec.kind, dict(spec.options)
    if scheduler:
        kind, options = "address", {"address": scheduler}
    elif scheduler_file:
        kind, options = "scheduler-file", {"path": scheduler_file}
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    with ExitStack() as stack:
        try:
            if kind in ("local", "slurm"):  # their scheduler runs here and reads this setting
                stack.enter_context(dask.config.set(_scheduler_settings(options)))
            if kind == "local":
                client = Client(stack.enter_context(_local_cluster(options, workers)))
            elif kind == "slurm":
                clusters: list = []  # the handler needs the jobs, and must outlive the cluster
                stack.enter_context(cancel_on_signals(
                    lambda: [job for c in clusters for job in slurm_job_ids(c)]))
                with _port_taken_is_no_news():
                    cluster = stack.enter_context(slurm_cluster(options, workers))
                clusters.append(cluster)
                client = Client(cluster)
            elif kind == "address":
                client = Client(options["address"], timeout=timeout)
            else:
                wait_for_file(options["path"], timeout)
                client = Client(scheduler_file=options["path"], timeout=timeout)
        except (OSError, TimeoutError) as exc:
            where = options.get("address") or options.get("path") or kind
            raise ClusterError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        stack.enter_context(client)
        if kind in ("address", "scheduler-file"):
            _wait_for_a_worker(client, timeout)
        if kind == "slurm":
            wanted = workers or options.get("workers", 1)
            wait_for_slurm_workers(client, cluster, wanted,
                                    float(options.get("timeout", SLURM_TIMEOUT)),
                                    options.get("log_directory"))
        log(f"dashboard: {dashboard_link(client)}; a task whose worker dies is retried up to "
            f"{_allowed_failures(client)} times")
        check_versions(client)
        yield client
