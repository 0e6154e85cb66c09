"""``boardsweep report``: summary tables on stdout and PNG plots beside the results."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import pyarrow as pa

from . import store

__all__ = ["report", "counts_frame", "plot_counts"]


def counts_frame(table: pa.Table):
    """The counts table as a pandas frame with exact Python-int counts."""
    frame = table.select(["problem", "n", "queens", "rooks", "count", "tasks", "cpu_seconds",
                          "nodes"]).to_pandas()
    frame["count"] = [int(v) for v in frame["count"]]
    return frame


def plot_counts(frame, path: Path) -> None:
    """Draw count against n on a log scale, one line per problem, into ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

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


def report(results_dir: Path, out: TextIO) -> int:
    """Print a table per job under ``results_dir`` and write its plot; return jobs shown."""
    shown = 0
    for counts_path in sorted(results_dir.glob("*/counts.parquet")):
        frame = counts_frame(store.read_table(counts_path))
        job = counts_path.parent.name
        out.write(f"== {job} ({counts_path})\n")
        out.write(frame.to_string(index=False) + "\n\n")
        plot_counts(frame, counts_path.with_name("counts.png"))
        shown += 1
    return shown
