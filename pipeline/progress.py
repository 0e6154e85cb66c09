"""Logging and progress on stderr: a live bar on a terminal, timestamped lines in a log.

Everything boardsweep says goes through the ``boardsweep`` logger (:func:`log`); Dask's own
loggers share its handler and format, so a log file reads as one stream.  On a terminal the
lines are ``boardsweep: message``; elsewhere (a Slurm log, a pipe) each line carries its time.
Progress is measured in estimated CPU seconds, not tasks, so "40%" means 40% of the work, and
the ETA follows from the rate at which estimated work gets done.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

__all__ = [
    "Progress",
    "Status",
    "log",
    "warn",
    "ticking",
    "setup_logging",
    "adopt_dask_logging",
    "quiet_dask",
    "worker_logging",
    "LOGGER",
    "TICK_SECONDS",
]

LOGGER = logging.getLogger("boardsweep")


def log(message: str) -> None:
    """One informational line on stderr (data goes to stdout, everything else here)."""
    LOGGER.info(message)


def warn(message: str) -> None:
    """One warning line on stderr."""
    LOGGER.warning(message)


TICK_SECONDS = 10.0  # a phase without progress of its own says it is alive this often


REDRAW_SECONDS = 0.5  # a status line on a terminal is redrawn this often


def _tty(stream: TextIO) -> bool:
    return getattr(stream, "isatty", lambda: False)() and LOGGER.isEnabledFor(logging.INFO)


class Status:
    """A phase's changing state in one line: redrawn in place on a terminal (with a bar when
    the share done is known), else logged every ``interval`` seconds (the first time after
    ``first``).  The caller asks :meth:`wait` how long to sleep and :meth:`due` whether to
    :meth:`show` now."""

    def __init__(
        self,
        stream: TextIO | None = None,
        interval: float = TICK_SECONDS,
        first: float | None = None,
    ):
        self.stream = stream or sys.stderr
        self.tty = _tty(self.stream)
        self.interval = interval
        self._next = time.monotonic() + (interval if first is None else first)
        self._drawn = False

    def wait(self) -> float:
        """Seconds until the line is due again."""
        if self.tty:
            return REDRAW_SECONDS
        return max(0.05, self._next - time.monotonic())

    def due(self) -> bool:
        """Whether :meth:`show` would print now."""
        return self.tty or time.monotonic() >= self._next - 0.01

    def show(self, text: str, share: float | None = None) -> None:
        """Redraw ``text`` (a bar first when ``share`` is known) on a terminal; else log it
        when due."""
        if self.tty:
            bar = ""
            if share is not None:
                filled = int(30 * min(1.0, max(0.0, share)))
                bar = f"[{'#' * filled}{'-' * (30 - filled)}] "
            self.stream.write(f"\r{bar}{text}\033[K")
            self.stream.flush()
            self._drawn = True
        elif self.due():
            log(text)
            self._next = time.monotonic() + self.interval

    def later(self) -> None:
        """Nothing to say now: due again after the interval."""
        self._next = time.monotonic() + self.interval

    def close(self) -> None:
        """End a line drawn on a terminal."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


