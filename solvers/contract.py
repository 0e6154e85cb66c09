"""The problem contract: everything the pipeline may ask of a problem, as types.

``solvers/`` holds the problems, ``pipeline/`` everything around them, and this module is the
seam.  Each problem module exports one object, ``PROBLEM``, an instance of
:class:`CountProblem` or :class:`InstanceProblem`; :mod:`solvers.registry` lists them, and the
pipeline never names a problem.  Adding one means one module (with its text format) and one
registry line (or an entry point / ``BOARDSWEEP_PROBLEMS``, see the registry).

What a problem declares
-----------------------
``name``, ``kind`` (``count`` or ``instance``), ``doc``;
``params``: a :class:`solvers.schema.Record` of the job's own keys (everything but ``name``
and ``problem``), used alike by config files, the command line and Parquet sets;
``tables``: its output :class:`Table` s, one Arrow type per column;
``modules``: the modules whose sources decide its output.  Its ``version`` is a hash of those
sources and of every module they import inside ``solvers`` or their own package, computed,
never typed in (:mod:`solvers.identity`); results are keyed by it, so results of edited code
are never reused;
``solve`` (:class:`SolveCommand`: a count problem's ``boardsweep solve``; an instance
problem's is read from its set and ``options``) and ``judge`` (:class:`Judge`): the command
line's view;
``report``: summary tables and figures over the published tables (:class:`Report`);
``crosscheck`` (optional): a second, independent method for ``boardsweep verify``
(:class:`Crosscheck`).

How the pipeline runs a job
---------------------------
``outputs(params)`` names the tables a job writes; ``points(params, table)`` lists the job's
*points* for one table (:class:`Point`).  A point's output depends on ``point.params`` and the
code alone.  Its search space is cut into ``point.units`` fixed *work units*, numbered from 0,
that depend on the point alone (never on the worker count); the pipeline runs tasks, each a
range ``lo..hi-1`` of units, through ``compute(point, lo, hi, rows)``, which returns that
range's rows of ``point.table`` as an Arrow table of the table's declared schema (without the
columns :meth:`Table.schema` adds).  Tables merge in one of two ways (``Table.merge``):

- ``rows``: the rows of every unit range, in point order then unit order (instance results,
  every N-queens solution in lexicographic order);
- ``sum``: rows with equal ``keys`` are added, column by column, exactly (counts).  A ``sum``
  table's schema ends with the two columns the pipeline fills: ``units`` (work units added
  into the row) and ``cpu_seconds``.

Exact counts
------------
A count is stored as a pair of columns (:func:`count_columns`): ``<name>`` as
``decimal128(38, 0)``, null where the value has more than 38 digits, and ``<name>_text``, its
exact decimal digits, always present.  The schema never depends on the values, and every
reader (pandas, polars, duckdb) reads both exactly (duckdb reads a wider Parquet decimal as a
DOUBLE, so no wider decimal is used).

Kernels stay pure: no Dask, no files, no printing, anywhere under ``solvers/``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

import numpy as np
import pyarrow as pa

from .schema import Choice, Context, Field, FilePath, OneOf, ParamError, Record, Validator

__all__ = [
    "COUNT_TYPE",
    "COUNT_DIGITS",
    "Column",
    "Table",
    "Point",
    "FormatError",
    "ParamError",
    "SolveCommand",
    "Judge",
    "Report",
    "Problem",
    "CountProblem",
    "InstanceProblem",
    "Exhaustive",
    "Crosscheck",
    "count_columns",
    "count_arrays",
    "count_value",
    "canonical",
    "INGEST",
    "PARQUET",
    "GENERATE",
    "EVERY",
    "GIVEN",
    "FILE_SOURCES",
]

COUNT_DIGITS = 38
# The sources of an instance set, each named once: a job's ``{<set_key>: {<source>: ...}}``.
INGEST = "ingest"  # a seed-format text file
PARQUET = "parquet"  # a Parquet set file
GENERATE = "generate"  # instances generated from their group's params and index
EVERY = "all"  # every instance of a shape, counted as a histogram (Exhaustive)
GIVEN = "given"  # a table handed over in-process (judge's stdin, the Python API); no config key
FILE_SOURCES = (INGEST, PARQUET)
SUMMARY_CHUNK = 1 << 16  # instances a summary task solves at once
COUNT_TYPE = pa.decimal128(COUNT_DIGITS, 0)
_COUNT_LIMIT = 10**COUNT_DIGITS


class FormatError(ValueError):
    """Seed-format text that cannot be read: ``line`` (1-based, None if none applies) and what
    was expected, as data; the pipeline adds the file name."""

    def __init__(self, message: str, line: int | None = None):
        self.message, self.line = message, line
        super().__init__(message)

    def __str__(self) -> str:
        return self.message


# ----------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Column:
    """One column: its name, Arrow type, meaning, unit (``s``, ``nodes``, ``''``) and role.

    ``role``: ``key`` (a ``sum`` table adds rows with equal keys), ``count`` / ``count_text``
    (the two halves of an exact count, :func:`count_columns`), ``sum`` (added in a ``sum``
    table: integers exactly, floats as floats) or ``value`` (anything else).  ``nullable``:
    whether the column may hold nulls (an input set's column that is not is checked for them).
    """

    name: str
    type: pa.DataType
    doc: str
    unit: str = ""
    role: str = "value"
    nullable: bool = False


def count_columns(name: str, doc: str, unit: str = "") -> tuple[Column, Column]:
    """The two columns of an exact count: ``name`` (decimal128(38, 0), null when the count has
    more than 38 digits) and ``name_text`` (its decimal digits, always present)."""
    return (
        Column(
            name,
            COUNT_TYPE,
            f"{doc} (null if it has more than {COUNT_DIGITS} digits: see {name}_text)",
            unit,
            "count",
            nullable=True,
        ),
        Column(
            f"{name}_text",
            pa.string(),
            f"{doc}, exact, as decimal digits",
            unit,
            "count_text",
            nullable=True,
        ),
    )


def count_arrays(values: Sequence[int | None]) -> tuple[pa.Array, pa.Array]:
    """The two arrays of an exact count column pair for ``values`` (Python or numpy ints;
    None stays null in both).  Negative counts are a bug: ValueError."""
    ints = [None if v is None else int(v) for v in values]
    if any(v is not None and v < 0 for v in ints):
        raise ValueError("a count cannot be negative")
    small = [None if v is None or v >= _COUNT_LIMIT else Decimal(v) for v in ints]
    return (
        pa.array(small, COUNT_TYPE),
        pa.array([None if v is None else str(v) for v in ints], pa.string()),
    )


def count_value(text: str | None) -> int | None:
    """An exact count read back from its ``_text`` column."""
    return None if text is None else int(text)


SUM_COLUMNS = (
    Column("units", pa.int64(), "work units of the point merged into this row", "units", "sum"),
    Column("cpu_seconds", pa.float64(), "CPU seconds the tasks of this row took", "s", "sum"),
)


@dataclass(frozen=True)
class Table:
    """An output table: ``name`` (the file is ``<name>.parquet``), its columns and its merge.

    ``merge`` is ``rows`` (concatenate in point, then unit order) or ``sum`` (add rows with
    equal ``keys``; every other column must have role ``count``, ``count_text`` or ``sum``).
    """

    name: str
    doc: str
    columns: tuple[Column, ...]
    merge: str = "rows"
    keys: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.merge not in ("rows", "sum"):
            raise ValueError(f"table {self.name}: merge must be 'rows' or 'sum'")
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: a column name repeats")
        if self.merge == "sum":
            for c in self.columns:
                if (c.name in self.keys) != (c.role == "key") or c.role == "value":
                    raise ValueError(
                        f"table {self.name}: in a sum table column {c.name} must "
                        "be a key (listed in keys) or a count/sum column"
                    )

    @property
    def all_columns(self) -> tuple[Column, ...]:
        """The declared columns plus, for a ``sum`` table, ``units`` and ``cpu_seconds``."""
        return self.columns + (SUM_COLUMNS if self.merge == "sum" else ())

    def schema(self) -> pa.Schema:
        """The published schema, each field carrying its doc and unit as metadata."""
        return pa.schema(
            [
                pa.field(c.name, c.type, c.nullable, metadata={"doc": c.doc, "unit": c.unit})
                for c in self.all_columns
            ]
        )

    def compute_schema(self) -> pa.Schema:
        """The schema ``compute`` returns: the declared columns only."""
        return pa.schema([pa.field(c.name, c.type, c.nullable) for c in self.columns])

    @property
    def measured(self) -> tuple[str, ...]:
        """Columns measured while computing (unit ``s``: a time), which two computations of
        one unit do not repeat; every other column is a function of the unit alone."""
        return tuple(c.name for c in self.columns if c.unit == "s")


# ----------------------------------------------------------------------------- work


def canonical(value: Any) -> str:
    """Stable JSON of plain data (tuples as lists, sorted keys): what record keys hash."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)


def _plain(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    raise TypeError(f"not plain data: {value!r}")


@dataclass(frozen=True)
class Point:
    """One point of a job for one table: its output depends on ``params`` and the code alone.

    ``units``: how many fixed work units its search is cut into (a function of ``params``);
    ``seconds``: estimated CPU seconds of all of them on one core of a laptop-class machine;
    ``label``: the point in words, for messages (``n=16``).  ``costs``, if given, estimates
    the units ``lo..hi-1`` one by one (seconds, numpy array); otherwise they cost the same.
    ``rows``: for a ``rows`` table, the estimated rows of the whole point (None: one row per
    unit), so that no task returns more rows than a driver should hold at once.
    """

    table: str
    params: Mapping[str, Any]
    units: int
    seconds: float
    label: str
    costs: Callable[[int, int], np.ndarray] | None = field(default=None, compare=False, repr=False)
    rows: float | None = None

    @cached_property
    def key(self) -> str:
        """The canonical JSON of ``table`` and ``params``."""
        return canonical({"table": self.table, "params": self.params})


# ----------------------------------------------------------------------------- command line


@dataclass(frozen=True)
class SolveCommand:
    """``boardsweep solve NAME ARGS...`` for a count problem.

    ``arguments``: ``(name, validator, help)`` per positional argument; ``job`` turns the
    checked arguments into the job's params; ``answer`` turns the merged main table into what
    is printed on stdout.  ``extra``: ``(table, params key)`` pairs: ``--<table> PATH`` sets
    ``params[key] = True`` and writes that table to PATH.  ``flags``: ``(name, params key,
    help)``: ``--<name>`` sets ``params[key] = True`` (it may change ``answer``).
    """

    arguments: tuple[tuple[str, Validator, str], ...]
    job: Callable[[Mapping[str, Any]], dict]
    answer: Callable[[pa.Table, Mapping[str, Any]], str]
    extra: tuple[tuple[str, str], ...] = ()
    flags: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Judge:
    """``boardsweep judge NAME``: the seed's input on stdin, its exact output on stdout.

    ``read(text)`` gives the job's params (a count problem) or the instance set as a table of
    the problem's ``set_table`` schema (an instance problem), raising :class:`FormatError`;
    ``write(tables, params, note)`` streams the output bytes from the merged tables (each an
    iterator of record batches, in table order); ``note`` logs a line (an unsolvable case).
    """

    read: Callable[[str], dict | pa.Table]
    write: Callable[
        [Mapping[str, Iterator[pa.RecordBatch]], Mapping[str, Any], Callable[[str], None]],
        Iterator[bytes],
    ]


@dataclass
class Report:
    """What ``boardsweep report`` shows for one job: titled tables and titled figures.

    A problem's ``report`` hook makes it, always called as ``report(job, tables, related)``.
    ``tables`` maps each published table of the job to ``load(columns=None) -> pa.Table``;
    ``related`` maps every *other* job of the same problem in the results folder to its own
    such mapping (``{job: {table: load}}``, empty when there is none), so one job's figure may
    draw another's numbers (exact curves over a Monte Carlo estimate).

    Each figure is a :class:`matplotlib.figure.Figure` with a title (a suptitle or an axes
    title), axes whose labels give their units, and a size that follows the data within
    :data:`solvers.figures.MAX_WIDTH` x :data:`solvers.figures.MAX_HEIGHT` inches (the
    pipeline shrinks a larger one, with a warning); its file stem names the PNG
    ``<job>-<stem>.png``.
    """

    tables: list[tuple[str, Any]] = field(default_factory=list)  # (title, pandas DataFrame)
    figures: list[tuple[str, Any]] = field(default_factory=list)  # (file stem, Figure)


@dataclass(frozen=True)
class Crosscheck:
    """Rows of a point's units recomputed by a method independent of ``compute`` (for
    ``boardsweep verify``): ``method`` names it in words; ``rows`` holds only the columns
    it decides, named and typed as in the table (a ``sum`` table's key columns among them),
    one row per published row in the same order (a ``rows`` table) or one per key (a ``sum``
    table).  A witness the method does not pick itself (a placement, a solution) is the
    published one if the method found it valid, else something that differs from it."""

    method: str
    rows: pa.Table


# ----------------------------------------------------------------------------- problems


@dataclass(frozen=True, kw_only=True)
class Problem:
    """What every problem declares (see the module docstring); subclasses add the kind's part.

    ``modules``: the modules (dotted names) whose import closure decides the output; the
    problem's ``version`` is computed from their sources.
    """

    name: str
    doc: str
    params: Record
    tables: tuple[Table, ...]
    modules: tuple[str, ...]
    report: Callable[..., Report] | None = None
    # report(job name, {table name: load(columns=None) -> pa.Table}, related) -> Report,
    # related = {other job of this problem: {table name: load}} (see Report)
    judge: Judge | None = None
    warm: Callable[[], None] | tuple[Callable[[], None], ...] | None = None
    # the warm-up: one callable, or its steps in order (each loads, or on a machine's first
    # run compiles, some of the kernels; the pipeline counts them as it reports progress)
    crosscheck: Callable[[Point, int, int, pa.Table], Crosscheck | None] | None = None
    # crosscheck(point, lo, hi, published) -> Crosscheck | None: units lo..hi-1 of point by
    # a second, independent method (``boardsweep verify``).  ``published``: the published
    # rows from unit lo's first on (a rows table; rows of later units may follow), or the
    # point's rows (a sum table: then lo, hi = 0, point.units).  None: no second method
    # for this point (too large, or its instances are not at hand).  Pure, like compute.

    kind = "?"

    @property
    def version(self) -> str:
        """A hash of the sources that decide this problem's output (:mod:`solvers.identity`)."""
        from .identity import version

        return version(self.modules)

    def table(self, name: str) -> Table:
        """The declared table called ``name`` (KeyError if there is none)."""
        for table in self.tables:
            if table.name == name:
                return table
        raise KeyError(f"{self.name} has no table {name!r}")

    def check_params(self, raw: Mapping, key: tuple = (), ctx: Context | None = None) -> dict:
        """The job's params checked by ``self.params``; :class:`ParamError` with its key path."""
        return self.params.check(raw, key, ctx)

    def outputs(self, params: Mapping) -> tuple[str, ...]:
        """The tables a job with ``params`` writes, in order; the first is its main table."""
        raise NotImplementedError

    def points(self, params: Mapping, table: str) -> list[Point]:
        """The job's points for ``table``, in output order (a function of the params' values,
        never of their order in a config list)."""
        raise NotImplementedError

    def compute(self, point: Point, lo: int, hi: int, rows: pa.Table | None = None) -> pa.Table:
        """Rows of ``point.table`` for the units ``lo..hi-1`` of ``point`` (runs on workers)."""
        raise NotImplementedError

    def warm_steps(self) -> tuple[Callable[[], None], ...]:
        """The warm-up's steps in order (one for a single ``warm`` callable, none without)."""
        if self.warm is None:
            return ()
        return tuple(self.warm) if isinstance(self.warm, tuple) else (self.warm,)

    def warm_up(self, step: Callable[[int, int], None] | None = None) -> None:
        """Load the compiled kernels (run the smallest cases) before a worker's first task;
        ``step(done, total)`` after each of the :meth:`warm_steps`."""
        steps = self.warm_steps()
        for done, run in enumerate(steps, 1):
            run()
            if step is not None:
                step(done, len(steps))


@dataclass(frozen=True, kw_only=True)
class CountProblem(Problem):
    """A problem answered by exhaustive counting over a parameter grid (N-queens).

    ``solve`` says how ``boardsweep solve NAME ...`` reads its arguments.  ``outputs_of``,
    ``points_of`` and ``compute_units`` implement :meth:`Problem.outputs`,
    :meth:`Problem.points` and :meth:`Problem.compute`.
    """

    solve: SolveCommand
    outputs_of: Callable[[Mapping], tuple[str, ...]]
    points_of: Callable[[Mapping, str], list[Point]]
    compute_units: Callable[[Point, int, int], pa.Table]

    kind = "count"

    def outputs(self, params):
        return self.outputs_of(params)

    def points(self, params, table):
        return self.points_of(params, table)

    def compute(self, point, lo, hi, rows=None):
        return self.compute_units(point, lo, hi)


@dataclass(frozen=True)
class Exhaustive:
    """A set source that stands for *every* instance of a shape, ``{all: {...}}``: a count
    search whose output is a ``sum`` table (a histogram), not a row per instance.

    ``params``: the keys of ``{all: {...}}``; ``table``: its ``sum`` table; ``points(params)``
    its points of that table (their units fixed by the shape alone, as for a count problem);
    ``compute(point, lo, hi)`` the rows of units ``lo..hi-1``; ``check(params)`` a ParamError
    for a shape too large to search (None when it fits).
    """

    params: Record
    table: Table
    points: Callable[[Mapping], list[Point]]
    compute: Callable[[Point, int, int], pa.Table]
    check: Callable[[Mapping], None] = lambda params: None


@dataclass(frozen=True, kw_only=True)
class InstanceProblem(Problem):
    """A problem solved instance by instance over a set (walled boards, Slant puzzles).

    A set is a table (``set_table``, its ids in ``id_column``) read from a Parquet file, from
    seed-format text (``read_text``), or generated: ``generate_params`` are the keys of
    ``{generate: {...}}``, ``groups(generate)`` cuts them into points of the set table (one
    per board shape), and ``generate(point, lo, hi)`` makes instances ``lo..hi-1`` of a group,
    each a function of the group's params and its index alone (a group's params include
    its ``cost_columns``, e.g. rows and cols).  ``check_set(rows)`` checks a
    set's rows beyond their column types (``ParamError`` naming the instance);
    ``solve_rows(rows, options)`` answers them as rows of ``result``; ``costs(columns, options)``
    estimates seconds per instance from the ``cost_columns`` of the set, and
    ``memory(columns, options)`` bounds the bytes one instance needs to generate and solve
    (an instance over a worker's share of memory is refused before anything is allocated).
    Ids are distinct within a group of equal ``group_columns`` values (a generated set numbers
    each group's instances from 0), so a set of several groups reads back as it was written.

    The job's params are ``{<set_key>: {ingest: FILE} | {parquet: FILE} | {generate: {...}},
    **options}`` (``options``: the problem's own keys, e.g. ``counts``; its ``check_all``
    checks them together, in a job as on the command line).  A problem with
    ``exhaustive`` (:class:`Exhaustive`) also takes ``{<set_key>: {all: {...}}}``: every
    instance of a shape, searched as a count problem into ``exhaustive.table``.  A problem
    with a ``summary`` table (a ``sum`` table) also takes ``keep: summary`` (the option
    ``keep``, default ``<set_key>``: a row per instance): each task folds its instances'
    result rows, solved in chunks of :data:`SUMMARY_CHUNK`, into summary rows with
    ``summarize(chunks, options)``, so the output stays small whatever the set's size.
    """

    set_key: str
    set_table: Table
    id_column: str
    result: Table
    options: Record
    generate_params: Record
    groups: Callable[[Mapping], list[Point]]
    generate: Callable[[Point, int, int], pa.Table]
    check_set: Callable[[pa.Table], None]
    solve_rows: Callable[[pa.Table, Mapping], pa.Table]
    costs: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray]
    cost_columns: tuple[str, ...]
    read_text: Callable[[str], pa.Table]
    write_text: Callable[[pa.Table], str]
    memory: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray]
    group_columns: tuple[str, ...] = ()  # an id is unique within a group of these values
    exhaustive: Exhaustive | None = None
    summary: Table | None = None
    summarize: Callable[[Iterator[pa.Table], Mapping], pa.Table] | None = None

    kind = "instance"
    params: Record = None  # built from set_key, options and generate_params
    tables: tuple[Table, ...] = ()

    def __post_init__(self) -> None:
        sources = {
            INGEST: FilePath("a seed-format text file"),
            PARQUET: FilePath("a Parquet set file"),
            GENERATE: self.generate_params,
        }
        if self.exhaustive is not None:
            sources[EVERY] = self.exhaustive.params
        source = OneOf(sources)
        fields = {
            self.set_key: Field(
                source, required=True, doc=f"the {self.set_key}: " + ", ".join(sources)
            )
        }
        if self.summary is not None:
            keep = Field(
                Choice((self.set_key, "summary")),
                default=self.set_key,
                doc=f"{self.set_key}: a row of {self.result.name} per instance; "
                f"summary: the histograms of {self.summary.name} per group",
            )
            options = Record(
                {**self.options.fields, "keep": keep}, self.options.what, self.options.check_all
            )
            object.__setattr__(self, "options", options)
        fields.update(self.options.fields)
        params = Record(fields, f"an {self.name} job", self.options.check_all)
        object.__setattr__(self, "params", params)
        tables = (self.result, self.set_table)
        if self.exhaustive is not None:
            tables += (self.exhaustive.table,)
        if self.summary is not None:
            tables += (self.summary,)
        object.__setattr__(self, "tables", tables)

    def outputs(self, params):
        if params[self.set_key][0] == EVERY:
            return (self.exhaustive.table.name,)
        if params.get("keep") == "summary":
            return (self.summary.name,)
        return (self.result.name,)

    def points(self, params, table):
        kind, source = params[self.set_key]
        if kind == EVERY:
            return self.exhaustive.points(source)
        if kind != GENERATE:
            raise ValueError("points of a set read from a file come from set_point()")
        groups = self.groups(source)
        if table == self.set_table.name:
            return groups
        options = {k: params[k] for k in self.options.fields if k in params}
        return [self._solving(g, options, table) for g in groups]

    def _solving(self, group: Point, options: Mapping, table: str) -> Point:
        """The point of ``table`` (result or summary) that solves a generated group."""
        per = float(self.costs(self._shape(group), options)[0])
        return Point(
            table,
            {GENERATE: group.params, "options": dict(options)},
            group.units,
            per * group.units,
            group.label,
        )

    def _shape(self, group: Point) -> dict[str, np.ndarray]:
        """The cost columns of a generated group's instances (a group's params hold them)."""
        return {c: np.array([group.params[c]]) for c in self.cost_columns}

    def set_point(
        self,
        digest: str,
        rows: int,
        seconds: float,
        options: Mapping,
        label: str,
        costs: Callable[[int, int], np.ndarray] | None = None,
        table: str | None = None,
    ) -> Point:
        """The point of a set read from a file (``digest``: its contents' hash) for ``table``
        (default the result table)."""
        return Point(
            table or self.result.name,
            {"set": digest, "options": dict(options)},
            rows,
            seconds,
            label,
            costs,
        )

    def compute(self, point, lo, hi, rows=None):
        if self.exhaustive is not None and point.table == self.exhaustive.table.name:
            return self.exhaustive.compute(point, lo, hi)
        if point.table == self.set_table.name:
            return self.generate(point, lo, hi)
        options = point.params["options"]
        if self.summary is not None and point.table == self.summary.name:
            return self.summarize(self._solved(point, lo, hi, rows, options), options)
        if rows is None:
            rows = self._generated(point, lo, hi)
        return self.solve_rows(rows, options)

    def _generated(self, point: Point, lo: int, hi: int) -> pa.Table:
        """Instances ``lo..hi-1`` of the generated group a solving point stands for."""
        return self.generate(
            Point(self.set_table.name, point.params[GENERATE], point.units, 0.0, point.label),
            lo,
            hi,
        )

    def _solved(
        self, point: Point, lo: int, hi: int, rows: pa.Table | None, options: Mapping
    ) -> Iterator[pa.Table]:
        """Result rows of instances ``lo..hi-1``, solved :data:`SUMMARY_CHUNK` at a time (the
        memory of a summary task does not grow with its length)."""
        for a in range(lo, hi, SUMMARY_CHUNK):
            b = min(a + SUMMARY_CHUNK, hi)
            if rows is not None:
                chunk = rows.slice(a - lo, b - a)
            else:
                chunk = self._generated(point, a, b)
            yield self.solve_rows(chunk, options)
