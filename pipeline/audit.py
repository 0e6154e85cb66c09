"""``boardsweep verify RESULTS``: re-check a published results folder from what it holds alone.

Verify reads nothing but ``RESULTS``: each job's tables and its manifest
(``<job>/_boardsweep/manifest.json``), so a folder copied to another machine verifies there
(the state folder and its store are never read).  For every table it

1. checks the file's sha256 against the manifest (:func:`pipeline.report.table_damage`, the check
   ``report`` makes): a damaged table is reported and not read further;
2. recomputes a sample of the table's work units in this process and compares them with the
   published rows, by the problem's second, independent method where it has one for the
   units (:attr:`solvers.contract.Problem.crosscheck`), else by the pipeline's own method
   (``compute``), and says which.

What the manifest holds for this (:func:`manifest_points`, written at publication): per table,
per point, its params, units, label and estimated seconds, and its records in unit order
(``[lo, hi, rows, content digest]``: which units made which rows, and the digest of those
rows as the worker computed them, :func:`pipeline.content.rows_digest`).

What a sample is.

- ``rows`` tables (a row per instance, every N-queens solution): the records say where each
  unit range's rows sit, so a sample is units: for every point, records picked at random until
  ``--sample`` of its units (at least one) are chosen, each checked from its first unit on (a
  unit's rows are found only from its record's start).  Their published rows must equal the
  recomputed ones, every column but measured times (unit ``s``).
- ``sum`` tables (counts, histograms) publish one sum per point and key: a sample of units
  alone could not catch a wrong published value.  So a point whose estimated cost is at most
  :data:`WHOLE_SECONDS` is recomputed whole, by the pipeline's method (which also names the
  point's keys) and by the second method where there is one, and its published rows must equal
  both (and its ``units`` the point's).  A larger point is sampled by records (``--sample``
  of its units, at least one record): each is recomputed by the pipeline's method and its
  digest compared with the one the manifest keeps; that catches a worker that computed
  wrongly, but not an edit of the published sum itself, which only the whole point's
  recomputation would catch.  The output says which points were checked how.

Not checked: points of instances read from a file (``{ingest: ...}``, ``{parquet: ...}``): the
instances are not in the results folder, so they are reported as not recomputed.  A folder
whose manifest has no points (published before verify existed) gets its sha256 check alone.
The sample is random (a seed from the OS, printed so that ``--seed`` repeats it), so nobody who
edits a folder knows which units are looked at.

Exit status (the command line): 0 everything checked agrees, 1 a table is damaged or a value
disagrees, 2 bad input (not a results folder, an unknown job).

This module is long because each kind of damage verify can find has its own check and its own
message, kept together so that the report reads in one order.
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from boardsweep import solvers
from boardsweep.solvers.contract import Crosscheck, Point, Problem, Table, canonical
from boardsweep.solvers.schema import ParamError

from .content import rows_digest
from .errors import InputError
from .merge import chain
from .plan import JobPlan
from .report import table_damage
from .store import Store

__all__ = ["audit", "manifest_points", "Outcome", "DEFAULT_SAMPLE", "WHOLE_SECONDS"]

DEFAULT_SAMPLE = 0.05  # the fraction of each point's units recomputed
WHOLE_SECONDS = 2.0  # a sum table's point estimated at most this costly is recomputed whole
OWN = "the pipeline's method"
MANIFEST = Path("_boardsweep") / "manifest.json"


def manifest_points(plan: JobPlan, store: Store) -> dict[str, list[dict]]:
    """What verify needs of each table of a job being published: per point, in table order,
    its ``params``, ``units``, ``label``, ``seconds`` and ``records`` (``[lo, hi, rows,
    content digest]``, in unit order: exactly the records the merge publishes)."""
    out: dict[str, list[dict]] = {}
    for point in plan.points:
        records, _ = chain(store, plan.job.name, point.table, point)
        out.setdefault(point.table, []).append(
            {
                "label": point.point.label,
                "params": json.loads(canonical(point.point.params)),
                "units": point.point.units,
                "seconds": point.point.seconds,
                "records": [[r.lo, r.hi, r.rows, r.content] for r in records],
            }
        )
    return out


@dataclass
class Outcome:
    """What a verification found: tables checked and damaged, units recomputed, agreements
    and disagreements (each a line naming the point and both values), things not checked."""

    tables: int = 0
    damaged: int = 0
    units: int = 0
    agreed: int = 0
    disagreements: list[str] = field(default_factory=list)
    unchecked: int = 0
    seed: int = 0

    @property
    def ok(self) -> bool:
        """Whether every table was intact and every recomputed value agreed."""
        return not self.damaged and not self.disagreements


def _jobs(results: Path, names: Sequence[str]) -> list[Path]:
    """The job folders to verify (a results folder's, or the one job folder given)."""
    if (results / MANIFEST).is_file():
        found = [results]
    else:
        found = sorted(m.parent.parent for m in results.glob(f"*/{MANIFEST}"))
    if not found:
        raise InputError(
            "not a results folder: no <job>/_boardsweep/manifest.json in it", str(results)
        )
    if names:
        have = {f.name: f for f in found}
        unknown = [n for n in names if n not in have]
        if unknown:
            raise InputError(
                f"no job {unknown[0]!r} in it (jobs: {', '.join(sorted(have))})", str(results)
            )
        found = [have[n] for n in dict.fromkeys(names)]
    return found


def _differences(
    published: pa.Table, recomputed: pa.Table, columns: Sequence[str]
) -> list[tuple[int, str, Any, Any]]:
    """``(row, column, published, recomputed)`` where the two tables differ in ``columns``
    (row by row; a row count that differs is one difference, column ``rows``)."""
    out = []
    if published.num_rows != recomputed.num_rows:
        out.append((-1, "rows", published.num_rows, recomputed.num_rows))
    k = min(published.num_rows, recomputed.num_rows)
    for name in columns:
        a = published.column(name).slice(0, k).to_pylist()
        b = recomputed.column(name).slice(0, k).to_pylist()
        out += [(i, name, x, y) for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return out


def _decided(spec: Table) -> list[str]:
    """The columns a recomputation must repeat: all but measured times (``Table.measured``)."""
    return [c.name for c in spec.columns if c.name not in spec.measured]


class _Job:
    """The verification of one published job (its folder and manifest)."""

    def __init__(
        self,
        folder: Path,
        problem: Problem,
        manifest: dict,
        sample: float,
        rng: random.Random,
        outcome: Outcome,
        say: Callable[[str], None],
    ):
        self.folder, self.problem, self.manifest = folder, problem, manifest
        self.sample, self.rng, self.outcome, self.say = sample, rng, outcome, say

    def disagree(self, table: str, label: str, method: str, what: str) -> None:
        """Note and print one disagreement."""
        line = f"{self.folder.name}/{table} {label}: DISAGREES ({method}): {what}"
        self.outcome.disagreements.append(line)
        self.say(f"  {label}: DISAGREES ({method}): {what}")

    def report(
        self,
        table: str,
        label: str,
        method: str,
        found: list[tuple[int, str, Any, Any]],
        where: Callable[[int], str],
    ) -> bool:
        """Print the differences found (at most 5 of them per check); True if none."""
        if not found:
            self.outcome.agreed += 1
            return True
        for row, column, a, b in found[:5]:
            at = "" if row < 0 else f"{where(row)} "
            self.disagree(
                table, label, method, f"{at}{column}: published {_show(a)}, recomputed {_show(b)}"
            )
        if len(found) > 5:
            self.say(f"  {label}: ... {len(found) - 5} more differences")
        return False

    def run(self) -> None:
        """Check every table of the job."""
        m = self.manifest
        here = self.problem.version
        self.say(f"== {self.folder.name} ({self.problem.name}, generation {m.get('generation')})")
        if m.get("problem_version") not in (None, here):
            self.say(
                f"  note: published by {self.problem.name} version "
                f"{m.get('problem_version')}, recomputed by version {here}"
            )
        points = m.get("points")
        for name, entry in sorted(m.get("tables", {}).items()):
            self.outcome.tables += 1
            path = self.folder / f"{name}.parquet"
            wrong = table_damage(path, entry)
            if wrong is not None:
                self.outcome.damaged += 1
                line = f"{self.folder.name}/{name}.parquet: DAMAGED: {wrong}"
                self.outcome.disagreements.append(line)
                self.say(f"  {name}.parquet: sha256 DAMAGED: {path} {wrong}")
                continue
            self.say(f"  {name}.parquet: sha256 ok ({entry.get('rows')} rows)")
            if not isinstance(points, dict) or name not in points:
                self.outcome.unchecked += 1
                self.say(
                    f"  {name}: not recomputed: the manifest lists no points (published "
                    "by a boardsweep before verify); sha256 only"
                )
                continue
            try:
                spec = self.problem.table(name)
                published = pq.read_table(path).select([c.name for c in spec.all_columns])
            except (KeyError, OSError, ValueError, pa.ArrowException) as exc:
                self.disagree(name, "(table)", "reading", f"cannot be read as {name}: {exc}")
                continue
            try:
                if spec.merge == "sum":
                    self.sum_table(spec, published, points[name])
                else:
                    self.rows_table(spec, published, points[name])
            except (KeyError, IndexError, TypeError, ValueError) as exc:  # a manifest edited
                # by hand, or params the code here refuses: nothing more of the table is known
                self.disagree(
                    name,
                    "(table)",
                    "reading the manifest's points",
                    f"cannot be checked: {type(exc).__name__}: {exc}",
                )

    # ------------------------------------------------------------------------- helpers

    def point(self, spec: Table, entry: dict) -> Point:
        """The manifest's point as the problem's :class:`Point`."""
        return Point(
            spec.name,
            entry["params"],
            int(entry["units"]),
            float(entry.get("seconds", 0.0)),
            str(entry["label"]),
        )

    def from_file(self, point: Point) -> bool:
        """Whether the point's instances come from a set file (not in the results folder)."""
        return self.problem.instances is not None and "set" in point.params

    def own(self, spec: Table, point: Point, lo: int, hi: int) -> pa.Table:
        """Units ``lo..hi-1`` of ``point`` by the pipeline's method."""
        return self.problem.compute(point, lo, hi, None)

    def second(self, point: Point, lo: int, hi: int, published: pa.Table) -> Crosscheck | None:
        """Units ``lo..hi-1`` of ``point`` by the problem's second method, if it has one."""
        if self.problem.crosscheck is None:
            return None
        return self.problem.crosscheck(point, lo, hi, published)

    def picked(self, records: list[list], units: int) -> list[tuple[int, int, int]]:
        """Records picked at random until ``sample`` of ``units`` (at least one unit) are
        chosen: ``(index, lo, hi)`` of each range to check, from its record's start."""
        need = max(1, math.ceil(self.sample * units))
        order = list(range(len(records)))
        self.rng.shuffle(order)
        out = []
        for i in order:
            if need <= 0:
                break
            lo, hi = int(records[i][0]), int(records[i][1])
            take = min(need, hi - lo)
            out.append((i, lo, lo + take))
            need -= take
        return sorted(out)

    # ------------------------------------------------------------------------- rows tables

    def rows_table(self, spec: Table, published: pa.Table, entries: list[dict]) -> None:
        """Check sampled unit ranges of every point of a ``rows`` table."""
        decided = _decided(spec)
        first = 0
        starts = []
        for entry in entries:
            starts.append(first)
            first += sum(int(r[2]) for r in entry["records"])
        if first != published.num_rows:
            self.disagree(
                spec.name,
                "(table)",
                "manifest",
                f"rows: published {published.num_rows}, the manifest's records hold {first}",
            )
            return
        for entry, start in zip(entries, starts, strict=True):
            point = self.point(spec, entry)
            if self.from_file(point):
                self.outcome.unchecked += 1
                self.say(
                    f"  {point.label}: not recomputed: its instances come from a set file, "
                    "which the results folder does not hold"
                )
                continue
            records = entry["records"]
            at = [start]
            for r in records:
                at.append(at[-1] + int(r[2]))
            for i, lo, hi in self.picked(records, point.units):
                rows = published.slice(at[i], int(records[i][2]))
                whole = hi == int(records[i][1])
                label = f"{point.label} {_units(lo, hi)}"
                check = self.second(point, lo, hi, rows)
                if check is not None:
                    method, got = check.method, check.rows
                    columns = [c for c in got.schema.names if c in decided]
                else:
                    method, got, columns = OWN, self.own(spec, point, lo, hi), decided
                if not whole:
                    rows = rows.slice(0, got.num_rows)

                def where(row: int, rows: pa.Table = rows, base: int = at[i]) -> str:
                    return f"row {base + row}" + _ident(spec, rows, row)

                self.outcome.units += hi - lo
                if self.report(spec.name, label, method, _differences(rows, got, columns), where):
                    self.say(
                        f"  {label}: {hi - lo} units, {got.num_rows} rows recomputed by "
                        f"{method}: agree"
                    )

    # ------------------------------------------------------------------------- sum tables

    def sum_table(self, spec: Table, published: pa.Table, entries: list[dict]) -> None:
        """Recompute the cheap points of a ``sum`` table whole, sample the others' records."""
        keys = list(spec.keys)
        index: dict[tuple, list[int]] = {}
        for i, key in enumerate(zip(*(published.column(k).to_pylist() for k in keys), strict=True)):
            index.setdefault(tuple(key), []).append(i)
        matched: set[int] = set()
        every = True
        for entry in entries:
            point = self.point(spec, entry)
            if self.from_file(point):
                every = False
                self.outcome.unchecked += 1
                self.say(
                    f"  {point.label}: not recomputed: its instances come from a set file, "
                    "which the results folder does not hold"
                )
                continue
            if point.seconds <= WHOLE_SECONDS:
                matched |= self.whole(spec, published, point, index)
            else:
                every = False
                self.records(spec, point, entry["records"])
        if every:
            extra = sorted(set(range(published.num_rows)) - matched)
            for row in extra[:5]:
                key = {k: published.column(k)[row].as_py() for k in keys}
                self.disagree(
                    spec.name,
                    "(table)",
                    OWN,
                    f"row {row} {key}: published, but no point of the job computes it",
                )

    def whole(
        self, spec: Table, published: pa.Table, point: Point, index: dict[tuple, list[int]]
    ) -> set[int]:
        """Recompute a point whole by both methods; compare with its published rows (found
        by their keys); return those rows' numbers."""
        keys = list(spec.keys)
        own = self.own(spec, point, 0, point.units)
        wanted = [tuple(k) for k in zip(*(own.column(k).to_pylist() for k in keys), strict=True)]
        rows: list[int] = []
        missing = []
        for key in wanted:
            found = index.get(key, [])
            if len(found) == 1:
                rows.append(found[0])
            else:
                missing.append((key, len(found)))
        label = f"{point.label} (whole point, {point.units} units)"
        self.outcome.units += point.units
        for key, n in missing:
            self.disagree(
                spec.name,
                label,
                OWN,
                f"{dict(zip(keys, key, strict=True))}: {n} published rows, recomputed 1",
            )
        if missing:
            return set(rows)
        mine = published.take(pa.array(rows, pa.int64()))
        decided = _decided(spec)

        def where(row: int) -> str:
            return str({k: mine.column(k)[row].as_py() for k in keys})

        methods = []
        found = _differences(mine, own, decided)
        units = mine.column("units").to_pylist()
        found += [(i, "units", u, point.units) for i, u in enumerate(units) if u != point.units]
        if self.report(spec.name, label, OWN, found, where):
            methods.append(OWN)
        check = self.second(point, 0, point.units, mine)
        if check is not None:
            got = check.rows
            columns = [c for c in got.schema.names if c in decided and c not in keys]
            have = {
                tuple(k): i
                for i, k in enumerate(zip(*(got.column(k).to_pylist() for k in keys), strict=True))
            }
            picked = [have.get(key) for key in wanted]
            rows_of = [i for i, j in enumerate(picked) if j is not None]
            theirs = got.take(pa.array([j for j in picked if j is not None], pa.int64()))
            part = mine.take(pa.array(rows_of, pa.int64()))

            def where2(row: int) -> str:
                return where(rows_of[row])

            if self.report(
                spec.name, label, check.method, _differences(part, theirs, columns), where2
            ):
                methods.append(f"{check.method} ({len(rows_of)} of {len(wanted)} rows)")
        if len(methods) == 1 + (check is not None):
            self.say(f"  {label}: recomputed by {' and by '.join(methods)}: agree")
        return set(rows)

    def records(self, spec: Table, point: Point, records: list[list]) -> None:
        """Recompute sampled records of a large point by the pipeline's method and compare
        their digests with the manifest's."""
        measured = [c.name for c in spec.columns if c.unit == "s"]
        for i, lo, hi in self.picked(records, point.units):
            lo, hi = int(records[i][0]), int(records[i][1])  # a digest covers a whole record
            label = f"{point.label} {_units(lo, hi)}"
            digest = records[i][3]
            if digest is None or measured:
                self.outcome.unchecked += 1
                self.say(f"  {label}: not recomputed: the manifest keeps no digest to compare")
                continue
            got = rows_digest(self.own(spec, point, lo, hi))
            self.outcome.units += hi - lo
            if got != digest:
                self.disagree(
                    spec.name,
                    label,
                    OWN,
                    f"digest of the record's rows: manifest {digest[:16]}, recomputed {got[:16]}",
                )
            else:
                self.outcome.agreed += 1
                self.say(
                    f"  {label}: recomputed by {OWN}, digest agrees with the manifest's "
                    "(the published sum of this large point is not recomputed)"
                )


def _show(value: Any) -> str:
    """A cell for a message: a count (decimal) as its digits, anything else as its repr."""
    return str(value) if isinstance(value, Decimal) else repr(value)


def _units(lo: int, hi: int) -> str:
    """``unit 3`` or ``units 3..9``."""
    return f"unit {lo}" if hi == lo + 1 else f"units {lo}..{hi - 1}"


def _ident(spec: Table, rows: pa.Table, row: int) -> str:
    """`` (id 7)`` for a row of an instance table (its first column is the id), else ''."""
    first = spec.columns[0]
    if row < rows.num_rows and first.name.endswith("_id"):
        return f" ({first.name} {rows.column(first.name)[row].as_py()})"
    return ""


def audit(
    results: Path,
    out: TextIO,
    sample: float = DEFAULT_SAMPLE,
    jobs: Sequence[str] = (),
    seed: int | None = None,
) -> Outcome:
    """Verify the published jobs under ``results`` (all, or those named in ``jobs``), printing
    what was checked and found to ``out``; :class:`InputError` if ``results`` is no results
    folder or a job is unknown.  See the module docstring."""
    if not 0.0 < sample <= 1.0:
        raise InputError(f"--sample must be a fraction in (0, 1], not {sample}")
    folders = _jobs(Path(results), jobs)
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    outcome = Outcome(seed=seed)
    rng = random.Random(seed)

    def say(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    for folder in folders:
        try:
            manifest = json.loads((folder / MANIFEST).read_text())
            problem = solvers.get(manifest["problem"])
        except (OSError, ValueError, KeyError, TypeError, ParamError) as exc:
            line = f"{folder / MANIFEST}: cannot be read or names no known problem ({exc})"
            outcome.damaged += 1
            outcome.disagreements.append(line)
            say(f"== {folder.name}: DAMAGED: {line}")
            continue
        _Job(folder, problem, manifest, sample, rng, outcome, say).run()
    verdict = "all agree" if outcome.ok else f"{len(outcome.disagreements)} disagreement(s)"
    say(
        f"verified {len(folders)} job(s), {outcome.tables} table(s) ({outcome.damaged} "
        f"damaged); {outcome.units} units recomputed, {outcome.agreed} checks agree; "
        f"{outcome.unchecked} not recomputed; {verdict} (sample {sample:g}, seed {seed})"
    )
    return outcome