@contextmanager
def ticking(
    line: Callable[[float], str | None], every: float = TICK_SECONDS, stream: TextIO | None = None
) -> Iterator[None]:
    """While the block runs, say ``line(seconds so far)`` (nothing when it is None): logged
    every ``every`` seconds, or redrawn on a terminal after the first ``every`` (a phase
    with no progress of its own, such as a first run's compile, is never silent for long)."""
    done = threading.Event()
    start = time.monotonic()
    status = Status(stream, every)

    def tick() -> None:
        while not done.wait(status.wait()):
            if status.due() and (not status.tty or time.monotonic() - start >= every):
                text = line(time.monotonic() - start)
                if text is not None:
                    status.show(text)
                else:
                    status.later()

    thread = threading.Thread(target=tick, name="boardsweep-tick", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(1.0)
        status.close()


STAMPED = "%(asctime)s %(name)s %(levelname)s: %(message)s"
PLAIN = "%(name)s: %(message)s"
DATE = "%Y-%m-%dT%H:%M:%S"
_chosen = {"stamped": True, "log_file": None}  # what setup_logging chose, for worker processes


class _Format(logging.Formatter):
    def __init__(self, stamped: bool):
        super().__init__(STAMPED if stamped else PLAIN, DATE)
        self.stamped = stamped

    def format(self, record: logging.LogRecord) -> str:
        if (
            not self.stamped
            and record.levelno >= logging.WARNING
            and record.name == "boardsweep"
            and not record.getMessage().startswith(("warning", "error"))
        ):
            record.msg = f"{record.levelname.lower()}: {record.msg}"
        return super().format(record)


class _LogFile(logging.FileHandler):
    """``--log-file``: a file that cannot be written to (a full disk, ``/dev/full``) sends
    the log to stderr from then on, after one line saying so, instead of a traceback per
    line (logging's own handling of a failed write)."""

    def __init__(self, path: str, fallback: TextIO):
        super().__init__(path)
        self.fallback = fallback

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        why = getattr(error, "strerror", None) or str(error)
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()
        self.stream = self.fallback
        self.fallback.write(
            f"boardsweep: warning: --log-file {self.baseFilename}: cannot "
            f"write ({why}); the log goes to stderr from here\n"
        )
        with contextlib.suppress(Exception):
            self.fallback.write(self.format(record) + "\n")


def setup_logging(
    verbosity: int = 0, log_file: str | None = None, stream: TextIO | None = None
) -> None:
    """One handler for boardsweep's lines and Dask's: stderr (or ``log_file``), timestamps
    unless it is a terminal; ``verbosity`` -1 (quiet: warnings), 0 (info) or 1 (debug)."""
    stream = stream or sys.stderr
    stamped = bool(log_file) or not getattr(stream, "isatty", lambda: False)()
    level = {-1: logging.WARNING, 0: logging.INFO}.get(verbosity, logging.DEBUG)
    _chosen.update(stamped=stamped, log_file=log_file)
    for name in ("boardsweep", "distributed", "dask_jobqueue"):
        # a handler each: Dask's LocalCluster quietens the handlers of "distributed" only
        handler: logging.Handler = (
            _LogFile(log_file, stream) if log_file else logging.StreamHandler(stream)
        )
        handler.setFormatter(_Format(stamped))
        handler._boardsweep = True  # type: ignore[attr-defined]
        logger = logging.getLogger(name)
        for old in list(logger.handlers):  # ours from before, and Dask's own stream handler
            if getattr(old, "_boardsweep", False) or type(old) is logging.StreamHandler:
                logger.removeHandler(old)
        logger.addHandler(handler)
        logger.propagate = False
        if name == "boardsweep":
            logger.setLevel(level)
        else:
            logger.setLevel(logging.DEBUG if verbosity >= 1 else logging.WARNING)


class LocalSchedulerGone(logging.Filter):
    """Drops a local worker's "failed to communicate with scheduler during heartbeat": its
    scheduler lives in the driver, so the scheduler is only ever gone because the driver is
    closing the cluster (after Ctrl-C, say), where a heartbeat already in flight loses the
    race and Dask logs it as an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that one record, True for every other."""
        return not (
            record.name == "distributed.worker"
            and str(record.msg).startswith("Failed to communicate with scheduler")
        )


def worker_logging() -> dict:
    """Dask's ``logging`` config (``logging.config.dictConfig`` form) that makes the local
    cluster's worker processes write their lines as this process does: same format, same
    place (stderr, or the log file, appended to)."""
    if _chosen["log_file"]:
        handler = {"class": "logging.FileHandler", "filename": _chosen["log_file"], "mode": "a"}
    else:
        handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "boardsweep": {"format": STAMPED if _chosen["stamped"] else PLAIN, "datefmt": DATE}
        },
        "filters": {"scheduler_gone": {"()": "boardsweep.pipeline.progress.LocalSchedulerGone"}},
        "handlers": {
            "boardsweep": {**handler, "formatter": "boardsweep", "filters": ["scheduler_gone"]}
        },
        "loggers": {
            "distributed": {"level": "INFO", "handlers": ["boardsweep"], "propagate": False},
            "distributed.client": {"level": "WARNING"},
            "distributed.gc": {"level": "WARNING"},
            "bokeh": {"level": "ERROR"},
            "tornado": {"level": "CRITICAL"},
            "tornado.application": {"level": "ERROR"},
        },
    }


