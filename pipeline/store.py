"""The result store: one SQLite database (WAL) of records, committed in batches.

Why SQLite: one file, transactions that a SIGKILL cannot half-apply, batched commits that cost
microseconds per record, and no server; it is in Python's standard library.  A record is the
result of one task: the rows of ``table`` for the unit range ``lo..hi-1`` of one point,

    (job, tbl, point, lo) -> hi, rows, cpu, checksum, payload, content

``point`` is a hash of the problem, its code version and the point's parameters, so records of
edited code are never found; ``checksum`` is a sha256 of those key fields and the payload (the
rows as Parquet or Arrow IPC bytes), computed where the task ran and verified before a record
is used, so a corrupt, truncated or misplaced record is recomputed, never trusted; ``content``
is the rows' own digest (:func:`pipeline.content.rows_digest`), which still checks them once
the payload is gone.

Publication (:mod:`pipeline.publish`) writes *placements*: where each record's rows sit in a
published generation's table file.  Once a generation is published, the payloads of its
``rows`` records are dropped (compaction): the published table holds them, and the store keeps
what resume and verification need (keys, checksums, contents, placements).  Rows read back
through a placement are merged again only if their digest is the record's ``content``.

A store belongs to one output folder: ``meta`` holds its own ``id`` (which every manifest it
publishes names) and the ``output`` id it was made for; a store of another output is set aside,
never applied.  Every access goes through :meth:`Store._call`, which tells apart a store another
process has locked (waited for, with one line), a full disk (:class:`~pipeline.errors.InputError`,
nothing changed) and damage (:class:`StoreDamaged`: the caller moves the store aside and
computes everything again).

This module is long because every way a store can be damaged, locked or foreign is handled
here, beside the schema it protects.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .errors import BoardsweepError, InputError
from .progress import warn

__all__ = [
    "Store",
    "Record",
    "Placement",
    "StoreDamaged",
    "StoreLocked",
    "record_checksum",
    "point_id",
    "COMMIT_SECONDS",
    "LOCK_WAIT_SECONDS",
]

COMMIT_SECONDS = 0.5  # results are committed at least this often while a run works
COMMIT_RECORDS = 2000
VACUUM_PAGES = 2048  # pages (8 MiB) freed per step when the store shrinks
LOCK_WAIT_SECONDS = 600.0  # how long a store another process holds locked is waited for
FULL_BYTES = 1 << 20  # an I/O error with less free space than this is a full disk
BUSY_SECONDS = 2.0  # SQLite's own wait per statement, between the lines of that wait

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    job TEXT NOT NULL, tbl TEXT NOT NULL, point TEXT NOT NULL, lo INTEGER NOT NULL,
    hi INTEGER NOT NULL, rows INTEGER NOT NULL, cpu REAL NOT NULL, checksum TEXT NOT NULL,
    version TEXT NOT NULL, payload BLOB, content TEXT,
    PRIMARY KEY (job, tbl, point, lo)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS placements (
    job TEXT NOT NULL, gen INTEGER NOT NULL, tbl TEXT NOT NULL, point TEXT NOT NULL,
    lo INTEGER NOT NULL, row INTEGER NOT NULL,
    PRIMARY KEY (job, gen, tbl, point, lo)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checks (
    job TEXT NOT NULL, tbl TEXT NOT NULL, point TEXT NOT NULL, lo INTEGER NOT NULL,
    checksum TEXT NOT NULL, PRIMARY KEY (job, tbl, point, lo)) WITHOUT ROWID;
"""
_RECORD = "tbl, point, lo, hi, rows, cpu, checksum, version, {payload}, content"
_RECORD_TYPES = (
    str,
    str,
    int,
    int,
    int,
    (float, int),
    str,
    str,
    (bytes, type(None)),
    (str, type(None)),
)

# SQLite's primary result codes, by what they mean here
_BUSY = {5, 6}  # SQLITE_BUSY, SQLITE_LOCKED: another process holds the database
_FULL = {13}  # SQLITE_FULL
_REFUSED = {3, 8, 14, 23}  # SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_AUTH
_IO = {10}  # SQLITE_IOERR: the disk failed a read or write (not the store's content)


class StoreDamaged(Exception):
    """The store cannot be read (corrupt file, undecodable text, a value of the wrong type):
    it is to be moved aside and every result computed again."""


class StoreLocked(BoardsweepError):
    """Another process held the store locked for longer than :data:`LOCK_WAIT_SECONDS`."""

    exit_code = 1


