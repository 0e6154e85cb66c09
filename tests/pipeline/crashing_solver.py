"""A count problem for fault tests: N-queens whose tasks can kill the worker process running them.

``spec = {"n": [...], "crash": {"n": 12, "mode": "once" | "always", "marker": DIR}}``: tasks of
point ``n = 12`` end their process with ``os._exit`` — in mode ``once`` only the first of them
(it leaves a file in ``marker``), in mode ``always`` every time.  Everything else is N-queens.
:class:`Register` (a Dask worker plugin) registers the problem on every worker, also on those
that a nanny starts after a crash.
"""

from __future__ import annotations

import os
from pathlib import Path

from distributed.diagnostics.plugin import WorkerPlugin

import solvers
from solvers import nqueens
from solvers.interface import int_values

KIND = "count"
VERSION = "crashing-1"
NAME = "crashing_nqueens"
outputs, max_depth = nqueens.outputs, nqueens.max_depth
prefixes, cost = nqueens.prefixes, nqueens.cost


def register() -> None:
    """Make ``solvers.get(NAME)`` find this module in this process."""
    solvers.PROBLEMS[NAME] = solvers.Entry(__name__, "count")


class Register(WorkerPlugin):
    """Runs :func:`register` on each worker when it starts."""

    def setup(self, worker) -> None:  # noqa: D102 - Dask hook
        register()


def points(spec: dict) -> list[dict]:
    """N-queens points, each carrying the crash plan."""
    return [{"n": n, "crash": spec["crash"]} for n in int_values(spec, "n", 1, 20)]


def count(params: dict, prefixes):
    """N-queens' count, unless this task is one that must kill its process."""
    plan = params["crash"]
    if params["n"] == plan["n"]:
        if plan["mode"] == "always":
            os._exit(13)
        try:
            (Path(plan["marker"]) / "crashed").open("x").close()
        except FileExistsError:
            pass
        else:
            os._exit(13)
    return nqueens.count(params, prefixes)
