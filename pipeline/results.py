"""Result tables: their schemas, one fragment per task, and the exact merge of fragments.

Counts are stored as ``decimal128(38, 0)``: exact integers up to 10^38, never floats, and
pyarrow raises rather than wraps if a value does not fit.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

import numpy as np
import pyarrow as pa

__all__ = [
    "COUNT", "COUNTS_FRAGMENT", "COUNTS", "SOLUTIONS",
    "counts_fragment", "merge_counts", "solutions_table", "count_values", "instance_table",
    "concat_results",
]

COUNT = pa.decimal128(38, 0)

COUNTS_FRAGMENT = pa.schema([
    ("problem", pa.string()),
    ("n", pa.int32()),
    ("queens", pa.int32()),
    ("rooks", pa.int32()),
    ("count", COUNT),
    ("nodes", pa.int64()),
    ("prefixes", pa.int64()),
    ("cpu_seconds", pa.float64()),
    ("task", pa.string()),
])

COUNTS = pa.schema([
    ("problem", pa.string()),
    ("n", pa.int32()),
    ("queens", pa.int32()),
    ("rooks", pa.int32()),
    ("count", COUNT),
    ("tasks", pa.int32()),
    ("cpu_seconds", pa.float64()),
    ("nodes", pa.int64()),
])

SOLUTIONS = pa.schema([("n", pa.int32()), ("solution", pa.list_(pa.int8()))])


def counts_fragment(problem: str, outputs: list[dict], result: dict, task: str) -> pa.Table:
    """The fragment of one count task: one row per output row of its point."""
    rows = len(outputs)
    return pa.table(
        {
            "problem": [problem] * rows,
            "n": [o["n"] for o in outputs],
            "queens": [o["queens"] for o in outputs],
            "rooks": [o["rooks"] for o in outputs],
            "count": [Decimal(c) for c in result["counts"]],
            "nodes": [result["nodes"]] * rows,
            "prefixes": [result["prefixes"]] * rows,
            "cpu_seconds": [result["cpu_seconds"]] * rows,
            "task": [task] * rows,
        },
        schema=COUNTS_FRAGMENT,
    )


def merge_counts(fragments: Iterable[pa.Table]) -> pa.Table:
    """Sum fragments exactly into one row per (problem, n, queens, rooks), sorted."""
    merged: dict[tuple, dict] = {}
    for table in fragments:
        for row in table.to_pylist():
            key = (row["problem"], row["n"], row["queens"], row["rooks"])
            acc = merged.setdefault(key, {"count": 0, "tasks": 0, "cpu_seconds": 0.0, "nodes": 0})
            acc["count"] += int(row["count"])
            acc["tasks"] += 1
            acc["cpu_seconds"] += row["cpu_seconds"]
            acc["nodes"] += row["nodes"]
    keys = sorted(merged)
    return pa.table(
        {
            "problem": [k[0] for k in keys],
            "n": [k[1] for k in keys],
            "queens": [k[2] for k in keys],
            "rooks": [k[3] for k in keys],
            "count": [Decimal(merged[k]["count"]) for k in keys],
            "tasks": [merged[k]["tasks"] for k in keys],
            "cpu_seconds": [merged[k]["cpu_seconds"] for k in keys],
            "nodes": [merged[k]["nodes"] for k in keys],
        },
        schema=COUNTS,
    )


def count_values(table: pa.Table) -> list[int]:
    """The ``count`` column as exact Python ints."""
    return [int(v) for v in table.column("count").to_pylist()]


def solutions_table(n: int, rows: np.ndarray) -> pa.Table:
    """Solutions of size ``n`` (an int8 array [k, n]) as a table with columns n, solution."""
    rows = np.ascontiguousarray(rows, dtype=np.int8).reshape(-1, n)
    k = rows.shape[0]
    offsets = pa.array(np.arange(0, (k + 1) * n, n, dtype=np.int32))
    solution = pa.ListArray.from_arrays(offsets, pa.array(rows.reshape(-1)))
    return pa.table({"n": pa.array(np.full(k, n, dtype=np.int32)), "solution": solution},
                    schema=SOLUTIONS)


def _column(kind: str, result: dict, name: str, k: int) -> pa.Array:
    """One result column of type ``kind`` (see ``RESULT_COLUMNS`` in solvers/interface.py)."""
    if name not in result:
        arrow_type = {"count": COUNT, "int32": pa.int32(), "int64": pa.int64(),
                      "float64": pa.float64()}.get(
            kind, pa.string() if kind.startswith(("text:", "enum:")) else pa.list_(pa.int32()))
        return pa.nulls(k, arrow_type)
    values = result[name]
    if kind == "count":
        return pa.array([Decimal(int(v)) for v in values], COUNT)
    if kind in ("int32", "int64", "float64"):
        return pa.array(np.asarray(values), getattr(pa, kind)())
    if kind.startswith("enum:"):
        names = np.array(kind[5:].split(","), dtype=object)
        return pa.array(names[np.asarray(values, dtype=np.intp)], pa.string())
    offsets = np.asarray(result[f"{name}_offsets"], dtype=np.int64)
    flat = np.asarray(values)
    if kind.startswith("text:"):
        chars = np.frombuffer(kind[5:].encode(), dtype=np.uint8)
        text = chars[flat.astype(np.intp)] if flat.size else np.zeros(0, np.uint8)
        return pa.LargeStringArray.from_buffers(
            k, pa.py_buffer(offsets), pa.py_buffer(text)).cast(pa.string())
    if kind == "list<int32>":
        return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)),
                                        pa.array(flat.astype(np.int32)))
    raise ValueError(f"unknown result column kind {kind!r}")


def concat_results(parts: list[dict]) -> dict:
    """Join the results of consecutive batches; ``X_offsets`` columns are rebased."""
    if not parts:
        return {}
    joined: dict = {}
    for name in parts[0]:
        if name.endswith("_offsets"):
            continue
        offsets_name = f"{name}_offsets"
        if offsets_name in parts[0]:
            sizes = [np.diff(np.asarray(p[offsets_name], dtype=np.int64)) for p in parts]
            joined[offsets_name] = np.concatenate([[0], np.cumsum(np.concatenate(sizes))])
        joined[name] = np.concatenate([np.asarray(p[name]) for p in parts])
    return joined


def instance_table(module, batch: dict, result: dict, extra: dict) -> pa.Table:
    """The result rows of one instance batch: id, rows, cols, generator columns, results."""
    k = len(batch["rows"])
    columns = {
        module.ID_COLUMN: pa.array(batch[module.ID_COLUMN], pa.int64()),
        "rows": pa.array(batch["rows"], pa.int32()),
        "cols": pa.array(batch["cols"], pa.int32()),
    }
    for name in getattr(module, "GENERATE_COLUMNS", ()):  # from the set, else the generator
        values = batch[name] if name in batch else [extra.get(name)] * k
        columns[name] = pa.array(values, pa.float64(), from_pandas=True)
    for name, kind in module.RESULT_COLUMNS:
        columns[name] = _column(kind, result, name, k)
    return pa.table(columns)
