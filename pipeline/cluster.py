"""Dask clients: a local cluster of worker processes, an existing scheduler (by address or
scheduler file), or worker jobs submitted to a batch system.

This is the only module that makes clients.  Worker processes import ``solvers`` as an
installed package, so every worker must have the same boardsweep installed; its version, and
numba's, numpy's, pyarrow's and Python's, are compared at connect time and a mismatch stops the
run.

Who may connect: a local cluster listens on 127.0.0.1 only (its dashboard too).  Every other
cluster speaks TLS unless the config says ``security: none``: batch jobs with a certificate
authority made for the run (:mod:`pipeline.batch`), an existing scheduler with the certificate
files named in the config or on the command line, or Dask's own ``distributed.comm.tls``
settings.  Plain TCP elsewhere must be asked for, and the log warns about it.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shlex
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import dask

from boardsweep.solvers.schema import ParamError

from .batch import batch_cluster, cancel_on_signals, job_ids, wait_for_batch_workers
from .errors import ClusterError, Interrupted
from .progress import LOGGER, adopt_dask_logging, log, quiet_dask, warn, worker_logging
from .spec import BATCH_KINDS, ClusterSpec, check_security
from .work import versions

__all__ = ["open_client", "wait_for_file", "check_versions", "boardsweep_version", "dashboard_link"]


def boardsweep_version() -> dict[str, str]:
    """This process's :func:`pipeline.work.versions`, under the name that workers of older
    releases have too (a worker runs its own copy of what :func:`check_versions` names)."""
    return versions()


def wait_for_file(path: str | Path, timeout: float) -> None:
    """Wait until ``path`` exists, at most ``timeout`` seconds; :class:`ClusterError` after."""
    deadline = time.monotonic() + timeout
    while not Path(path).exists():
        if time.monotonic() >= deadline:
            raise ClusterError(f"{path}: scheduler file did not appear within {timeout:g} s")
        time.sleep(0.2)


def check_versions(client) -> None:
    """Stop with :class:`ClusterError` if any worker runs other versions than we do
    (:func:`pipeline.work.versions`), naming the worker and each version that differs, or
    cannot say which (it cannot import a library).  Workers that join
    later are checked with every task (:func:`pipeline.work.run_bundle`)."""
    mine = boardsweep_version()
    try:
        theirs = client.run(boardsweep_version)
    except ImportError as exc:  # no boardsweep, numba, numpy or pyarrow to import there
        raise ClusterError(
            f"a worker cannot tell its versions ({type(exc).__name__}: "
            f"{exc}); install the same boardsweep on every worker"
        ) from None
    for worker, its in theirs.items():
        names = [*mine, *(k for k in its if k not in mine)]
        diff = {k: (mine.get(k), its.get(k)) for k in names if mine.get(k) != its.get(k)}
        if diff:
            detail = ", ".join(
                f"{k} {a or 'unknown'} here but {b or 'unknown'} there"
                for k, (a, b) in diff.items()
            )
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


def _local_worker_settings(options: dict) -> dict:
    """Dask settings for the processes of a local cluster, which share this machine's cores.

    Dask's sampling profiler wakes in every worker 100 times a second, its system monitor
    twice a second in every worker and in the scheduler, and its event-loop "tick" (which only
    times the loop, to log a loop blocked for more than 3 s) 50 times a second in every
    process.  A task here is one long compiled call the profiler cannot see into, so on a small
    machine these are pure cost: a count used measurably more CPU (workers and this process)
    with the profiler on and the monitor at 0.5 s than with the profiler off and the monitor at
    2 s, and a tick every second rather than every 20 ms cuts an idle cluster's CPU further
    (``benchmarks/cluster_idle.py``; its figures are on the manual's speed page,
    docs/speed.md).  The key ``profile: true`` turns the profiler back on.
    """
    preload = list(dask.config.get("distributed.worker.preload", None) or [])
    return {
        "distributed.worker.profile.enabled": options["profile"],
        "distributed.admin.system-monitor.interval": "2s",
        "distributed.admin.tick.interval": "1s",
        # Ctrl-C is the driver's: each worker ignores SIGINT from its start
        "distributed.worker.preload": [*preload, f"{__package__}.local_worker"],
    }


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
        raise ClusterError(
            f"no worker joined the Dask scheduler at {client.scheduler.address} "
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


INHERIT = "DASK_INTERNAL_INHERIT_CONFIG"  # Dask reads this config first in a new process


@contextmanager
def _workers_log_like_us() -> Iterator[None]:
    """While the local cluster lives, its worker processes (started and restarted) log in
    this process's format and to the same place (:func:`pipeline.progress.worker_logging`)."""
    previous = os.environ.get(INHERIT)
    inherited = dask.config.deserialize(previous) if previous else {}
    os.environ[INHERIT] = dask.config.serialize({**inherited, "logging": worker_logging()})
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(INHERIT, None)
        else:
            os.environ[INHERIT] = previous


