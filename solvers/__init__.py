"""Search kernels, one module per problem, and the registry the pipeline looks them up in."""

from __future__ import annotations

import importlib
from types import ModuleType

from .interface import ParamError

__all__ = ["PROBLEMS", "get", "ParamError"]

# problem name -> module under solvers/ (imported lazily: numba costs ~0.3 s to import)
PROBLEMS: dict[str, str] = {
    "nqueens": "solvers.nqueens",
    "queens_rooks": "solvers.queens_rooks",
    "max_rooks": "solvers.max_rooks",
}


def get(name: str) -> ModuleType:
    """Return the solver module registered as ``name``; :class:`ParamError` if there is none."""
    if name not in PROBLEMS:
        raise ParamError(f"unknown problem '{name}': expected one of {', '.join(sorted(PROBLEMS))}")
    return importlib.import_module(PROBLEMS[name])
