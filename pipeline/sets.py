"""Instance sets read from files (seed-format text or Parquet), checked once, on read.

A set is checked column by column against the problem's ``set_table`` (types, widths, nulls:
:func:`pipeline.tables.check_columns`), then by the problem's own ``check_set``; its ids must be
distinct, it must not be empty, and every instance must have a finite cost estimate (a board
too large to count is refused here, naming it).  What comes out is an :class:`InputSet`: the
file's digest (which keys its results), its row count, per-row cost estimates for the
planner, and a reader of row ranges for the tasks.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from solvers.contract import FormatError, InstanceProblem
from solvers.schema import ParamError

from .errors import InputError
from .tables import ParquetRows, check_columns, file_digest

__all__ = ["InputSet", "load_set", "set_from_text", "set_from_table"]


@dataclass
class InputSet:
    """A checked instance set: ``rows`` instances, read back by :meth:`read`."""

    path: str
    digest: str
    rows: int
    costs: np.ndarray  # estimated seconds per instance (float64)
    table: pa.Table | None = None  # the whole set, when it came from text
    stamp: tuple[int, int] | None = None  # (size, mtime_ns) of a Parquet file when checked
    spec: object = None
    _reader: ParquetRows | None = field(default=None, repr=False)

    def read(self, lo: int, hi: int) -> pa.Table:
        """Instances ``lo..hi-1`` in the declared types (the file must not have changed)."""
        if self.table is not None:
            return self.table.slice(lo, hi - lo)
        if _stamp(self.path) != self.stamp:
            raise InputError("the set file changed while the run was reading it: rerun",
                             self.path)
        if self._reader is None:
            self._reader = ParquetRows(self.path)
        names = [c.name for c in self.spec.columns]
        return check_columns(self._reader.read(lo, hi, names), self.spec, self.path, lo)

    def cost_of(self, lo: int, hi: int) -> np.ndarray:
        """Estimated seconds of instances ``lo..hi-1``."""
        return self.costs[lo:hi]

    def __getstate__(self):  # a set never travels to workers whole
        raise TypeError("an InputSet stays in the driver: send rows with the task")


def _stamp(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_size, info.st_mtime_ns


def _checked(problem: InstanceProblem, table: pa.Table, source: str, first: int,
             options: Mapping) -> tuple[pa.Table, np.ndarray]:
    """One piece of a set: declared columns checked, the problem's checks, cost estimates."""
    table = check_columns(table, problem.set_table, source, first,
                          f"{problem.name} {problem.set_key} set")
    try:
        problem.check_set(table)
        names = dict.fromkeys((*problem.cost_columns, problem.id_column))
        columns = {c: table.column(c).to_numpy() for c in names}
        costs = np.asarray(problem.costs(columns, options), dtype=np.float64)
    except ParamError as exc:
        raise InputError(str(exc), source) from None
    if costs.shape != (table.num_rows,) or not np.isfinite(costs).all():
        raise RuntimeError(f"{problem.name}: costs() must give one finite estimate per "
                           "instance")
    return table, costs


def _distinct(ids: np.ndarray, id_column: str, source: str) -> None:
    """InputError naming the first id that appears twice."""
    order = np.argsort(ids, kind="stable")
    ordered = ids[order]
    same = np.flatnonzero(ordered[1:] == ordered[:-1])
    if same.size:
        i = int(same[0])
        first, second = sorted((int(order[i]), int(order[i + 1])))
        raise InputError(f"{id_column} {int(ordered[i])} appears twice (rows {first} and "
                         f"{second}): ids must be distinct", source)


def set_from_table(problem: InstanceProblem, table: pa.Table, source: str, digest: str,
                   options: Mapping) -> InputSet:
    """A set held in memory (read from text or stdin), checked."""
    table, costs = _checked(problem, table, source, 0, options)
    if table.num_rows == 0:
        raise InputError(f"the {problem.set_key} set is empty", source)
    _distinct(table.column(problem.id_column).to_numpy(), problem.id_column, source)
    return InputSet(source, digest, table.num_rows, costs, table=table, spec=problem.set_table)


def set_from_text(problem: InstanceProblem, path: str, options: Mapping) -> InputSet:
    """A seed-format text file read through the problem's format, checked."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file (seed-format text expected)", path) from None
    if "\0" in text:
        raise InputError("not a text file: it holds NUL bytes", path)
    try:
        table = problem.read_text(text)
    except FormatError as exc:
        raise InputError(exc.message, path, exc.line) from None
    return set_from_table(problem, table, path, hashlib.sha256(data).hexdigest(), options)


def load_set(problem: InstanceProblem, kind: str, path: str, options: Mapping) -> InputSet:
    """The set of ``{ingest: path}`` (text) or ``{parquet: path}``, checked whole."""
    if not os.path.isfile(path):
        raise InputError(f"no such file ({kind} set of {problem.set_key})", path)
    try:
        with open(path, "rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None
    if kind == "ingest":
        if magic == b"PAR1":
            raise InputError("is a Parquet file: name it with {parquet: FILE}", path)
        return set_from_text(problem, path, options)
    if magic != b"PAR1":
        raise InputError("is not a Parquet file (seed-format text goes in {ingest: FILE})", path)
    stamp = _stamp(path)
    try:
        reader = ParquetRows(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", path) from None
    names = [c.name for c in problem.set_table.columns]
    present = set(reader._file.schema_arrow.names)
    missing = [n for n in names if n not in present]
    if missing:
        raise InputError(f"not a {problem.name} {problem.set_key} set: missing column(s) "
                         f"{', '.join(missing)} (expected {', '.join(names)})", path)
    ids, costs = [], []
    try:
        for first, piece in reader.batches(names):
            table, cost = _checked(problem, piece, path, first, options)
            ids.append(table.column(problem.id_column).to_numpy())
            costs.append(cost)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", path) from None
    if reader.rows == 0:
        raise InputError(f"the {problem.set_key} set is empty (no rows)", path)
    _distinct(np.concatenate(ids), problem.id_column, path)
    return InputSet(path, file_digest(path), reader.rows, np.concatenate(costs), stamp=stamp,
                    spec=problem.set_table)
