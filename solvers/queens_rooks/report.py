"""The queens-and-rooks report: the triangle of exact counts (a row per board side n, a column
per number of queens M) and a figure of it: a heat map of log10(count) over (M, n) and one curve
per row n."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import pyarrow as pa

from ..contract import Report, count_value

__all__ = ["report", "triangle", "triangle_figure"]


def _cells(table: pa.Table) -> dict[int, dict[int, int]]:
    """n -> {M: exact count} of the counts table."""
    cells: dict[int, dict[int, int]] = {}
    for n, m, text in zip(table.column("n").to_pylist(), table.column("queens").to_pylist(),
                          table.column("count_text").to_pylist(), strict=True):
        cells.setdefault(n, {})[m] = count_value(text)
    return cells


def triangle(cells: Mapping[int, Mapping[int, int]]):
    """The counts as a pandas frame: a row per n, a column per M, exact Python ints ('' where
    the job did not ask)."""
    import pandas as pd

    width = max((max(row) for row in cells.values()), default=-1) + 1
    rows = {n: [cells[n].get(m, "") for m in range(width)] for n in sorted(cells)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(range(width)),
                                   dtype=object)
    frame.index.name, frame.columns.name = "n", "M"
    return frame


def triangle_figure(cells: Mapping[int, Mapping[int, int]], job: str):
    """Left: log10(count) over (M queens, n = M + N), -1 where no placement exists; right:
    count against M, one curve per n, on a log axis."""
    import numpy as np
    from matplotlib.figure import Figure

    ns = sorted(cells)
    width = max((max(row) for row in cells.values()), default=-1) + 1
    grid = np.full((len(ns), width), np.nan)
    for i, n in enumerate(ns):
        for m, c in cells[n].items():
            grid[i, m] = math.log10(c) if c > 0 else -1.0
    fig = Figure(figsize=(4 + 0.45 * width + 5, 1.5 + max(3.0, 0.35 * len(ns))),
                 layout="constrained")
    heat, curves = fig.subplots(1, 2, width_ratios=[max(1, width), 8])
    image = heat.imshow(grid, origin="lower", cmap="viridis", aspect="auto")
    heat.set_xticks(range(width))
    heat.set_yticks(range(len(ns)), labels=[str(n) for n in ns])
    heat.set_xlabel("M (queens)")
    heat.set_ylabel("n = M + N (board side, cells)")
    heat.set_title("log10(placements)")
    fig.colorbar(image, ax=heat, label="log10(placements); -1: none")
    for n in ns:
        shown = sorted((m, c) for m, c in cells[n].items() if c > 0)
        if shown:
            curves.plot([m for m, _ in shown], [float(c) for _, c in shown], marker="o",
                        label=f"n = {n}")
    curves.set_yscale("log")
    curves.set_xlabel("M (queens)")
    curves.set_ylabel("placements (log scale)")
    curves.set_title("one curve per board side n")
    curves.grid(True, alpha=0.3)
    if len(ns) <= 16:
        curves.legend(fontsize="small")
    fig.suptitle(f"{job}: M queens and N rooks on the (M+N) x (M+N) board, none attacked")
    return fig


def report(job: str, tables: Mapping[str, Callable[..., pa.Table]]) -> Report:
    """The triangle of exact counts and its figure."""
    cells = _cells(tables["counts"](columns=["n", "queens", "count_text"]))
    return Report(tables=[(f"{job}: placements of M queens and N rooks (rows n = M + N, "
                           "columns M)", triangle(cells))],
                  figures=[("triangle", triangle_figure(cells, job))])