def point_id(problem: str, version: str, key: str) -> str:
    """The store's name of a point: a hash of the problem, its code version and its params."""
    return hashlib.sha256(f"{problem}\0{version}\0{key}".encode()).hexdigest()[:32]


def record_checksum(
    problem: str, version: str, table: str, point: str, lo: int, hi: int, payload: bytes
) -> str:
    """sha256 over a record's key fields and its payload (what the merge verifies)."""
    digest = hashlib.sha256(f"{problem}\0{version}\0{table}\0{point}\0{lo}\0{hi}\0".encode())
    digest.update(payload)
    return digest.hexdigest()


@dataclass(frozen=True)
class Record:
    """One stored task result (``payload`` None once compacted; ``content`` its rows' digest,
    None in records of a boardsweep before it)."""

    table: str
    point: str
    lo: int
    hi: int
    rows: int
    cpu: float
    checksum: str
    version: str
    payload: bytes | None = None
    content: str | None = None


@dataclass(frozen=True)
class Placement:
    """Where a record's rows start in a published generation's table file."""

    table: str
    point: str
    lo: int
    row: int


def _typed(row: tuple, types: tuple) -> tuple:
    """``row`` if each value has its column's type, else :class:`StoreDamaged`."""
    for value, kind in zip(row, types, strict=True):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StoreDamaged(f"a stored value has the wrong type ({type(value).__name__})")
    return row


