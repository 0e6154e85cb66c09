"""The ``boardsweep`` console script's entry point: signals are routed before anything else
is imported, so Ctrl-C during the imports is one line too (see :mod:`.stopping`)."""

from __future__ import annotations


def main() -> None:
    """Route the signals, then run the command line."""
    from . import stopping
    from .errors import Interrupted

    stopping.install()
    try:
        from .cli import cli
    except Interrupted as stop:
        stopping.end(stop)
    try:
        cli(prog_name="boardsweep")
    finally:
        stop = stopping.arrived()
        if stop is not None:  # a stopped command has unwound: its line, its status, no teardown
            stopping.end(stop)
        stopping.finishing()
