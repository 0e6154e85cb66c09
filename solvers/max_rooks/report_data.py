"""The walled-board report's numbers: group statistics with 95% confidence intervals from a
``summary``, and the exact curves of an exhaustive ``distribution``.

Every Monte Carlo table comes down to a ``summary`` table (:mod:`.summary`): a ``maxima``
table (a row per board) is folded into one by :func:`.summary.summarize`, exactly as a
``keep: summary`` job does, so both give the same figures and tables.  For plotting, a summary
becomes a *histogram frame* (:func:`histogram_frame`): a row per (rows, cols, density,
statistic, bin) with its boards; boards that were given, not generated, have no density and
get :data:`GIVEN` (-1).

A ``distribution`` (every wall pattern of a size, :mod:`.exact`) gives P(max = m | p) =
sum_w boards[w, m] p**w (1-p)**(cells-w); :func:`exact_curves` evaluates it over many p in
floats, from the wall-count histogram (every term is positive: no cancellation, unlike the
expanded polynomial), and :func:`exact_rows` tabulates it with :func:`.exact.moments`, exact
at p = 1/2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pyarrow as pa

from .exact import histograms as exact_histograms
from .exact import moments
from .summary import histograms as summary_histograms
from .summary import statistics, summarize
from .tables import COUNT_STATUS

__all__ = [
    "GIVEN",
    "STATUS",
    "MAXIMA_COLUMNS",
    "summary_of_maxima",
    "histogram_frame",
    "group_statistics",
    "distributions",
    "exact_curves",
    "exact_rows",
    "max_probabilities",
    "transposed_key",
]

__presentation__ = True  # presents results, decides none (solvers.identity)

GIVEN = -1.0  # the density of boards that were given, not generated
STATUS = COUNT_STATUS  # count_status bins 0, 1, 2
MAXIMA_COLUMNS = [
    "rows",
    "cols",
    "density",
    "max_rooks",
    "placements_text",
    "max_placements_text",
    "count_status",
]


def summary_of_maxima(table: pa.Table) -> pa.Table:
    """The ``summary`` of a ``maxima`` table (with placement histograms when it has counts)."""
    counted = (
        "count_status" in table.column_names
        and table.column("count_status").null_count < table.num_rows
    )
    return summarize([table], {"counts": counted})


def histogram_frame(summary: pa.Table) -> Any:
    """A ``summary`` table as a pandas frame: density null -> :data:`GIVEN`, boards exact
    (int64, or float past 2**63)."""
    import pandas as pd

    boards = [int(t) for t in summary.column("boards_text").to_pylist()]
    return pd.DataFrame(
        {
            "rows": summary.column("rows").to_numpy(),
            "cols": summary.column("cols").to_numpy(),
            "density": summary.column("density").fill_null(GIVEN).to_numpy(),
            "statistic": summary.column("statistic").to_pylist(),
            "bin": summary.column("bin").to_numpy().astype(np.int64),
            "boards": np.array(boards, dtype=np.int64 if max(boards, default=0) < 2**63 else float),
        }
    )


def group_statistics(summary: pa.Table) -> Any:
    """Per (rows, cols, density) of a ``summary`` (:func:`.summary.statistics`): boards, mean
    max rooks, the half-width ``ci95`` of its 95% confidence interval (1.96 sd /
    sqrt(boards)), ``sd``, quantiles and maximum, the mean per cell with its half-width, and
    (when counted) the boards by count status; density null -> :data:`GIVEN`."""
    stats = statistics(summary)
    cells = (stats["rows"] * stats["cols"]).astype(float)
    stats["density"] = stats["density"].astype(float).fillna(GIVEN)
    stats["ci95"] = (stats["ci95_high"] - stats["ci95_low"]) / 2
    stats["sd"] = np.sqrt(stats["variance"].astype(float))
    stats["per_cell"] = stats["mean"] / cells
    stats["per_cell_ci95"] = stats["ci95"] / cells
    status = summary_histograms(summary, "count_status")
    if status:
        keys = zip(stats["rows"], stats["cols"], stats["density"], strict=True)
        found = [status.get((r, c, None if d == GIVEN else d), {}) for r, c, d in keys]
        for code, name in enumerate(STATUS):
            stats[name] = [int(bins.get(code, 0)) for bins in found]
    return stats.drop(columns=["variance", "ci95_low", "ci95_high"])


def transposed_key(rows: int, cols: int) -> tuple[int, int]:
    """The key of a board size up to transposition (a transposed board has the same maximum)."""
    return (min(rows, cols), max(rows, cols))


def distributions(table: pa.Table) -> dict[tuple[int, int], np.ndarray]:
    """(rows, cols) -> an object array ``boards[walls, max_rooks]`` of exact Python ints, from
    a ``distribution`` table (:func:`.exact.histograms`: ValueError if incomplete)."""
    out = {}
    for (r, c), hist in sorted(exact_histograms(table).items()):
        grid = np.zeros((r * c + 1, max(m for _, m in hist) + 1), dtype=object)
        for (w, m), boards in hist.items():
            grid[w, m] += boards
        out[r, c] = grid
    return out


def _weights(cells: int, p: np.ndarray) -> np.ndarray:
    """p**w (1-p)**(cells-w) for w = 0..cells, a row per p (floats)."""
    w = np.arange(cells + 1)
    return p[:, None] ** w * (1 - p[:, None]) ** (cells - w)


def max_probabilities(boards: np.ndarray, p: np.ndarray) -> np.ndarray:
    """P(max rooks = m | p) in floats: an array ``[len(p), m]``."""
    return _weights(boards.shape[0] - 1, np.asarray(p, dtype=float)) @ boards.astype(float)


def exact_curves(boards: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """E[max rooks] and its standard deviation at each wall probability of ``p`` (floats)."""
    probs = max_probabilities(boards, p)
    m = np.arange(boards.shape[1], dtype=float)
    mean = probs @ m
    return mean, np.sqrt(np.maximum(probs @ m**2 - mean**2, 0.0))


def _hist(boards: np.ndarray) -> dict[tuple[int, int], int]:
    """The ``{(walls, max): boards}`` form of :mod:`.exact` of a ``boards[w, m]`` array."""
    return {(int(w), int(m)): int(boards[w, m]) for w, m in zip(*np.nonzero(boards), strict=True)}


def exact_rows(found: Mapping[tuple[int, int], np.ndarray], ps: Sequence[float]) -> Any:
    """The exact table: per size, the patterns counted, E[max] at p = 1/2 as a fraction, and
    E[max] at each wall probability of ``ps``."""
    import pandas as pd

    rows = []
    for (r, c), boards in found.items():
        half, _ = moments(_hist(boards), r * c, Fraction(1, 2))
        mean, _ = exact_curves(boards, np.asarray(ps, dtype=float))
        row = {
            "rows": r,
            "cols": c,
            "patterns": int(sum(int(b) for b in boards.flat)),
            "E[max] at p=1/2": f"{half.numerator}/{half.denominator}",
        }
        row.update(
            {f"E[max] at p={p:g}": round(float(e), 4) for p, e in zip(ps, mean, strict=True)}
        )
        rows.append(row)
    return pd.DataFrame(rows)