def _local_cluster(options: dict, workers: int | None):
    """A LocalCluster on 127.0.0.1 whose worker processes ignore Ctrl-C (:mod:`.local_worker`,
    preloaded): the driver alone handles it, and closes them."""
    from distributed import LocalCluster

    count = workers or options.get("workers") or os.cpu_count() or 1
    # errors only (a worker's death is one); with -v all of Dask's lines
    quiet = False if LOGGER.isEnabledFor(logging.DEBUG) else logging.ERROR
    with _port_taken_is_no_news():
        return LocalCluster(
            n_workers=count,
            threads_per_worker=options["threads_per_worker"],
            processes=True,
            host="127.0.0.1",
            memory_limit=options["memory_limit"],
            dashboard_address=options["dashboard_address"],
            silence_logs=quiet,
        )


def _script(folder: Path, name: str, text: str) -> Path | None:
    """``folder/name`` holding ``text``, executable (written whole unless it already holds
    it), or None where it cannot be written there or run from there."""
    path = folder / name
    try:
        if not (path.is_file() and path.read_text() == text):
            folder.mkdir(parents=True, exist_ok=True)
            handle, written = tempfile.mkstemp(dir=folder, prefix=f".{name}-")
            try:
                with os.fdopen(handle, "w") as out:
                    out.write(text)
                os.chmod(written, 0o700)
                os.replace(written, path)  # whole, even with other runs writing it at once
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(written)  # no half-written copy left beside it
                raise
    except OSError:
        return None
    return path if os.access(path, os.X_OK) else None


@contextmanager
def _workers_start_ignoring_sigint() -> Iterator[None]:
    """While the local cluster lives, its worker processes are started with SIGINT ignored.

    A terminal's Ctrl-C reaches the whole foreground group, and a worker process that is still
    importing (about a second after Dask spawns it, before :mod:`.local_worker` runs) took it as
    a KeyboardInterrupt and printed a traceback beside the driver's one line.  Python leaves a
    SIGINT it inherits as ignored ignored, and a disposition of "ignore" survives ``exec``;
    handlers and blocked masks do not (multiprocessing's spawn resets both).  So the spawn
    goes through a two-line shell script that ignores SIGINT and execs this Python with the
    same arguments.

    The script is kept in the user's cache folder, one per interpreter: a folder made per run
    was left in the temporary folder by every driver killed with SIGKILL (a batch job over its
    time limit, a test of resuming), which cleans up nothing.  Where the cache folder will not
    do, the script goes in a temporary folder of this run's own; where no script can be run
    at all (a temporary folder mounted ``noexec``) the workers start as before, and the
    preload alone covers them once it has run."""
    from multiprocessing import spawn

    from boardsweep.solvers.identity import cache_root

    if os.name != "posix":
        yield
        return
    python = spawn.get_executable()
    text = f"#!/bin/sh\ntrap '' INT\nexec {shlex.quote(os.fsdecode(python))} \"$@\"\n"
    kept = f"python-{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    with ExitStack() as stack:
        wrapper = _script(cache_root() / "spawn", kept, text)
        if wrapper is None:
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="boardsweep-spawn-"))
            wrapper = _script(Path(folder), "python", text)
        if wrapper is None:
            yield
            return
        spawn.set_executable(str(wrapper))
        try:
            yield
        finally:
            spawn.set_executable(python)


