"""A toy problem that lives outside the package: n non-attacking rooks on an n x n board.

It proves the contract: registered through ``BOARDSWEEP_PROBLEMS=tests.toy_rooks`` (the way a
third-party module is), it runs through ``boardsweep run``, ``solve``, ``judge`` and ``report``
with no line of ``pipeline/`` knowing it.  The answer is n!, found by a plain search: the
first row's column is the work unit, and a unit counts the placements of the other rows.

Seed format (judge): one line with n; the output is the count on a line.
"""

from __future__ import annotations

import math

import pyarrow as pa

from boardsweep.solvers.contract import (
    Column,
    CountProblem,
    FormatError,
    Point,
    Report,
    SeedFormat,
    SolveCommand,
    Table,
    count_arrays,
    count_columns,
)
from boardsweep.solvers.schema import Field, Integer, IntegerSet, Record

MAX_N = 9

COUNTS = Table(
    "counts",
    "placements of n rooks on an n x n board, none attacked",
    (
        Column("n", pa.int32(), "board side", "cells", "key"),
        *count_columns("count", "placements"),
        Column("nodes", pa.int64(), "rooks placed by the search", "nodes", "sum"),
    ),
    merge="sum",
    keys=("n",),
)


def _search(n: int, first: int) -> tuple[int, int]:
    """(placements, nodes) with row 0's rook in column ``first``: an explicit-stack search."""
    count = nodes = 0
    stack = [(1, 1 << first)]
    while stack:
        row, used = stack.pop()
        if row == n:
            count += 1
            continue
        for c in range(n):
            if not used >> c & 1:
                nodes += 1
                stack.append((row + 1, used | 1 << c))
    return count, nodes + 1


def _points(params, table):
    return [Point("counts", {"n": n}, n, 1e-6 * math.factorial(n), f"n={n}") for n in params["n"]]


def _compute(point, lo, hi):
    n = point.params["n"]
    found = [_search(n, c) for c in range(lo, hi)]
    count, text = count_arrays([sum(f[0] for f in found)])
    return pa.table(
        {
            "n": pa.array([n], pa.int32()),
            "count": count,
            "count_text": text,
            "nodes": pa.array([sum(f[1] for f in found)], pa.int64()),
        },
        schema=COUNTS.compute_schema(),
    )


def _read(text: str) -> dict:
    lines = [(i, s.strip()) for i, s in enumerate(text.splitlines(), 1) if s.strip()]
    if len(lines) != 1:
        raise FormatError("expected one line with n", lines[1][0] if len(lines) > 1 else None)
    number, line = lines[0]
    try:
        n = int(line)
    except ValueError:
        raise FormatError(f"expected an integer n, not {line!r}", number) from None
    if not 1 <= n <= MAX_N:
        raise FormatError(f"n = {n} is out of range: expected 1 <= n <= {MAX_N}", number)
    return {"n": (n,)}


def _write(tables, params, note):
    for batch in tables["counts"]:
        for text in batch.column("count_text").to_pylist():
            yield f"{text}\n".encode()


def _report(job, tables, related):
    table = tables["counts"]().to_pandas()
    return Report(tables=[("n rooks", table[["n", "count_text", "nodes"]])])


PROBLEM = CountProblem(
    name="toy_rooks",
    doc="n rooks on an n x n board, none attacked (a test's toy problem)",
    params=Record({"n": Field(IntegerSet(1, MAX_N), required=True, doc="board sides")}),
    tables=(COUNTS,),
    modules=(__name__,),
    solve=SolveCommand(
        arguments=(("n", Integer(1, MAX_N), "board side"),),
        job=lambda args: {"n": (args["n"],)},
        answer=lambda table, args: table.column("count_text")[0].as_py(),
    ),
    points_of=_points,
    compute_units=_compute,
    seed_format=SeedFormat(_read, _write),
    report=_report,
)
