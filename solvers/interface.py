"""The seam between ``solvers/`` (search kernels) and ``pipeline/`` (everything around them).

Every problem is one module in ``solvers/`` registered in ``solvers/__init__.py``.  The
pipeline only ever calls the functions named here; it never knows how a problem searches.

Count problems (``KIND = "count"``), e.g. N-queens, module-level functions:

- ``points(spec) -> list[dict]``: expand a job's problem keys (``{"n": "4..16"}``) into parameter
  points (``[{"n": 4}, ..., {"n": 16}]``).  Raises :class:`ParamError` on a bad key or value.
- ``outputs(params) -> list[dict]``: the result rows one point produces, each a dict with the keys
  ``n``, ``queens``, ``rooks`` (a sweep may produce several rows from one search).
- ``max_depth(params) -> int``: the deepest split :func:`prefixes` accepts for this point.
- ``prefixes(params, depth) -> Prefixes``: the valid partial placements of the first ``depth`` rows
  with their symmetry weight.
- ``count(params, prefixes) -> CountResult``: completions below each prefix, one column per
  output row.  For every point and depth::

      sum(weight[i] * counts[i, j] for i) == exact answer for output row j

Optional for count problems: ``cost(params) -> float`` (estimated seconds on one core, which the
planner uses to size tasks; 1.0 if absent) and ``warm_up()`` (run the smallest case so a worker
loads its compiled kernels before the first real task).

Instance problems (``KIND = "instances"``), e.g. walled boards:

- ``solve_batch(batch, **options) -> dict[str, np.ndarray]``: ``batch`` maps column names to
  numpy arrays (one entry per instance; variable-size cells as a flat cells array plus
  ``offsets`` of length k+1, as in Arrow's list layout); returns result columns, one entry per
  instance, in the same order.  A result pair ``X_offsets`` + ``X`` is one variable-size value
  per instance (Arrow list layout).
- ``generate(**kwargs) -> batch`` and ``generate_points(spec) -> list[dict]``: random instances,
  reproducible from (seed, index); ``generate_points`` expands a job's ``generate:`` mapping into
  ``generate`` keyword sets with disjoint index ranges (``start``, ``count``).
- ``check_options(spec) -> dict``: validate the job's own option keys (everything but
  ``INPUT_KEY``) and return the keyword options for ``solve_batch``.
- ``instance_cost(rows, cols, options) -> np.ndarray``: estimated seconds per instance.
- Constants describing the instance set's table: ``INPUT_KEY`` (the job key naming the set,
  e.g. ``boards``), ``ID_COLUMN``, ``CELLS_COLUMN`` (the batch array of per-cell or per-point
  codes), ``CELL_CHARS`` and ``CELL_BASE`` (code ``c`` is written as ``CELL_CHARS[c - CELL_BASE]``
  in the Parquet string column), ``GENERATE_COLUMNS`` (generator parameters kept as columns),
  ``RESULT_TABLE`` (the merged table's name), ``RESULT_COLUMNS`` (the result table's columns
  after id, rows, cols: ``(name, kind)`` pairs, kind one of ``int32``, ``int64``, ``count``
  (exact, decimal128), ``list<int32>`` (from ``X_offsets`` + ``X``), ``text:CHARS`` (the same
  layout, code ``c`` written as ``CHARS[c]``) or ``enum:A,B,C`` (code ``c`` written as the c-th
  name); a column the solver did not return is null).

Kernels are pure: no Dask, no files, no printing.  Counts are exact: ``uint64`` arrays where the
kernel proves they fit, numpy ``object`` arrays of Python ints otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["ParamError", "Prefixes", "CountResult", "int_values", "check_keys"]


class ParamError(ValueError):
    """A problem parameter is missing, unknown or out of range (the message says which)."""


@dataclass(frozen=True)
class Prefixes:
    """Partial placements of the first ``depth`` rows: ``choices[i, r]`` is row r's choice."""

    choices: np.ndarray  # int16 [k, depth]
    weight: np.ndarray  # int64 [k], symmetry multiplicity of each prefix

    def __len__(self) -> int:
        return int(self.weight.shape[0])

    def take(self, index: np.ndarray | slice) -> Prefixes:
        """Return the prefixes selected by ``index`` (a slice or an index array)."""
        return Prefixes(self.choices[index], self.weight[index])


@dataclass(frozen=True)
class CountResult:
    """Per-prefix completion counts (``counts[i, j]``, exact) and search nodes (``nodes[i]``)."""

    counts: np.ndarray  # [k, m] uint64 or object (Python ints)
    nodes: np.ndarray  # int64 [k]


def int_values(spec: Mapping, key: str, lo: int, hi: int) -> list[int]:
    """Parse ``spec[key]``: an int, a ``"lo..hi"`` string or a list of ints, within bounds."""
    if key not in spec:
        raise ParamError(f"missing key '{key}'")
    raw = spec[key]
    values: list[int]
    if isinstance(raw, bool):
        raise ParamError(f"'{key}' must be an integer, a \"lo..hi\" range or a list, not {raw!r}")
    if isinstance(raw, int):
        values = [raw]
    elif isinstance(raw, str):
        parts = raw.split("..")
        try:
            if len(parts) != 2:
                raise ValueError
            a, b = int(parts[0]), int(parts[1])
        except ValueError:
            raise ParamError(
                f"'{key}' must look like \"lo..hi\" with integers, not {raw!r}"
            ) from None
        if a > b:
            raise ParamError(f"'{key}' range {raw!r} is empty (lo > hi)")
        values = list(range(a, b + 1))
    elif isinstance(raw, list) and raw and all(
        isinstance(v, int) and not isinstance(v, bool) for v in raw
    ):
        values = list(raw)
    else:
        raise ParamError(f"'{key}' must be an integer, a \"lo..hi\" range or a list, not {raw!r}")
    for v in values:
        if not lo <= v <= hi:
            raise ParamError(f"'{key}' = {v} is out of range: expected {lo} <= {key} <= {hi}")
    return values


def check_keys(spec: Mapping, allowed: set[str], required: tuple[str, ...] = ()) -> None:
    """Raise :class:`ParamError` naming the first key of ``spec`` not in ``allowed``, or the
    first of ``required`` that ``spec`` lacks."""
    for key in spec:
        if key not in allowed:
            raise ParamError(
                f"unknown key '{key}': expected one of {', '.join(sorted(allowed))}"
            )
    for key in required:
        if key not in spec:
            raise ParamError(f"missing key '{key}'")
