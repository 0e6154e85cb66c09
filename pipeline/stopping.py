"""Stopping on a signal in every phase: one line, exit 128 + signal, within a few seconds.

The signals of :data:`~boardsweep.pipeline.errors.STOP_SIGNALS` (SIGINT from Ctrl-C, SIGTERM,
SIGHUP from a closed terminal, SIGQUIT) raise :class:`~boardsweep.pipeline.errors.Interrupted`
in the main thread, which unwinds the command: the cluster is closed, the store commits what
came back, and the command line prints one line.

Unwinding is not always prompt, and not always possible: the exception can land inside a
library's callback that prints and drops it (distributed's garbage-collection hook does), or in
C code that does not return for a while (a cluster starting, a kernel compiling).  So the first
signal also starts a watchdog: if the process is still here :data:`GRACE_SECONDS` later, it
prints the line itself, kills this process's children (local workers, their compilers) and
exits with the signal's status.  Nothing is lost by that: the store commits each result in a
transaction and every published file is renamed into place whole.  And a command that returns
normally after a swallowed signal still exits with the signal's status (:func:`check`).

A SIGINT that this process inherited as ignored (a job started with ``&`` by a shell that is
not interactive, or under ``nohup``) stays ignored, as the shell meant.
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import signal
import sys
import threading

import psutil

from .errors import STOP_SIGNALS, Interrupted

__all__ = ["install", "finishing", "check", "report", "end", "GRACE_SECONDS", "SIGNALS"]

GRACE_SECONDS = 4.0  # after the first signal, the process is gone by then whatever it was doing
SIGNALS = tuple(STOP_SIGNALS)  # the signals that stop a command: listed in errors, once
_TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"  # a warnings filter

_state: dict = {"signum": None, "raised": False, "reported": False, "finishing": False}
_lock = threading.Lock()


def install() -> None:
    """Route :data:`SIGNALS` to :class:`Interrupted` and the watchdog (main thread only).

    The watchdog does not wait for the Python handler: that runs only when the main thread
    runs Python, and a kernel can keep it in compiled code for hours (``judge`` searches in
    this process).  The C-level handler writes each signal's number to a pipe at once
    (``signal.set_wakeup_fd``), and a thread reading it starts the watchdog's clock."""
    for signum in SIGNALS:
        if signum == signal.SIGINT and signal.getsignal(signum) is signal.SIG_IGN:
            continue
        signal.signal(signum, _handler)
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(read,), name="boardsweep-signals", daemon=True).start()
    atexit.register(_at_exit)  # registered first, so it runs after every library's own
    sys.unraisablehook = _unraisable(sys.unraisablehook)
    # multiprocessing's resource tracker (a process the local cluster starts, which inherits
    # this environment) frees what killed workers leaked, and would warn of it after the
    # stop's one line
    os.environ["PYTHONWARNINGS"] = ",".join(
        filter(None, (os.environ.get("PYTHONWARNINGS"), _TRACKER_QUIET))
    )


def _unraisable(previous):
    """Python's hook for an exception a callback could not raise, less the stop's own: when
    the signal's :class:`Interrupted` lands in a C library's callback (llvmlite's, while
    numba compiles), the callback drops it and Python would print its traceback; the signal
    is recorded, and :func:`check`, :func:`arrived` or the watchdog still honour it.  Once a
    signal has arrived, the finalizers of objects it interrupted mid-construction fail too
    (llvmlite's ``ObjectRef.__del__`` on a pass builder never finished): also dropped, since
    the stop's one line says what happened."""

    def hook(info) -> None:
        if isinstance(info.exc_value, Interrupted | KeyboardInterrupt):
            return
        if _state["signum"] is not None:
            return  # stopping: an object the signal left half-built fails in its finalizer
        previous(info)

    return hook


def arrived() -> Interrupted | None:
    """The stop that a signal asked for, if one arrived (whatever became of its exception)."""
    signum = _state["signum"]
    return None if signum is None else Interrupted(signum)


