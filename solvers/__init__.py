"""Search kernels, one module per problem, and the registry the pipeline looks them up in."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import NamedTuple

from .interface import ParamError

__all__ = ["PROBLEMS", "Entry", "get", "names", "ParamError"]


class Entry(NamedTuple):
    """Where a problem's solver module lives and its kind (``count`` or ``instances``)."""

    module: str
    kind: str


# problem name -> entry; modules are imported lazily (numba costs ~0.3 s to import)
PROBLEMS: dict[str, Entry] = {
    "nqueens": Entry("solvers.nqueens", "count"),
    "queens_rooks": Entry("solvers.queens_rooks", "count"),
    "max_rooks": Entry("solvers.max_rooks", "instances"),
    "slant": Entry("solvers.slant", "instances"),
}


def names(kind: str | None = None) -> list[str]:
    """The registered problem names, sorted, optionally only those of one kind."""
    return sorted(name for name, entry in PROBLEMS.items() if kind in (None, entry.kind))


def get(name: str) -> ModuleType:
    """Return the solver module registered as ``name``; :class:`ParamError` if there is none."""
    if name not in PROBLEMS:
        raise ParamError(f"unknown problem '{name}': expected one of {', '.join(names())}")
    return importlib.import_module(PROBLEMS[name].module)
