"""The streaming merge: a job's records -> its tables, verified, in bounded memory.

``rows`` tables are the records' rows in point order, then unit order; a record whose payload
was compacted away is read back from the published generation it was placed in (the file's
sha256 is checked against that generation's manifest first).  ``sum`` tables add, per point,
the rows with equal keys: counts exactly (Python ints from the ``_text`` column), other sum
columns as they are, plus the point's ``units`` and ``cpu_seconds``.

Every record is verified before it is used: its checksum (key fields and payload), its place
(a point's records must tile its units exactly), its rows.  A record that fails is dropped from
the store and reported, so the caller computes its units again: nothing unverified is merged.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa

from boardsweep.solvers.contract import Table, count_arrays

from .content import rows_digest
from .plan import JobPlan, PointPlan, tile
from .progress import warn
from .store import Placement, Record, Store, record_checksum
from .tables import ParquetRows, file_digest, from_payload

__all__ = ["Published", "TableMerge", "Bad", "fingerprint", "chain"]


def fingerprint(checksums: list[str]) -> str:
    """One hash of a table's ordered record checksums: equal fingerprints, equal tables."""
    return hashlib.sha256("\n".join(checksums).encode()).hexdigest()


def chain(
    store: Store, job: str, table: str, point: PointPlan
) -> tuple[list[Record], list[tuple[int, int]]]:
    """The records (without payloads) that make up ``point``, in unit order, and the gaps
    between them: exactly what the plan computes around and the merge publishes."""
    records = {r.lo: r for r in store.records(job, table, point.point_id, payloads=False)}
    los, gaps = tile(((r.lo, r.hi) for r in records.values()), point.point.units)
    return [records[lo] for lo in los], gaps


