"""The problem contract: everything the pipeline may ask of a problem, as types.

``solvers/`` holds the problems, ``pipeline/`` everything around them, and this module is the
seam.  Each problem module exports one object, ``PROBLEM``, an instance of
:class:`CountProblem` or :class:`InstanceProblem`; :mod:`solvers.registry` lists them, and the
pipeline never names a problem.  Adding one means one module (with its text format) and one
registry line (or an entry point / ``BOARDSWEEP_PROBLEMS``, see the registry).

What a problem declares
-----------------------
The core, which every problem has: ``name``, ``doc``;
``params``: a :class:`solvers.schema.Record` of the job's own keys (everything but ``name``
and ``problem``), used alike by config files, the command line and Parquet sets;
``tables``: its output :class:`Table` s, one Arrow type per column;
``modules``: the modules whose sources decide its output.  Its ``version`` is a hash of those
sources and of every module they import inside ``solvers`` or their own package, computed,
never typed in (:mod:`solvers.identity`); results are keyed by it, so results of edited code
are never reused;
``outputs``, ``points`` and ``compute`` (below).

Everything else is an optional capability (:data:`CAPABILITIES`), each an object of its own:
a solve command (:class:`SolveCommand`), an instance set (:class:`InstanceSet`), a seed text
format from which ``judge`` is derived (:class:`SeedFormat`), a generator
(:class:`Generator`), exhaustive enumeration (:class:`Exhaustive`), a summary
(:class:`Summary`), a report (:class:`Report`, always called ``report(job, tables,
related)``), a second method for ``boardsweep verify`` (:class:`Crosscheck`) and a warm-up.
:class:`CountProblem` and :class:`InstanceProblem` build the core from their parts.

This module is longer than most because it is the whole seam in one place: the types the
pipeline may rely on, and nothing else.

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
    "CAPABILITIES",
    "SolveCommand",
    "SeedFormat",
    "InstanceSet",
    "Generator",
    "Summary",
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
# The sources of an instance set, each named once: a job's ``{<instances.key>: {<source>: ...}}``.
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


# ----------------------------------------------------------------------------- capabilities
# Each is optional: the pipeline offers what a problem has (a command, a set source, a table)
# by whether the capability is there, never by the problem's name or kind.

CAPABILITIES = {  # a problem's member -> the capability in words (messages, the manual)
    "solve": "solve command",
    "instances": "instance set",
    "seed_format": "seed format",
    "generator": "generator",
    "exhaustive": "exhaustive enumeration",
    "summary": "summary",
    "report": "report",
    "crosscheck": "second method",
    "warm": "warm-up",
}


@dataclass(frozen=True)
class SolveCommand:
    """``boardsweep solve NAME ARGS...`` (and the API's ``count``) for a count problem.

    ``arguments``: ``(name, validator, help)`` per positional argument; ``job`` turns the
    checked arguments into the job's params; ``answer`` turns the merged main table into what
    is printed on stdout, given the arguments and the job's flags.  Every :class:`Flag` field
    of the problem's params is an option too: ``--<flag>``, or ``--<table> PATH`` for a flag
    named after one of the problem's tables (it turns that table on and writes it to PATH).
    """

    arguments: tuple[tuple[str, Validator, str], ...]
    job: Callable[[Mapping[str, Any]], dict]
    answer: Callable[[pa.Table, Mapping[str, Any]], str]


@dataclass(frozen=True)
class SeedFormat:
    """The seed's text format, from which ``boardsweep judge`` is derived (and, for an
    instance problem, ``{ingest: FILE}`` and ``boardsweep ingest``).

    ``read(text)`` gives the job's params (a count problem) or the instance set as a table of
    the set table's schema (an instance problem), raising :class:`FormatError`;
    ``answer(tables, params, note)`` streams the seed's output bytes from the merged tables
    (each an iterator of record batches, in table order); ``note`` logs a line (an unsolvable
    case).  ``write(set)``: a set as seed text, the inverse of ``read`` (instance problems).
    """

    read: Callable[[str], dict | pa.Table]
    answer: Callable[
        [Mapping[str, Iterator[pa.RecordBatch]], Mapping[str, Any], Callable[[str], None]],
        Iterator[bytes],
    ]
    write: Callable[[pa.Table], str] | None = None


def _any_rows(rows: pa.Table) -> None:
    """No check beyond the set table's column types."""


@dataclass(frozen=True)
class InstanceSet:
    """The instances a problem answers one by one, and what the pipeline needs to plan them.

    ``key``: the job's key that holds the set (``boards``); ``table``: the set's table, its
    ids in ``id_column``, distinct within a group of equal ``group_columns`` values (a
    generated set numbers each group's instances from 0, so a set of several groups reads
    back as it was written); ``check(rows)``: checks beyond the column types
    (:class:`ParamError` naming the instance).  ``costs(columns, options)`` estimates seconds
    per instance from the set's ``cost_columns``; ``memory(columns, options)`` bounds the bytes
    one instance needs to generate and solve (an instance over a worker's share of memory is
    refused before anything is allocated).
    """

    key: str
    table: Table
    id_column: str
    cost_columns: tuple[str, ...]
    costs: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray]
    memory: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray]
    check: Callable[[pa.Table], None] = _any_rows
    group_columns: tuple[str, ...] = ()

    def shape(self, groups: Sequence[Point]) -> dict[str, np.ndarray]:
        """The cost columns of generated groups, one value per group (a group's params hold
        them): what ``costs`` and ``memory`` take."""
        return {c: np.array([g.params[c] for g in groups]) for c in self.cost_columns}