class Store:
    """The records of every job writing to one output folder (the caller holds its lock).

    ``owner``: the id of the output folder the store belongs to (a store made for another is
    moved aside); None opens any store.
    """

    committed = 0  # records committed by this process to stores it keeps (what a run keeps)

    def __init__(self, path: str | Path, owner: str | None = None, keeps: bool = True):
        self.path = Path(path)
        self.owner = owner
        self.keeps = keeps  # False: a one-shot command's scratch store, removed at its end
        self._pending: list[tuple] = []
        self._last_commit = time.monotonic()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"cannot make the state folder: {exc.strerror}", str(self.path.parent)
            ) from None
        try:
            self._claim(owner)
        except BaseException:  # a full disk, say: no connection is left for the collector
            _close(getattr(self, "db", None))
            raise

    def _claim(self, owner: str | None) -> None:
        """Open the store (a fresh one in place of a damaged or foreign one) and mark it as
        ``owner``'s."""
        try:
            self._open()
            belongs = self._meta("output")
        except StoreDamaged as exc:
            self._open_fresh("corrupt", f"the result store {self.path} cannot be read ({exc})")
            return
        if owner is not None and belongs is not None and belongs != owner:
            where = self._meta("output_path") or "another path"
            self._open_fresh(
                "foreign",
                f"the result store {self.path} belongs to another output folder ({where})",
            )
        elif owner is not None and belongs is None:
            self._set_meta("output", owner)

    # ------------------------------------------------------------------ opening

    def _open(self) -> None:
        """Connect, make the tables (and what older stores lack), read the store's id."""

        def connect():
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
            try:
                self.db.execute("PRAGMA auto_vacuum = INCREMENTAL")  # takes effect on a new file
                self.db.execute("PRAGMA journal_mode = WAL")
                self.db.execute("PRAGMA synchronous = NORMAL")
                self.db.execute("PRAGMA secure_delete = OFF")  # freed payload pages: not zeroed
                self.db.executescript(_SCHEMA)
                columns = {row[1] for row in self.db.execute("PRAGMA table_info(records)")}
                if "content" not in columns:  # a store of a boardsweep before contents
                    self.db.execute("ALTER TABLE records ADD COLUMN content TEXT")
                self.db.execute("PRAGMA quick_check(1)").fetchone()
            except BaseException:
                self.db.close()
                raise

        self._call(connect)
        self.id = self._meta("id")
        if self.id is None:
            self.id = uuid.uuid4().hex
            self._set_meta("id", self.id)

    def _open_fresh(self, why: str, message: str) -> None:
        """Move the store's files aside as ``<name>.<why>-<time>`` and start an empty one."""
        aside = self.path.with_name(f"{self.path.name}.{why}-{int(time.time())}")
        warn(f"{message}; it is moved to {aside.name} and every result is computed again")
        _close(getattr(self, "db", None))
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                shutil.move(source, f"{aside}{suffix}")
        self._open()
        if self.owner is not None:
            self._set_meta("output", self.owner)

    def set_aside(self, reason: str) -> None:
        """The store was found damaged while in use: move it aside and continue on a fresh one
        (every result is computed again)."""
        self._pending.clear()
        self._open_fresh("corrupt", f"the result store {self.path} cannot be read ({reason})")

    def _meta(self, key: str) -> str | None:
        row = self._call(
            lambda: self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        )
        if row is not None and not isinstance(row[0], str):
            raise StoreDamaged("a stored value has the wrong type")
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        self._call(
            lambda: self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))
        )

    def label(self, output: Path) -> None:
        """Note the output folder's path (for the message a foreign store gives)."""
        if self._meta("output_path") != str(output):
            self._set_meta("output_path", str(output))

    def close(self) -> None:
        """Commit what is pending and close the database."""
        try:
            self.commit()
        finally:
            self.db.close()

    # ------------------------------------------------------------------ errors

    def _call(self, work: Callable):
        """``work()``, with SQLite's errors told apart: a lock held by another process is
        waited for (one line, then :class:`StoreLocked` after :data:`LOCK_WAIT_SECONDS`); a
        full disk or a refused write is :class:`InputError` (nothing changed); anything
        else is :class:`StoreDamaged`."""
        waiting = None
        while True:
            try:
                return work()
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                code = None if code is None else code & 0xFF
                if code in _BUSY:
                    now = time.monotonic()
                    if waiting is None:
                        waiting = now
                        warn(
                            f"{self.path}: the result store is locked by another process; "
                            f"waiting for it (at most {LOCK_WAIT_SECONDS:g} s)"
                        )
                    if now - waiting >= LOCK_WAIT_SECONDS:
                        raise StoreLocked(
                            f"{self.path}: the result store was still locked by "
                            f"another process after {LOCK_WAIT_SECONDS:g} s; "
                            "nothing was changed: run again when it is free"
                        ) from None
                    time.sleep(0.2)
                    continue
                if code in _FULL or (code in _IO and self._full()):
                    raise InputError(
                        "no space left on the device for the result store; "
                        "nothing was changed: free some space and run again",
                        str(self.path),
                    ) from None
                if code in _REFUSED or code in _IO:
                    raise InputError(
                        f"cannot use the result store: {exc}; nothing was changed", str(self.path)
                    ) from None
                raise StoreDamaged(str(exc)) from None

    def _full(self) -> bool:
        """Whether the store's file system is (nearly) out of space: SQLite reports some
        writes that find no space as an I/O error, not as SQLITE_FULL."""
        try:
            found = os.statvfs(self.path.parent)
        except OSError:
            return False
        return found.f_bavail * found.f_frsize < FULL_BYTES

    def _rows(self, sql: str, args: tuple, types: tuple) -> list[tuple]:
        """Every row of a query, each checked to have ``types`` (else :class:`StoreDamaged`)."""
        rows = self._call(lambda: self.db.execute(sql, args).fetchall())
        return [_typed(row, types) for row in rows]

    # ------------------------------------------------------------------ writing

    def add(self, job: str, record: Record) -> None:
        """Queue a record; it is committed within :data:`COMMIT_SECONDS` (or at close)."""
        self._pending.append(
            (
                job,
                record.table,
                record.point,
                record.lo,
                record.hi,
                record.rows,
                record.cpu,
                record.checksum,
                record.version,
                record.payload,
                record.content,
            )
        )
        if (
            len(self._pending) >= COMMIT_RECORDS
            or time.monotonic() - self._last_commit >= COMMIT_SECONDS
        ):
            self.commit()

    def commit(self) -> None:
        """Write every queued record in one transaction."""
        self._last_commit = time.monotonic()
        if not self._pending:
            return
        self._write(
            lambda db: db.executemany(
                "INSERT OR REPLACE INTO records (job, tbl, point, lo, hi, rows, cpu, checksum, "
                "version, payload, content) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                self._pending,
            )
        )
        if self.keeps:
            Store.committed += len(self._pending)
        self._pending.clear()

    def _write(self, work: Callable) -> None:
        """``work(db)`` in one transaction (retried whole while another process holds the
        store; rolled back on any error, Ctrl-C included)."""
        db = self.db

        def transaction():
            try:
                db.execute("BEGIN IMMEDIATE")
                work(db)
                db.execute("COMMIT")
            except BaseException:  # e.g. Ctrl-C just after BEGIN ran: no half-open
                if db.in_transaction:  # transaction left for the next commit to trip on
                    with contextlib.suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise

        self._call(transaction)

    def drop(self, job: str, table: str, point: str, lo: int) -> None:
        """Forget one record (it failed verification: its units are computed again)."""
        self._write(
            lambda db: db.execute(
                "DELETE FROM records WHERE job=? AND tbl=? AND point=? AND lo=?",
                (job, table, point, lo),
            )
        )

    def check(self, job: str, checks: Iterable[tuple[str, str, int, str]]) -> None:
        """Note ``(table, point, lo, checksum)``: the record of that checksum was computed
        again on another worker and found the same (replicated verification)."""
        rows = [(job, table, point, lo, checksum) for table, point, lo, checksum in checks]
        if rows:
            self._write(
                lambda db: db.executemany("INSERT OR REPLACE INTO checks VALUES (?,?,?,?,?)", rows)
            )

    def checked(self, job: str, table: str, point: str) -> dict[int, str]:
        """``{lo: checksum}`` of a point's records that were verified on a second worker."""
        return dict(
            self._rows(
                "SELECT lo, checksum FROM checks WHERE job=? AND tbl=? AND point=?",
                (job, table, point),
                (int, str),
            )
        )

    def forget_job(self, job: str) -> None:
        """Forget every record and placement of ``job`` (``--fresh``)."""

        def forget(db):
            db.execute("DELETE FROM records WHERE job=?", (job,))
            db.execute("DELETE FROM placements WHERE job=?", (job,))
            db.execute("DELETE FROM checks WHERE job=?", (job,))

        self._write(forget)

    # ------------------------------------------------------------------ reading

    def spans(self, job: str, table: str, point: str) -> list[tuple[int, int]]:
        """``(lo, hi)`` of every record of a point, in order."""
        return self._rows(
            "SELECT lo, hi FROM records WHERE job=? AND tbl=? AND point=? ORDER BY lo",
            (job, table, point),
            (int, int),
        )

    def ranges(self, job: str, table: str, point: str) -> list[tuple[int, int]]:
        """The unit ranges of a point that have records, in order, merged where they touch."""
        out: list[list[int]] = []
        for lo, hi in self.spans(job, table, point):
            if out and lo <= out[-1][1]:
                out[-1][1] = max(out[-1][1], hi)
            else:
                out.append([lo, hi])
        return [(a, b) for a, b in out]

    def records(self, job: str, table: str, point: str, payloads: bool = True) -> Iterator[Record]:
        """A point's records in unit order (with their payloads unless asked not to)."""
        what = "payload" if payloads else "NULL"
        if payloads:  # one at a time: a point's rows may not fit in memory together
            for lo, _ in self.spans(job, table, point):
                found = self.record(job, table, point, lo)
                if found is not None:
                    yield found
            return
        sql = (
            f"SELECT {_RECORD.format(payload=what)} FROM records WHERE job=? AND tbl=? AND "
            "point=? ORDER BY lo"
        )
        for row in self._rows(sql, (job, table, point), _RECORD_TYPES):
            yield Record(*row)

    def record(self, job: str, table: str, point: str, lo: int) -> Record | None:
        """The record of a point that starts at unit ``lo``, with its payload (None if none)."""
        rows = self._rows(
            f"SELECT {_RECORD.format(payload='payload')} FROM records WHERE "
            "job=? AND tbl=? AND point=? AND lo=?",
            (job, table, point, lo),
            _RECORD_TYPES,
        )
        return Record(*rows[0]) if rows else None

    def has_payload(self, job: str, table: str, point: str, lo: int) -> bool:
        """Whether a record still holds its rows (it is not compacted)."""
        rows = self._rows(
            "SELECT payload IS NOT NULL FROM records WHERE job=? AND tbl=? AND point=? AND lo=?",
            (job, table, point, lo),
            (int,),
        )
        return bool(rows and rows[0][0])

    # ------------------------------------------------------------------ generations

    def place(
        self,
        job: str,
        gen: int,
        placements: Iterable[Placement],
        contents: Iterable[tuple[str, str, int, str]] = (),
    ) -> None:
        """Record where each record's rows sit in generation ``gen`` (before it is published),
        and the ``(table, point, lo, content)`` of records that had no content digest."""
        rows = [(job, gen, p.table, p.point, p.lo, p.row) for p in placements]
        filled = [(content, job, table, point, lo) for table, point, lo, content in contents]

        def place(db):
            db.execute("DELETE FROM placements WHERE job=? AND gen=?", (job, gen))
            db.executemany("INSERT INTO placements VALUES (?,?,?,?,?,?)", rows)
            db.executemany(
                "UPDATE records SET content=? WHERE job=? AND tbl=? AND point=? AND lo=?", filled
            )

        self._write(place)

    def placement(self, job: str, gen: int, table: str, point: str, lo: int) -> int | None:
        """The first row of a record in generation ``gen``'s table, or None."""
        rows = self._rows(
            "SELECT row FROM placements WHERE job=? AND gen=? AND tbl=? AND point=? AND lo=?",
            (job, gen, table, point, lo),
            (int,),
        )
        return rows[0][0] if rows else None

    def compact(self, job: str, gen: int, tables: Iterable[str]) -> None:
        """After ``gen`` is published: drop the payloads of its records in ``tables`` (their
        rows are in the published files; a record without a content digest keeps its payload,
        since nothing else could check those rows), forget other generations' placements,
        and give the freed pages back to the file system."""
        tables = list(tables)

        def compact(db):
            for table in tables:
                db.execute(
                    "UPDATE records SET payload = NULL WHERE job=? AND tbl=? AND payload IS NOT "
                    "NULL AND content IS NOT NULL AND EXISTS (SELECT 1 FROM placements p WHERE "
                    "p.job=records.job AND p.gen=? AND p.tbl=records.tbl AND "
                    "p.point=records.point AND p.lo=records.lo)",
                    (job, table, gen),
                )
            db.execute("DELETE FROM placements WHERE job=? AND gen<>?", (job, gen))

        self._write(compact)
        self.shrink()

    def shrink(self) -> None:
        """Give free pages back to the file system, a few MB at a time: in WAL mode a vacuum
        copies what it frees into the WAL, so one big vacuum would double the disk used."""
        db = self.db
        self._call(lambda: db.execute("PRAGMA wal_checkpoint(TRUNCATE)"))
        while self._call(lambda: db.execute("PRAGMA freelist_count").fetchone()[0]):
            self._call(lambda: db.executescript(f"PRAGMA incremental_vacuum({VACUUM_PAGES});"))
            self._call(lambda: db.execute("PRAGMA wal_checkpoint(TRUNCATE)"))

    def forget_stale(self, job: str, keep: Iterable[tuple[str, str]]) -> int:
        """Delete ``job``'s records whose (table, point) is not in ``keep`` and whose payload
        is gone (they can never be used again); return how many."""
        keep = set(keep)
        stale = [
            (t, p)
            for t, p in self._rows(
                "SELECT DISTINCT tbl, point FROM records WHERE job=?", (job,), (str, str)
            )
            if (t, p) not in keep
        ]

        def forget(db):
            for t, p in stale:
                db.execute(
                    "DELETE FROM records WHERE job=? AND tbl=? AND point=? AND payload IS NULL",
                    (job, t, p),
                )

        self._write(forget)
        return len(stale)


