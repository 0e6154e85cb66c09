"""A second, minimal implementation of what the pipeline does with a problem, for tests.

:func:`run_in_process` computes every point of a job through ``Problem.compute`` over unit
ranges cut at random places, and merges the pieces (concatenation in point and unit order, or
exact sums by key) with plain Python, sharing no code with ``pipeline/``: a problem's answers
must not depend on how its units are split, and the pipeline's merge is checked against this.
"""

from __future__ import annotations

import random

import pyarrow as pa

from boardsweep.solvers.contract import Problem, count_arrays


def unit_ranges(units: int, rng: random.Random | None, pieces: int = 3) -> list[tuple[int, int]]:
    """``0..units`` cut into up to ``pieces`` consecutive ranges at random places."""
    if rng is None or units < 2:
        return [(0, units)] if units else []
    cuts = sorted(rng.sample(range(1, units), min(pieces - 1, units - 1)))
    bounds = [0, *cuts, units]
    return list(zip(bounds[:-1], bounds[1:], strict=False))


def _sum(table, pieces: list[pa.Table]) -> pa.Table:
    columns = table.columns
    merged: dict[tuple, dict] = {}
    for piece in pieces:
        for row in piece.to_pylist():
            key = tuple(row[k] for k in table.keys)
            acc = merged.setdefault(key, {c.name: 0 for c in columns if c.role != "key"})
            for c in columns:
                if c.role == "count_text":
                    acc[c.name] += int(row[c.name])
                elif c.role == "sum":
                    acc[c.name] += row[c.name]
    out: dict[str, list] = {c.name: [] for c in columns}
    for key in sorted(merged):
        acc = merged[key]
        for name, value in zip(table.keys, key, strict=True):
            out[name].append(value)
        for c in columns:
            if c.role == "sum":
                out[c.name].append(acc[c.name])
            elif c.role == "count_text":
                out[c.name].append(acc[c.name])
    arrays = {}
    for c in columns:
        if c.role == "count":
            decimal, _ = count_arrays(out[c.name + "_text"])
            arrays[c.name] = decimal
        elif c.role == "count_text":
            arrays[c.name] = pa.array([str(v) for v in out[c.name]], pa.string())
        else:
            arrays[c.name] = pa.array(out[c.name], c.type)
    return pa.table(arrays, schema=table.compute_schema())


def run_in_process(
    problem: Problem, params: dict, rng: random.Random | None = None, rows: pa.Table | None = None
) -> dict[str, pa.Table]:
    """Every table of the job ``params`` (checked params) as the pipeline would publish it,
    minus the ``units``/``cpu_seconds`` columns; ``rows`` is the set of an instance job read
    from a file (its point is then the whole set)."""
    out = {}
    for name in problem.outputs(params):
        table = problem.table(name)
        if rows is not None:
            points = [
                problem.set_point(
                    "set",
                    rows.num_rows,
                    0.0,
                    {k: params[k] for k in problem.options.fields if k in params},
                    "set",
                )
            ]
        else:
            points = problem.points(params, name)
        pieces = []
        for point in points:
            for lo, hi in unit_ranges(point.units, rng):
                part = None if rows is None else rows.slice(lo, hi - lo)
                piece = problem.compute(point, lo, hi, part)
                assert piece.schema.equals(table.compute_schema()), (piece.schema, name)
                pieces.append(piece)
        if table.merge == "sum":
            out[name] = _sum(table, pieces)
        else:
            out[name] = pa.concat_tables(pieces) if pieces else table.compute_schema().empty_table()
    return out
