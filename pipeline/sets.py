"""Instance sets read from files (seed-format text or Parquet), checked once, on read.

A set is checked column by column against the problem's ``set_table`` (types, widths, nulls:
:func:`pipeline.tables.check_columns`), then by the problem's own ``check_set``; its ids must be
distinct, it must not be empty, every instance must have a finite cost estimate, and none
may need more memory than a worker may use (refused here, naming it).  What comes out is an
:class:`InputSet`: the file's digest (which keys its results), its row count, per-row cost
estimates for the planner, and a reader of row ranges for the tasks.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from boardsweep.solvers.contract import INGEST, FormatError, InstanceProblem
from boardsweep.solvers.schema import ParamError

from .errors import InputError
from .limits import peak_memory, too_big
from .tables import ParquetRows, check_columns, file_digest, is_parquet, read_file

__all__ = ["InputSet", "load_set", "set_from_text", "set_from_table", "decode_text"]


@dataclass
class InputSet:
    """A checked instance set: ``rows`` instances, read back by :meth:`read`."""

    path: str
    digest: str
    rows: int
    costs: np.ndarray  # estimated seconds per instance (float64)
    memory: float = 0.0  # bytes the instance that needs the most needs (estimated)
    table: pa.Table | None = None  # the whole set, when it came from text
    stamp: tuple[int, int] | None = None  # (size, mtime_ns) of a Parquet file when checked
    spec: object = None
    _reader: ParquetRows | None = field(default=None, repr=False)

    def read(self, lo: int, hi: int) -> pa.Table:
        """Instances ``lo..hi-1`` in the declared types (the file must not have changed)."""
        if self.table is not None:
            return self.table.slice(lo, hi - lo)
        if _stamp(self.path) != self.stamp:
            raise InputError("the set file changed while the run was reading it: rerun", self.path)
        if self._reader is None:
            self._reader = ParquetRows(self.path)
        present = set(self._reader._file.schema_arrow.names)
        names = [c.name for c in self.spec.columns if c.name in present]
        return check_columns(self._reader.read(lo, hi, names), self.spec, self.path, lo)

    def cost_of(self, lo: int, hi: int) -> np.ndarray:
        """Estimated seconds of instances ``lo..hi-1``."""
        return self.costs[lo:hi]

    def __getstate__(self):  # a set never travels to workers whole
        raise TypeError("an InputSet stays in the driver: send rows with the task")


def decode_text(data: bytes, source: str, what: str) -> str:
    """``data`` as UTF-8 text (a UTF-8 byte-order mark dropped), or :class:`InputError` naming
    ``source`` and the line of the first byte that is not text; ``what`` says what text was
    expected (``a YAML config``).  The one check of every text input: configs, seed files,
    stdin."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(
            f"is UTF-16 text (it starts with a UTF-16 byte-order mark): expected {what} in UTF-8",
            source,
            1,
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"byte 0x{data[exc.start]:02x} at column {column} is not UTF-8: "
            f"expected {what} in UTF-8",
            source,
            line,
        ) from None
    if "\0" in text:
        at = text.index("\0")
        line = text.count("\n", 0, at) + 1
        raise InputError(
            f"a NUL byte at column {at - (text.rfind(chr(10), 0, at) + 1) + 1}: "
            f"not a text file (expected {what})",
            source,
            line,
        )
    return text