def finishing() -> None:
    """The command is done: a signal from now on (while Dask's exit hooks run) is not raised
    into them, but still ends the process with its own status and line (:func:`_at_exit`)."""
    _state["finishing"] = True
    # One collection now runs the finalizers of objects in reference cycles (dask-jobqueue
    # deletes its copies of a run's TLS keys when its job objects are collected); then every
    # object left, freed at exit anyway, is moved out of the collector's sight, so that the
    # interpreter's last collections skip them (numba's, pandas' and pyarrow's many objects
    # made those collections a large share of a small command's time: benchmarks/first_run.py)
    gc.collect()
    gc.freeze()


def _first(signum: int) -> None:
    with _lock:
        if _state["signum"] is None:
            _state["signum"] = signum


def _handler(signum, frame) -> None:
    if _state["raised"]:
        return  # the first signal is being honoured; the watchdog bounds how long it takes
    _state["raised"] = True
    _first(signum)
    if not _state["finishing"]:
        raise Interrupted(_state["signum"])


def _watch(read: int) -> None:
    """Wait for the first of :data:`SIGNALS` on the wakeup pipe, then run the watchdog."""
    wanted = {int(s) for s in SIGNALS}
    while True:
        try:
            data = os.read(read, 64)
        except OSError:
            return
        if not data:
            return
        for signum in data:
            if signum in wanted:
                _first(signum)
                _watchdog()
                return


def _at_exit() -> None:
    """The last exit hook.  If a signal came while the other hooks ran, the process ends here
    with the signal's status and line.  Otherwise the signals are ignored for what is left of
    the teardown: Python puts the default handlers back in place of its own near its end, and
    a Ctrl-C then killed the finished process silently; ignored, the command's status stands
    (Python leaves an ignored signal ignored)."""
    if not _state["finishing"]:
        return  # not the command line's process (an import of this module, a test)
    if _state["signum"] is not None and not _state["reported"]:
        end(Interrupted(_state["signum"]))
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def check() -> None:
    """Raise :class:`Interrupted` if a signal arrived (its exception may have been swallowed)."""
    if _state["signum"] is not None:
        raise Interrupted(_state["signum"])


def _line(stop: Interrupted) -> str:
    store = sys.modules.get(f"{__package__}.store")  # imported only by commands that keep any
    kept = getattr(getattr(store, "Store", None), "committed", 0)
    if kept:
        return (
            f"{stop.word} ({stop}); {kept} task{'s' * (kept != 1)} of this run kept, "
            "rerun to resume"
        )
    return f"{stop.word} ({stop}); nothing of this run was kept"


def report(stop: Interrupted) -> None:
    """Print the one line of an interrupted command (once, whoever gets here first); no log
    line may follow it.  The watchdog prints it while the main thread may still be closing
    the cluster, whose scheduler then logs the workers the watchdog kills as errors."""
    with _lock:
        if _state["reported"]:
            return
        _state["reported"] = True
    logging.disable(logging.CRITICAL)
    os.write(2, f"boardsweep: error: {_line(stop)}\n".encode())


def _tracker(process: psutil.Process) -> bool:
    """Whether ``process`` is multiprocessing's resource tracker.  It is left alone: it exits by
    itself once every process holding its pipe is gone, after freeing what they leaked; killed,
    a worker still running starts another, which prints a traceback for each name it never
    tracked."""
    try:
        return any("resource_tracker" in part for part in process.cmdline())
    except psutil.Error:
        return False


def end(stop: Interrupted) -> None:
    """End the process now, with the stop's line and status: the output flushed, the children
    still here killed (local workers, their compilers), and no interpreter teardown.

    The command line calls it once a stopped command has unwound, and the watchdog when the
    unwinding takes too long.  Skipping the teardown (the last garbage collections, the
    libraries' exit hooks, the interpreter's finalization) is what keeps the status: a signal
    that lands inside a compile leaves llvmlite objects half-built for that teardown to
    finalize, and a cold run's SIGTERM once ended with SIGSEGV's status after its one line.
    Everything of the run is already safe by then: the store commits each result in a
    transaction and every published file is renamed into place whole."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    report(stop)
    try:
        children = [c for c in psutil.Process().children(recursive=True) if not _tracker(c)]
    except psutil.Error:
        children = []
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(children, timeout=1)
    os._exit(stop.exit_code)


def _watchdog() -> None:
    threading.Event().wait(GRACE_SECONDS)
    end(Interrupted(_state["signum"]))
