"""The error hierarchy: each class carries its exit status and prints as one line."""

from __future__ import annotations

import signal

__all__ = ["BoardsweepError", "InputError", "ClusterError", "JobError", "Interrupted"]


class BoardsweepError(Exception):
    """Base of every error the command line reports as one line; ``exit_code`` is its status."""

    exit_code = 2


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
    """A job could not finish (a task kept failing); finished results are kept."""

    exit_code = 1


class Interrupted(BaseException):
    """SIGINT or SIGTERM reached the driver: unwind (closing the cluster, committing what came
    back) and exit 130 or 143.  A BaseException, so no ``except Exception`` swallows it."""

    def __init__(self, signum: int):
        self.signum = signum
        self.exit_code = 128 + signum
        super().__init__(signal.Signals(signum).name)

    @property
    def word(self) -> str:
        """``interrupted`` (SIGINT), ``hung up`` (SIGHUP), ``quit`` (SIGQUIT) or
        ``terminated`` (SIGTERM)."""
        return {signal.SIGINT: "interrupted", signal.SIGHUP: "hung up", signal.SIGQUIT: "quit"}.get(
            self.signum, "terminated"
        )
