"""The error hierarchy: each class carries its exit status and prints as one line.

:data:`EXIT_CODES` is the one table of the command line's exit statuses: every class here (and
every subclass elsewhere) takes its ``exit_code`` from it, :class:`Interrupted` uses 128 plus
the number of one of :data:`STOP_SIGNALS`, and the manual's exit-code page is rendered from it.
"""

from __future__ import annotations

import signal
from typing import NamedTuple

__all__ = [
    "BoardsweepError",
    "InputError",
    "ClusterError",
    "JobError",
    "Interrupted",
    "ExitStatus",
    "EXIT_CODES",
    "DONE",
    "FAILED",
    "BAD_INPUT",
    "STOP_SIGNALS",
    "exit_status_text",
]


class ExitStatus(NamedTuple):
    """One exit status: the few words ``--help`` shows and the manual's sentence."""

    words: str
    meaning: str


#: The command did what it was asked.
DONE = 0
#: A job failed, or what was checked was found wrong (``JobError`` and others).
FAILED = 1
#: Bad input (``InputError``), or a cluster that could not be used (``ClusterError``).
BAD_INPUT = 2

#: The signals that stop a command (routed by ``boardsweep.pipeline.stopping``): the word
#: its one line starts with, and how the signal usually comes.
STOP_SIGNALS: dict[signal.Signals, tuple[str, str]] = {
    signal.SIGHUP: ("hung up", "its terminal closed"),
    signal.SIGINT: ("interrupted", "Ctrl-C"),
    signal.SIGQUIT: ("quit", "Ctrl-\\"),
    signal.SIGTERM: ("terminated", "kill, or a batch system ending the job"),
}

#: Every exit status of the ``boardsweep`` command line, by code.
EXIT_CODES: dict[int, ExitStatus] = {
    DONE: ExitStatus("done", "The command did what it was asked."),
    FAILED: ExitStatus(
        "a job failed",
        "A job could not finish, or what was checked was found wrong; the error's line says which.",
    ),
    BAD_INPUT: ExitStatus(
        "bad input",
        "Bad input: a config, file, option or value the command cannot use (its one line names "
        "the file, line and key where there is one). Also a cluster that could not be reached "
        "or started or that lost too many workers, and click's own usage errors (an unknown "
        "command or option).",
    ),
    **{
        128 + signum: ExitStatus(
            f"{word} ({signal.Signals(signum).name})",
            f"{signal.Signals(signum).name} ({how}) stopped the command: it unwound (closing "
            f"the cluster where it had one) and printed one line; the status is 128 + "
            f"{int(signum)}.",
        )
        for signum, (word, how) in STOP_SIGNALS.items()
    },
}


def exit_status_text() -> str:
    """The exit statuses in one sentence, for ``--help``: ``Exit status: 0 done; ...``."""
    return "Exit status: " + "; ".join(f"{c} {s.words}" for c, s in EXIT_CODES.items()) + "."


class BoardsweepError(Exception):
    """Base of every error the command line reports as one line; ``exit_code`` is its status."""

    exit_code = BAD_INPUT


class InputError(BoardsweepError):
    """Bad input (file, config, command-line value): names the file and line where there is one."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message, self.path, self.line = message, path, line
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{where}{message}")


class ClusterError(BoardsweepError):
    """The Dask cluster could not be reached, started, or lost too many workers."""


class JobError(BoardsweepError):
    """A job could not finish (a task kept failing)."""

    exit_code = FAILED


class Interrupted(BaseException):
    """One of :data:`STOP_SIGNALS` reached the driver: unwind (closing the cluster, committing
    what came back) and exit 128 + its number (130 for SIGINT, 143 for SIGTERM).  A
    BaseException, so no ``except Exception`` swallows it."""

    def __init__(self, signum: int):
        self.signum = signum
        self.exit_code = 128 + signum
        super().__init__(signal.Signals(signum).name)

    @property
    def word(self) -> str:
        """``interrupted`` (SIGINT), ``hung up`` (SIGHUP), ``quit`` (SIGQUIT) or
        ``terminated`` (SIGTERM)."""
        return STOP_SIGNALS.get(self.signum, STOP_SIGNALS[signal.SIGTERM])[0]
