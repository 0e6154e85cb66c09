"""``boardsweep report``: summary tables on stdout and PNG plots beside the results."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import pyarrow as pa

from . import store

__all__ = ["report", "counts_frame", "plot_counts", "maxima_summary", "plot_maxima",
           "triangle", "plot_triangle", "slant_summary"]


def counts_frame(table: pa.Table):
    """The counts table as a pandas frame with exact Python-int counts."""
    frame = table.select(["problem", "n", "queens", "rooks", "count", "tasks", "cpu_seconds",
                          "nodes"]).to_pandas()
    frame["count"] = [int(v) for v in frame["count"]]
    return frame


def plot_counts(frame, path: Path) -> None:
    """Draw count against n on a log scale, one line per problem, into ``path`` (PNG)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for problem, part in frame.groupby("problem"):
        part = part[part["count"] > 0]
        ax.plot(part["n"], [float(c) for c in part["count"]], marker="o", label=problem)
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("count")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def maxima_summary(table: pa.Table):
    """Per (rows, cols, density): boards, and the mean, min, max and quartiles of max_rooks."""
    frame = table.select(["rows", "cols", "density", "max_rooks"]).to_pandas()
    frame["density"] = frame["density"].fillna(-1.0)
    grouped = frame.groupby(["rows", "cols", "density"])["max_rooks"]
    summary = grouped.describe()[["count", "mean", "min", "25%", "50%", "75%", "max"]]
    summary = summary.rename(columns={"count": "boards"}).reset_index()
    summary["boards"] = summary["boards"].astype(int)
    summary["density"] = summary["density"].map(lambda d: "given" if d < 0 else f"{d:g}")
    return summary


def plot_maxima(table: pa.Table, path: Path) -> None:
    """Box plots of max_rooks per cell count, one panel per board size and wall density."""
    plt = _pyplot()
    frame = table.select(["rows", "cols", "density", "max_rooks"]).to_pandas()
    frame["density"] = frame["density"].fillna(-1.0)
    groups = list(frame.groupby(["rows", "cols", "density"]))
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(groups)), 4))
    ax.boxplot([part["max_rooks"] / (r * c) for (r, c, _), part in groups],
               tick_labels=[f"{r}x{c}\n{'given' if d < 0 else f'{d:g}'}"
                            for (r, c, d), _ in groups])
    ax.set_ylabel("max rooks per cell")
    ax.set_xlabel("board size / wall density")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def triangle(frame):
    """Counts of one problem as a table: a row per n, a column per number of queens."""
    import pandas as pd

    width = int(frame["queens"].max()) + 1
    rows: dict[int, list] = {}
    for n, m, count in zip(frame["n"], frame["queens"], frame["count"], strict=True):
        rows.setdefault(int(n), [""] * width)[int(m)] = int(count)  # exact, never float
    table = pd.DataFrame.from_dict(dict(sorted(rows.items())), orient="index", dtype=object)
    table.index.name, table.columns.name = "n", "M"
    return table


def plot_triangle(frame, path: Path) -> None:
    """Heat map of log10(count) over (M queens, n = M + N) into ``path`` (PNG)."""
    import numpy as np

    plt = _pyplot()
    ns = sorted(frame["n"].unique())
    width = int(frame["queens"].max()) + 1
    grid = np.full((len(ns), width), np.nan)
    for n, m, count in zip(frame["n"], frame["queens"], frame["count"], strict=True):
        grid[ns.index(n), m] = np.log10(float(count)) if count > 0 else -1.0
    fig, ax = plt.subplots(figsize=(1 + 0.45 * width, 1 + 0.35 * len(ns)))
    image = ax.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
    ax.set_xticks(range(width))
    ax.set_yticks(range(len(ns)), labels=[str(n) for n in ns])
    ax.set_xlabel("M (queens)")
    ax.set_ylabel("n = M + N")
    fig.colorbar(image, ax=ax, label="log10(count); -1 = none")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def slant_summary(table: pa.Table):
    """Per puzzle size: puzzles by status and solve-time percentiles (ms), median nodes."""
    frame = table.select(["rows", "cols", "status", "nodes", "seconds"]).to_pandas()
    frame["ms"] = frame["seconds"] * 1000
    grouped = frame.groupby(["rows", "cols"])
    summary = grouped.size().rename("puzzles").to_frame()
    for status in ("unique", "multiple", "none"):
        summary[status] = grouped["status"].apply(lambda s, v=status: int((s == v).sum()))
    for q in (50, 90, 99):
        summary[f"p{q} ms"] = grouped["ms"].quantile(q / 100).round(3)
    summary["median nodes"] = grouped["nodes"].median()
    return summary.reset_index()


def report(results_dir: Path, out: TextIO) -> int:
    """Print a table per job under ``results_dir`` and write its plot; return jobs shown."""
    shown = 0
    for path in sorted(results_dir.glob("*/*.parquet")):
        if path.name == "counts.parquet":
            frame = counts_frame(store.read_table(path))
            plot_counts(frame, path.with_name("counts.png"))
            mixed = frame[frame["problem"] == "queens_rooks"]
            if len(mixed):
                out.write(f"== {path.parent.name}: queens_rooks triangle (rows n = M + N, "
                          "columns M queens)\n")
                out.write(triangle(mixed).to_string() + "\n\n")
                plot_triangle(mixed, path.with_name("triangle.png"))
        elif path.name == "maxima.parquet":
            table = store.read_table(path)
            frame = maxima_summary(table)
            plot_maxima(table, path.with_name("maxima.png"))
        elif path.name == "slant.parquet":
            frame = slant_summary(store.read_table(path))
        else:
            continue
        out.write(f"== {path.parent.name} ({path})\n")
        out.write(frame.to_string(index=False) + "\n\n")
        shown += 1
    return shown