@dataclass
class Published:
    """The generation of a job now published (its folder and manifest), read lazily."""

    folder: Path
    manifest: dict
    _verified: dict = field(default_factory=dict)
    _readers: dict = field(default_factory=dict)

    @classmethod
    def find(cls, folder: Path) -> Published | None:
        """The generation in ``folder`` (``<output>/<job>``), or None if there is none."""
        try:
            manifest = json.loads((folder / "_boardsweep" / "manifest.json").read_text())
            int(manifest["generation"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return cls(folder, manifest)

    @property
    def gen(self) -> int:
        """Its generation number."""
        return int(self.manifest["generation"])

    def table_info(self, table: str) -> dict | None:
        """What the manifest says of ``table`` (rows, sha256, fingerprint), or None."""
        return self.manifest.get("tables", {}).get(table)

    def verified(self, table: str) -> bool:
        """Whether the table file still has the sha256 its manifest gives (checked once)."""
        if table not in self._verified:
            info = self.table_info(table)
            path = self.folder / f"{table}.parquet"
            try:
                ok = info is not None and file_digest(path) == info["sha256"]
            except OSError:
                ok = False
            if not ok:
                warn(
                    f"{path}: the published table does not match its manifest (edited or "
                    "damaged): its rows are computed again"
                )
            self._verified[table] = ok
        return self._verified[table]

    def rows(self, table: str, first: int, count: int) -> pa.Table:
        """``count`` rows of the published ``table`` from row ``first``."""
        if table not in self._readers:
            self._readers[table] = ParquetRows(self.folder / f"{table}.parquet")
        return self._readers[table].read(first, first + count)


@dataclass(frozen=True)
class Bad:
    """A record that failed verification (now dropped from the store)."""

    table: str
    point: str
    lo: int
    reason: str


class TableMerge:
    """Merge one table of a job; iterate for its pieces (pyarrow tables, published schema).

    After iteration: ``placements`` (where each record's rows went), ``fingerprint`` (of the
    records merged), ``rows``, and ``bad`` (records dropped: the merge must be redone after
    computing them again; the pieces yielded are then not to be published).
    """

    def __init__(self, plan: JobPlan, table: str, store: Store, old: Published | None):
        self.plan, self.name, self.store, self.old = plan, table, store, old
        self.spec: Table = plan.job.problem.table(table)
        self.schema = self.spec.schema()
        self.placements: list[Placement] = []
        self.bad: list[Bad] = []
        self.rows = 0
        self.contents: list[tuple[str, str, int, str]] = []  # digests of records without one
        self._finger: list[str] = []

    @property
    def fingerprint(self) -> str:
        """A hash of the ordered record checksums merged (equal: the same table)."""
        return fingerprint(self._finger)

    @property
    def records(self) -> int:
        """How many records were merged."""
        return len(self._finger)

    def _points(self) -> list[PointPlan]:
        return [p for p in self.plan.points if p.table == self.name]

    def _records(self, point: PointPlan) -> list[Record]:
        """The point's records that tile its units (:func:`pipeline.plan.tile`: records past
        the point's units are left out, and kept); a gap is reported as bad."""
        records, gaps = chain(self.store, self.plan.job.name, self.name, point)
        for lo, _ in gaps:
            self.bad.append(Bad(self.name, point.point_id, lo, "units missing"))
        return records

    def _drop(self, point: PointPlan, record: Record, reason: str) -> None:
        self.store.drop(self.plan.job.name, self.name, point.point_id, record.lo)
        self.bad.append(Bad(self.name, point.point_id, record.lo, reason))

    def _loaded(self, point: PointPlan, records: list[Record]) -> Iterator[tuple[Record, pa.Table]]:
        """The rows of each of ``records`` (in order), verified; a record that fails is dropped
        (and reported) instead.  Payloads are read one at a time, only those of ``records``
        (not of the point's records past a sweep that shrank)."""
        job = self.plan.job.name
        for record in records:
            stored = self.store.record(job, self.name, point.point_id, record.lo)
            if stored is None:  # gone since the chain was read: its units are computed again
                self.bad.append(Bad(self.name, point.point_id, record.lo, "units missing"))
                continue
            if stored.payload is None:  # compacted: the rows are in the published generation
                rows = self._published(point, record)
            else:
                rows = self._check(point, stored)
            if rows is not None:
                yield record, rows

    def _check(self, point: PointPlan, record: Record) -> pa.Table | None:
        expected = record_checksum(
            self.plan.job.problem.name,
            record.version,
            self.name,
            point.point_id,
            record.lo,
            record.hi,
            record.payload,
        )
        if expected != record.checksum:
            self._drop(point, record, "checksum mismatch (corrupt, truncated or moved)")
            return None
        try:
            table = from_payload(record.payload)
        except (pa.ArrowInvalid, OSError) as exc:
            self._drop(point, record, f"unreadable payload: {exc}")
            return None
        if table.num_rows != record.rows or not table.schema.equals(self.spec.compute_schema()):
            self._drop(point, record, "rows or columns differ from the record's")
            return None
        content = rows_digest(table)
        if record.content is None:  # a record of a boardsweep before contents: noted now
            self.contents.append((self.name, point.point_id, record.lo, content))
        elif content != record.content:
            self._drop(point, record, "its rows differ from their content digest")
            return None
        return table

    def _published(self, point: PointPlan, record: Record) -> pa.Table | None:
        """A compacted record's rows, read back from the published generation it was placed
        in and checked: that generation was published from this store, the file still has
        its manifest's sha256, and the rows found there have the record's row count and
        content digest (a shifted, exchanged or foreign placement fails here)."""
        old = self.old
        row = None
        if old is not None and old.manifest.get("store") == self.store.id:
            row = self.store.placement(
                self.plan.job.name, old.gen, self.name, point.point_id, record.lo
            )
        if row is None or record.content is None or not old.verified(self.name):
            self._drop(point, record, "compacted, and not in the published table")
            return None
        schema = self.spec.compute_schema()
        try:
            rows = old.rows(self.name, row, record.rows).select(schema.names).cast(schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError, OSError, KeyError) as exc:
            self._drop(point, record, f"its published rows cannot be read ({exc})")
            return None
        if rows.num_rows != record.rows or rows_digest(rows) != record.content:
            self._drop(
                point,
                record,
                "its rows in the published table are not the ones it "
                "computed (a placement moved or foreign)",
            )
            return None
        return rows

    def __iter__(self) -> Iterator[pa.Table]:
        for point in self._points():
            records = self._records(point)
            if self.spec.merge == "sum":
                piece = self._sum(point, records)
                if piece is not None:
                    self.rows += piece.num_rows
                    yield piece
                continue
            for record, rows in self._loaded(point, records):
                self.placements.append(Placement(self.name, point.point_id, record.lo, self.rows))
                self._finger.append(record.checksum)
                self.rows += rows.num_rows
                if not self.bad:
                    yield rows

    def _sum(self, point: PointPlan, records: list[Record]) -> pa.Table | None:
        spec = self.spec
        keys = list(spec.keys)
        totals: dict[tuple, dict[str, int | float]] = {}
        units, cpu = 0, 0.0
        for record, rows in self._loaded(point, records):
            self._finger.append(record.checksum)
            units += record.hi - record.lo
            cpu += record.cpu
            data = rows.to_pydict()
            for i in range(rows.num_rows):
                key = tuple(data[k][i] for k in keys)
                acc = totals.setdefault(key, {})
                for c in spec.columns:
                    if c.role == "count_text":
                        acc[c.name] = acc.get(c.name, 0) + int(data[c.name][i])
                    elif c.role == "sum":
                        acc[c.name] = acc.get(c.name, 0) + data[c.name][i]
        if self.bad or not totals:
            return None
        ordered = sorted(totals, key=lambda k: tuple((v is None, v or 0) for v in k))  # nulls last
        columns = {}
        for c in spec.columns:
            if c.role == "key":
                columns[c.name] = pa.array([k[keys.index(c.name)] for k in ordered], c.type)
            elif c.role == "count":
                columns[c.name] = count_arrays([totals[k][f"{c.name}_text"] for k in ordered])[0]
            elif c.role == "count_text":
                columns[c.name] = pa.array([str(totals[k][c.name]) for k in ordered], c.type)
            else:
                columns[c.name] = pa.array([totals[k][c.name] for k in ordered], c.type)
        columns["units"] = pa.array([units] * len(ordered), pa.int64())
        columns["cpu_seconds"] = pa.array([cpu] * len(ordered), pa.float64())
        return pa.table(columns, schema=self.schema)
