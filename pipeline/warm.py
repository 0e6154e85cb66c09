"""Kernels compiled once per machine, not once per worker, and a run that says so meanwhile.

Before the first task, every worker loads the kernels of the problems the jobs use
(:func:`warm_up`, a Dask task on each worker).  On a machine whose cache has them that is a
load; on a first run it is a compile, which costs far more (benchmarks/first_run.py; figures on
the speed page, docs/speed.md).  Workers
on one machine share numba's cache folder, so one compile serves them all: each problem has a
lock file there, the worker that takes it compiles (or loads) that problem while the others
take another problem's lock, and a worker that finds every remaining lock taken waits for one
and then loads what its holder compiled.  Workers start at different problems, so different
problems compile on different workers at once.

The workers report each problem they start and finish, each step of its warm-up (the
contract's ``warm`` steps) and, while they compile, how many functions numba has compiled so
far (:class:`Compiles`), as Dask events; the driver (:func:`warm_workers`) says what they are
doing at least every :data:`REPORT_SECONDS` ("compiling P kernels (first run on this
machine): 1 of 3 steps, 12 functions compiled"), and moves a bar on a terminal.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import time
import uuid
from pathlib import Path

import pyarrow as pa

from boardsweep import solvers

from .errors import ClusterError
from .progress import Status

__all__ = [
    "warm_up",
    "warm_workers",
    "Compiles",
    "compiling",
    "cache_misses",
    "progress_line",
    "EVENTS",
    "REPORT_SECONDS",
]

EVENTS = "boardsweep-warm-up"  # the Dask event topic of the workers' reports
REPORT_SECONDS = 10.0
NOTE_SECONDS = 2.0  # a worker reports its count of compiled functions at most this often


class Compiles:
    """Counts the functions numba compiles in this process for modules under ``scopes``
    while installed (numba's compile events; a load from the cache is no compile), calling
    ``note(count)`` at most every ``every`` seconds as the count grows."""

    def __init__(self, scopes: tuple[str, ...], note=None, every: float = NOTE_SECONDS):
        self.scopes, self.note, self.every = tuple(scopes), note, every
        self.count = 0
        self._last = time.monotonic()

    def ended(self, event) -> None:
        """Count one compile that ended (a numba ``numba:compile`` event)."""
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
        if not module.startswith(self.scopes):
            return
        self.count += 1
        now = time.monotonic()
        if self.note is not None and now - self._last >= self.every:
            self._last = now
            self.note(self.count)


@contextlib.contextmanager
def compiling(scopes: tuple[str, ...], note=None, every: float = NOTE_SECONDS):
    """A :class:`Compiles` counting while the block runs (numba's compile events)."""
    counter = Compiles(scopes, note, every)
    try:
        from numba.core import event
    except ImportError:  # no numba: nothing compiles
        yield counter
        return

    class Listener(event.Listener):
        def on_start(self, event) -> None:
            pass

        def on_end(self, event) -> None:
            counter.ended(event)

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield counter
    finally:
        event.unregister("numba:compile", listener)


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


def cache_misses(problem) -> int:
    """How many kernel signatures the problem's modules have compiled in this process (numba
    counts a compile as a cache miss; a load from the cache is a hit)."""
    import sys

    kernels = {}  # by id: a kernel imported into several modules counts once
    scopes = tuple(problem.modules)
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith(scopes):
            continue
        for value in list(vars(module).values()):
            if hasattr(getattr(value, "stats", None), "cache_misses"):
                kernels[id(value)] = value
    return sum(sum(k.stats.cache_misses.values()) for k in kernels.values())


def _report(run: str, **message) -> None:
    try:
        from distributed import get_worker

        worker = get_worker()
        worker.log_event(EVENTS, {"run": run, "worker": worker.address, **message})
    except (ImportError, ValueError):  # not on a Dask worker (a test calls it directly)
        pass


def warm_up(problems: list[str], first: int = 0, run: str = "") -> dict:
    """On a worker: load or compile the kernels of ``problems`` (starting at index ``first``),
    each compiled at most once on this machine (see the module's doc), reporting each step.
    Returns the seconds it took and when it started (``started``, the epoch), and per problem
    when it began (``began``), the seconds and the kernels this process compiled."""
    start, started = time.perf_counter(), time.time()
    pending = (
        problems[first % len(problems) :] + problems[: first % len(problems)] if problems else []
    )
    done: dict[str, dict] = {}
    while pending:
        # the first problem whose lock is free, one lock at a time (holding a second one
        # while compiling the first would keep another worker from compiling it meanwhile)
        taken = next(((n, fd) for n in pending if (fd := _take(n, False)) is not None), None)
        if taken is None:  # every remaining problem is being compiled elsewhere: wait for one
            taken = (pending[0], _take(pending[0], True))
        name, fd = taken
        try:
            _report(run, state="start", problem=name)
            began, wall = time.perf_counter(), time.time()
            problem = solvers.get(name)
            before = cache_misses(problem)
            steps = len(problem.warm_steps())
            at = {"step": 0}

            def note(count: int, name=name, steps=steps, at=at) -> None:
                _report(
                    run,
                    state="step",
                    problem=name,
                    step=at["step"],
                    steps=steps,
                    functions=count,
                )

            with compiling(tuple(problem.modules), note) as counter:

                def step(done: int, total: int, name=name, at=at, counter=counter) -> None:
                    at["step"] = done
                    _report(
                        run,
                        state="step",
                        problem=name,
                        step=done,
                        steps=total,
                        functions=counter.count,
                    )

                problem.warm_up(step)
            problem.version  # noqa: B018 - hashes the problem's sources once, before tasks
            done[name] = {
                "seconds": time.perf_counter() - began,
                "began": wall,
                "compiled": cache_misses(problem) - before,
            }
            _report(run, state="done", problem=name, **done[name])
        finally:
            os.close(fd)  # releases the lock: the next worker loads what this one compiled
        pending.remove(name)
    pa.array([0])  # pyarrow imports pandas at its first list conversion: slow in a first task
    return {"seconds": time.perf_counter() - start, "started": started, "problems": done}


def warm_workers(client, problems: list[str], timeout: float = 3600.0) -> dict[str, dict]:
    """Run :func:`warm_up` on every worker of ``client`` (each starting at another problem),
    saying what they do at least every :data:`REPORT_SECONDS` (a bar on a terminal) while it
    lasts; the workers' answers by address.  :class:`ClusterError` if it takes longer than
    ``timeout``."""
    from distributed import wait

    workers = sorted(client.scheduler_info()["workers"])
    run = uuid.uuid4().hex
    futures = {
        client.submit(
            warm_up,
            problems,
            i,
            run,
            workers=[w],
            allow_other_workers=False,
            pure=False,
            key=f"boardsweep-warm-up-{run}-{i}",
        ): w
        for i, w in enumerate(workers)
    }
    start = time.monotonic()
    # the first line comes sooner: the cluster's start was silent already
    status = Status(interval=REPORT_SECONDS, first=REPORT_SECONDS / 2)
    try:
        while True:
            try:
                wait(list(futures), timeout=status.wait())
                break
            except TimeoutError:
                elapsed = time.monotonic() - start
                if elapsed > timeout:
                    raise ClusterError(
                        f"the workers' kernels were not ready after {elapsed:.0f} s"
                    ) from None
                gone = set(futures.values()) - set(client.scheduler_info()["workers"])
                futures = {f: w for f, w in futures.items() if w not in gone}
                if not futures:
                    break
                if status.due():
                    text, share = progress_line(
                        client.get_events(EVENTS), run, problems, len(futures), elapsed
                    )
                    status.show(text, share)
        return {w: f.result() for f, w in futures.items() if f.status == "finished"}
    finally:
        status.close()
        for future in futures:
            future.release()


def progress_line(
    events, run: str, problems: list[str], workers: int, elapsed: float
) -> tuple[str, float]:
    """What the workers of warm-up ``run`` are doing, from their ``events`` ((time, message)
    pairs), in one line, and the share of the warm-up done (steps, over all workers):
    ``compiling P kernels (first run on this machine): 1 of 3 steps, 12 functions compiled;
    loading Q kernels: 2 of 4 steps; ready: R (2 of 2 workers); 40 s``."""
    ready: dict[str, int] = {}
    latest: dict[tuple[str, str], dict] = {}  # (problem, worker) -> its last step report
    for _, message in events:
        if not isinstance(message, dict) or message.get("run") != run:
            continue
        name, worker = message.get("problem"), message.get("worker", "")
        if message.get("state") == "done":
            ready[name] = ready.get(name, 0) + 1
            latest.pop((name, worker), None)
        elif message.get("state") == "step":
            latest[(name, worker)] = message
        else:
            latest.setdefault((name, worker), {"step": 0, "steps": 0, "functions": 0})
    parts = []
    done_steps = 0.0
    for p in problems:
        at_work = [m for (name, _), m in latest.items() if name == p]
        if not at_work or ready.get(p, 0) >= workers:
            continue
        m = max(at_work, key=lambda m: (m.get("functions", 0), m.get("step", 0)))
        steps = f"{m.get('step', 0)} of {m['steps']} steps" if m.get("steps") else "starting"
        if m.get("functions"):
            parts.append(
                f"compiling {p} kernels (first run on this machine): {steps}, "
                f"{m['functions']} functions compiled"
            )
        else:
            parts.append(f"loading {p} kernels: {steps}")
        done_steps += sum(m.get("step", 0) / m["steps"] for m in at_work if m.get("steps"))
    if ready:
        parts.append(
            "ready: "
            + ", ".join(f"{p} ({ready[p]} of {workers} workers)" for p in problems if p in ready)
        )
    text = "kernels: " + ("; ".join(parts) if parts else "starting")
    share = (sum(ready.values()) + done_steps) / max(1, workers * len(problems))
    return f"{text}; {elapsed:.0f} s", min(1.0, share)
