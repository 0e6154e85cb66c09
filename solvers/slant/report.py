"""The Slant report: verdicts, solve times and search nodes per puzzle size.

One table (per size: puzzles by status, time percentiles, median nodes) and three figures,
sizes ordered by cells: solve time (median and 99th percentile, log scale), the share of each
status (stacked bars) and search nodes (median and 99th percentile, log scale).  pandas and
matplotlib are imported when a report is made, never by a worker that solves; sizes follow
the number of puzzle sizes under the caps of :mod:`solvers.figures`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pyarrow as pa

from ..contract import Report
from ..figures import new_figure, plain_log_ticks, scaled

__all__ = ["report", "slant_summary", "plot_times", "plot_status", "plot_nodes", "STATUSES"]

__presentation__ = True  # presents results, decides none (solvers.identity)

_COLUMNS = ["rows", "cols", "status", "nodes", "seconds"]
STATUSES = ("unique", "multiple", "none")
_STATUS_COLOURS = {"unique": "tab:green", "multiple": "tab:orange", "none": "tab:red"}
_CELLS = "puzzle size (rows x cols cells, log scale)"


def _frame(table: pa.Table) -> Any:
    """The result columns as a frame with ``cells`` and ``ms`` added."""
    frame = table.select(_COLUMNS).to_pandas()
    frame["cells"] = frame["rows"].astype(float) * frame["cols"]
    frame["ms"] = frame["seconds"] * 1000
    return frame


def slant_summary(table: pa.Table) -> Any:
    """Per puzzle size: puzzles by status and solve-time percentiles (ms), median nodes."""
    frame = _frame(table)
    grouped = frame.groupby(["rows", "cols"])
    summary = grouped.size().rename("puzzles").to_frame()
    for status in STATUSES:
        summary[status] = grouped["status"].apply(lambda s, v=status: int((s == v).sum()))
    for q in (50, 90, 99):
        summary[f"p{q} ms"] = grouped["ms"].quantile(q / 100).round(3)
    summary["median nodes"] = grouped["nodes"].median()
    return summary.reset_index()


def _quantile_lines(ax: Any, frame: Any, column: str, floor: float) -> None:
    """The median and the 99th percentile of ``column`` against cells, log-log."""
    by_size = frame.groupby("cells")[column]
    for q, style, name in ((0.5, "o-", "median"), (0.99, "s--", "99th percentile")):
        values = by_size.quantile(q)
        ax.plot(values.index, values.clip(lower=floor), style, markersize=4, label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    plain_log_ticks(ax.xaxis)
    plain_log_ticks(ax.yaxis)
    ax.set_xlabel(_CELLS)
    ax.legend(fontsize="small")
    ax.grid(True, alpha=0.3, which="both")


def plot_times(table: pa.Table, title: str = "Slant solve time per puzzle") -> Any:
    """Median and 99th-percentile solve time against the puzzle's cells, log-log."""
    fig, ax = new_figure(7.0, 4.5)
    _quantile_lines(ax, _frame(table), "ms", 1e-4)
    ax.set_ylabel("solve time per puzzle (ms, log scale)")
    ax.set_title(title)
    return fig


def plot_nodes(table: pa.Table, title: str = "Slant search nodes per puzzle") -> Any:
    """Median and 99th-percentile search nodes against the puzzle's cells (1 = deduction
    alone), log-log."""
    fig, ax = new_figure(7.0, 4.5)
    _quantile_lines(ax, _frame(table), "nodes", 1.0)
    ax.set_ylabel("search nodes per puzzle (nodes, log scale)")
    ax.set_title(title)
    return fig


def plot_status(table: pa.Table, title: str = "Slant verdicts per puzzle size") -> Any:
    """The share of puzzles of each status per size, as stacked bars (sizes by cells; at
    most 30 labelled)."""
    frame = _frame(table)
    counts = (
        frame.groupby(["cells", "rows", "cols"])["status"]
        .value_counts()
        .unstack(fill_value=0)
        .reindex(columns=list(STATUSES), fill_value=0)
        .sort_index()
    )
    shares = 100.0 * counts.div(counts.sum(axis=1), axis=0)
    sizes = len(shares)
    fig, ax = new_figure(scaled(sizes, 0.3, 3.0, 6.0, 16.0), 4.5)
    bottom = [0.0] * sizes
    for status in STATUSES:
        values = shares[status].tolist()
        ax.bar(
            range(sizes),
            values,
            bottom=bottom,
            width=0.8,
            label=status,
            color=_STATUS_COLOURS[status],
        )
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    step = max(1, -(-sizes // 30))
    ax.set_xticks(
        range(0, sizes, step),
        labels=[f"{r}x{c}" for _, r, c in shares.index[::step]],
        rotation=90 if sizes > 12 else 0,
    )
    ax.set_xlabel("puzzle size (rows x cols cells)")
    ax.set_ylabel("share of puzzles (%)")
    ax.set_ylim(0, 100)
    ax.legend(title="status", fontsize="small", loc="lower right")
    ax.set_title(title)
    return fig


def report(
    job: str, tables: Mapping[str, Callable[..., pa.Table]], related: Mapping = ()
) -> Report:
    """The summary table and the time, status and nodes figures of a job's ``slant`` table
    (nothing for a file without one: generated puzzles alone)."""
    if "slant" not in tables:
        return Report()
    table = tables["slant"](columns=_COLUMNS)
    return Report(
        tables=[(f"{job}: Slant verdicts and solve times per puzzle size", slant_summary(table))],
        figures=[
            ("slant_times", plot_times(table, f"{job}: Slant solve time per puzzle")),
            ("slant_status", plot_status(table, f"{job}: Slant verdicts per puzzle size")),
            ("slant_nodes", plot_nodes(table, f"{job}: Slant search nodes per puzzle")),
        ],
    )
