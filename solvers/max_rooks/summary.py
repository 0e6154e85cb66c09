"""Summaries that merge: ``keep: summary`` stores histograms per board group, not a row per board.

A ``summary`` row ``(rows, cols, density, statistic, bin, boards)`` says that ``boards`` boards
of the group have value ``bin`` for ``statistic``:

- ``max_rooks``: ``bin`` is the maximum (an exact histogram: the board count, mean, variance,
  quantiles and confidence intervals all follow, :func:`statistics`);
- ``placements_log2`` / ``max_placements_log2`` (with ``counts``): ``bin`` is
  ``floor(log2(count))`` of the board's placements / maximum placements (log-binned; exact
  bin edges, computed from the integer's bit length);
- ``count_status`` (with ``counts``): ``bin`` is 0 counted, 1 too_wide, 2 too_large.

Histograms add: the pipeline sums the rows of equal keys over a point's work units, and rows of
different points (other seeds, other nights) add in :func:`statistics`, so no board is
counted twice and the output stays a few KB per group whatever the number of boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..contract import Column, Table, count_arrays, count_columns
from .tables import COUNT_STATUS, shape_keys

__all__ = ["SUMMARY", "STATISTICS", "summarize", "histograms", "statistics"]

STATISTICS = ("max_rooks", "placements_log2", "max_placements_log2", "count_status")
_KEYS = ("rows", "cols", "density", "statistic", "bin")

SUMMARY = Table(
    "summary",
    "per group of boards (rows, cols, density): histograms of the maximum and, "
    "with counts, of the placement counts (log2 bins)",
    (
        *shape_keys("the boards"),
        Column(
            "density",
            pa.float64(),
            "wall probability the boards were generated with (null for boards not generated)",
            "",
            "key",
            nullable=True,
        ),
        Column("statistic", pa.string(), "what bin measures: " + ", ".join(STATISTICS), "", "key"),
        Column(
            "bin",
            pa.int64(),
            "max_rooks: the maximum; *_log2: floor(log2(count)); "
            "count_status: 0 counted, 1 too_wide, 2 too_large",
            "",
            "key",
        ),
        *count_columns("boards", "boards of the group in this bin", "boards"),
    ),
    merge="sum",
    keys=_KEYS,
)


def _nulls_last(key: tuple) -> tuple:
    """A sort key for group keys holding nulls (a given set's density): nulls after values."""
    return tuple((v is None, 0 if v is None else v) for v in key)


def _bit_length(values: np.ndarray) -> np.ndarray:
    """``int(v).bit_length()`` of each uint64, exactly (no floating point)."""
    v = values.copy()
    out = np.zeros(len(v), np.int64)
    for shift in (32, 16, 8, 4, 2, 1):
        big = v >= (np.uint64(1) << np.uint64(shift))
        out[big] += shift
        v[big] >>= np.uint64(shift)
    return out + (v > 0)


def _log2_bins(texts: pa.ChunkedArray) -> pa.Array:
    """``floor(log2(n))`` of exact counts given as decimal text (nulls stay null); counts of
    up to 19 digits in numpy, longer ones through Python ints."""
    texts = texts.combine_chunks() if isinstance(texts, pa.ChunkedArray) else texts
    valid = np.asarray(pc.is_valid(texts))
    short = valid & (np.asarray(pc.fill_null(pc.utf8_length(texts), 0)) <= 19)
    bins = np.full(len(texts), -1, np.int64)
    if short.any():
        small = pc.cast(texts.filter(pa.array(short)), pa.uint64()).to_numpy()
        bins[short] = _bit_length(small) - 1
    for i in np.flatnonzero(valid & ~short):
        bins[i] = int(texts[int(i)].as_py()).bit_length() - 1
    return pa.array(bins, mask=~valid)


_GROUP = ("rows", "cols", "density")


def _binned(chunk: pa.Table, statistic: str, bins: pa.Array) -> pa.Table:
    """Boards per (group, bin) of one statistic in one chunk (null bins left out)."""
    table = pa.table({**{k: chunk.column(k) for k in _GROUP}, "bin": bins.cast(pa.int64())})
    table = table.filter(pc.is_valid(table.column("bin")))
    counted = table.group_by([*_GROUP, "bin"], use_threads=False).aggregate([([], "count_all")])
    return counted.append_column("statistic", pa.array([statistic] * counted.num_rows, pa.string()))


def summarize(chunks: Iterable[pa.Table], options: Mapping) -> pa.Table:
    """The ``summary`` rows of ``maxima`` rows given in chunks (counts added exactly)."""
    totals: dict[tuple, int] = {}
    status = pa.array(COUNT_STATUS)
    for chunk in chunks:
        parts = [_binned(chunk, "max_rooks", chunk.column("max_rooks").combine_chunks())]
        if options["counts"]:
            parts.append(
                _binned(chunk, "placements_log2", _log2_bins(chunk.column("placements_text")))
            )
            parts.append(
                _binned(
                    chunk, "max_placements_log2", _log2_bins(chunk.column("max_placements_text"))
                )
            )
            parts.append(
                _binned(
                    chunk,
                    "count_status",
                    pc.index_in(chunk.column("count_status"), status).combine_chunks(),
                )
            )
        for part in parts:
            for r, c, d, b, n, s in zip(*(col.to_pylist() for col in part.columns), strict=True):
                key = (r, c, d, s, b)
                totals[key] = totals.get(key, 0) + n
    keys = sorted(totals, key=_nulls_last)
    boards, text = count_arrays([totals[k] for k in keys])
    columns = {
        name: pa.array([k[i] for k in keys], SUMMARY.columns[i].type)
        for i, name in enumerate(_KEYS)
    }
    return pa.table(
        {**columns, "boards": boards, "boards_text": text}, schema=SUMMARY.compute_schema()
    )


def histograms(table: pa.Table, statistic: str = "max_rooks") -> dict[tuple, dict[int, int]]:
    """``{(rows, cols, density): {bin: boards}}`` of one statistic, rows of equal keys added
    (other points, other nights), exact."""
    out: dict[tuple, dict[int, int]] = {}
    data = table.select(["rows", "cols", "density", "statistic", "bin", "boards_text"])
    for r, c, d, s, b, n in zip(*(col.to_pylist() for col in data.columns), strict=True):
        if s == statistic:
            hist = out.setdefault((r, c, d), {})
            hist[b] = hist.get(b, 0) + int(n)
    return out


def _quantile(values: np.ndarray, weights: np.ndarray, q: float) -> int:
    """The smallest value whose cumulative share reaches ``q`` (exact on integer weights)."""
    total = int(sum(int(w) for w in weights))
    need = q * total
    acc = 0
    for v, w in zip(values, weights, strict=True):
        acc += int(w)
        if acc >= need:
            return int(v)
    return int(values[-1])


def statistics(table: pa.Table):
    """Per (rows, cols, density): boards, mean, variance, 5%/50%/95% quantiles, maximum and
    the 95% confidence interval of the mean (normal approximation), from the max-rooks
    histograms of a ``summary`` table; a pandas DataFrame."""
    import pandas as pd

    records = []
    for (r, c, d), hist in sorted(histograms(table).items(), key=lambda kv: _nulls_last(kv[0])):
        values = np.array(sorted(hist), dtype=np.int64)
        weights = [hist[v] for v in values]
        n = sum(weights)
        total = sum(int(v) * w for v, w in zip(values, weights, strict=True))
        square = sum(int(v) ** 2 * w for v, w in zip(values, weights, strict=True))
        mean = total / n
        variance = (square - total * total / n) / (n - 1) if n > 1 else 0.0
        half = 1.959964 * (variance / n) ** 0.5
        records.append(
            {
                "rows": r,
                "cols": c,
                "density": d,
                "boards": n,
                "mean": mean,
                "variance": variance,
                "ci95_low": mean - half,
                "ci95_high": mean + half,
                "p05": _quantile(values, weights, 0.05),
                "median": _quantile(values, weights, 0.5),
                "p95": _quantile(values, weights, 0.95),
                "max": int(values[-1]),
            }
        )
    return pd.DataFrame.from_records(
        records,
        columns=[
            "rows",
            "cols",
            "density",
            "boards",
            "mean",
            "variance",
            "ci95_low",
            "ci95_high",
            "p05",
            "median",
            "p95",
            "max",
        ],
    )
