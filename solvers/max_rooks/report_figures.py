"""The walled-board report's figures, drawn from :mod:`.report_data`'s frames.

- :func:`expected_max_figure`: E[max rooks] per cell against wall density, one line per board
  size with its 95% confidence band, and the exact curve of each size that has an exhaustive
  distribution drawn over it (dashed);
- :func:`placements_figure`: how the placement counts spread (log2 bins), per group while
  there are few groups, per size (densities pooled) while there are few sizes, else as a heat
  map over sizes;
- :func:`exact_figure`: the exact E[max](p) of every enumerated size, and P(max = m | p) of
  the largest.

Sizes stay under the caps of :mod:`solvers.figures` whatever the number of groups (1,083
groups are 57 lines on one axes, not 1,083 boxes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..figures import label_series, new_figure, scaled, series_colours
from .report_data import GIVEN, exact_curves, max_probabilities, transposed_key

__all__ = ["expected_max_figure", "placements_figure", "exact_figure", "MOST_LINES"]

__presentation__ = True  # presents results, decides none (solvers.identity)

MOST_LINES = 8  # more series than this in a histogram panel: aggregate, then a heat map
_DENSITY = "wall density p (probability that a cell is a wall)"
_PER_CELL = "E[max rooks] / cells (rooks per cell)"


def _sizes(frame: Any) -> list[tuple[int, int]]:
    """The (rows, cols) of a frame, smallest boards first."""
    pairs = {(int(r), int(c)) for r, c in zip(frame["rows"], frame["cols"], strict=True)}
    return sorted(pairs, key=lambda rc: (rc[0] * rc[1], rc))


def _style_handles(exact: bool) -> list:
    """Legend entries saying what the line styles mean."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D(
            [], [], color="grey", marker="o", markersize=3, label="Monte Carlo mean, 95% CI band"
        )
    ]
    if exact:
        handles.append(
            Line2D([], [], color="grey", linestyle="--", label="exact, over all wall patterns")
        )
    return handles


def expected_max_figure(stats: Any, exact: Mapping[tuple[int, int], np.ndarray], title: str) -> Any:
    """E[max rooks]/cells against density per board size with 95% confidence bands (mean
    ± 1.96 sd / sqrt(boards)), exact curves overlaid; boards that were given (no density)
    are drawn against their cells instead when there are no generated ones."""
    generated = stats[stats["density"] != GIVEN]
    if not len(generated):
        return _given_figure(stats, title)
    sizes = _sizes(generated)
    colours, norm, cmap = series_colours([r * c for r, c in sizes], log=True)
    fig, ax = new_figure(9.0, 5.5)
    drawn_exact = False
    alpha = 0.2 if len(sizes) <= MOST_LINES else 0.07  # many bands: each one faint
    lo, hi = generated["density"].min(), generated["density"].max()
    grid = np.linspace(max(0.0, lo - 0.05), min(1.0, hi + 0.05), 101)
    for (r, c), colour in zip(sizes, colours, strict=True):
        part = generated[(generated["rows"] == r) & (generated["cols"] == c)]
        part = part.sort_values("density")
        x, y, half = part["density"], part["per_cell"], part["per_cell_ci95"]
        if len(part) > 1:
            ax.plot(x, y, marker="o", markersize=3, linewidth=1, color=colour, label=f"{r}x{c}")
            ax.fill_between(x, y - half, y + half, color=colour, alpha=alpha, linewidth=0)
        else:
            ax.errorbar(
                x, y, yerr=half, marker="o", markersize=3, capsize=3, color=colour, label=f"{r}x{c}"
            )
        boards = exact.get(transposed_key(r, c))
        if boards is not None:
            mean, _ = exact_curves(boards, grid)
            ax.plot(grid, mean / (r * c), linestyle="--", linewidth=1.2, color=colour)
            drawn_exact = True
    ax.set_xlabel(_DENSITY)
    ax.set_ylabel(_PER_CELL)
    ax.grid(True, alpha=0.3)
    label_series(
        fig,
        ax,
        len(sizes),
        norm,
        cmap,
        "board cells (rows x cols, log scale)",
        "rows x cols",
        extra=_style_handles(drawn_exact),
    )
    given = len(stats) - len(generated)
    ax.set_title(title + (f" ({given} groups of given boards: table only)" if given else ""))
    return fig


def _given_figure(stats: Any, title: str) -> Any:
    """Given boards only: mean max rooks per cell against the board's cells, with 95% CIs."""
    fig, ax = new_figure(7.0, 4.5)
    stats = stats.assign(cells=stats["rows"] * stats["cols"]).sort_values("cells")
    ax.errorbar(
        stats["cells"],
        stats["per_cell"],
        yerr=stats["per_cell_ci95"],
        marker="o",
        linestyle="none",
        capsize=3,
    )
    ax.set_xscale("log")
    ax.set_xlabel("board cells (rows x cols, log scale)")
    ax.set_ylabel("mean max rooks / cells (rooks per cell)")
    ax.set_title(title + " (given boards)")
    ax.grid(True, alpha=0.3)
    return fig


def _shares(part: Any) -> tuple[np.ndarray, np.ndarray]:
    """Bins ``lo..hi`` (every one, empty ones too) and the percentage of the boards of
    ``part`` (its rows pooled) in each."""
    summed = part.groupby("bin")["boards"].sum()
    bins = np.arange(int(summed.index.min()), int(summed.index.max()) + 1)
    share = summed.reindex(bins, fill_value=0).to_numpy(dtype=float)
    return bins, 100.0 * share / share.sum()


