"""N-queens (seed AcWing 843): Q(n), the placements of n non-attacking queens on an n x n board,
U(n), its fundamental solutions (classes under the 8 symmetries of the square), and every
solution, as a count problem of the contract (:data:`PROBLEM`).

The searches live in :mod:`.kernel` (the walks and the search's notation), :mod:`.symmetry`,
:mod:`.tree` (prefixes, entry points), :mod:`.constellations` (the counts table's search) and
:mod:`.bits` (numba, imported on first use so that importing this package stays cheap), the
seed's text format in :mod:`.format`, the report in :mod:`.report`.

Tables
------
``counts`` (merge ``sum``, key ``n``): Q(n) and U(n) (``unique``) as exact counts and
``nodes``, the queens the constellation search placed below the point's work units.  Both
counts come from the same walk: a unit adds the orbit size of its constellation per leaf to Q
and its leaves that are least in their class to U, and any split adds up to both.
``solutions`` (merge ``rows``, only when the job says ``solutions: true``): every solution,
``solution[r]`` the column of row r's queen, in lexicographic order.

Work units
----------
``counts``: the units of the constellation search (:mod:`.constellations`: the queens of the
four border lines placed first, one constellation per class under the 8 symmetries, then the
inner rows top to bottom), each a canonical constellation and the columns of its first d inner
rows, at a depth d fixed by n alone (:func:`unit_plan`): the smallest depth with at least
``max(1024, cost(n) / 0.05 s)`` units, never one with more than 3e8 (a task walks all of them
to find its own; that walk is its fixed overhead).  Unit u is the ``(u * g) mod P``-th unit in
the walk's order (the plan and the interleaving are :mod:`solvers.prefix_count`'s), so a
contiguous range of units is a pseudo-random sample of them and ranges of equal length cost
about the same.  A task lists only its own units (:func:`unit_prefixes`): it sorts their
numbers and walks the constellations'
inner rows to depth d in order, storing those and counting the rest (the last row's columns at
once), never all P of them: for n = 27, P at depth 3 is 180,103,175, and the walk is still quick
(``benchmarks/plan_q27.py``; figures on the speed page, docs/speed.md).
:func:`prefixes` and :func:`count` are the symmetric row-by-row search (:mod:`.tree`), whose
prefixes are first-row choices, not the counts table's units: :func:`crosscheck` counts with
it, a second method, and no task runs it.

``solutions``: the valid placements of the first d rows (plain search, no symmetry) in
lexicographic order, d = 0 below n = 8, 1 below 12, 2 below 15, else 3
(:func:`solution_depth`); unit u is the u-th of them, so unit ranges concatenated in order
list the solutions in lexicographic order.

This module is long because it is the problem's whole declaration: both tables' work units and
their plans, the tables, the params, the seed format's hooks and the second methods (the
searches themselves are in the modules named above).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
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
from ..schema import Field, Flag, Integer, IntegerSet, ParamError, Record

__all__ = [
    "PROBLEM",
    "MAX_N",
    "NODE_LIMIT",
    "MIN_UNITS",
    "MAX_UNITS",
    "COUNTS",
    "SOLUTIONS",
    "max_depth",
    "prefixes",
    "count",
    "total",
    "unique",
    "completions",
    "solutions",
    "cost",
    "unit_plan",
    "unit_prefixes",
    "count_units",
    "solution_depth",
    "solution_prefixes",
    "solution_units",
    "solutions_cost",
    "solutions_table",
    "crosscheck",
    "CROSSCHECK_MAX_N",
    "SOLUTIONS_CROSSCHECK_MAX_N",
]

MAX_N = 32
NODE_LIMIT = 1 << 60  # a row-search count <= 8 * nodes, so below this every uint64 count is exact
# a constellation unit's count <= 8 * 120 * (nodes + 1): its table tail scores up to 120 leaves
# per queen placed above it (and once where the unit starts in the tail), so its int64 is exact
UNIT_NODE_LIMIT = 1 << 52

# the unit plan of the counts table (see the module docstring)
MIN_UNITS = 1024  # so a task of a small job still holds dozens of interleaved prefixes
MAX_UNITS = 300_000_000
_CHUNK = 1 << 18  # units whose prefixes a task holds at once (int64: 2 MiB per row of depth)


def _kernel() -> ModuleType:
    """The numba entry points (:mod:`.tree`), imported on first use (numba is slow to import)."""
    from . import tree

    return tree


# --------------------------------------------------------------------------------------------
# checked arguments


def _check_nodes(nodes: np.ndarray, what: str, dtype: str, limit: int = NODE_LIMIT) -> None:
    """OverflowError if any of ``nodes`` (one per prefix or unit) is negative or reaches
    ``limit`` (NODE_LIMIT or UNIT_NODE_LIMIT): its count might then not fit ``dtype``."""
    if nodes.shape[0] and (nodes.min() < 0 or nodes.max() >= limit):
        power = limit.bit_length() - 1
        raise OverflowError(
            f"{what} needed 2**{power} nodes or more: its count may not fit {dtype}"
        )


def _check_n(n: object, key: tuple = ("n",)) -> int:
    """``n`` as an int if 1 <= n <= MAX_N (numpy integers too), else :class:`ParamError`."""
    if isinstance(n, np.integer):
        n = int(n)
    return Integer(1, MAX_N).check(n, key)


def _n_of(params: Mapping) -> int:
    """The board side of a point's params ``{"n": n}`` (:class:`ParamError` if missing or bad)."""
    if not isinstance(params, Mapping) or "n" not in params:
        raise ParamError("missing key 'n' (the board side)")
    return _check_n(params["n"])