def _kill_local_workers_on_a_signal(kind, exc, tb) -> bool:
    """On the way out after a signal, kill this process's local worker processes before the
    cluster closes: a worker busy compiling or searching answers no close request, and a
    graceful close would wait for it well past the seconds Ctrl-C may take.  Their finished
    results are in the store already; the rest is computed again by the next run."""
    if not isinstance(exc, (Interrupted, KeyboardInterrupt)):
        return False
    import psutil

    try:
        workers = [
            child
            for child in psutil.Process().children()
            if "multiprocessing.spawn" in " ".join(child.cmdline())
        ]
    except psutil.Error:
        return False
    for worker in workers:
        with contextlib.suppress(psutil.Error):
            worker.kill()
    psutil.wait_procs(workers, timeout=2)
    return False


def _client_security(options: dict):
    """The client side of TLS to an existing scheduler: the files named, else Dask's own
    ``distributed.comm.tls`` settings."""
    from distributed.security import Security

    if options.get("tls_ca_file"):
        return Security(
            tls_ca_file=options["tls_ca_file"],
            tls_client_cert=options["tls_cert"],
            tls_client_key=options["tls_key"],
            require_encryption=True,
        )
    return Security(require_encryption=True)


def _connect(kind: str, options: dict, timeout: float):
    """A Client of an existing scheduler (its address given or read from its file), TLS or,
    with ``security: none``, plain TCP (warned about)."""
    import json

    from distributed import Client

    if kind == "scheduler-file":
        wait_for_file(options["path"], timeout)
        try:
            address = json.loads(Path(options["path"]).read_text())["address"]
        except (OSError, ValueError, KeyError) as exc:
            raise ClusterError(f"{options['path']}: not a Dask scheduler file ({exc})") from None
    else:
        address = options["address"]
    try:
        check_security(kind, options, (), address)
    except ParamError as exc:
        where = options.get("path") or "the scheduler"
        raise ClusterError(f"{where}: {exc.message}") from None
    if address.startswith("tcp://"):
        warn(
            f"{address}: plain TCP (security: none): anyone who can reach this scheduler can "
            "run code as this user"
        )
        security = None
    else:
        security = _client_security(options)
    return Client(address, timeout=timeout, security=security)  # a file's address, read above


@contextmanager
def open_client(
    spec: ClusterSpec, *, workers: int | None = None, keys: Path | None = None
) -> Iterator:
    """Yield a connected ``distributed.Client`` for ``spec`` (``workers`` overrides its
    count; ``keys`` is the private folder a batch cluster's TLS files go to)."""
    from distributed import Client

    adopt_dask_logging()
    kind, options = spec.kind, dict(spec.options)
    with ExitStack() as stack:
        try:
            if kind == "local" or kind in BATCH_KINDS:  # their scheduler runs here
                stack.enter_context(dask.config.set(_scheduler_settings(options)))
            if kind == "local":  # for the cluster's life: a restarted worker reads them too
                stack.enter_context(dask.config.set(_local_worker_settings(options)))
                stack.enter_context(_workers_log_like_us())
                stack.enter_context(_workers_start_ignoring_sigint())
                client = Client(stack.enter_context(_local_cluster(options, workers)))
                stack.push(_kill_local_workers_on_a_signal)  # runs before the cluster closes
            elif kind in BATCH_KINDS:
                clusters: list = []  # the handler needs the jobs, and must outlive the cluster
                stack.enter_context(
                    cancel_on_signals(kind, lambda: [job for c in clusters for job in job_ids(c)])
                )
                with _port_taken_is_no_news():
                    cluster = stack.enter_context(batch_cluster(kind, options, workers, keys))
                clusters.append(cluster)
                client = Client(cluster, security=cluster.security)
            else:
                client = _connect(kind, options, options["timeout"])
        except (OSError, TimeoutError) as exc:
            where = options.get("address") or options.get("path") or kind
            raise ClusterError(f"cannot reach the Dask scheduler at {where}: {exc}") from None
        stack.enter_context(client)
        stack.callback(quiet_dask)  # closing: no stray errors about closed connections
        if kind in ("address", "scheduler-file"):
            _wait_for_a_worker(client, options["timeout"])
        if kind in BATCH_KINDS:
            wanted = workers or options["workers"]
            wait_for_batch_workers(
                kind,
                client,
                cluster,
                wanted,
                options["timeout"],
                options.get("log_directory"),
            )
        log(
            f"scheduler: {client.scheduler.address}; dashboard: {dashboard_link(client)}; a "
            f"task whose worker dies is retried up to {_allowed_failures(client)} times"
        )
        check_versions(client)
        yield client
