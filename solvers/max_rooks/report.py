"""The walled-board report: max_rooks per board size and density, as a table and a figure.

pandas and matplotlib are imported when a report is made, never by a worker that solves.
Figures are built with :class:`matplotlib.figure.Figure` (no pyplot state) and stay at most
:data:`MAX_WIDTH` inches wide whatever the number of groups.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pyarrow as pa

from ..contract import Report

__all__ = ["report", "maxima_summary", "plot_maxima", "MOST_BOXES", "MAX_WIDTH"]

MOST_BOXES = 24  # more (size, density) groups than this: lines against density, not boxes
MAX_WIDTH = 16.0  # inches (1600 pixels at the 100 dpi figures are saved at)
_MOST_LEGEND = 12  # more sizes than this: coloured by cell count, no legend
_COLUMNS = ["rows", "cols", "density", "max_rooks"]


def _frame(table: pa.Table) -> Any:
    frame = table.select(_COLUMNS).to_pandas()
    frame["density"] = frame["density"].fillna(-1.0)  # -1: boards given, not generated
    return frame


def _density(d: float) -> str:
    return "given" if d < 0 else f"{d:g}"


def maxima_summary(table: pa.Table) -> Any:
    """Per (rows, cols, density): boards, and the mean, min, max and quartiles of max_rooks."""
    frame = _frame(table)
    grouped = frame.groupby(["rows", "cols", "density"])["max_rooks"]
    summary = grouped.describe()[["count", "mean", "min", "25%", "50%", "75%", "max"]]
    summary = summary.rename(columns={"count": "boards"}).reset_index()
    summary["boards"] = summary["boards"].astype(int)
    summary["density"] = summary["density"].map(_density)
    return summary


def plot_maxima(table: pa.Table, title: str = "maximum rooks per cell") -> Any:
    """Max rooks per cell: a box per (size, density) group when there are at most
    :data:`MOST_BOXES` of them, else the mean against density, one line per board size."""
    from matplotlib.figure import Figure

    frame = _frame(table)
    frame["per_cell"] = frame["max_rooks"] / (frame["rows"].astype(float) * frame["cols"])
    groups = list(frame.groupby(["rows", "cols", "density"]))
    if len(groups) <= MOST_BOXES:
        fig = Figure(figsize=(min(max(6.0, 0.6 * len(groups)), MAX_WIDTH), 4.5))
        ax = fig.subplots()
        ax.boxplot([part["per_cell"] for _, part in groups],
                   tick_labels=[f"{r}x{c}\n{_density(d)}" for (r, c, d), _ in groups])
        ax.set_xlabel("board size (rows x cols) / wall density (fraction of cells)")
        ax.set_ylabel("max rooks per cell (rooks / cells)")
    else:
        fig = Figure(figsize=(9.0, 5.5))
        ax = fig.subplots()
        generated = frame[frame["density"] >= 0]
        if len(generated):
            _lines(fig, ax, generated)
            if len(generated) < len(frame):
                title += " (given boards not shown)"
        else:  # many given boards of many sizes: one point per size
            means = frame.groupby(["rows", "cols"])["per_cell"].mean().reset_index()
            ax.scatter(means["rows"] * means["cols"], means["per_cell"], s=12)
            ax.set_xscale("log")
            ax.set_xlabel("board cells (rows x cols, log scale)")
            ax.set_ylabel("mean max rooks per cell (rooks / cells)")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return fig


def _lines(fig: Any, ax: Any, frame: Any) -> None:
    """Mean max rooks per cell against density, one line per board size."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import LogNorm

    means = frame.groupby(["rows", "cols", "density"])["per_cell"].mean().reset_index()
    sizes = list(means.groupby(["rows", "cols"]))
    cells = [r * c for (r, c), _ in sizes]
    norm = LogNorm(min(cells), max(cells) if max(cells) > min(cells) else min(cells) + 1)
    cmap = colormaps["viridis"]
    for ((r, c), part), n in zip(sizes, cells, strict=True):
        ax.plot(part["density"], part["per_cell"], marker="o", markersize=3, linewidth=1,
                color=cmap(norm(n)), label=f"{r}x{c}")
    ax.set_xlabel("wall density (fraction of cells)")
    ax.set_ylabel("mean max rooks per cell (rooks / cells)")
    if len(sizes) <= _MOST_LEGEND:
        ax.legend(title="rows x cols", fontsize="small")
    else:
        fig.colorbar(ScalarMappable(norm, cmap), ax=ax, label="board cells (rows x cols)")


def report(job: str, tables: Mapping[str, Callable[..., pa.Table]]) -> Report:
    """The summary table and the figure of a job's ``maxima``."""
    table = tables["maxima"](columns=_COLUMNS)
    return Report(
        tables=[(f"{job}: max rooks per board size and wall density", maxima_summary(table))],
        figures=[("maxima", plot_maxima(table, f"{job}: maximum rooks per cell"))])
