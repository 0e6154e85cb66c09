"""The walled-board report: statistics per board group and their figures.

A job's tables decide what is shown (:mod:`.report_data` folds each into a ``summary``, as a
``keep: summary`` job stores it, :mod:`.report_figures` draws it):

- ``maxima`` (a row per board) or ``summary`` (a histogram per group; used when both exist):
  per (rows, cols, density) the boards, the mean maximum with its 95% confidence interval,
  quantiles, and the boards by count status; the figure of E[max rooks]/cells against density with
  confidence bands, and, when placements were counted, their distributions;
- ``distribution`` (every wall pattern of a size): E[max] at a few densities, exactly at
  p = 1/2, and the figure of the exact curves.

Exact curves are drawn over the Monte Carlo figure for every size that has a distribution in
this job or in a *related* job (another job of this problem in the same results folder, which
``boardsweep report`` passes as ``related``).  pandas and matplotlib are imported when a report
is made, never by a worker that solves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from ..contract import Report
from .report_data import (
    GIVEN,
    MAXIMA_COLUMNS,
    STATUS,
    distributions,
    exact_rows,
    group_statistics,
    histogram_frame,
    summary_of_maxima,
    transposed_key,
)
from .report_figures import exact_figure, expected_max_figure, placements_figure

__all__ = ["report", "statistics_table", "exact_distributions", "EXACT_DENSITIES"]

__presentation__ = True  # presents results, decides none (solvers.identity)

Loaders = Mapping[str, Callable[..., pa.Table]]
EXACT_DENSITIES = (0.1, 0.2, 0.3, 0.5, 0.7, 0.9)


def statistics_table(stats: Any) -> Any:
    """The printed form of :func:`.report_data.group_statistics`: density ``given`` for
    boards not generated, floats rounded to 4 decimals."""
    shown = stats.copy()
    shown["density"] = [("given" if d == GIVEN else f"{d:g}") for d in shown["density"]]
    names = {
        "mean": "mean max rooks",
        "ci95": "95% CI +-",
        "sd": "sd",
        "per_cell": "per cell",
        "per_cell_ci95": "per cell 95% CI +-",
    }
    for column in names:
        shown[column] = shown[column].astype(float).round(4)
    order = [
        "rows",
        "cols",
        "density",
        "boards",
        *names,
        "p05",
        "median",
        "p95",
        "max",
        *[s for s in STATUS if s in shown],
    ]
    return shown[order].rename(columns=names)


def exact_distributions(
    tables: Loaders, related: Mapping[str, Loaders] | None = None
) -> tuple[dict, dict]:
    """This job's exhaustive distributions by (rows, cols), and every distribution of this
    job and the related ones keyed by size up to transposition (this job's win)."""
    own = distributions(tables["distribution"]()) if "distribution" in tables else {}
    exact: dict[tuple[int, int], np.ndarray] = {}
    for name in sorted(related or {}):
        other = related[name]
        if "distribution" in other:
            for (r, c), boards in distributions(other["distribution"]()).items():
                exact[transposed_key(r, c)] = boards
    for (r, c), boards in own.items():
        exact[transposed_key(r, c)] = boards
    return own, exact


def report(job: str, tables: Loaders, related: Mapping[str, Loaders] | None = None) -> Report:
    """The job's group statistics and figures (see the module docstring); ``related``: the
    tables of the other jobs of this problem, ``{job: {table: load(columns=None)}}``."""
    own, exact = exact_distributions(tables, related)
    out = Report()
    if "summary" in tables:
        summary = tables["summary"]()
    elif "maxima" in tables:
        summary = summary_of_maxima(tables["maxima"](columns=MAXIMA_COLUMNS))
    else:
        summary = None
    if summary is not None and summary.num_rows:
        stats = group_statistics(summary)
        out.tables.append(
            (
                f"{job}: max rooks per board size and wall density (mean with "
                "its 95% confidence interval)",
                statistics_table(stats),
            )
        )
        out.figures.append(
            (
                "expected_max",
                expected_max_figure(
                    stats, exact, f"{job}: E[max rooks] per cell against wall density"
                ),
            )
        )
        spread = placements_figure(
            histogram_frame(summary), f"{job}: placement counts of the counted boards"
        )
        if spread is not None:
            out.figures.append(("placements", spread))
    if own:
        out.tables.append(
            (
                f"{job}: exact E[max rooks] over every wall pattern, walls placed "
                "independently with probability p",
                exact_rows(own, EXACT_DENSITIES),
            )
        )
        out.figures.append(
            (
                "exact",
                exact_figure(
                    own, f"{job}: exact distribution of the maximum over every wall pattern"
                ),
            )
        )
    return out
