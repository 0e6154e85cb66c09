"""A toy instance problem that lives outside the package: the most rooks on small open boards.

A board is ``rows`` x ``cols`` cells, each open (``.``) or blocked (``#``); rooks stand on open
cells and attack along their whole row and column (a blocked cell does not stop them), so the
most rooks is the largest set of open cells with no two in a row or column.  This module finds
it by brute force, row by row, and counts the placements that reach it.

It proves the instance side of the contract as :mod:`tests.toy_rooks` proves the count side:
registered through ``BOARDSWEEP_PROBLEMS=tests.toy_boards``, it runs through ``boardsweep run``
(generated and ingested sets), ``solve``, ``generate``, ``judge`` and ``report`` with no line of
``pipeline/`` knowing it.  It declares what every instance problem must (its instance set,
its result table and ``solve_rows``) and three capabilities: a generator, a seed format (from
which ``judge`` and ``{ingest: FILE}`` follow) and a report.

Seed format: a line with the number of boards, then per board a line ``rows cols`` and its
``rows`` lines of cells.  Output (judge): a line ``most placements`` per board.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
import pyarrow as pa

from boardsweep.solvers.contract import (
    Column,
    FormatError,
    Generator,
    InstanceProblem,
    InstanceSet,
    ParamError,
    Point,
    Report,
    SeedFormat,
    Table,
    count_arrays,
    count_columns,
)
from boardsweep.solvers.schema import Field, Integer, IntegerSet, Record

MAX_SIDE = 5
BLOCKED = 0.3  # the chance that a generated board's cell is blocked

BOARD = (  # the columns that name a board, in the set and in the result
    Column("board_id", pa.int64(), "the board's number in its group"),
    Column("rows", pa.int32(), "rows", "cells"),
    Column("cols", pa.int32(), "columns", "cells"),
)
BOARDS = Table(
    "boards",
    "small boards of open and blocked cells",
    (*BOARD, Column("cells", pa.string(), "the cells row by row: '.' open, '#' blocked")),
)
MOST = Table(
    "most",
    "the most rooks each board holds, none attacking another",
    (
        *BOARD,
        Column("most_rooks", pa.int32(), "the most rooks the open cells hold", "rooks"),
        *count_columns("placements", "placements of that many rooks", "placements"),
    ),
)


def most_rooks(rows: int, cols: int, cells: str) -> tuple[int, int]:
    """(the most rooks, the placements of that many) on one board, by trying every choice."""
    best = {0: 1}  # columns used -> placements, over the rows so far
    for r in range(rows):
        row = cells[r * cols : (r + 1) * cols]
        grown = dict(best)  # this row empty
        for used, ways in best.items():
            for c in range(cols):
                if row[c] == "." and not used >> c & 1:
                    key = used | 1 << c
                    grown[key] = grown.get(key, 0) + ways
        best = grown
    most = max(bin(used).count("1") for used in best)
    return most, sum(ways for used, ways in best.items() if bin(used).count("1") == most)


def _groups(params: Mapping) -> list[Point]:
    return [
        Point(
            BOARDS.name,
            {"seed": params["seed"], "rows": n, "cols": n},
            params["count"],
            1e-5 * params["count"],
            f"{n}x{n}",
        )
        for n in params["n"]
    ]


def _generate(point: Point, lo: int, hi: int) -> pa.Table:
    p = point.params
    cells = []
    for i in range(lo, hi):
        rng = random.Random(f"{p['seed']}-{p['rows']}-{p['cols']}-{i}")
        cells.append(
            "".join("#" if rng.random() < BLOCKED else "." for _ in range(p["rows"] * p["cols"]))
        )
    return pa.table(
        {
            "board_id": pa.array(range(lo, hi), pa.int64()),
            "rows": pa.array([p["rows"]] * (hi - lo), pa.int32()),
            "cols": pa.array([p["cols"]] * (hi - lo), pa.int32()),
            "cells": pa.array(cells, pa.string()),
        },
        schema=BOARDS.compute_schema(),
    )


def _check_set(boards: pa.Table) -> None:
    for board, rows, cols, cells in zip(
        *(boards.column(c).to_pylist() for c in BOARDS.compute_schema().names), strict=True
    ):
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise ParamError(f"board {board}: {rows}x{cols} is not within 1..{MAX_SIDE} a side")
        if len(cells) != rows * cols or set(cells) - set(".#"):
            raise ParamError(f"board {board}: expected {rows * cols} cells of '.' and '#'")


def _solve_rows(boards: pa.Table, options: Mapping) -> pa.Table:
    found = [
        most_rooks(r, c, cells)
        for r, c, cells in zip(
            *(boards.column(n).to_pylist() for n in ("rows", "cols", "cells")), strict=True
        )
    ]
    count, text = count_arrays([ways for _, ways in found])
    return pa.table(
        {
            "board_id": boards.column("board_id"),
            "rows": boards.column("rows"),
            "cols": boards.column("cols"),
            "most_rooks": pa.array([most for most, _ in found], pa.int32()),
            "placements": count,
            "placements_text": text,
        },
        schema=MOST.compute_schema(),
    )


def _read(text: str) -> pa.Table:
    lines = [(i, s.strip()) for i, s in enumerate(text.splitlines(), 1) if s.strip()]
    if not lines:
        raise FormatError("expected the number of boards")

    def number(at: int, what: str) -> list[int]:
        line, found = lines[at]
        try:
            return [int(part) for part in found.split()]
        except ValueError:
            raise FormatError(f"expected {what}, not {found!r}", line) from None

    (count,) = number(0, "the number of boards")
    ids, sides, cells, at = [], [], [], 1
    for board in range(count):
        if at >= len(lines):
            raise FormatError(f"board {board}: expected a line 'rows cols'")
        rows, cols = number(at, "'rows cols'")
        grid = [found for _, found in lines[at + 1 : at + 1 + rows]]
        if len(grid) != rows:
            raise FormatError(f"board {board}: expected {rows} rows of cells", lines[at][0])
        ids.append(board)
        sides.append((rows, cols))
        cells.append("".join(grid))
        at += 1 + rows
    if at != len(lines):
        raise FormatError("more lines than the boards announced", lines[at][0])
    return pa.table(
        {
            "board_id": pa.array(ids, pa.int64()),
            "rows": pa.array([r for r, _ in sides], pa.int32()),
            "cols": pa.array([c for _, c in sides], pa.int32()),
            "cells": pa.array(cells, pa.string()),
        },
        schema=BOARDS.compute_schema(),
    )


def _write(boards: pa.Table) -> str:
    out = [str(boards.num_rows)]
    for rows, cols, cells in zip(
        *(boards.column(n).to_pylist() for n in ("rows", "cols", "cells")), strict=True
    ):
        out.append(f"{rows} {cols}")
        out.extend(cells[r * cols : (r + 1) * cols] for r in range(rows))
    return "\n".join(out) + "\n"


def _judge_write(tables, params, note):
    for batch in tables[MOST.name]:
        for most, ways in zip(
            batch.column("most_rooks").to_pylist(),
            batch.column("placements_text").to_pylist(),
            strict=True,
        ):
            yield f"{most} {ways}\n".encode()


def _report(job, tables, related):
    most = tables[MOST.name](columns=["most_rooks"]).to_pandas()
    return Report(
        tables=[
            ("boards by most rooks", most.value_counts("most_rooks").sort_index().reset_index())
        ]
    )


def _flat(columns: Mapping[str, np.ndarray], each: float) -> np.ndarray:
    return np.full(len(columns["rows"]), each)


PROBLEM = InstanceProblem(
    name="toy_boards",
    doc="the most rooks on small open boards, by brute force (a test's toy problem)",
    modules=(__name__,),
    instances=InstanceSet(
        key="boards",
        table=BOARDS,
        id_column="board_id",
        cost_columns=("rows", "cols"),
        costs=lambda columns, options: _flat(columns, 1e-5),
        memory=lambda columns, options: _flat(columns, 1e3),
        check=_check_set,
        group_columns=("rows", "cols"),
    ),
    result=MOST,
    solve_rows=_solve_rows,
    generator=Generator(
        Record(
            {
                "n": Field(IntegerSet(1, MAX_SIDE), required=True, doc="board sides"),
                "count": Field(Integer(1, 10**6), required=True, doc="boards per side"),
                "seed": Field(Integer(0, 2**31 - 1), default=0, doc="the random seed"),
            },
            "a mapping with n, count (and seed)",
        ),
        _groups,
        _generate,
    ),
    seed_format=SeedFormat(_read, _judge_write, _write),
    report=_report,
)
