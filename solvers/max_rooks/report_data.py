"""The walled-board report's numbers: histograms per board group, their means with 95%
confidence intervals, and the exact curves of an exhaustive ``distribution``.

Every Monte Carlo table comes down to one *histogram frame*: a row per (rows, cols, density,
statistic, bin) with the number of boards in it.  ``statistic`` is as in the ``summary``
table: ``max_rooks`` (bin = the maximum), ``placements_log2`` and ``max_placements_log2``
(bin = floor(log2(count))) and ``count_status`` (bin 0, 1, 2 = counted, too_wide,
too_large).  A ``maxima`` table (a row per board) is binned into it exactly, a ``summary``
table already is one, so the figures and tables are the same whichever the job kept.
Boards that were given, not generated, have no density: they get :data:`GIVEN` (-1).

An exhaustive ``distribution`` (rows, cols, walls, max_rooks, boards: wall patterns of that
size with that many walls and that maximum, over all ``2**(rows*cols)`` patterns) gives
P(max = m | p) = sum_w boards[w, m] p**w (1-p)**(cells-w) for walls placed independently with
probability p, hence E[max](p); :func:`exact_mean` evaluates it as a fraction, exactly,
:func:`exact_curves` in floats for plotting (every term is positive: no cancellation).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pyarrow as pa

from ..figures import confidence

__all__ = ["GIVEN", "STATUS", "MAXIMA_COLUMNS", "histograms_from_maxima",
           "histograms_from_summary", "group_statistics", "distributions", "exact_mean",
           "exact_curves", "exact_rows", "max_probabilities", "transposed_key"]

GIVEN = -1.0  # the density of boards that were given, not generated
STATUS = ("counted", "too_wide", "too_large")  # count_status bins 0, 1, 2
MAXIMA_COLUMNS = ["rows", "cols", "density", "max_rooks", "placements_text",
                  "max_placements_text", "count_status"]
_KEYS = ["rows", "cols", "density"]


def _log2_bins(texts: Iterable[str | None]) -> list[float]:
    """floor(log2(count)) of exact counts given as decimal text (NaN where null)."""
    return [np.nan if t is None else float(int(t).bit_length() - 1) for t in texts]


def _binned(keys: Any, statistic: str, values: Sequence[float]) -> Any:
    """Boards per (group, bin) of one statistic, skipping NaN values."""
    frame = keys.assign(bin=np.asarray(values, dtype=float)).dropna(subset=["bin"])
    counts = frame.groupby([*_KEYS, "bin"]).size().rename("boards").reset_index()
    counts["bin"] = counts["bin"].astype(np.int64)
    counts.insert(3, "statistic", statistic)
    return counts


def histograms_from_maxima(table: pa.Table) -> Any:
    """The histogram frame of a ``maxima`` table (a row per board), binned exactly."""
    import pandas as pd

    names = table.column_names
    keys = pd.DataFrame({"rows": table.column("rows").to_numpy(),
                         "cols": table.column("cols").to_numpy(),
                         "density": table.column("density").fill_null(GIVEN).to_numpy()})
    parts = [_binned(keys, "max_rooks", table.column("max_rooks").to_numpy())]
    for name in ("placements", "max_placements"):
        column = f"{name}_text"
        if column in names and table.column(column).null_count < table.num_rows:
            parts.append(_binned(keys, f"{name}_log2",
                                 _log2_bins(table.column(column).to_pylist())))
    if "count_status" in names and table.column("count_status").null_count < table.num_rows:
        codes = {status: float(i) for i, status in enumerate(STATUS)}
        parts.append(_binned(keys, "count_status", [codes.get(s, np.nan) for s in
                                                    table.column("count_status").to_pylist()]))
    return pd.concat(parts, ignore_index=True)


def _exact_ints(table: pa.Table, name: str) -> list[int]:
    """An exact count column as Python ints, from its ``_text`` half."""
    return [int(t) for t in table.column(f"{name}_text").to_pylist()]


def histograms_from_summary(table: pa.Table) -> Any:
    """The histogram frame of a ``summary`` table (already one: exact ``boards_text``)."""
    import pandas as pd

    boards = _exact_ints(table, "boards")
    return pd.DataFrame({
        "rows": table.column("rows").to_numpy(), "cols": table.column("cols").to_numpy(),
        "density": table.column("density").fill_null(GIVEN).to_numpy(),
        "statistic": table.column("statistic").to_pylist(),
        "bin": table.column("bin").to_numpy().astype(np.int64),
        "boards": np.array(boards, dtype=np.int64 if max(boards, default=0) < 2**63
                           else float)})


def group_statistics(hist: Any) -> Any:
    """Per (rows, cols, density): boards, mean max rooks with the half-width of its 95%
    confidence interval (1.96 sd / sqrt(boards)), sd, min and max, the mean per cell with its
    half-width, and (when counted) boards by count status."""
    import pandas as pd

    rows = []
    maxima = hist[hist["statistic"] == "max_rooks"]
    status = hist[hist["statistic"] == "count_status"]
    by_status = {key: part for key, part in status.groupby(_KEYS)}
    for key, part in maxima.groupby(_KEYS):
        values = part["bin"].to_numpy(dtype=float)
        weights = part["boards"].to_numpy(dtype=float)
        n = weights.sum()
        mean = float((values * weights).sum() / n)
        sd = float(np.sqrt((((values - mean) ** 2) * weights).sum() / (n - 1))) if n > 1 else 0.
        half = confidence(mean, sd, n)
        cells = float(key[0] * key[1])
        row = {"rows": int(key[0]), "cols": int(key[1]), "density": float(key[2]),
               "boards": int(part["boards"].sum()), "mean": mean, "ci95": half, "sd": sd,
               "min": int(values.min()), "max": int(values.max()),
               "per_cell": mean / cells, "per_cell_ci95": half / cells}
        if by_status:
            got = by_status.get(key)
            counts = ({} if got is None
                      else dict(zip(got["bin"].tolist(), got["boards"].tolist(), strict=True)))
            row.update({s: int(counts.get(i, 0)) for i, s in enumerate(STATUS)})
        rows.append(row)
    return pd.DataFrame(rows)


def transposed_key(rows: int, cols: int) -> tuple[int, int]:
    """The key of a board size up to transposition (a transposed board has the same maximum)."""
    return (min(rows, cols), max(rows, cols))


def distributions(table: pa.Table) -> dict[tuple[int, int], np.ndarray]:
    """(rows, cols) -> an object array ``boards[walls, max_rooks]`` of exact Python ints."""
    found: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    for r, c, w, m, b in zip(table.column("rows").to_pylist(), table.column("cols").to_pylist(),
                             table.column("walls").to_pylist(),
                             table.column("max_rooks").to_pylist(),
                             _exact_ints(table, "boards"), strict=True):
        cell = found.setdefault((r, c), {})
        cell[w, m] = cell.get((w, m), 0) + b
    out = {}
    for (r, c), cells in sorted(found.items()):
        grid = np.zeros((r * c + 1, max(m for _, m in cells) + 1), dtype=object)
        for (w, m), b in cells.items():
            grid[w, m] += b
        out[r, c] = grid
    return out


def exact_mean(boards: np.ndarray, p: Fraction) -> Fraction:
    """E[max rooks] at wall probability ``p``, exactly: sum_w sum_m m boards[w, m] p**w
    (1-p)**(cells-w) (``boards`` as from :func:`distributions`)."""
    cells = boards.shape[0] - 1
    p = Fraction(p)
    total = Fraction(0)
    for w in range(cells + 1):
        weight = p**w * (1 - p) ** (cells - w)
        total += weight * sum(m * int(boards[w, m]) for m in range(boards.shape[1]))
    return total


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


def exact_rows(found: Mapping[tuple[int, int], np.ndarray], ps: Sequence[float]) -> Any:
    """The exact table: per size, the patterns counted, E[max] at p = 1/2 as a fraction, and
    E[max] at each wall probability of ``ps``."""
    import pandas as pd

    rows = []
    for (r, c), boards in found.items():
        half = exact_mean(boards, Fraction(1, 2))
        mean, _ = exact_curves(boards, np.asarray(ps, dtype=float))
        row = {"rows": r, "cols": c, "patterns": int(sum(int(b) for b in boards.flat)),
               "E[max] at p=1/2": f"{half.numerator}/{half.denominator}"}
        row.update({f"E[max] at p={p:g}": round(float(e), 4) for p, e in zip(ps, mean,
                                                                            strict=True)})
        rows.append(row)
    return pd.DataFrame(rows)
