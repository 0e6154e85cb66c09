"""Progress on stderr: a live bar on a terminal, plain periodic lines in a log file."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress", "log"]


def log(message: str, stream: TextIO | None = None) -> None:
    """Write one log line to stderr (data goes to stdout, everything else here)."""
    print(f"boardsweep: {message}", file=stream or sys.stderr, flush=True)


class Progress:
    """Count finished tasks of ``total`` and show it: ``\\r`` bar on a tty, else a line every
    ``interval`` seconds (so a Slurm log shows how far a job got)."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None,
                 interval: float = 10.0):
        self.label, self.total, self.done, self.failed = label, total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = interval
        self.start = self._last = time.monotonic()
        self._logged = -1

    def _line(self) -> str:
        elapsed = time.monotonic() - self.start
        pct = 100.0 * self.done / self.total if self.total else 100.0
        failed = f", {self.failed} failed" if self.failed else ""
        return f"{self.label}: {self.done}/{self.total} tasks ({pct:.0f}%{failed}) {elapsed:.1f}s"

    def advance(self, ok: bool = True) -> None:
        """Record one finished task (``ok=False`` for a failed one) and show it if due."""
        self.done += 1
        self.failed += 0 if ok else 1
        now = time.monotonic()
        if self.tty:
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            bar = "#" * filled + "-" * (width - filled)
            self.stream.write(f"\r[{bar}] {self._line()}")
            self.stream.flush()
        elif now - self._last >= self.interval:
            log(self._line(), self.stream)
            self._last, self._logged = now, self.done

    def close(self) -> None:
        """Show the final state."""
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
        elif self._logged != self.done:  # not already the last line written
            log(self._line(), self.stream)
