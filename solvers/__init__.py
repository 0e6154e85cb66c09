"""Search kernels, one package per problem, and the contract the pipeline reaches them through.

:mod:`solvers.contract` is the seam (the Problem types), :mod:`solvers.schema` the one validator
vocabulary, :mod:`solvers.registry` the list of problems and :mod:`solvers.identity` the code
identity.  Nothing here uses Dask, files or printing.

Importing the package points numba's cache at a folder named after a hash of every problem's
sources, before any kernel module is imported (see :mod:`solvers.identity`).
"""

from __future__ import annotations

from .identity import use_numba_cache as _use_numba_cache
from .registry import module_names as _module_names

_use_numba_cache(_module_names())

from .registry import get, names, problems  # noqa: E402 - after the cache is set

__all__ = ["get", "names", "problems"]