def _cols_array(cols: Sequence[int]) -> np.ndarray:
    """``cols`` as an int64 array (:class:`ParamError` if an entry is not an integer)."""
    checked = [Integer(name="column").check(c, ("cols", i)) for i, c in enumerate(cols)]
    return np.asarray(checked, dtype=np.int64).reshape(-1)


# --------------------------------------------------------------------------------------------
# the symmetric search: prefixes, counts, the whole board


def max_depth(params: Mapping) -> int:
    """The deepest split :func:`prefixes` accepts: n (a prefix may be a whole board)."""
    return _n_of(params)


def prefixes(params: Mapping, depth: int) -> Prefixes:
    """Every path of the first ``depth`` rows of the symmetric search, each of weight 1.

    ``choices`` is int16 [k, depth] (row r's column), ``weight`` int64 [k] of ones; depth 0 gives
    the one empty prefix (the whole search).  Lists them all: the work units of a point use
    :func:`unit_prefixes` instead.
    """
    n = _n_of(params)
    depth = Integer(0, n, "depth").check(depth, ("depth",))
    if depth == 0:
        choices = np.zeros((1, 0), np.int16)
    elif n == 1:
        choices = np.zeros((1, 1), np.int16)
    else:
        k = _paths(n, depth, 1 << 62)
        out = np.empty((k, depth), np.int64)
        _kernel().select(n, depth, np.arange(k, dtype=np.int64), k, out)
        choices = out.astype(np.int16)
    return Prefixes(choices, np.ones(choices.shape[0], np.int64))


def count(params: Mapping, prefixes: Prefixes) -> CountResult:
    """Per prefix: ``counts`` uint64 [k, 2], the class-size-weighted solutions (column 0) and
    the classes (column 1), and nodes (int64 [k]).

    A prefix that is not a path of the symmetric search counts 0.  Summed with the prefix
    weights over all prefixes of one depth, ``counts`` gives Q(n) and U(n).
    """
    n = _n_of(params)
    choices = np.ascontiguousarray(prefixes.choices, dtype=np.int64)
    if choices.ndim != 2 or choices.shape[1] > n:
        raise ParamError(f"prefixes must be a [k, depth <= {n}] array, got shape {choices.shape}")
    k = choices.shape[0]
    counts = np.zeros(k, np.int64)
    classes = np.zeros(k, np.int64)
    nodes = np.zeros(k, np.int64)
    _kernel().count_batch(n, choices, counts, classes, nodes)
    _check_nodes(nodes, "a prefix", "uint64")
    return CountResult(np.stack([counts, classes], axis=1).astype(np.uint64), nodes)


def total(n: int) -> tuple[int, int]:
    """(Q(n), nodes) from one constellation search of the whole board."""
    n = _check_n(n)
    c, _, k = _constellations().whole(n, _tail_tables())
    return int(c), int(k)


