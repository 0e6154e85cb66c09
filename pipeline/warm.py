"""Kernels compiled once per machine, not once per worker, and a run that says so meanwhile.

Before the first task, every worker loads the kernels of the problems the jobs use
(:func:`warm_up`, a Dask task on each worker).  On a machine whose cache has them that is a
load; on a first run it is a compile, which costs tens of CPU-seconds per problem.  Workers
on one machine share numba's cache folder, so one compile serves them all: each problem has a
lock file there, the worker that takes it compiles (or loads) that problem while the others
take another problem's lock, and a worker that finds every remaining lock taken waits for one
and then loads what its holder compiled.  Workers start at different problems, so different
problems compile on different workers at once.

The workers report each problem they start and finish as Dask events; the driver
(:func:`warm_workers`) logs which are ready at least every :data:`REPORT_SECONDS`.
"""

from __future__ import annotations

import fcntl
import os
import tempfile
import time
import uuid
from pathlib import Path

import pyarrow as pa

from boardsweep import solvers

from .errors import ClusterError
from .progress import log

__all__ = ["warm_up", "warm_workers", "EVENTS", "REPORT_SECONDS"]

EVENTS = "boardsweep-warm-up"  # the Dask event topic of the workers' reports
REPORT_SECONDS = 10.0


def _lock_folder() -> Path:
    """The cache folder numba writes to on this machine (set when boardsweep.solvers loads)."""
    return Path(os.environ.get("NUMBA_CACHE_DIR") or tempfile.gettempdir())


def _take(name: str, block: bool) -> int | None:
    """The open lock file of problem ``name``, locked; None if another process holds it and
    ``block`` is false."""
    fd = os.open(_lock_folder() / f"{name}.compile.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _cache_misses(problem) -> int:
    """How many kernel signatures the problem's modules have compiled in this process (numba
    counts a compile as a cache miss; a load from the cache is a hit)."""
    import sys

    misses = 0
    scopes = tuple(problem.modules)
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith(scopes):
            continue
        for value in list(vars(module).values()):
            stats = getattr(value, "stats", None)
            if stats is not None and hasattr(stats, "cache_misses"):
                misses += sum(stats.cache_misses.values())
    return misses


def _report(run: str, **message) -> None:
    try:
        from distributed import get_worker

        get_worker().log_event(EVENTS, {"run": run, **message})
    except (ImportError, ValueError):  # not on a Dask worker (a test calls it directly)
        pass


def warm_up(problems: list[str], first: int = 0, run: str = "") -> dict:
    """On a worker: load or compile the kernels of ``problems`` (starting at index ``first``),
    each compiled at most once on this machine (see the module's doc).  Returns the seconds it
    took and, per problem, the seconds and the kernels this process compiled."""
    start = time.perf_counter()
    pending = problems[first % len(problems):] + problems[:first % len(problems)] \
        if problems else []
    done: dict[str, dict] = {}
    while pending:
        taken = [(name, fd) for name in list(pending) if (fd := _take(name, False)) is not None]
        if not taken:  # every remaining problem is being compiled elsewhere: wait for one
            taken = [(pending[0], _take(pending[0], True))]
        for name, fd in taken[:1]:  # one at a time; the others go back to the pool
            try:
                _report(run, state="start", problem=name)
                began = time.perf_counter()
                problem = solvers.get(name)
                before = _cache_misses(problem)
                problem.warm_up()
                problem.version  # noqa: B018 - hashes the problem's sources once, before tasks
                done[name] = {"seconds": time.perf_counter() - began,
                              "compiled": _cache_misses(problem) - before}
                _report(run, state="done", problem=name, **done[name])
            finally:
                os.close(fd)  # releases the lock: the next worker loads what this one compiled
            pending.remove(name)
        for _, fd in taken[1:]:
            os.close(fd)
    pa.array([0])  # pyarrow imports pandas at its first list conversion: 0.5 s of a first task
    return {"seconds": time.perf_counter() - start, "problems": done}


def warm_workers(client, problems: list[str], timeout: float = 3600.0) -> dict[str, dict]:
    """Run :func:`warm_up` on every worker of ``client`` (each starting at another problem),
    logging progress at least every :data:`REPORT_SECONDS` while it lasts; the workers'
    answers by address.  :class:`ClusterError` if it takes longer than ``timeout``."""
    from distributed import wait

    workers = sorted(client.scheduler_info()["workers"])
    run = uuid.uuid4().hex
    futures = {client.submit(warm_up, problems, i, run, workers=[w], allow_other_workers=False,
                             pure=False, key=f"boardsweep-warm-up-{run}-{i}"): w
               for i, w in enumerate(workers)}
    start = time.monotonic()
    try:
        first = True
        while True:
            try:  # the first line comes sooner: the cluster's start was silent already
                wait(list(futures), timeout=REPORT_SECONDS / 2 if first else REPORT_SECONDS)
                break
            except TimeoutError:
                elapsed = time.monotonic() - start
                if elapsed > timeout:
                    raise ClusterError(f"the workers' kernels were not ready after "
                                       f"{elapsed:.0f} s") from None
                gone = set(futures.values()) - set(client.scheduler_info()["workers"])
                futures = {f: w for f, w in futures.items() if w not in gone}
                if not futures:
                    break
                first = False
                log(_progress(client, run, problems, len(futures), elapsed))
        return {w: f.result() for f, w in futures.items() if f.status == "finished"}
    finally:
        for future in futures:
            future.release()


def _progress(client, run: str, problems: list[str], workers: int, elapsed: float) -> str:
    """``kernels: ready A (2 of 2 workers); at work on B, C; 20 s ...`` (A, B, C problems)."""
    ready: dict[str, int] = {}
    busy: set[str] = set()
    for _, message in client.get_events(EVENTS):
        if isinstance(message, dict) and message.get("run") == run:
            name = message.get("problem")
            if message.get("state") == "done":
                ready[name] = ready.get(name, 0) + 1
            else:
                busy.add(name)
    parts = [f"{p} ({ready[p]} of {workers} workers)" for p in problems if p in ready]
    text = "kernels: ready " + (", ".join(parts) if parts else "none yet")
    working = [p for p in problems if p in busy and ready.get(p, 0) < workers]
    if working:
        text += f"; at work on {', '.join(working)}"
    return (f"{text}; {elapsed:.0f} s (a first run on a machine compiles them, once for all "
            "its workers)")