@dataclass(frozen=True)
class Generator:
    """``{generate: {...}}`` and ``boardsweep generate``: ``params`` are the keys,
    ``groups(params)`` cuts them into points of the set table (one per shape), and
    ``generate(point, lo, hi)`` makes instances ``lo..hi-1`` of a group, each a function of the
    group's params and its index alone (a group's params include the set's cost columns)."""

    params: Record
    groups: Callable[[Mapping], list[Point]]
    generate: Callable[[Point, int, int], pa.Table]


@dataclass(frozen=True)
class Exhaustive:
    """A set source that stands for *every* instance of a shape, ``{all: {...}}``: a count
    search whose output is a ``sum`` table (a histogram), not a row per instance.

    ``params``: the keys of ``{all: {...}}``; ``table``: its ``sum`` table; ``points(params)``
    its points of that table (their units fixed by the shape alone, as for a count problem);
    ``compute(point, lo, hi)`` the rows of units ``lo..hi-1``; ``check(params)`` a ParamError
    for a shape the search cannot take (None when it can); ``memory(params)`` the bytes that
    the largest shape's search is estimated to hold at once (the pipeline refuses a job that
    needs more than a worker may use, before it starts).
    """

    params: Record
    table: Table
    points: Callable[[Mapping], list[Point]]
    compute: Callable[[Point, int, int], pa.Table]
    check: Callable[[Mapping], None] = lambda params: None
    memory: Callable[[Mapping], float] = lambda params: 0.0


