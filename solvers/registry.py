"""The registry: every problem the pipeline can run, looked up by name.

Built-in problems are the modules in :data:`BUILTIN`.  Problems from elsewhere register the way
a third-party package would:

- an installed package names its module in the entry-point group ``boardsweep.problems``
  (``[project.entry-points."boardsweep.problems"] rooks = "mypkg.rooks"``);
- the environment variable ``BOARDSWEEP_PROBLEMS`` names extra modules, separated by commas
  (local Dask workers and subprocesses inherit it, so a test can register a problem that way).

Each module exports ``PROBLEM``, a :class:`solvers.contract.Problem`.  Before any module is
imported, numba's cache is pointed at a folder named after the sources of all of them
(:func:`solvers.identity.use_numba_cache`), so no process ever loads a stale kernel.
"""

from __future__ import annotations

import importlib
import os
from functools import cache, lru_cache
from importlib.metadata import entry_points

from .contract import Problem
from .identity import use_numba_cache
from .schema import ParamError

__all__ = ["BUILTIN", "ENTRY_POINTS", "ENV", "module_names", "problems", "get", "names"]

BUILTIN = tuple(
    f"{__package__}.{name}" for name in ("nqueens", "queens_rooks", "max_rooks", "slant")
)
ENTRY_POINTS = "boardsweep.problems"
ENV = "BOARDSWEEP_PROBLEMS"


def module_names() -> tuple[str, ...]:
    """The modules that define problems: built-in, entry points, then ``$BOARDSWEEP_PROBLEMS``."""
    names = list(BUILTIN)
    names += [ep.value.split(":")[0] for ep in entry_points(group=ENTRY_POINTS)]
    names += [n.strip() for n in os.environ.get(ENV, "").split(",") if n.strip()]
    return tuple(dict.fromkeys(names))


@lru_cache(maxsize=1)
def _load(modules: tuple[str, ...]) -> dict[str, Problem]:
    use_numba_cache(modules)
    found: dict[str, Problem] = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except Exception as exc:
            raise ParamError(
                f"cannot import problem module {name!r}: {type(exc).__name__}: {exc}"
            ) from None
        problem = getattr(module, "PROBLEM", None)
        if not isinstance(problem, Problem):
            raise ParamError(
                f"module {name!r} defines no PROBLEM (a boardsweep.solvers.contract.Problem)"
            )
        if problem.name in found:
            raise ParamError(f"two modules define a problem named {problem.name!r}")
        found[problem.name] = problem
    return found


def problems() -> dict[str, Problem]:
    """Every registered problem by name (imports their modules on first use)."""
    return _load(module_names())


@cache
def _builtin(name: str) -> Problem | None:
    """The built-in problem ``name``, importing its module alone, when no other module is
    registered (so none can define ``name`` too, or fail to import); None otherwise."""
    modules = module_names()
    module = f"{__package__}.{name}"
    if modules != BUILTIN or module not in BUILTIN:
        return None
    use_numba_cache(modules)
    try:
        problem = getattr(importlib.import_module(module), "PROBLEM", None)
    except Exception:
        return None
    return problem if isinstance(problem, Problem) and problem.name == name else None


def get(name: str) -> Problem:
    """The problem called ``name``; :class:`ParamError` listing the known ones otherwise.
    A built-in problem is found without importing the others' modules (a one-problem
    command starts sooner)."""
    if isinstance(name, str) and not _load.cache_info().currsize:
        problem = _builtin(name)
        if problem is not None:
            return problem
    known = problems()
    if not isinstance(name, str) or name not in known:
        raise ParamError(f"unknown problem {name!r}: expected one of {', '.join(names())}")
    return known[name]


def names(capability: str | None = None) -> list[str]:
    """The registered problem names, sorted; only those with ``capability`` when given (a
    member named in :data:`solvers.contract.CAPABILITIES`)."""
    return sorted(n for n, p in problems().items() if capability is None or p.has(capability))