def unique(n: int) -> tuple[int, int]:
    """(U(n), nodes): the fundamental solutions (classes under the 8 symmetries of the square,
    OEIS A002562) from one constellation search of the whole board, the same search as
    :func:`total`."""
    n = _check_n(n)
    _, u, k = _constellations().whole(n, _tail_tables())
    return int(u), int(k)


# the constellation search's seconds on one core at n = 16 and its growth per step of n (nodes
# and time grow alike), fitted to benchmarks/nqueens_peers.py runs; the measured figures are
# on the speed page, docs/speed.md
_SECONDS_AT_16 = 0.6
_GROWTH = 7.1


def cost(n: int | Mapping) -> float:
    """Estimated seconds on one core to count Q(n) (``n`` or a point's params ``{"n": n}``)."""
    n = _n_of(n) if isinstance(n, Mapping) else _check_n(n)
    return _SECONDS_AT_16 * _GROWTH ** (n - 16)


def _paths(n: int, depth: int, cap: int) -> int:
    """Paths of ``depth`` rows of the symmetric search (n >= 2); more than ``cap`` means more
    than ``cap`` (the count stops there)."""
    walked, _ = _kernel().select(
        n, depth, np.zeros(0, np.int64), cap, np.zeros((0, depth), np.int64)
    )
    return int(walked)


# --------------------------------------------------------------------------------------------
# work units of the counts table: units of the constellation search


def _constellations() -> ModuleType:
    """The constellation search (:mod:`.constellations`), imported on first use."""
    from . import constellations

    return constellations


def _tail_tables() -> tuple:
    """The constellation walk's tail tables (:func:`.tail.tables`), made once per process."""
    from . import tail

    return tail.tables()


@cache
def _canonical(n: int) -> np.ndarray:
    """The canonical constellations of side n (int64 [m, 5], read-only), once per process: a
    task's every chunk selects its units from them."""
    cons = _constellations().canonical(n)
    cons.flags.writeable = False
    return cons


def _units(n: int, depth: int, cap: int) -> int:
    """Units of ``depth`` of board side n; more than ``cap`` means more than ``cap`` (the count
    stops there)."""
    none = np.zeros(0, np.int64)
    walked, _ = _constellations().select(
        n, _canonical(n), depth, none, cap, np.zeros((0, 4 + depth), np.int64), none
    )
    return int(walked)


@cache
def _plan(n: int) -> tuple[int, int]:
    """(depth, units) of board side n (see the module docstring); quick even at n = 27
    (``benchmarks/plan_q27.py``; figures on the speed page, docs/speed.md)."""
    # one unit, at depth 0, when there is no constellation (n = 2, 3): it counts 0
    return prefix_count.plan(
        cost(n), range(n + 1), lambda d, cap: _units(n, d, cap), MIN_UNITS, MAX_UNITS
    )


def unit_plan(n: int) -> tuple[int, int]:
    """``(depth, units)``: the depth (inner rows fixed below the border) of board side n and
    its number of constellation units, which are the work units of the counts table."""
    return _plan(_check_n(n))


