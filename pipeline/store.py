"""The result store: one SQLite database (WAL) of records, committed in batches.

Why SQLite: one file, transactions that a SIGKILL cannot half-apply, batched commits that cost
microseconds per record, and no server; it is in Python's standard library.  A record is the
result of one task: the rows of ``table`` for the unit range ``lo..hi-1`` of one point,

    (job, tbl, point, lo) -> hi, rows, cpu, checksum, payload

``point`` is a hash of the problem, its code version and the point's parameters, so records of
edited code are never found; ``checksum`` is a sha256 of those key fields and the payload (the
rows as Parquet or Arrow IPC bytes), computed where the task ran and verified before a record
is used, so a corrupt, truncated or misplaced record is recomputed, never trusted.

Publication (:mod:`pipeline.publish`) writes *placements*: where each record's rows sit in a
published generation's table file.  Once a generation is published, the payloads of its
``rows`` records are dropped (compaction): the published table holds them, and the store keeps
what resume and verification need (keys, checksums, placements).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .progress import log

__all__ = ["Store", "Record", "Placement", "record_checksum", "point_id", "COMMIT_SECONDS"]

COMMIT_SECONDS = 0.5  # results are committed at least this often while a run works
COMMIT_RECORDS = 2000
VACUUM_PAGES = 2048  # pages (8 MiB) freed per step when the store shrinks

_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    job TEXT NOT NULL, tbl TEXT NOT NULL, point TEXT NOT NULL, lo INTEGER NOT NULL,
    hi INTEGER NOT NULL, rows INTEGER NOT NULL, cpu REAL NOT NULL, checksum TEXT NOT NULL,
    version TEXT NOT NULL, payload BLOB,
    PRIMARY KEY (job, tbl, point, lo)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS placements (
    job TEXT NOT NULL, gen INTEGER NOT NULL, tbl TEXT NOT NULL, point TEXT NOT NULL,
    lo INTEGER NOT NULL, row INTEGER NOT NULL,
    PRIMARY KEY (job, gen, tbl, point, lo)) WITHOUT ROWID;
"""


def point_id(problem: str, version: str, key: str) -> str:
    """The store's name of a point: a hash of the problem, its code version and its params."""
    return hashlib.sha256(f"{problem}\0{version}\0{key}".encode()).hexdigest()[:32]


def record_checksum(problem: str, version: str, table: str, point: str, lo: int, hi: int,
                    payload: bytes) -> str:
    """sha256 over a record's key fields and its payload (what the merge verifies)."""
    digest = hashlib.sha256(f"{problem}\0{version}\0{table}\0{point}\0{lo}\0{hi}\0".encode())
    digest.update(payload)
    return digest.hexdigest()


@dataclass(frozen=True)
class Record:
    """One stored task result (``payload`` None once compacted)."""

    table: str
    point: str
    lo: int
    hi: int
    rows: int
    cpu: float
    checksum: str
    version: str
    payload: bytes | None = None


@dataclass(frozen=True)
class Placement:
    """Where a record's rows start in a published generation's table file."""

    table: str
    point: str
    lo: int
    row: int


