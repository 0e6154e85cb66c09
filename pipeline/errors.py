"""The error hierarchy: each class carries its exit status and prints as one line."""

from __future__ import annotations

__all__ = ["BoardsweepError", "InputError", "ClusterError", "JobError"]


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
    """A job could not finish (a task kept failing); finished fragments are kept."""

    exit_code = 1
