"""The queens-and-rooks report: the triangle of exact counts (a row per board side n, a column
per number of queens M) and a figure of it: a heat map of the count (log colour scale) over
(M, n) and one curve per row n."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pyarrow as pa

from ..contract import Report, count_value

__all__ = ["report", "triangle", "triangle_figure"]

__presentation__ = True  # presents results, decides none (solvers.identity)


def _cells(table: pa.Table) -> dict[int, dict[int, int]]:
    """n -> {M: exact count} of the counts table."""
    cells: dict[int, dict[int, int]] = {}
    for n, m, text in zip(
        table.column("n").to_pylist(),
        table.column("queens").to_pylist(),
        table.column("count_text").to_pylist(),
        strict=True,
    ):
        cells.setdefault(n, {})[m] = count_value(text)
    return cells


def triangle(cells: Mapping[int, Mapping[int, int]]):
    """The counts as a pandas frame: a row per n, a column per M, exact Python ints ('' where
    the job did not ask)."""
    import pandas as pd

    width = max((max(row) for row in cells.values()), default=-1) + 1
    rows = {n: [cells[n].get(m, "") for m in range(width)] for n in sorted(cells)}
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(range(width)), dtype=object)
    frame.index.name, frame.columns.name = "n", "M"
    return frame


def triangle_figure(cells: Mapping[int, Mapping[int, int]], job: str):
    """Left: the count over (M queens, n = M + N) as a heat map on a log colour scale (a cross
    where no placement exists, blank where the job did not ask); right: the count against M,
    one curve per n, on a log axis.  The size follows the triangle under the caps of
    :mod:`solvers.figures`."""
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.colors import LogNorm

    from ..figures import label_series, new_figure, scaled, series_colours

    ns = sorted(cells)
    width = max((max(row) for row in cells.values()), default=-1) + 1
    grid = np.full((len(ns), width), np.nan)
    for i, n in enumerate(ns):
        for m, c in cells[n].items():
            grid[i, m] = float(c)
    shown = grid[np.isfinite(grid) & (grid > 0)]
    lo, hi = (shown.min(), shown.max()) if shown.size else (1.0, 10.0)
    side = scaled(width, 0.3, 2.0, 3.0, 7.0)
    fig, (heat, curves) = new_figure(
        side + 7.5, scaled(len(ns), 0.2, 2.0, 4.5, 8.0), ncols=2, width_ratios=[side, 6.0]
    )
    cmap = colormaps["viridis"].with_extremes(bad="white")
    image = heat.imshow(
        np.ma.masked_less_equal(grid, 0),
        origin="lower",
        cmap=cmap,
        aspect="auto",
        norm=LogNorm(lo, hi if hi > lo else lo * 10),
        interpolation="nearest",
    )
    none = np.where(grid == 0)  # asked for, no placement: a cross, not a blank
    heat.scatter(none[1], none[0], marker="x", s=12, color="0.4", linewidths=0.8)
    step = max(1, width // 16)
    heat.set_xticks(range(0, width, step))
    heat.set_yticks(
        range(0, len(ns), max(1, len(ns) // 16)),
        labels=[str(n) for n in ns[:: max(1, len(ns) // 16)]],
    )
    heat.set_xlabel("M (queens)")
    heat.set_ylabel("n = M + N (board side, cells)")
    heat.set_title("placements (x: none)")
    fig.colorbar(image, ax=heat, label="placements (log scale)")
    colours, norm, cmap = series_colours(ns)
    for n, colour in zip(ns, colours, strict=True):
        points = sorted((m, c) for m, c in cells[n].items() if c > 0)
        if points:
            curves.plot(
                [m for m, _ in points],
                [float(c) for _, c in points],
                marker="o",
                markersize=3,
                color=colour,
                label=f"n = {n}",
            )
    curves.set_yscale("log")
    curves.set_xlabel("M (queens; N = n - M rooks)")
    curves.set_ylabel("placements (log scale)")
    curves.set_title("one curve per board side n")
    curves.grid(True, alpha=0.3)
    label_series(fig, curves, len(ns), norm, cmap, "n = M + N (board side, cells)")
    fig.suptitle(f"{job}: M queens and N rooks on the (M+N) x (M+N) board, none attacked")
    return fig


def report(
    job: str, tables: Mapping[str, Callable[..., pa.Table]], related: Mapping = ()
) -> Report:
    """The triangle of exact counts and its figure."""
    cells = _cells(tables["counts"](columns=["n", "queens", "count_text"]))
    return Report(
        tables=[
            (
                f"{job}: placements of M queens and N rooks (rows n = M + N, columns M)",
                triangle(cells),
            )
        ],
        figures=[("triangle", triangle_figure(cells, job))],
    )
