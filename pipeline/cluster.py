"""Dask clients: a local cluster of worker processes, an existing scheduler, or a scheduler file.

This is the only module that makes clients.  Worker processes import ``solvers`` as an
installed package, so every worker must have the same boardsweep installed; the versions are
compared at connect time and a mismatch stops the run.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from importlib.metadata import version as package_version
from pathlib import Path

from .config import ClusterSpec
from .errors import ClusterError
from .progress import log

__all__ = ["open_client", "wait_for_file", "check_versions", "boardsweep_version"]

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
    """Stop with :class:`ClusterError` if any worker runs other package versions than we do."""
    mine = boardsweep_version()
    theirs = client.run(boardsweep_version)
    for worker, versions in theirs.items():
        diff = {k: (mine[k], v) for k, v in versions.items() if mine.get(k) != v}
        if diff:
            detail = ", ".join(f"{k} {a} here but {b} there" for k, (a, b) in diff.items())
            raise ClusterError(f"version mismatch with worker {worker}: {detail}")


def _local_cluster(options: dict, workers: int | None):
    from distributed import LocalCluster

    count = workers or options.get("workers") or os.cpu_count() or 1
    return LocalCluster(
        n_workers=count,
        threads_per_worker=options.get("threads_per_worker", 1),
        processes=True,
        memory_limit=options.get("memory_limit", "auto"),
        dashboard_address=options.get("dashboard_address", ":8787"),
        silence_logs=logging.ERROR,
    )


def _slurm_cluster(options: dict, workers: int | None):
    try:
        from dask_jobqueue import SLURMCluster
    except ImportError:
        raise ClusterError(
            "cluster kind 'slurm' needs dask-jobqueue: pip install 'boardsweep[slurm]'"
        ) from None
    settings = {k: v for k, v in options.items() if k != "workers"}
    settings.setdefault("cores", 1)
    settings.setdefault("memory", "2GB")
    cluster = SLURMCluster(**settings)
    cluster.scale(workers or options.get("workers", 1))
    return cluster


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

    kind, options = spec.kind, dict(spec.options)
    if scheduler:
        kind, options = "address", {"address": scheduler}
    elif scheduler_file:
        kind, options = "scheduler-file", {"path": scheduler_file}
    timeout = float(options.get("timeout", DEFAULT_TIMEOUT))
    with ExitStack() as stack:
        try:
            if kind == "local":
                client = Client(stack.enter_context(_local_cluster(options, workers)))
            elif kind == "slurm":
                client = Client(stack.enter_context(_slurm_cluster(options, workers)))
            elif kind == "address":
                client = Client(options["address"], timeout=timeout)
            else:
                wait_for_file(options["path"], timeout)
                client = Client(scheduler_file=options["path"], timeout=timeout)
        except (OSError, TimeoutError) as exc:
            where = options.get("address") or options.get("path") or kind
            raise ClusterError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        stack.enter_context(client)
        if kind == "slurm":
            client.wait_for_workers(1, timeout=max(timeout, 600))
        log(f"dashboard: {client.dashboard_link}")
        check_versions(client)
        yield client