def unit_prefixes(n: int, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The constellation units ``lo..hi-1`` of board side n: (int64 [hi - lo, 4 + depth] rows
    t, b, left, right, then the columns of the first depth inner rows; int64 [hi - lo] their
    constellations' stabilizer bit sets), in the search's order (not unit order), found in one
    walk that stores only these.  With no constellation (n = 2, 3) the one unit is empty."""
    n = _check_n(n)
    depth, units = _plan(n)
    prefix_count.check_range(units, lo, hi)
    cons = _canonical(n)
    if cons.shape[0] == 0:
        return np.zeros((0, 4 + depth), np.int64), np.zeros(0, np.int64)
    wanted = prefix_count.sorted_prefix_numbers(units, lo, hi)
    out = np.empty((hi - lo, 4 + depth), np.int64)
    stabs = np.empty(hi - lo, np.int64)
    walked, kept = _constellations().select(n, cons, depth, wanted, units, out, stabs)
    if walked != units or kept != hi - lo:
        raise AssertionError(f"n = {n}: walked {walked} of {units} units, kept {kept}")
    return out, stabs


def count_units(n: int, lo: int, hi: int) -> tuple[int, int, int]:
    """(weighted solutions, classes, nodes) below the constellation units ``lo..hi-1``, exact
    ints; summed over any partition of ``0..units`` they give (Q(n), U(n), the nodes below the
    units)."""
    n = _check_n(n)

    def count_chunk(a: int, b: int) -> tuple[int, int, int]:
        rows, stabs = unit_prefixes(n, a, b)
        k = rows.shape[0]
        q, u, v = np.zeros(k, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64)
        _constellations().count_batch(n, rows, stabs, q, u, v, _tail_tables())
        _check_nodes(v, "a unit", "int64", UNIT_NODE_LIMIT)
        return int(q.astype(object).sum()), int(u.astype(object).sum()), int(v.astype(object).sum())

    found, classes, nodes = prefix_count.count_units(_plan(n)[1], lo, hi, _CHUNK, 3, count_chunk)
    return found, classes, nodes


# --------------------------------------------------------------------------------------------
# the plain search: completions and solutions, and the work units of the solutions table


def _plain_run(n: int, cols: np.ndarray, out: np.ndarray) -> int:
    return int(_kernel().plain_run(n, cols, out))


def completions(n: int, cols: Sequence[int]) -> int:
    """Solutions whose first len(cols) rows hold queens in exactly those columns (no symmetry).

    0 if ``cols`` is not a valid partial placement (column out of range, attack, too long).
    """
    n = _check_n(n)
    arr = _cols_array(cols)
    if arr.shape[0] > n:
        return 0
    return max(_plain_run(n, arr, np.zeros((0, n), np.int8)), 0)


def solutions(n: int, prefix: Sequence[int] = ()) -> np.ndarray:
    """Every solution starting with ``prefix``, int8 [k, n] (row r's column), lexicographic.

    Counts first, then fills an array of exactly that size.  An invalid prefix gives [0, n].
    """
    n = _check_n(n)
    arr = _cols_array(prefix)
    if arr.shape[0] > n:
        return np.zeros((0, n), np.int8)
    k = _plain_run(n, arr, np.zeros((0, n), np.int8))
    out = np.empty((max(k, 0), n), np.int8)
    if k > 0:
        _plain_run(n, arr, out)
    return out


def solution_depth(n: int) -> int:
    """Rows fixed by one work unit of the solutions table: 0, 1, 2 or 3 as n grows."""
    n = _check_n(n)
    return 0 if n < 8 else 1 if n < 12 else 2 if n < 15 else 3


@cache
def solution_prefixes(n: int) -> np.ndarray:
    """The solutions table's work units: every valid placement of the first
    :func:`solution_depth` rows, lexicographic, int64 [units, depth] (read-only)."""
    depth = solution_depth(n)
    rows: list[tuple[int, ...]] = [()]
    for r in range(depth):
        rows = [
            p + (c,)
            for p in rows
            for c in range(n)
            if all(c != q and abs(c - q) != r - i for i, q in enumerate(p))
        ]
    out = np.array(rows, np.int64).reshape(len(rows), depth)
    out.flags.writeable = False
    return out


def solution_units(n: int, lo: int, hi: int) -> np.ndarray:
    """The solutions below units ``lo..hi-1``, concatenated: int8 [k, n], lexicographic."""
    n = _check_n(n)
    units = solution_prefixes(n)
    prefix_count.check_range(len(units), lo, hi)
    parts = [solutions(n, tuple(p)) for p in units[lo:hi].tolist()]
    return np.concatenate(parts) if parts else np.zeros((0, n), np.int8)


# enumerating is a plain search (more nodes than the symmetric one's, run twice: count, then
# fill) plus n bytes per solution into Arrow: the factor over the constellation count's cost()
# was fitted to enumerations timed at small n (benchmarks/nqueens.py --enumerate; figures on
# the speed page, docs/speed.md); cost() fell when the count gained its table tail, and the
# enumeration did not, so the factor rose by as much
_SOLUTIONS_FACTOR = 22.0


def solutions_cost(n: int) -> float:
    """Estimated seconds on one core to enumerate every solution of board side n."""
    return _SOLUTIONS_FACTOR * cost(n)


def solutions_rows(n: int) -> float:
    """A rough estimate of Q(n), the solutions table's rows of board side n (14,772,512 at
    n = 16, each larger n about 6.5 times the one before): the planner keeps tasks small
    with it."""
    return 14_772_512 * 6.5 ** (n - 16)


# --------------------------------------------------------------------------------------------
# the contract


COUNTS = Table(
    "counts",
    "Q(n): placements of n non-attacking queens on an n x n board, and U(n)",
    (
        Column("n", pa.int32(), "board side", "cells", "key"),
        *count_columns("count", "Q(n), placements of n non-attacking queens", "placements"),
        *count_columns(
            "unique",
            "U(n), fundamental solutions: classes of Q(n)'s placements under "
            "the 8 rotations and reflections of the square",
            "classes",
        ),
        Column(
            "nodes",
            pa.int64(),
            "queens placed by the constellation search below the work units",
            "nodes",
            "sum",
        ),
    ),
    merge="sum",
    keys=("n",),
)

SOLUTIONS = Table(
    "solutions",
    "every solution of each n, in lexicographic order",
    (
        Column("n", pa.int32(), "board side", "cells"),
        Column(
            "solution",
            pa.list_(pa.int8()),
            "the column of each row's queen, row 0 first",
            "columns",
        ),
    ),
)

PARAMS = Record(
    {
        "n": Field(IntegerSet(1, MAX_N), required=True, doc='board sides: 8, "4..16" or [8, 10]'),
        "solutions": Field(
            Flag(), default=False, doc="also write every solution (the solutions table)"
        ),
        "unique": Field(
            Flag(),
            default=False,
            doc="solve prints U(n), the fundamental solutions, instead of Q(n) (the "
            "counts table holds both either way; nothing computed depends on it)",
        ),
    },
    "an nqueens job",
)


def _outputs(params: Mapping) -> tuple[str, ...]:
    return ("counts", "solutions") if params.get("solutions") else ("counts",)


def _points(params: Mapping, table: str) -> list[Point]:
    out = []
    for n in sorted(params["n"]):
        rows = None
        if table == "counts":
            units, seconds = unit_plan(n)[1], cost(n)
        elif table == "solutions":
            units, seconds = len(solution_prefixes(n)), solutions_cost(n)
            rows = solutions_rows(n)
        else:
            raise KeyError(f"nqueens has no table {table!r}")
        out.append(Point(table, {"n": n}, units, seconds, f"n={n}", rows=rows))
    return out


def _compute(point: Point, lo: int, hi: int) -> pa.Table:
    n = point.params["n"]
    if point.table == "solutions":
        return solutions_table(n, solution_units(n, lo, hi))
    found, classes, nodes = count_units(n, lo, hi)
    count_col, text_col = count_arrays([found])
    unique_col, unique_text = count_arrays([classes])
    return pa.table(
        {
            "n": pa.array([n], pa.int32()),
            "count": count_col,
            "count_text": text_col,
            "unique": unique_col,
            "unique_text": unique_text,
            "nodes": pa.array([nodes], pa.int64()),
        },
        schema=COUNTS.compute_schema(),
    )


_BATCH_ROWS = 1 << 22  # solutions per record batch: int32 list offsets stay below 2**31


def solutions_table(n: int, rows: np.ndarray) -> pa.Table:
    """Solutions (int8 [k, n]) as rows of the solutions table."""
    schema = SOLUTIONS.compute_schema()
    batches = []
    for start in range(0, rows.shape[0], _BATCH_ROWS):
        part = rows[start : start + _BATCH_ROWS]
        k = part.shape[0]
        offsets = pa.array(np.arange(0, (k + 1) * n, n, dtype=np.int32))
        column = pa.ListArray.from_arrays(offsets, pa.array(part.reshape(-1), pa.int8()))
        batches.append(pa.record_batch([pa.array(np.full(k, n, np.int32)), column], schema=schema))
    return pa.Table.from_batches(batches, schema)


def _answer(table: pa.Table, args: Mapping) -> str:
    """What ``solve nqueens N`` prints: Q(N), or U(N) with ``--unique``."""
    return table.column("unique_text" if args.get("unique") else "count_text")[0].as_py()


def _read(text: str) -> dict:
    from .format import parse

    return {"n": (parse(text),), "solutions": True}


def _write(
    tables: Mapping[str, Iterator[pa.RecordBatch]], params: Mapping, note
) -> Iterator[bytes]:
    from .format import render

    n = params["n"][0]
    for batch in tables["solutions"]:
        if batch.num_rows:
            flat = batch.column("solution").flatten().to_numpy(zero_copy_only=False)
            yield render(n, flat.reshape(batch.num_rows, n))


def _report(job: str, tables, related=()):
    from .report import report

    return report(job, tables, related)


# the second methods of `boardsweep verify` (:func:`crosscheck`)
CROSSCHECK_MAX_N = 16  # the row search's largest point: seconds, where Q(17) takes minutes
SOLUTIONS_CROSSCHECK_MAX_N = 11  # plain Python's largest: 2,680 solutions, about a second


def _python_solutions(n: int, prefix: Sequence[int]) -> list[list[int]]:
    """Every solution starting with ``prefix`` in lexicographic order, by a plain Python
    backtracking that shares no code with the kernels (rows top to bottom, columns up)."""
    out: list[list[int]] = []
    cols = list(prefix)
    if any(
        c == q or abs(c - q) == r - i for r, c in enumerate(cols) for i, q in enumerate(cols[:r])
    ):
        return out

    def place() -> None:
        r = len(cols)
        if r == n:
            out.append(list(cols))
            return
        for c in range(n):
            if all(c != q and abs(c - q) != r - i for i, q in enumerate(cols)):
                cols.append(c)
                place()
                cols.pop()

    place()
    return out


def crosscheck(point: Point, lo: int, hi: int, published: pa.Table) -> Crosscheck | None:
    """Second method: the row search for whole points of the counts (n <= 16), plain Python
    backtracking for the solutions (n <= 11).

    Units ``lo..hi-1`` of ``point`` by a second method (the contract's ``crosscheck``):
    the counts of a whole point by the row search (:mod:`.tree`, first-row prefixes, not the
    constellations the counts table uses), for n <= :data:`CROSSCHECK_MAX_N`; the solutions
    below units of the solutions table by plain Python backtracking, for n <=
    :data:`SOLUTIONS_CROSSCHECK_MAX_N`.  None beyond."""
    n = _check_n(point.params["n"])
    if point.table == "solutions":
        if n > SOLUTIONS_CROSSCHECK_MAX_N:
            return None
        found = [s for p in solution_prefixes(n)[lo:hi].tolist() for s in _python_solutions(n, p)]
        rows = np.array(found, np.int8).reshape(len(found), n)
        return Crosscheck("plain Python backtracking", solutions_table(n, rows))
    if (lo, hi) != (0, point.units) or n > CROSSCHECK_MAX_N:
        return None  # the row search's units are not the constellations': whole points only
    params = {"n": n}
    result = count(params, prefixes(params, min(n, 2)))
    weight = result.counts.astype(object)
    q, u = int(weight[:, 0].sum()), int(weight[:, 1].sum())
    count_col, text_col = count_arrays([q])
    unique_col, unique_text = count_arrays([u])
    return Crosscheck(
        "row search (first-row prefixes, no constellations)",
        pa.table(
            {
                "n": pa.array([n], pa.int32()),
                "count": count_col,
                "count_text": text_col,
                "unique": unique_col,
                "unique_text": unique_text,
            }
        ),
    )


def _warm_total() -> None:
    """The constellation kernels: canonical, walk, sym_walk via whole."""
    total(8)


def _warm_units() -> None:
    """The constellations' select and count_batch."""
    count_units(8, 0, unit_plan(8)[1])


def _warm_solutions() -> None:
    """The kernels that list every solution."""
    solution_units(8, 0, 2)
    completions(6, [1])


# the row search of prefixes() and count() is not warmed: no task runs it (crosscheck does,
# in the process that verifies)
WARM_STEPS = (_warm_total, _warm_units, _warm_solutions)


PROBLEM = CountProblem(
    name="nqueens",
    doc="Q(n): placements of n non-attacking queens on an n x n board, and every solution",
    params=PARAMS,
    tables=(COUNTS, SOLUTIONS),
    modules=(__name__,),
    solve=SolveCommand(
        arguments=(("n", Integer(1, MAX_N), "board side"),),
        job=lambda args: {"n": (args["n"],)},
        answer=_answer,
    ),
    outputs_of=_outputs,
    points_of=_points,
    compute_units=_compute,
    seed_format=SeedFormat(_read, _write),
    report=_report,
    warm=WARM_STEPS,
    crosscheck=crosscheck,
)
