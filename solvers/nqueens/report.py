"""The N-queens report: Q(n) as a table of exact counts and a figure on a log axis."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pyarrow as pa

from ..contract import Report, count_value

__all__ = ["report", "counts_frame", "counts_figure"]


def counts_frame(table: pa.Table):
    """The counts table as a pandas frame: n, Q(n) (exact Python ints), nodes, CPU seconds."""
    import pandas as pd

    return pd.DataFrame({
        "n": table.column("n").to_pylist(),
        "Q(n)": pd.Series([count_value(t) for t in table.column("count_text").to_pylist()],
                          dtype=object),
        "nodes": table.column("nodes").to_pylist(),
        "cpu_seconds": table.column("cpu_seconds").to_pylist(),
    })


def counts_figure(frame, job: str):
    """Q(n) against n on a log axis (n with no solution, 2 and 3, cannot be drawn there)."""
    from matplotlib.figure import Figure

    shown = frame[[q > 0 for q in frame["Q(n)"]]]
    fig = Figure(figsize=(6, 4), layout="tight")
    ax = fig.add_subplot()
    ax.plot(shown["n"], [float(q) for q in shown["Q(n)"]], marker="o")
    ax.set_yscale("log")
    ax.set_title(f"{job}: N-queens solutions Q(n)")
    ax.set_xlabel("n (board side, cells)")
    ax.set_ylabel("Q(n) (placements, log scale)")
    ax.grid(True, alpha=0.3)
    return fig


def report(job: str, tables: Mapping[str, Callable[..., pa.Table]]) -> Report:
    """Q(n) per n with its search nodes and CPU time, and Q(n) on a log axis."""
    frame = counts_frame(tables["counts"](columns=["n", "count_text", "nodes", "cpu_seconds"]))
    return Report(tables=[(f"{job}: N-queens Q(n)", frame)],
                  figures=[("queens", counts_figure(frame, job))])
