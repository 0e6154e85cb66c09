"""M queens and N rooks (seed b510): placements on an n x n board, n = M + N, no piece attacked,
as a count problem of the contract (:data:`PROBLEM`).

One search answers a whole row M = 0..n of a board side n (the reduction, the kernels and their
notation are in :mod:`.kernel`; the D4 symmetry and the prefixes that split the search in
:mod:`.symmetry`), so a job's *point* is one n with the sorted list of the M it wants; a
strategy per point picks the kernel: ``formula`` (M = 0 only: n!, no search), ``typed`` (only
large M, few rooks) or ``free`` (anything else).  The seed's text format is in :mod:`.format`,
the report in :mod:`.report`; the kernels are imported on first use, so importing this package
stays cheap.

Job params: ``total`` (board sides n: every M = 0..n of each) or ``pairs`` (``[[M, N], ...]``
with 1 <= M + N <= 32), exactly one of them; ``lines`` (optional) lists the (M, N) of a seed
input's lines in input order, the empty board ``[0, 0]`` included: ``judge`` sets it to answer
one line each, and it changes nothing that is computed.

Table ``counts`` (merge ``sum``, keys ``n``, ``queens``, ``rooks``): the exact count of each
(M, N) wanted and ``nodes``, the nodes of the search that answered its point (shared by every
row of the point).

Work units: the prefixes of the point's search (:func:`.symmetry.extend`, with their orbit
weights) at a depth fixed by the point (:func:`unit_plan`): the smallest depth with at least
``max(64, cost / 0.05 s)`` prefixes, never one with more than 2e6 (a task lists them all and
keeps its own).  Unit u is prefix ``(u * g) mod P`` (the plan and the interleaving are
:mod:`solvers.prefix_count`'s), so a contiguous range of units is a pseudo-random sample of the
prefixes.  A ``formula`` point is one unit.

The empty board (0, 0) has exactly one placement, the empty one, and is no point of a sweep
(configs refuse M + N = 0).  ``solve queens_rooks 0 0`` and a seed input with no other line run
the stand-in job :data:`STAND_IN` (one rook on a 1 x 1 board: the formula, no search), and the
answer for (0, 0) is written without looking at the table.

This module is long because it is the problem's whole declaration: the work units and their
plans, the tables, the params, the seed format's hooks and the second methods (the searches
themselves are in :mod:`.kernel` and its siblings).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from types import ModuleType

import numpy as np
import pyarrow as pa

from .. import prefix_count
from ..contract import (
    Column,
    CountProblem,
    Crosscheck,
    Point,
    SeedFormat,
    SolveCommand,
    Table,
    count_arrays,
    count_columns,
)
from ..prefixes import CountResult, Prefixes
from ..schema import Field, Integer, IntegerSet, ListOf, Pair, ParamError, Record
from .symmetry import MAX_TOTAL, border_table, extend, items, paths

__all__ = [
    "PROBLEM",
    "MAX_TOTAL",
    "MIN_UNITS",
    "MAX_UNITS",
    "COUNTS",
    "STAND_IN",
    "max_depth",
    "prefixes",
    "count",
    "placements",
    "row",
    "free_histogram",
    "border_table",
    "strategy",
    "cost",
    "unit_plan",
    "unit_prefixes",
    "count_units",
    "crosscheck",
]

# the unit plan (see the module docstring)
MIN_UNITS = 64
MAX_UNITS = 2_000_000
_CHUNK = 1 << 14  # units counted at once (the per-prefix histograms are Python ints)

STAND_IN = (0, 1)  # the job run for the empty board: 0 queens and 1 rook, the formula


def _kernel() -> ModuleType:
    """The numba kernels, imported on first use (numba is slow to import)."""
    from . import kernel

    return kernel


# --------------------------------------------------------------------------------------------
# points


def _check_point(out: dict, key: tuple) -> dict:
    n = out["n"]
    if "queens" not in out:
        out["queens"] = tuple(range(n + 1))
    for i, q in enumerate(out["queens"]):
        if q > n:
            raise ParamError(
                f"{q} is out of range for n = {n}: expected 0 <= M <= n", (*key, "queens", i)
            )
    return out


POINT = Record(
    {
        "n": Field(Integer(1, MAX_TOTAL), required=True, doc="board side n = M + N"),
        "queens": Field(
            ListOf(Integer(0), what="a non-empty list of integers M (queens)"),
            doc="the M wanted (default: every M = 0..n)",
        ),
    },
    "a queens_rooks point {n: N, queens: [M, ...]}",
    check_all=_check_point,
)


def _point(params: Mapping) -> tuple[int, tuple[int, ...]]:
    """Check a point ``{"n": n, "queens": [M, ...]}``; return (n, queens)."""
    checked = POINT.check(params)
    return checked["n"], checked["queens"]


def _typed_rook_limit(n: int) -> int:
    """Most rooks for which the typed search beats the whole-row pass.

    The typed / whole-row time ratio grows about fourfold per rook at a given n and halves
    per step of n (:data:`_TYPED_RATIO_13`, :data:`_TYPED_PER_SIDE`, measured by
    ``benchmarks/queens_rooks_typed.py``), so it is below 1 about iff j <= (n - 9) / 2 for
    j = n - M rooks.
    """
    return (n - 9) // 2


def strategy(params: Mapping) -> str:
    """Which method answers a point: ``formula`` (M = 0 only), ``typed`` or ``free``."""
    n, queens = _point(params)
    positive = [q for q in queens if q > 0]
    if not positive:
        return "formula"
    return "typed" if n - min(positive) <= _typed_rook_limit(n) else "free"


# least-border permutations per core-second, free kernel with its bulk tails, fitted to the row
# n = 14; typed / free time at n = 13 for j = 0..5 rooks, and its factors per further rook and
# per step of n (benchmarks/queens_rooks_typed.py prints the measurements behind all four)
_PERMS_PER_SECOND = 8.3e8
_TYPED_RATIO_13 = (0.016, 0.12, 0.75, 3.5, 11.7, 32.0)
_TYPED_PER_ROOK = 2.8  # past j = 5
_TYPED_PER_SIDE = 0.52


def cost(params: Mapping) -> float:
    """Estimated CPU seconds of a point on one core here (for the planner; 0 for the formula)."""
    n, queens = _point(params)
    how = strategy(params)
    if how == "formula":
        return 0.0
    seconds = math.factorial(n) / 8 / _PERMS_PER_SECOND
    if how == "typed":
        j = n - min(q for q in queens if q > 0)
        ratio = _TYPED_RATIO_13[j] if j < 6 else _TYPED_RATIO_13[5] * _TYPED_PER_ROOK ** (j - 5)
        seconds *= min(1.0, ratio * _TYPED_PER_SIDE ** (n - 13))
    return seconds


# --------------------------------------------------------------------------------------------
# prefixes and counts


def max_depth(params: Mapping) -> int:
    """Deepest split: 0 for the formula, else 4 border decisions plus up to n - 2 open rows."""
    n, _ = _point(params)
    return 0 if strategy(params) == "formula" else 4 + max(n - 2, 0)


def prefixes(params: Mapping, depth: int) -> Prefixes:
    """The first ``depth`` decisions of every least-border permutation, with their weights."""
    n, _ = _point(params)
    deepest = max_depth(params)
    depth = Integer(0, deepest, "depth").check(depth, ("depth",))
    if depth == 0:
        return Prefixes(np.zeros((1, 0), np.int16), np.ones(1, np.int64))
    table, weight = border_table(n)
    if depth < 4:
        choices = np.unique(table[:, :depth], axis=0).astype(np.int16)
        return Prefixes(choices, np.ones(choices.shape[0], np.int64))
    choices, weight = extend(n, np.array(table, np.int16), weight, depth - 4)
    return Prefixes(choices, weight)


def count(params: Mapping, prefixes: Prefixes) -> CountResult:
    """Placements below each prefix, one column per wanted M (see :mod:`.symmetry`)."""
    n, queens = _point(params)
    how = strategy(params)
    k, depth = prefixes.choices.shape
    if depth > max_depth(params):
        raise ParamError(f"prefix depth {depth} is beyond max_depth = {max_depth(params)}")
    if how == "formula":  # M = 0 only: the n! permutations, no search
        counts = np.full((k, len(queens)), math.factorial(n), dtype=object)
        return CountResult(_exact(counts), np.zeros(k, np.int64))
    fixed, owner, factor = items(n, np.asarray(prefixes.choices))
    positive = [q for q in queens if q > 0]
    hist, nodes = _kernel()._histograms(n, fixed, how == "typed", n - min(positive), max(queens))
    # exact arithmetic from here on: Python ints in object arrays
    factor = factor.astype(object)
    factorials = np.array([math.factorial(j) for j in range(n + 1)], dtype=object)
    weighted = hist.astype(object) * factor[:, None]
    perms_item = factor * factorials[(fixed < 0).sum(axis=1)]
    if depth >= 4:  # one search per prefix
        per_prefix, perms, node_sum = weighted, perms_item, nodes
    else:  # sum the searches of the borders below each prefix
        per_prefix = np.zeros((k, n + 1), dtype=object)
        perms = np.zeros(k, dtype=object)
        node_sum = np.zeros(k, np.int64)
        np.add.at(per_prefix, owner, weighted)
        np.add.at(perms, owner, perms_item)
        np.add.at(node_sum, owner, nodes)
    if how == "free":
        if not (per_prefix.sum(axis=1) == perms).all():
            raise AssertionError("free-piece histogram does not sum to the permutation count")
        counts = _choose_queens(per_prefix, perms, queens)
    else:
        counts = per_prefix[:, list(queens)]
    for col, q in enumerate(queens):
        if q == 0:
            counts[:, col] = perms
    return CountResult(_exact(counts), node_sum)


def _choose_queens(histogram: np.ndarray, perms: np.ndarray, queens: Sequence[int]) -> np.ndarray:
    """``sum_k histogram[i, k] * C(k, M)`` per row i and wanted M (object arrays, exact).

    Each sum is at most ``perms[i] * max C(k, M)``: below 2**63 the int64 product is exact.
    """
    binom = np.array(
        [[math.comb(j, q) for q in queens] for j in range(histogram.shape[1])], dtype=object
    )
    if len(perms) and perms.max() * binom.max() < 2**63:
        return (histogram.astype(np.int64) @ binom.astype(np.int64)).astype(object)
    return histogram @ binom


def _exact(counts: np.ndarray) -> np.ndarray:
    """uint64 when every count (Python ints, object array) fits, else the object array itself."""
    if counts.size == 0 or counts.max() < 2**64:
        return counts.astype(np.uint64)
    return counts


def _solve(n: int, queens: list[int]) -> list[int]:
    """Counts for one board size in a single search (depth 0)."""
    params = {"n": n, "queens": queens}
    result = count(params, prefixes(params, 0))
    return [int(v) for v in result.counts[0]]


def placements(m: int, n_rooks: int) -> int:
    """Placements of ``m`` queens and ``n_rooks`` rooks on the (m + n_rooks)-square board."""
    m = Integer(0).check(m, ("M",))
    n_rooks = Integer(0).check(n_rooks, ("N",))
    if m + n_rooks == 0:
        return 1  # the empty board holds the empty placement
    if m + n_rooks > MAX_TOTAL:
        raise ParamError(f"M + N = {m + n_rooks} is out of range: expected M + N <= {MAX_TOTAL}")
    return _solve(m + n_rooks, [m])[0]


def row(n: int) -> list[int]:
    """``[placements(M, n - M) for M in 0..n]`` from one whole-row search."""
    n = Integer(1, MAX_TOTAL).check(n, ("n",))
    return _solve(n, list(range(n + 1)))


def free_histogram(n: int) -> list[int]:
    """``H[k]``: the permutations of n with exactly k free pieces, k = 0..n."""
    n = Integer(1, MAX_TOTAL).check(n, ("n",))
    fixed, _, factor = items(n, np.zeros((1, 0), np.int16))
    hist, _ = _kernel()._histograms(n, fixed, False, n, n)
    total = [0] * (n + 1)
    for f, h in zip(factor.tolist(), hist.tolist(), strict=True):
        for j in range(n + 1):
            total[j] += f * h[j]
    return total


# --------------------------------------------------------------------------------------------
# work units


@cache
def _plan(n: int, queens: tuple[int, ...]) -> tuple[int, int]:
    """(depth, units) of a point (see the module docstring): quick even at n = 32."""
    params = {"n": n, "queens": queens}
    depths = range(1, max_depth(params) + 1)
    return prefix_count.plan(cost(params), depths, lambda d, cap: paths(n, d), MIN_UNITS, MAX_UNITS)


def unit_plan(params: Mapping) -> tuple[int, int]:
    """``(depth, units)`` of a point ``{"n": n, "queens": [M, ...]}``: its split depth and its
    number of prefixes there, which are its work units."""
    return _plan(*_point(params))


@lru_cache(maxsize=2)
def _prefix_table(n: int, depth: int) -> Prefixes:
    """Every prefix of ``depth`` (the whole-row search's; read-only), kept for the next task."""
    table = prefixes({"n": n}, depth)
    table.choices.flags.writeable = False
    table.weight.flags.writeable = False
    return table


def unit_prefixes(params: Mapping, lo: int, hi: int) -> Prefixes:
    """The prefixes of units ``lo..hi-1`` of a point, in the search's order (not unit order)."""
    n, queens = _point(params)
    depth, units = _plan(n, queens)
    wanted = prefix_count.sorted_prefix_numbers(units, lo, hi)
    if depth == 0:
        return Prefixes(np.zeros((len(wanted), 0), np.int16), np.ones(len(wanted), np.int64))
    return _prefix_table(n, depth).take(wanted)


def count_units(params: Mapping, lo: int, hi: int) -> tuple[list[int], int]:
    """(exact counts, one per wanted M; nodes) below the units ``lo..hi-1`` of a point; summed
    over any partition of its units they give the point's answer."""
    n, queens = _point(params)

    def count_chunk(a: int, b: int) -> list[int]:
        part = unit_prefixes(params, a, b)
        result = count(params, part)
        weight = part.weight.astype(object)
        totals = [
            int((result.counts[:, j].astype(object) * weight).sum()) for j in range(len(queens))
        ]
        return [*totals, int(result.nodes.sum())]

    *totals, nodes = prefix_count.count_units(
        _plan(n, queens)[1], lo, hi, _CHUNK, len(queens) + 1, count_chunk
    )
    return totals, nodes


# --------------------------------------------------------------------------------------------
# the contract


COUNTS = Table(
    "counts",
    "placements of M queens and N rooks on the (M+N) x (M+N) board, none attacked",
    (
        Column("n", pa.int32(), "board side n = M + N", "cells", "key"),
        Column("queens", pa.int32(), "M, the queens", "pieces", "key"),
        Column("rooks", pa.int32(), "N, the rooks", "pieces", "key"),
        *count_columns("count", "placements with no piece attacked", "placements"),
        Column(
            "nodes",
            pa.int64(),
            "nodes of the search that answered this row's point (one search "
            "answers every M of a board side)",
            "nodes",
            "sum",
        ),
    ),
    merge="sum",
    keys=("n", "queens", "rooks"),
)

_PAIR = Pair(
    Integer(0, MAX_TOTAL, "M"),
    Integer(0, MAX_TOTAL, "N"),
    "a pair [M, N] of non-negative integers (queens, rooks)",
)


def _check_job(out: dict, key: tuple) -> dict:
    if ("total" in out) == ("pairs" in out):
        raise ParamError(
            "expected exactly one of 'total' (board sides M + N) or 'pairs' (a list of [M, N])", key
        )
    for i, (m, r) in enumerate(out.get("pairs", ())):
        if not 1 <= m + r <= MAX_TOTAL:
            raise ParamError(
                f"M + N = {m + r} is out of range: expected 1 <= M + N <= {MAX_TOTAL}"
                + (" (the empty board is not part of a sweep)" if m + r == 0 else ""),
                (*key, "pairs", i),
            )
    sides, pairs = set(out.get("total", ())), set(out.get("pairs", ()))
    for i, (m, r) in enumerate(out.get("lines", ())):
        if (m, r) != (0, 0) and m + r not in sides and (m, r) not in pairs:
            raise ParamError(f"[{m}, {r}] is not one of the job's (M, N)", (*key, "lines", i))
    return out


PARAMS = Record(
    {
        "total": Field(
            IntegerSet(1, MAX_TOTAL), doc="board sides n = M + N: every M = 0..n of each"
        ),
        "pairs": Field(
            ListOf(_PAIR, what="a non-empty list of [M, N] pairs"),
            doc="the (M, N) wanted, each 1 <= M + N <= 32",
        ),
        "lines": Field(
            ListOf(_PAIR, least=0, unique=False, what="a list of [M, N] pairs"),
            doc="judge only: the (M, N) of the input lines in order, [0, 0] included; "
            "the judge writes one count per line (nothing computed depends on it)",
        ),
    },
    "a queens_rooks job",
    check_all=_check_job,
)


def _wanted(params: Mapping) -> dict[int, list[int]]:
    """Board side -> sorted M wanted."""
    if "total" in params:
        return {n: list(range(n + 1)) for n in params["total"]}
    wanted: dict[int, set[int]] = {}
    for m, r in params["pairs"]:
        wanted.setdefault(m + r, set()).add(m)
    return {n: sorted(qs) for n, qs in wanted.items()}


def _label(n: int, queens: Sequence[int]) -> str:
    if len(queens) == 1:
        return f"n={n} (M={queens[0]}, N={n - queens[0]})"
    if list(queens) == list(range(n + 1)):
        return f"n={n} (M=0..{n})"
    return f"n={n} (M={','.join(map(str, queens))})"


def _points(params: Mapping, table: str) -> list[Point]:
    if table != "counts":
        raise KeyError(f"queens_rooks has no table {table!r}")
    out = []
    for n, queens in sorted(_wanted(params).items()):
        point = {"n": n, "queens": queens}
        _, units = unit_plan(point)
        out.append(Point("counts", point, units, cost(point), _label(n, queens)))
    return out


def _compute(point: Point, lo: int, hi: int) -> pa.Table:
    n, queens = point.params["n"], list(point.params["queens"])
    totals, nodes = count_units(point.params, lo, hi)
    count_col, text_col = count_arrays(totals)
    k = len(queens)
    return pa.table(
        {
            "n": pa.array([n] * k, pa.int32()),
            "queens": pa.array(queens, pa.int32()),
            "rooks": pa.array([n - q for q in queens], pa.int32()),
            "count": count_col,
            "count_text": text_col,
            "nodes": pa.array([nodes] * k, pa.int64()),
        },
        schema=COUNTS.compute_schema(),
    )


def _solve_job(args: Mapping) -> dict:
    m, r = args["queens"], args["rooks"]
    if m + r > MAX_TOTAL:
        raise ParamError(f"M + N = {m + r} is out of range: expected M + N <= {MAX_TOTAL}")
    return {"pairs": (STAND_IN if m + r == 0 else (m, r),)}


def _solve_answer(table: pa.Table, args: Mapping) -> str:
    m, r = args["queens"], args["rooks"]
    if m + r == 0:
        return "1"  # the empty board: the empty placement
    for q, text in zip(
        table.column("queens").to_pylist(), table.column("count_text").to_pylist(), strict=True
    ):
        if q == m:
            return text
    raise KeyError(f"no count for M = {m}, N = {r} in the table")


def _read(text: str) -> dict:
    from .format import parse

    lines = parse(text)
    pairs = tuple(dict.fromkeys(p for p in lines if p != (0, 0)))
    return {"pairs": pairs or (STAND_IN,), "lines": tuple(lines)}


def _write(
    tables: Mapping[str, Iterator[pa.RecordBatch]], params: Mapping, note
) -> Iterator[bytes]:
    from .format import render

    found = {(0, 0): 1}
    for batch in tables["counts"]:
        found.update(
            zip(
                zip(
                    batch.column("queens").to_pylist(),
                    batch.column("rooks").to_pylist(),
                    strict=True,
                ),
                map(int, batch.column("count_text").to_pylist()),
                strict=True,
            )
        )
    lines = params.get("lines", params.get("pairs", ()))
    yield render(found[tuple(p)] for p in lines).encode()


def _report(job: str, tables, related=()):
    from .report import report

    return report(job, tables, related)


CROSSCHECK_QUEENS = 2  # the permanent method places M <= 2 queens in well under a second


def crosscheck(point: Point, lo: int, hi: int, published: pa.Table) -> Crosscheck | None:
    """Second method: Ryser's permanent, for M <= 2 queens and whole points.

    A whole point's counts for M <= :data:`CROSSCHECK_QUEENS` by a second method (the
    contract's ``crosscheck``): the queens placed by plain loops, the rooks counted as the
    permanent of the cells left free (:mod:`.permanent`, Ryser's formula).  Its rows hold those
    M only; None for a part of a point, or a point with no such M."""
    from .permanent import MAX_FREE, cell

    n, queens = _point(point.params)
    wanted = [m for m in queens if m <= CROSSCHECK_QUEENS and n - m <= MAX_FREE]
    if (lo, hi) != (0, point.units) or not wanted:
        return None
    count_col, text_col = count_arrays([cell(n, m) for m in wanted])
    return Crosscheck(
        "Ryser's permanent (queens placed by plain loops)",
        pa.table(
            {
                "n": pa.array([n] * len(wanted), pa.int32()),
                "queens": pa.array(wanted, pa.int32()),
                "rooks": pa.array([n - m for m in wanted], pa.int32()),
                "count": count_col,
                "count_text": text_col,
            }
        ),
    )


def _warm_units() -> None:
    """The kernels of the contract's work units."""
    point = {"n": 6, "queens": list(range(7))}
    count_units(point, 0, unit_plan(point)[1])


# the row search of row(), placements() and count() is not warmed: no task runs it
WARM_STEPS = (_warm_units,)


PROBLEM = CountProblem(
    name="queens_rooks",
    doc="placements of M queens and N rooks on the (M+N) x (M+N) board, no piece attacked",
    params=PARAMS,
    tables=(COUNTS,),
    modules=(__name__,),
    solve=SolveCommand(
        arguments=(
            ("queens", Integer(0, MAX_TOTAL, "M"), "M, the queens"),
            ("rooks", Integer(0, MAX_TOTAL, "N"), "N, the rooks"),
        ),
        job=_solve_job,
        answer=_solve_answer,
    ),
    points_of=_points,
    compute_units=_compute,
    seed_format=SeedFormat(_read, _write),
    report=_report,
    warm=WARM_STEPS,
    crosscheck=crosscheck,
)
