"""The N-queens report: Q(n) as a table of exact counts and a figure on a log axis."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pyarrow as pa

from ..contract import Report, count_value

__all__ = ["report", "counts_frame", "counts_figure"]

__presentation__ = True  # presents results, decides none (solvers.identity)


def counts_frame(table: pa.Table):
    """The counts table as a pandas frame: n, Q(n) and U(n) (exact Python ints; U(n) only where
    the table has it), nodes, CPU seconds."""
    import pandas as pd

    def exact(name: str):
        return pd.Series([count_value(t) for t in table.column(name).to_pylist()], dtype=object)

    frame = {"n": table.column("n").to_pylist(), "Q(n)": exact("count_text")}
    if "unique_text" in table.column_names:  # tables published before U(n) lack it
        frame["U(n)"] = exact("unique_text")
    frame["nodes"] = table.column("nodes").to_pylist()
    frame["cpu_seconds"] = table.column("cpu_seconds").to_pylist()
    return pd.DataFrame(frame)


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


def report(
    job: str, tables: Mapping[str, Callable[..., pa.Table]], related: Mapping = ()
) -> Report:
    """Q(n) and U(n) per n with the search nodes and CPU time, and Q(n) on a log axis (nothing
    for a job or loose file without a counts table: solutions alone)."""
    if "counts" not in tables:
        return Report()
    frame = counts_frame(tables["counts"]())  # a row per n: read whole, old tables too
    return Report(
        tables=[(f"{job}: N-queens Q(n)", frame)], figures=[("queens", counts_figure(frame, job))]
    )
