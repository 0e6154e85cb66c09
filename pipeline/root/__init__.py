"""boardsweep: exhaustive board searches on a Dask cluster, results in Parquet.

The installed package is this one namespace: :mod:`boardsweep.solvers` (the search kernels and
the problem contract) and :mod:`boardsweep.pipeline` (everything around them: formats, plans,
clusters, the store, publication, the command line).  The Python API is here:
``boardsweep.count(PROBLEM, **arguments)``, ``solve(PROBLEM, instances)``, ``run(config)``,
``load(folder)`` and ``plan(config)`` (:mod:`boardsweep.pipeline.api`; the manual's Python
API page, docs/python-api.md, has examples).  Importing ``boardsweep`` itself costs nothing:
the API's modules are imported when one of its names is first used.
"""

from typing import TYPE_CHECKING

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)

__all__ = ["__version__", "count", "solve", "run", "load", "plan", "Results"]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from boardsweep.pipeline.api import Results, count, load, plan, run, solve


def __getattr__(name: str):
    """The API's names, imported on first use (``import boardsweep`` stays instant)."""
    if name in __all__ and name != "__version__":
        from boardsweep.pipeline import api

        return getattr(api, name)
    raise AttributeError(f"module 'boardsweep' has no attribute {name!r}")