def placements_figure(hist: Any, title: str) -> Any | None:
    """Distributions of log2(placements) and log2(maximum placements) of the counted boards
    (None if nothing was counted)."""
    stats = [
        s for s in ("placements_log2", "max_placements_log2") if (hist["statistic"] == s).any()
    ]
    if not stats:
        return None
    counted = hist[hist["statistic"].isin(stats)]
    groups = counted.groupby(["rows", "cols", "density"]).ngroups
    sizes = _sizes(counted)
    heat = groups > MOST_LINES and len(sizes) > MOST_LINES
    width = scaled(len(sizes) * len(stats), 0.2, 4.0, 9.0, 16.0) if heat else 5.5 * len(stats)
    fig, axes = new_figure(width, 4.5, ncols=len(stats), squeeze=False)
    for ax, statistic in zip(axes[0], stats, strict=True):
        part = counted[counted["statistic"] == statistic]
        what = (
            "all legal placements" if statistic == "placements_log2" else "placements of max rooks"
        )
        if heat:
            _heat(fig, ax, part, sizes)
        else:
            _steps(fig, ax, part, sizes, by_density=groups <= MOST_LINES)
            ax.set_xlabel(f"log2({what}) (bins [k, k+1): a factor of 2)")
            ax.set_ylabel("share of counted boards (%)")
            ax.grid(True, alpha=0.3)
        ax.set_title(what)
    fig.suptitle(title)
    return fig


def _steps(fig: Any, ax: Any, part: Any, sizes: list, by_density: bool) -> None:
    """One step line per group (or per size, densities pooled)."""
    keys = ["rows", "cols", "density"] if by_density else ["rows", "cols"]
    series = list(part.groupby(keys))
    colours, norm, cmap = series_colours([k[0] * k[1] for k, _ in series], log=True)
    for (key, rows), colour in zip(series, colours, strict=True):
        bins, share = _shares(rows)  # bin k holds counts in [2**k, 2**(k+1))
        label = f"{key[0]}x{key[1]}" + (f", p={key[2]:g}" if by_density and key[2] != GIVEN else "")
        ax.stairs(share, np.append(bins, bins[-1] + 1), color=colour, label=label)
    label_series(
        fig,
        ax,
        len(series),
        norm,
        cmap,
        "board cells (rows x cols, log scale)",
        "rows x cols" + (", density" if by_density else " (densities pooled)"),
    )


def _heat(fig: Any, ax: Any, part: Any, sizes: list) -> None:
    """Share of each size's counted boards per log2 bin, sizes along x."""
    top = int(part["bin"].max()) + 1
    grid = np.full((top, len(sizes)), np.nan)
    for j, (r, c) in enumerate(sizes):
        bins, share = _shares(part[(part["rows"] == r) & (part["cols"] == c)])
        grid[bins, j] = share
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", interpolation="nearest")
    step = max(1, len(sizes) // 20)
    ax.set_xticks(
        range(0, len(sizes), step), labels=[f"{r}x{c}" for r, c in sizes[::step]], rotation=90
    )
    ax.set_xlabel("board size (rows x cols; densities pooled)")
    ax.set_ylabel("log2(count) (bins of a factor of 2)")
    fig.colorbar(image, ax=ax, label="share of the size's counted boards (%)")


def exact_figure(found: Mapping[tuple[int, int], np.ndarray], title: str) -> Any:
    """Left: exact E[max rooks]/cells against p for every enumerated size, with a band of
    +- one standard deviation from board to board; right: P(max = m | p) of the largest."""
    sizes = sorted(found, key=lambda rc: (rc[0] * rc[1], rc))
    colours, norm, cmap = series_colours([r * c for r, c in sizes], log=True)
    fig, (left, right) = new_figure(12.0, 4.8, ncols=2)
    p = np.linspace(0.0, 1.0, 201)
    for (r, c), colour in zip(sizes, colours, strict=True):
        mean, sd = exact_curves(found[r, c], p)
        cells = r * c
        left.plot(p, mean / cells, color=colour, label=f"{r}x{c}")
        left.fill_between(
            p, (mean - sd) / cells, (mean + sd) / cells, color=colour, alpha=0.15, linewidth=0
        )
    left.set_xlabel(_DENSITY)
    left.set_ylabel(_PER_CELL)
    left.set_title("E[max] / cells, band ± 1 sd (board to board)")
    left.grid(True, alpha=0.3)
    label_series(
        fig, left, len(sizes), norm, cmap, "board cells (rows x cols, log scale)", "rows x cols"
    )
    r, c = sizes[-1]
    probs = max_probabilities(found[r, c], p)
    shown = [m for m in range(probs.shape[1]) if probs[:, m].max() >= 1e-3]
    mcolours, mnorm, mcmap = series_colours(shown)
    for m, colour in zip(shown, mcolours, strict=True):
        right.plot(p, probs[:, m], color=colour, label=f"m = {m}")
    right.set_xlabel(_DENSITY)
    right.set_ylabel("P(max rooks = m) (probability)")
    right.set_title(f"{r}x{c}: distribution of the maximum")
    right.grid(True, alpha=0.3)
    label_series(fig, right, len(shown), mnorm, mcmap, "m (max rooks)", "max rooks")
    fig.suptitle(title)
    return fig
