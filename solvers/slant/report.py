"""The Slant report: verdicts and solve times per puzzle size, as a table and a figure.

pandas and matplotlib are imported when a report is made, never by a worker that solves;
the figure is a :class:`matplotlib.figure.Figure` (no pyplot state).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pyarrow as pa

from ..contract import Report

__all__ = ["report", "slant_summary", "plot_times"]

_COLUMNS = ["rows", "cols", "status", "nodes", "seconds"]


def slant_summary(table: pa.Table) -> Any:
    """Per puzzle size: puzzles by status and solve-time percentiles (ms), median nodes."""
    frame = table.select(_COLUMNS).to_pandas()
    frame["ms"] = frame["seconds"] * 1000
    grouped = frame.groupby(["rows", "cols"])
    summary = grouped.size().rename("puzzles").to_frame()
    for status in ("unique", "multiple", "none"):
        summary[status] = grouped["status"].apply(lambda s, v=status: int((s == v).sum()))
    for q in (50, 90, 99):
        summary[f"p{q} ms"] = grouped["ms"].quantile(q / 100).round(3)
    summary["median nodes"] = grouped["nodes"].median()
    return summary.reset_index()


def plot_times(table: pa.Table, title: str = "Slant solve time per puzzle") -> Any:
    """Median and 90th-percentile solve time against the puzzle's cells, log-log."""
    from matplotlib.figure import Figure

    frame = table.select(["rows", "cols", "seconds"]).to_pandas()
    frame["cells"] = frame["rows"].astype(float) * frame["cols"]
    frame["ms"] = frame["seconds"] * 1000
    by_size = frame.groupby("cells")["ms"]
    fig = Figure(figsize=(7.0, 4.5))
    ax = fig.subplots()
    for q, style in ((0.5, "o-"), (0.9, "s--")):
        times = by_size.quantile(q)
        ax.plot(times.index, times.clip(lower=1e-4), style, markersize=4,
                label=f"{int(q * 100)}th percentile")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("puzzle cells (rows x cols, log scale)")
    ax.set_ylabel("solve time per puzzle (ms, log scale)")
    ax.set_title(title)
    ax.legend(fontsize="small")
    ax.grid(True, alpha=0.3, which="both")
    fig.tight_layout()
    return fig


def report(job: str, tables: Mapping[str, Callable[..., pa.Table]]) -> Report:
    """The summary table and the solve-time figure of a job's ``slant`` table."""
    table = tables["slant"](columns=_COLUMNS)
    return Report(
        tables=[(f"{job}: Slant verdicts and solve times per puzzle size",
                 slant_summary(table))],
        figures=[("slant_times", plot_times(table, f"{job}: Slant solve time per puzzle"))])