def _stamp(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_size, info.st_mtime_ns


def _checked(
    problem: InstanceProblem, table: pa.Table, source: str, first: int, options: Mapping
) -> tuple[pa.Table, np.ndarray, float]:
    """One piece of a set: declared columns checked, the problem's checks, cost estimates,
    and the most memory one of its instances needs."""
    instances = problem.instances
    table = check_columns(table, instances.table, source, first, _set_words(problem))
    try:
        instances.check(table)
        names = dict.fromkeys((*instances.cost_columns, instances.id_column))
        columns = {c: table.column(c).to_numpy() for c in names}
        costs = np.asarray(instances.costs(columns, options), dtype=np.float64)
    except ParamError as exc:
        raise InputError(str(exc), source) from None
    big = too_big(problem, columns, options)
    if big is not None:
        index, message = big
        ident = columns[instances.id_column][index]
        raise InputError(f"{instances.id_column} {ident}, {message}", source)
    if costs.shape != (table.num_rows,) or not np.isfinite(costs).all():
        raise RuntimeError(f"{problem.name}: costs() must give one finite estimate per instance")
    return table, costs, peak_memory(problem, columns, options)


def _set_words(problem: InstanceProblem) -> str:
    """What a set is called in messages: ``<problem> <instances.key> set``."""
    return f"{problem.name} {problem.instances.key} set"


def _not_empty(rows: int, problem: InstanceProblem, source: str) -> None:
    if rows == 0:
        raise InputError(f"holds no {problem.instances.key}: a set needs at least one", source)


def _keys(problem: InstanceProblem, table: pa.Table) -> np.ndarray:
    """Each row's identity: its id within its group (the problem's ``group_columns``), as a
    structured array; a null group value (the density of a given board) is -inf, equal to
    itself, where NaN would make every such row distinct."""
    names = (*problem.instances.group_columns, problem.instances.id_column)
    fields = []
    for name in names:
        column = table.column(name)
        if pa.types.is_floating(column.type):
            column = column.fill_null(-np.inf)
        fields.append(np.asarray(column.to_numpy()))
    keys = np.empty(
        table.num_rows, dtype=[(n, f.dtype) for n, f in zip(names, fields, strict=True)]
    )
    for name, values in zip(names, fields, strict=True):
        keys[name] = values
    return keys


def _shown(value) -> str:
    """A group value as a message shows it (null for the -inf of :func:`_keys`)."""
    return "null" if value == -np.inf else f"{value:g}"


def _distinct(problem: InstanceProblem, keys: np.ndarray, source: str) -> None:
    """InputError naming the first id that appears twice in one group."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    same = np.flatnonzero(ordered[1:] == ordered[:-1])
    if same.size:
        i = int(same[0])
        first, second = sorted((int(order[i]), int(order[i + 1])))
        ident = problem.instances.id_column
        group = ", ".join(
            f"{name} {_shown(ordered[i][name])}" for name in problem.instances.group_columns
        )
        within = f" of the group {group}" if group else ""
        raise InputError(
            f"{ident} {int(ordered[i][ident])}{within} appears twice (rows "
            f"{first} and {second}): ids must be distinct within a group",
            source,
        )


def set_from_table(
    problem: InstanceProblem, table: pa.Table, source: str, digest: str, options: Mapping
) -> InputSet:
    """A set held in memory (read from text or stdin), checked."""
    table, costs, memory = _checked(problem, table, source, 0, options)
    _not_empty(table.num_rows, problem, source)
    _distinct(problem, _keys(problem, table), source)
    return InputSet(
        source, digest, table.num_rows, costs, memory, table=table, spec=problem.instances.table
    )


def set_from_text(problem: InstanceProblem, path: str, options: Mapping) -> InputSet:
    """A seed-format text file read through the problem's format, checked."""
    data = read_file(path, "a seed-format text file")
    if is_parquet(data):
        raise InputError(
            f"is a Parquet file: expected {problem.name} seed-format text (a "
            "Parquet set is read as it is, with {parquet: FILE})",
            path,
        )
    text = decode_text(data, path, f"{problem.name} seed-format text")
    try:
        table = problem.seed_format.read(text)
    except FormatError as exc:
        raise InputError(exc.message, path, exc.line) from None
    return set_from_table(problem, table, path, hashlib.sha256(data).hexdigest(), options)


def load_set(problem: InstanceProblem, kind: str, path: str, options: Mapping) -> InputSet:
    """The set of ``{ingest: path}`` (text) or ``{parquet: path}``, checked whole."""
    if kind == INGEST:
        return set_from_text(problem, path, options)
    if not is_parquet(read_file(path, "a Parquet file", 4)):
        raise InputError("is not a Parquet file (seed-format text goes in {ingest: FILE})", path)
    stamp = _stamp(path)
    try:
        reader = ParquetRows(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", path) from None
    schema = reader._file.schema_arrow
    names = [c.name for c in problem.instances.table.columns if c.name in schema.names]
    check_columns(
        schema.empty_table(), problem.instances.table, path, 0, _set_words(problem)
    )  # columns and types, before any row
    ids, costs, memory = [], [], 0.0
    try:
        for first, piece in reader.batches(names):
            table, cost, need = _checked(problem, piece, path, first, options)
            ids.append(_keys(problem, table))
            costs.append(cost)
            memory = max(memory, need)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", path) from None
    _not_empty(reader.rows, problem, path)
    _distinct(problem, np.concatenate(ids), path)
    return InputSet(
        path,
        file_digest(path),
        reader.rows,
        np.concatenate(costs),
        memory,
        stamp=stamp,
        spec=problem.instances.table,
    )