def adopt_dask_logging() -> None:
    """Once Dask is imported (it adds a handler of its own): keep only ours on its loggers, so
    each of its lines is printed once, in our format."""
    for name in ("distributed", "dask_jobqueue"):
        logger = logging.getLogger(name)
        if any(getattr(h, "_boardsweep", False) for h in logger.handlers):
            for old in list(logger.handlers):
                if not getattr(old, "_boardsweep", False):
                    logger.removeHandler(old)


def quiet_dask() -> None:
    """Silence Dask's loggers for good: a run that is stopping (interrupted, or closing its
    cluster) prints no stray errors about connections closed under it."""
    for name in ("distributed", "dask_jobqueue", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _clock(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{seconds:.0f}s"
    if seconds < 3600:
        return f"{seconds // 60:.0f}m{seconds % 60:02.0f}s"
    return f"{seconds // 3600:.0f}h{seconds % 3600 // 60:02.0f}m"


class Progress:
    """Estimated work done of ``total`` CPU seconds (``tasks`` tasks), shown with an ETA:
    ``\\r`` bar on a terminal, else a line every ``interval`` seconds."""

    def __init__(
        self,
        label: str,
        total: float,
        tasks: int,
        stream: TextIO | None = None,
        interval: float = 10.0,
    ):
        self.label, self.total, self.tasks = label, total, tasks
        self.done_seconds, self.done, self.failed = 0.0, 0, 0
        self.stream = stream or sys.stderr
        self.tty = getattr(self.stream, "isatty", lambda: False)() and LOGGER.isEnabledFor(
            logging.INFO
        )
        self.interval = interval
        self.start = self._last = time.monotonic()
        self._logged = -1

    def fraction(self) -> float:
        """Share of the estimated work done (tasks when nothing has a cost)."""
        if self.total > 0:
            return min(1.0, self.done_seconds / self.total)
        return self.done / self.tasks if self.tasks else 1.0

    def line(self) -> str:
        """The state in one line: share of estimated work, tasks, elapsed, ETA."""
        elapsed = time.monotonic() - self.start
        share = self.fraction()
        eta = f", ETA {_clock(elapsed * (1 - share) / share)}" if 0 < share < 1 else ""
        failed = f", {self.failed} failed" if self.failed else ""
        return (
            f"{self.label}: {100 * share:.0f}% of the estimated work, {self.done}/"
            f"{self.tasks} tasks{failed}, {_clock(elapsed)} elapsed{eta}"
        )

    def advance(self, seconds: float, ok: bool = True) -> None:
        """Record one finished task of estimated ``seconds`` and show it if due."""
        self.done += 1
        self.done_seconds += seconds
        self.failed += 0 if ok else 1
        now = time.monotonic()
        if self.tty:
            if now - self._last >= 0.1 or self.done == self.tasks:
                width = 30
                filled = int(width * self.fraction())
                self.stream.write(f"\r[{'#' * filled}{'-' * (width - filled)}] {self.line()}\033[K")
                self.stream.flush()
                self._last = now
        elif now - self._last >= self.interval:
            log(self.line())
            self._last, self._logged = now, self.done

    def close(self) -> None:
        """Show the final state (once)."""
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
        elif self._logged != self.done and time.monotonic() - self.start >= 1.0:
            log(self.line())