def read_only(path: str | Path, owner: str | None = None) -> tuple[Store | None, str]:
    """The store at ``path`` opened for reading alone (``plan``: nothing is changed, nothing
    moved aside), or ``(None, why)`` when there is none, or it cannot be read or belongs to
    another output folder."""
    path = Path(path)
    if not path.is_file():
        return None, "no result store yet"
    store = Store.__new__(Store)
    store.path, store.owner, store._pending, store.keeps = path, owner, [], False
    try:
        # a closed store has no WAL: read it as immutable, which makes no -wal or -shm file;
        # beside a live (or killed) run, read through the WAL it left
        quiet = "" if Path(f"{path}-wal").exists() else "&immutable=1"

        def connect():
            store.db = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro{quiet}",
                uri=True,
                isolation_level=None,
                timeout=BUSY_SECONDS,
            )
            store.db.execute("SELECT count(*) FROM records").fetchone()

        store._call(connect)
        try:
            belongs = store._meta("output")
            store.id = store._meta("id")
        except StoreDamaged:  # a store of a boardsweep before ids: no meta table
            belongs = store.id = None
    except (StoreDamaged, BoardsweepError) as exc:
        _close(getattr(store, "db", None))
        return None, f"the result store cannot be read ({exc})"
    if owner is not None and belongs is not None and belongs != owner:
        store.db.close()
        return None, "the result store belongs to another output folder"
    return store, ""


def _close(db) -> None:
    """Close a connection (if any), ignoring its errors."""
    if db is not None:
        with contextlib.suppress(sqlite3.Error):
            db.close()
