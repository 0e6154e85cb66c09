"""A problem whose work units do nothing: it measures what the pipeline itself costs per task.

``{units: N, seconds: S}``: one point of N units, each estimated at S seconds (so a target task
length of S gives exactly N tasks), each returning one row at once.  Registered through
``BOARDSWEEP_PROBLEMS=tests.noop`` by the driver-cost benchmark and tests.

For fault tests: a task covering a unit listed in ``fail`` raises; one covering unit ``die``
ends its worker process (``os._exit``): every time, or only the first time when ``marker``
names a folder (the first task leaves a file there).
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa

from boardsweep.solvers.contract import Column, CountProblem, Point, SolveCommand, Table
from boardsweep.solvers.schema import Field, Integer, ListOf, Number, Record, Text

TABLE = Table(
    "noop",
    "one row per task: the units it covered",
    (
        Column("point", pa.int32(), "the point", "", "key"),
        Column("first", pa.int64(), "units of the tasks (sum of first units)", "units", "sum"),
    ),
    merge="sum",
    keys=("point",),
)


def _compute(point: Point, lo: int, hi: int) -> pa.Table:
    for unit in point.params.get("fail", ()):
        if lo <= unit < hi:
            raise ValueError(f"unit {unit} fails on purpose")
    die = point.params.get("die")
    if die is not None and lo <= die < hi:
        marker = point.params.get("marker")
        if marker is None:
            os._exit(13)
        try:
            (Path(marker) / "died").open("x").close()
        except FileExistsError:
            pass
        else:
            os._exit(13)
    return pa.table(
        {"point": pa.array([0], pa.int32()), "first": pa.array([lo], pa.int64())},
        schema=TABLE.compute_schema(),
    )


PROBLEM = CountProblem(
    name="noop",
    doc="work units that do nothing (the pipeline's own cost per task)",
    params=Record(
        {
            "units": Field(Integer(1, 10**9), required=True),
            "seconds": Field(Number(0, 1e6), default=1.0),
            "fail": Field(ListOf(Integer(0), least=0)),
            "die": Field(Integer(0)),
            "marker": Field(Text()),
        }
    ),
    tables=(TABLE,),
    modules=(__name__,),
    solve=SolveCommand(
        (("units", Integer(1, 10**9), "units"),),
        lambda a: {"units": a["units"]},
        lambda table, args: str(table.column("units")[0].as_py()),
    ),
    outputs_of=lambda params: ("noop",),
    points_of=lambda params, table: [
        Point(
            "noop",
            {k: v for k, v in params.items() if k != "seconds"},
            params["units"],
            params["units"] * params["seconds"],
            "noop",
        )
    ],
    compute_units=_compute,
)
