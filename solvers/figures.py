"""Figure helpers shared by the problems' reports (:class:`solvers.contract.Report`).

A report figure is a :class:`matplotlib.figure.Figure` (no pyplot state, so reports can be
made in any thread) whose size follows the data under a cap: at most :data:`MAX_WIDTH` x
:data:`MAX_HEIGHT` inches, saved at 100 dpi, whatever the number of groups; more series
than :data:`MOST_LEGEND` are told apart by a colour bar instead of a legend.  matplotlib is
imported inside the functions, so a worker that only solves never loads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "MAX_WIDTH",
    "MAX_HEIGHT",
    "MOST_LEGEND",
    "scaled",
    "new_figure",
    "series_colours",
    "label_series",
    "plain_log_ticks",
    "confidence",
]

__presentation__ = True  # presents results, decides none (solvers.identity)

MAX_WIDTH = 16.0  # inches: 1600 pixels at the 100 dpi reports are saved at
MAX_HEIGHT = 20.0
MOST_LEGEND = 12  # more series than this: a colour bar, not a legend
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def scaled(count: float, per: float, base: float, lo: float, hi: float) -> float:
    """``base + per * count`` inches, kept within ``lo..hi``."""
    return float(min(max(base + per * count, lo), hi))


def new_figure(width: float, height: float, **subplots: Any) -> tuple[Any, Any]:
    """A constrained-layout figure of at most :data:`MAX_WIDTH` x :data:`MAX_HEIGHT` inches
    and its axes (``subplots`` as for :meth:`Figure.subplots`)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(min(width, MAX_WIDTH), min(height, MAX_HEIGHT)), layout="constrained")
    return fig, fig.subplots(**subplots)


def series_colours(values: Sequence[float], log: bool = False) -> tuple[list, Any, Any]:
    """One viridis colour per value (a board's cells, a board side), with the norm and the
    colour map a colour bar needs; ``log`` spaces the colours by the values' logarithms."""
    import numpy as np
    from matplotlib import colormaps
    from matplotlib.colors import ListedColormap, LogNorm, Normalize

    lo, hi = (min(values), max(values)) if len(values) else (1.0, 2.0)
    hi = hi if hi > lo else lo + 1
    norm = LogNorm(lo, hi) if log and lo > 0 else Normalize(lo, hi)
    cmap = ListedColormap(colormaps["viridis"](np.linspace(0.0, 0.85, 256)))  # no pale yellow
    return [cmap(norm(v)) for v in values], norm, cmap


def label_series(
    fig: Any,
    ax: Any,
    count: int,
    norm: Any,
    cmap: Any,
    what: str,
    legend_title: str | None = None,
    extra: Sequence[Any] = (),
) -> None:
    """A legend of the labelled series when there are at most :data:`MOST_LEGEND` of them,
    else a colour bar saying what the colours mean (``what``, with its unit); ``extra``
    handles (what line styles mean) join the legend either way, placed where it hides least."""
    from matplotlib.cm import ScalarMappable

    handles = list(extra)
    if count <= MOST_LEGEND:
        handles = ax.get_legend_handles_labels()[0] + handles
    else:
        fig.colorbar(ScalarMappable(norm, cmap), ax=ax, label=what)
        legend_title = None
    if handles:
        ax.legend(handles=handles, title=legend_title, fontsize="small", loc="best")


def plain_log_ticks(axis: Any) -> None:
    """Tick labels of a log axis as plain numbers (30, 0.5, not 3 x 10^1); the ticks between
    powers of ten are labelled only when the axis spans less than two decades."""
    import math

    from matplotlib.ticker import FuncFormatter, NullFormatter

    plain = FuncFormatter(lambda v, _: f"{v:g}")
    axis.set_major_formatter(plain)
    lo, hi = sorted(axis.get_view_interval())
    narrow = lo > 0 and math.log10(hi / lo) < 2
    axis.set_minor_formatter(plain if narrow else NullFormatter())


def confidence(mean: float, sd: float, n: float) -> float:
    """The half-width of the 95% confidence interval of a mean: 1.96 sd / sqrt(n) (0 for
    fewer than two observations)."""
    return Z95 * sd / n**0.5 if n > 1 else 0.0