@dataclass(frozen=True)
class Summary:
    """``keep: summary``: each task folds its instances' result rows, solved in chunks of
    :data:`SUMMARY_CHUNK`, into rows of ``table`` (a ``sum`` table) with
    ``summarize(chunks, options)``, so the output stays small whatever the set's size."""

    table: Table
    summarize: Callable[[Iterator[pa.Table], Mapping], pa.Table]


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
    """What every problem declares (see the module docstring): the core, then capabilities.

    The core is ``name``, ``doc``, ``params``, ``tables``, ``modules`` (the modules, dotted
    names, whose import closure decides the output: the problem's ``version`` is computed from
    their sources), :meth:`outputs`, :meth:`points` and :meth:`compute`.  Every other member is
    an optional capability (None: the problem has none), and the pipeline offers a command, a
    set source or a table by whether the capability is there (:data:`CAPABILITIES`).
    """

    name: str
    doc: str
    params: Record
    tables: tuple[Table, ...]
    modules: tuple[str, ...]
    solve: SolveCommand | None = None  # a count problem's ``boardsweep solve``
    instances: InstanceSet | None = None  # answered instance by instance (InstanceProblem)
    seed_format: SeedFormat | None = None  # ``judge`` (and, with instances, ``ingest``)
    report: Callable[..., Report] | None = None
    # report(job name, {table name: load(columns=None) -> pa.Table}, related) -> Report,
    # related = {other job of this problem: {table name: load}} (see Report)
    warm: Callable[[], None] | tuple[Callable[[], None], ...] | None = None
    # the warm-up: one callable, or its steps in order (each loads, or on a machine's first
    # run compiles, some of the kernels; the pipeline counts them as it reports progress)
    crosscheck: Callable[[Point, int, int, pa.Table], Crosscheck | None] | None = None
    # crosscheck(point, lo, hi, published) -> Crosscheck | None: units lo..hi-1 of point by
    # a second, independent method (``boardsweep verify``).  ``published``: the published
    # rows from unit lo's first on (a rows table; rows of later units may follow), or the
    # point's rows (a sum table: then lo, hi = 0, point.units).  None: no second method
    # for this point (too large, or its instances are not at hand).  Pure, like compute.

    def has(self, capability: str) -> bool:
        """Whether the problem has ``capability`` (one of :data:`CAPABILITIES`)."""
        if capability not in CAPABILITIES:
            raise KeyError(f"no capability {capability!r}")
        return getattr(self, capability, None) is not None

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

    ``points_of`` and ``compute_units`` implement :meth:`Problem.points` and
    :meth:`Problem.compute`; ``outputs_of`` :meth:`Problem.outputs` (default: the first
    table alone).
    """

    points_of: Callable[[Mapping, str], list[Point]]
    compute_units: Callable[[Point, int, int], pa.Table]
    outputs_of: Callable[[Mapping], tuple[str, ...]] | None = None

    def outputs(self, params):
        if self.outputs_of is None:
            return (self.tables[0].name,)
        return self.outputs_of(params)

    def points(self, params, table):
        return self.points_of(params, table)

    def compute(self, point, lo, hi, rows=None):
        return self.compute_units(point, lo, hi)


@dataclass(frozen=True, kw_only=True)
class InstanceProblem(Problem):
    """A problem solved instance by instance over a set (walled boards, Slant puzzles).

    Required: ``instances`` (:class:`InstanceSet`), ``result`` (the table of answers) and
    ``solve_rows(rows, options)``, which answers rows of the set table as rows of ``result``;
    ``options`` (default none) are the problem's own keys, e.g. ``counts`` (its
    ``check_all`` checks them together, in a job as on the command line).  ``params`` and
    ``tables`` are built from these and the capabilities.

    The job's params are ``{<key>: SOURCE, **options}``, ``<key>`` being
    ``instances.key``.  A set is read from ``{parquet: FILE}`` always; from ``{ingest: FILE}``
    with a ``seed_format``; it is made by ``{generate: {...}}`` with a ``generator``
    (:class:`Generator`); ``{all: {...}}``, every instance of a shape searched as a count
    problem into ``exhaustive.table``, comes with ``exhaustive`` (:class:`Exhaustive`); and
    ``keep: summary`` (the option ``keep``, default ``<key>``: a row per instance; a name
    reserved for it) with a ``summary`` (:class:`Summary`).
    """

    instances: InstanceSet = field()  # required here (field(): not the base's None)
    result: Table
    solve_rows: Callable[[pa.Table, Mapping], pa.Table]
    options: Record = field(default_factory=lambda: Record({}, "no options"))
    generator: Generator | None = None
    exhaustive: Exhaustive | None = None
    summary: Summary | None = None

    params: Record = None  # built from instances.key, options and the set sources
    tables: tuple[Table, ...] = ()

    def __post_init__(self) -> None:
        key = self.instances.key
        sources: dict[str, Validator] = {}
        if self.seed_format is not None:
            sources[INGEST] = FilePath("a seed-format text file")
        sources[PARQUET] = FilePath("a Parquet set file")
        if self.generator is not None:
            sources[GENERATE] = self.generator.params
        if self.exhaustive is not None:
            sources[EVERY] = self.exhaustive.params
        fields = {
            key: Field(OneOf(sources), required=True, doc=f"the {key}: " + ", ".join(sources))
        }
        # ``keep`` is the summary's option, added here: a copy made without the summary
        # (dataclasses.replace) drops the one its original added
        own = {k: f for k, f in self.options.fields.items() if k != "keep"}
        if self.summary is not None:
            own["keep"] = Field(
                Choice((key, "summary")),
                default=key,
                doc=f"{key}: a row of {self.result.name} per instance; "
                f"summary: the histograms of {self.summary.table.name} per group",
            )
        options = Record(own, self.options.what, self.options.check_all)
        object.__setattr__(self, "options", options)
        fields.update(options.fields)
        params = Record(fields, f"an {self.name} job", self.options.check_all)
        object.__setattr__(self, "params", params)
        tables = (self.result, self.instances.table)
        if self.exhaustive is not None:
            tables += (self.exhaustive.table,)
        if self.summary is not None:
            tables += (self.summary.table,)
        object.__setattr__(self, "tables", tables)

    def outputs(self, params):
        if params[self.instances.key][0] == EVERY:
            return (self.exhaustive.table.name,)
        if params.get("keep") == "summary":
            return (self.summary.table.name,)
        return (self.result.name,)

    def option_values(self, params: Mapping) -> dict:
        """The problem's own options among a job's params (what solving depends on)."""
        return {k: params[k] for k in self.options.fields if k in params}

    def points(self, params, table):
        kind, source = params[self.instances.key]
        if kind == EVERY:
            return self.exhaustive.points(source)
        if kind != GENERATE:
            raise ValueError("points of a set read from a file come from set_point()")
        groups = self.generator.groups(source)
        if table == self.instances.table.name:
            return groups
        options = self.option_values(params)
        return [self._solving(g, options, table) for g in groups]

    def _solving(self, group: Point, options: Mapping, table: str) -> Point:
        """The point of ``table`` (result or summary) that solves a generated group."""
        per = float(self.instances.costs(self.instances.shape([group]), options)[0])
        return Point(
            table,
            {GENERATE: group.params, "options": dict(options)},
            group.units,
            per * group.units,
            group.label,
        )

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
        if point.table == self.instances.table.name:
            return self.generator.generate(point, lo, hi)
        options = point.params["options"]
        if self.summary is not None and point.table == self.summary.table.name:
            return self.summary.summarize(self._solved(point, lo, hi, rows, options), options)
        if rows is None:
            rows = self._generated(point, lo, hi)
        return self.solve_rows(rows, options)

    def _generated(self, point: Point, lo: int, hi: int) -> pa.Table:
        """Instances ``lo..hi-1`` of the generated group a solving point stands for."""
        return self.generator.generate(
            Point(self.instances.table.name, point.params[GENERATE], point.units, 0.0, point.label),
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