class Store:
    """The records of every job writing to one output folder (the caller holds its lock)."""

    committed = 0  # records committed by this process (what an interrupted run keeps)

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._pending: list[tuple] = []
        self._last_commit = time.monotonic()
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
            log(f"warning: the result store {self.path} cannot be read ({exc}); it is moved "
                f"to {aside.name} and every result is recomputed")
            for suffix in ("", "-wal", "-shm"):
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    shutil.move(source, f"{aside}{suffix}")
            self._open()

    def _open(self) -> None:
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # takes effect on a new file
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("PRAGMA secure_delete = OFF")  # freed payload pages are not zeroed
        self.db.executescript(_SCHEMA)
        self.db.execute("PRAGMA quick_check(1)").fetchone()

    def close(self) -> None:
        """Commit what is pending and close the database."""
        self.commit()
        self.db.close()

    # ------------------------------------------------------------------ writing

    def add(self, job: str, record: Record) -> None:
        """Queue a record; it is committed within :data:`COMMIT_SECONDS` (or at close)."""
        self._pending.append((job, record.table, record.point, record.lo, record.hi,
                              record.rows, record.cpu, record.checksum, record.version,
                              record.payload))
        if (len(self._pending) >= COMMIT_RECORDS
                or time.monotonic() - self._last_commit >= COMMIT_SECONDS):
            self.commit()

    def commit(self) -> None:
        """Write every queued record in one transaction."""
        self._last_commit = time.monotonic()
        if not self._pending:
            return
        with self._transaction():
            self.db.executemany("INSERT OR REPLACE INTO records VALUES (?,?,?,?,?,?,?,?,?,?)",
                                self._pending)
        Store.committed += len(self._pending)
        self._pending.clear()

    def _transaction(self):
        db = self.db

        class _Txn:
            def __enter__(self):
                try:
                    db.execute("BEGIN IMMEDIATE")
                except BaseException:  # e.g. Ctrl-C just after BEGIN ran: no half-open
                    if db.in_transaction:  # transaction left for the next commit to trip on
                        db.execute("ROLLBACK")
                    raise

            def __exit__(self, kind, value, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False

        return _Txn()

    def drop(self, job: str, table: str, point: str, lo: int) -> None:
        """Forget one record (it failed verification: its units are computed again)."""
        self.db.execute("DELETE FROM records WHERE job=? AND tbl=? AND point=? AND lo=?",
                        (job, table, point, lo))

    def forget_job(self, job: str) -> None:
        """Forget every record and placement of ``job`` (``--fresh``)."""
        with self._transaction():
            self.db.execute("DELETE FROM records WHERE job=?", (job,))
            self.db.execute("DELETE FROM placements WHERE job=?", (job,))

    # ------------------------------------------------------------------ reading

    def ranges(self, job: str, table: str, point: str) -> list[tuple[int, int]]:
        """The unit ranges of a point that have records, in order, merged where they touch."""
        out: list[list[int]] = []
        for lo, hi in self.db.execute(
                "SELECT lo, hi FROM records WHERE job=? AND tbl=? AND point=? ORDER BY lo",
                (job, table, point)):
            if out and lo <= out[-1][1]:
                out[-1][1] = max(out[-1][1], hi)
            else:
                out.append([lo, hi])
        return [(a, b) for a, b in out]

    def records(self, job: str, table: str, point: str, payloads: bool = True
                ) -> Iterator[Record]:
        """A point's records in unit order (with their payloads unless asked not to)."""
        what = "payload" if payloads else "NULL"
        for row in self.db.execute(
                f"SELECT tbl, point, lo, hi, rows, cpu, checksum, version, {what} FROM records "
                "WHERE job=? AND tbl=? AND point=? ORDER BY lo", (job, table, point)):
            yield Record(*row)

    def has_payload(self, job: str, table: str, point: str, lo: int) -> bool:
        """Whether a record still holds its rows (it is not compacted)."""
        row = self.db.execute("SELECT payload IS NOT NULL FROM records WHERE job=? AND tbl=? "
                              "AND point=? AND lo=?", (job, table, point, lo)).fetchone()
        return bool(row and row[0])

    # ------------------------------------------------------------------ generations

    def place(self, job: str, gen: int, placements: Iterable[Placement]) -> None:
        """Record where each record's rows sit in generation ``gen`` (before it is published)."""
        with self._transaction():
            self.db.execute("DELETE FROM placements WHERE job=? AND gen=?", (job, gen))
            self.db.executemany("INSERT INTO placements VALUES (?,?,?,?,?,?)",
                                ((job, gen, p.table, p.point, p.lo, p.row) for p in placements))

    def placement(self, job: str, gen: int, table: str, point: str, lo: int) -> int | None:
        """The first row of a record in generation ``gen``'s table, or None."""
        row = self.db.execute("SELECT row FROM placements WHERE job=? AND gen=? AND tbl=? AND "
                              "point=? AND lo=?", (job, gen, table, point, lo)).fetchone()
        return None if row is None else int(row[0])

    def compact(self, job: str, gen: int, tables: Iterable[str]) -> None:
        """After ``gen`` is published: drop the payloads of its records in ``tables`` (their
        rows are in the published files), forget other generations' placements, and give the
        freed pages back to the file system."""
        with self._transaction():
            for table in tables:
                self.db.execute(
                    "UPDATE records SET payload = NULL WHERE job=? AND tbl=? AND payload IS NOT "
                    "NULL AND EXISTS (SELECT 1 FROM placements p WHERE p.job=records.job AND "
                    "p.gen=? AND p.tbl=records.tbl AND p.point=records.point AND "
                    "p.lo=records.lo)", (job, table, gen))
            self.db.execute("DELETE FROM placements WHERE job=? AND gen<>?", (job, gen))
        self.shrink()

    def shrink(self) -> None:
        """Give free pages back to the file system, a few MB at a time: in WAL mode a vacuum
        copies what it frees into the WAL, so one big vacuum would double the disk used."""
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        while self.db.execute("PRAGMA freelist_count").fetchone()[0]:
            self.db.executescript(f"PRAGMA incremental_vacuum({VACUUM_PAGES});")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def forget_stale(self, job: str, keep: Iterable[tuple[str, str]]) -> int:
        """Delete ``job``'s records whose (table, point) is not in ``keep`` and whose payload
        is gone (they can never be used again); return how many."""
        keep = set(keep)
        stale = [(t, p) for t, p in self.db.execute(
            "SELECT DISTINCT tbl, point FROM records WHERE job=?", (job,)) if (t, p) not in keep]
        with self._transaction():
            for t, p in stale:
                self.db.execute("DELETE FROM records WHERE job=? AND tbl=? AND point=? AND "
                                "payload IS NULL", (job, t, p))
        return len(stale)
