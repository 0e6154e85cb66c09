"""Exact distributions of the maximum over every wall pattern: the ``distribution`` table, the
``{all: {rows, cols}}`` job source that fills it, and the polynomials that follow from it.

A row ``(rows, cols, walls, max_rooks, boards)`` says that ``boards`` of the
``2**(rows*cols)`` wall patterns of a ``rows`` x ``cols`` board have ``walls`` walls and
a maximum of exactly ``max_rooks`` rooks (:mod:`solvers.max_rooks.exhaustive` computes them).  When
each cell is a wall with probability ``p``,

    P(max = m | p) = sum over w of boards[w, m] * p**w * (1 - p)**(cells - w),

a polynomial in ``p`` with integer coefficients (:func:`polynomials`), and so is
``E[max](p)`` (:func:`mean_polynomial`).  :func:`moments` evaluates the mean and variance at
any ``p`` exactly (``p`` a Fraction) or in floating point.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import comb

import numpy as np
import pyarrow as pa

from ..contract import Column, Exhaustive, Point, Table, count_arrays, count_columns
from ..schema import Field, IntegerSet, ParamError, Record
from .exhaustive import (
    MAX_CELLS,
    MAX_NARROW,
    distribution_units,
    first_rows,
    key_words,
    oriented,
    wide,
)
from .tables import shape_keys

__all__ = [
    "DISTRIBUTION",
    "EXHAUSTIVE",
    "histograms",
    "polynomials",
    "mean_polynomial",
    "moments",
    "exhaustive_seconds",
    "exhaustive_states",
    "exhaustive_bytes",
    "PROCESS_BYTES",
]

DISTRIBUTION = Table(
    "distribution",
    "every wall pattern of a board size: how many have a given number of walls "
    "and a given maximum number of rooks",
    (
        *shape_keys("the board"),
        Column("walls", pa.int32(), "wall cells", "cells", "key"),
        Column("max_rooks", pa.int32(), "the most rooks that can stand unattacked", "rooks", "key"),
        *count_columns("boards", "wall patterns with these walls and this maximum", "boards"),
    ),
    merge="sum",
    keys=("rows", "cols", "walls", "max_rooks"),
)


PROCESS_BYTES = 2e8  # a worker process with numba, numpy and pyarrow loaded, roughly


def exhaustive_seconds(rows: int, cols: int) -> float:
    """Rough single-core seconds for every pattern of ``rows`` x ``cols``: a factor per unit
    of the narrow side and the long side to the power 2.5 (fitted to runs of 6 to 9 columns
    and 6 to 12 rows; ``benchmarks/max_rooks_exact.py`` prints it next to measured times, on
    the speed page, docs/speed.md)."""
    length, width = oriented(rows, cols)
    return 200.0 * 20.0 ** (width - 9) * (length / width) ** 2.5


def exhaustive_states(rows: int, cols: int) -> float:
    """Rough number of states the program holds at once for ``rows`` x ``cols``: a factor
    per unit of the narrow side, and linear in the long side (fitted as above)."""
    length, width = oriented(rows, cols)
    return 4.6e6 * 8.5 ** (width - 9) * max(length - 0.45 * width, 1) / (0.55 * width)


def exhaustive_bytes(rows: int, cols: int) -> float:
    """Rough peak bytes of the program for ``rows`` x ``cols``: per state its key in two
    buffers with room to grow, its counts (a run of wall counts, one limb or two, in two
    layers) and its indexes; and the process itself."""
    length, width = oriented(rows, cols)
    cells = rows * cols
    limbs = 2 if wide(cells) else 1
    per_state = 16 * key_words(width) + (1 + 5 * limbs) * cells + 64
    return PROCESS_BYTES + exhaustive_states(rows, cols) * per_state


def _shapes(params: Mapping) -> list[tuple[int, int]]:
    """The board shapes of ``{all: {rows, cols}}``: every pair, or squares without cols."""
    if "cols" not in params:
        return [(n, n) for n in params["rows"]]
    return sorted({(r, c) for r in params["rows"] for c in params["cols"]})


def _points(params: Mapping) -> list[Point]:
    """One point per board shape, of one work unit.

    The program could be cut by first-row pattern (:func:`distribution_units`), but its
    patterns share states from the second row on, so every part costs nearly the whole:
    measured at 7x7, the time grew almost in proportion to the number of parts.  Cutting a
    later layer's states in two by their base (the rooks placed so far) divides better, yet
    the layers before the cut are then computed twice and the parts do not come out even
    (tried at 7x7 and recorded with the 9x9 run's notes).  A shape is therefore one task; a
    job of several shapes runs them side by side and resumes by shape.
    """
    return [
        Point(
            DISTRIBUTION.name,
            {"rows": rows, "cols": cols},
            1,
            exhaustive_seconds(rows, cols),
            f"all {rows}x{cols} boards",
        )
        for rows, cols in _shapes(params)
    ]


def _check(params: Mapping) -> None:
    """ParamError for a shape the program cannot search, with its estimates when it is only
    too large."""
    for rows, cols in _shapes(params):
        if rows * cols > MAX_CELLS:
            raise ParamError(
                f"{rows} x {cols}: every pattern is searched only for boards of at most "
                f"{MAX_CELLS} cells"
            )
        if min(rows, cols) > MAX_NARROW:
            states, gb = exhaustive_states(rows, cols), exhaustive_bytes(rows, cols) / 1e9
            hours = exhaustive_seconds(rows, cols) / 3600
            raise ParamError(
                f"{rows} x {cols}: out of reach: every pattern is searched only for boards "
                f"whose shorter side is at most {MAX_NARROW}; this one would hold about "
                f"{states:.2g} states, {gb:.0f} GB at once, for about {hours:.0f} CPU hours "
                "(estimated)"
            )


def _memory(params: Mapping) -> float:
    """Estimated peak bytes of the largest shape's program."""
    return max(exhaustive_bytes(rows, cols) for rows, cols in _shapes(params))


def _compute(point: Point, lo: int, hi: int) -> pa.Table:
    """The ``distribution`` rows of every board of the point's shape (its one unit)."""
    rows, cols = point.params["rows"], point.params["cols"]
    units = len(first_rows(oriented(rows, cols)[1])[0])
    hist, _ = distribution_units(rows, cols, 0, units)
    walls, maxima = np.nonzero(hist != 0)
    boards, text = count_arrays([hist[w, m] for w, m in zip(walls, maxima, strict=True)])
    n = len(walls)
    return pa.table(
        {
            "rows": pa.array(np.full(n, rows), pa.int32()),
            "cols": pa.array(np.full(n, cols), pa.int32()),
            "walls": pa.array(walls, pa.int32()),
            "max_rooks": pa.array(maxima, pa.int32()),
            "boards": boards,
            "boards_text": text,
        },
        schema=DISTRIBUTION.compute_schema(),
    )


_SIDE = IntegerSet(1, MAX_CELLS)  # a side of up to MAX_CELLS: 1 x 127 is one of the boards

EXHAUSTIVE = Exhaustive(
    params=Record(
        {
            "rows": Field(_SIDE, required=True, doc="board rows"),
            "cols": Field(
                _SIDE,
                doc="board columns: every (rows, cols) pair (default: square boards of each rows)",
            ),
        },
        "a mapping with rows (and cols)",
    ),
    table=DISTRIBUTION,
    points=_points,
    compute=_compute,
    check=_check,
    memory=_memory,
)


# ----------------------------------------------------------------------------- polynomials


def histograms(table: pa.Table) -> dict[tuple[int, int], dict[tuple[int, int], int]]:
    """``{(rows, cols): {(walls, max_rooks): boards}}`` from a ``distribution`` table, exact;
    ValueError when a shape's boards do not add up to ``2**(rows*cols)``."""
    out: dict[tuple[int, int], dict[tuple[int, int], int]] = {}
    columns = [
        table.column(c).to_pylist() for c in ("rows", "cols", "walls", "max_rooks", "boards_text")
    ]
    for r, c, w, m, n in zip(*columns, strict=True):
        cell = out.setdefault((r, c), {})
        cell[(w, m)] = cell.get((w, m), 0) + int(n)
    for (r, c), cell in out.items():
        if sum(cell.values()) != 2 ** (r * c):
            raise ValueError(
                f"{r}x{c}: the distribution holds {sum(cell.values())} boards, "
                f"not 2**{r * c} (an incomplete table)"
            )
    return out


def polynomials(hist: Mapping[tuple[int, int], int], cells: int) -> dict[int, list[int]]:
    """``{m: [a_0, ..., a_cells]}``: ``P(max = m | p) = sum_k a_k p**k``, exact integers."""
    out: dict[int, list[int]] = {}
    for (w, m), n in hist.items():
        coeffs = out.setdefault(m, [0] * (cells + 1))
        for j in range(cells - w + 1):  # p**w (1-p)**(cells-w)
            coeffs[w + j] += n * comb(cells - w, j) * (-1) ** j
    return dict(sorted(out.items()))


def mean_polynomial(hist: Mapping[tuple[int, int], int], cells: int) -> list[int]:
    """``[a_0, ..., a_cells]``: ``E[max](p) = sum_k a_k p**k``, exact integers."""
    mean = [0] * (cells + 1)
    for m, coeffs in polynomials(hist, cells).items():
        for k, a in enumerate(coeffs):
            mean[k] += m * a
    return mean


def moments(
    hist: Mapping[tuple[int, int], int], cells: int, p: float | Fraction
) -> tuple[float | Fraction, float | Fraction]:
    """``(E[max], Var[max])`` at wall probability ``p`` (exact for a Fraction ``p``)."""
    one = Fraction(1) if isinstance(p, Fraction) else 1.0
    mean = second = 0 * one
    for (w, m), n in hist.items():
        w, m = int(w), int(m)  # numpy integers would wrap around in Fraction arithmetic
        weight = int(n) * p**w * (one - p) ** (cells - w)
        mean += m * weight
        second += m * m * weight
    return mean, second - mean * mean
