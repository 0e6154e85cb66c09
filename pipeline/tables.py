"""All Parquet and Arrow reading and writing: checked input sets, published tables, payloads.

Input sets are checked column by column against the problem's declared :class:`Table`: the
Arrow type must be of the declared kind (integers for integers, text for text, never a list),
every integer must fit the declared width, nulls appear only where a column allows them, and
nothing is cast until it is known to fit.  Output files are written whole or not at all.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc
import pyarrow.parquet as pq

from boardsweep.solvers.contract import Column, Table

from .errors import InputError

__all__ = [
    "check_columns",
    "open_parquet",
    "ParquetRows",
    "file_digest",
    "to_payload",
    "from_payload",
    "atomic_file",
    "write_parquet",
    "ParquetSink",
    "read_parquet",
    "writable_folder",
    "no_space",
    "regular_file",
    "read_file",
    "is_parquet",
    "BATCH_ROWS",
]

BATCH_ROWS = 1 << 20  # rows per batch when a set is checked or read in pieces


def _kind_ok(column: Column, actual: pa.DataType) -> bool:
    """Whether a file's type may hold a declared column's values (checked further later)."""
    want = column.type
    if pa.types.is_integer(want):
        return pa.types.is_integer(actual)
    if pa.types.is_floating(want):
        return pa.types.is_floating(actual) or pa.types.is_integer(actual)
    if pa.types.is_string(want) or pa.types.is_large_string(want):
        return pa.types.is_string(actual) or pa.types.is_large_string(actual)
    return actual.equals(want)


def _what(column: Column) -> str:
    t = column.type
    if pa.types.is_integer(t):
        return f"integers ({t})"
    if pa.types.is_floating(t):
        return "numbers"
    if pa.types.is_string(t):
        return "text"
    return str(t)


def check_columns(
    table: pa.Table, spec: Table, source: str, first_row: int = 0, what: str = "set"
) -> pa.Table:
    """``table``'s declared columns, checked and converted to their declared types.

    :class:`InputError` names ``source`` and the first row at fault (``first_row`` is the
    index of the table's first row in the whole set).  Columns not declared are dropped.
    """
    names = [c.name for c in spec.columns]
    twice = sorted({n for n in table.column_names if table.column_names.count(n) > 1})
    if twice:  # which of the two is meant cannot be told
        raise InputError(
            f"not a {what}: column(s) {', '.join(twice)} appear more than once", source
        )
    missing = [
        c.name for c in spec.columns if c.name not in table.column_names and not c.nullable
    ]  # a nullable column left out is all nulls
    if missing:
        raise InputError(
            f"not a {what}: missing column(s) {', '.join(missing)} (expected {', '.join(names)})",
            source,
        )
    out = {}
    for column in spec.columns:
        if column.name not in table.column_names:
            out[column.name] = pa.nulls(table.num_rows, column.type)
            continue
        data = table.column(column.name)
        if not _kind_ok(column, data.type):
            raise InputError(
                f"column '{column.name}' holds {data.type}: expected {_what(column)}", source
            )
        if data.null_count and not column.nullable:
            row = first_row + pc.index(pc.is_null(data), True).as_py()
            raise InputError(
                f"column '{column.name}', row {row}: null: expected {_what(column)}", source
            )
        if pa.types.is_integer(column.type) and not data.type.equals(column.type):
            _fits(data, column, source, first_row)
        if pa.types.is_floating(column.type) and len(data) - data.null_count:
            if pa.types.is_integer(data.type):
                _fits(data, Column(column.name, pa.int64(), ""), source, first_row, 2**53)
            elif pc.any(pc.is_nan(data)).as_py():
                row = first_row + pc.index(pc.is_nan(data), True).as_py()
                raise InputError(
                    f"column '{column.name}', row {row}: NaN: expected a number", source
                )
        out[column.name] = data.cast(column.type, safe=True)
    return pa.table(out)


def _fits(
    data: pa.ChunkedArray, column: Column, source: str, first_row: int, limit: int | None = None
) -> None:
    """InputError at the first value of ``data`` that does not fit ``column``'s integer type
    (or ``-limit..limit``)."""
    if len(data) == data.null_count:
        return
    info = np.iinfo(column.type.to_pandas_dtype())
    lo, hi = (-limit, limit) if limit is not None else (int(info.min), int(info.max))
    stats = pc.min_max(data)
    if stats["min"].as_py() >= lo and stats["max"].as_py() <= hi:
        return
    if pa.types.is_unsigned_integer(data.type):
        bad = pc.greater(data, pa.scalar(hi, pa.uint64()))
    else:
        bad = pc.or_(
            pc.less(data, pa.scalar(lo, pa.int64())), pc.greater(data, pa.scalar(hi, pa.int64()))
        )
    row = pc.index(bad, True).as_py()
    value = data[row].as_py()
    raise InputError(
        f"column '{column.name}', row {first_row + row}: {value} does not fit {column.type}", source
    )


def regular_file(path: str | Path) -> None:
    """:class:`InputError` if ``path`` (through any links) is a FIFO, a device or a socket:
    reading one would wait for a writer, or never end (``/dev/zero``).  An absent path or a
    folder passes: the read that follows says what is wrong with it."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputError(
            "is not a regular file (a FIFO, a device or a socket): expected a file", str(path)
        )


def read_file(path: str | Path, what: str, most: int = -1) -> bytes:
    """The bytes of the file ``path`` (only its first ``most`` when given), or the one
    :class:`InputError` of an input file that cannot be read: a folder (``what`` says what was
    expected there, ``a YAML config``), not a regular file, or unreadable (the system's
    reason)."""
    path = str(path)
    if os.path.isdir(path):
        raise InputError(f"is a folder: expected {what}", path)
    regular_file(path)
    try:
        with open(path, "rb") as handle:
            return handle.read(most)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path) from None


PARQUET_MAGIC = b"PAR1"  # the first (and last) four bytes of every Parquet file


def is_parquet(data: bytes) -> bool:
    """Whether ``data`` starts as a Parquet file does (its magic number): the one sniff that
    tells a Parquet set from seed-format text, and a Parquet payload from Arrow IPC."""
    return data[: len(PARQUET_MAGIC)] == PARQUET_MAGIC


def open_parquet(path: str | Path, what: str = "Parquet file") -> pq.ParquetFile:
    """A Parquet file opened for reading; :class:`InputError` if it is missing or not one."""
    regular_file(path)
    try:
        return pq.ParquetFile(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read {what}: {exc}", str(path)) from None


class ParquetRows:
    """Rows ``lo..hi-1`` of a Parquet file, read row group by row group (the last one kept,
    so consecutive ranges read each row group once)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        regular_file(self.path)
        self._file = pq.ParquetFile(self.path)
        meta = self._file.metadata
        sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        self.starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self._cached: tuple[int, pa.Table] | None = None

    @property
    def rows(self) -> int:
        """How many rows the file holds."""
        return int(self.starts[-1])

    def _group(self, index: int, columns: list[str] | None) -> pa.Table:
        if self._cached is None or self._cached[0] != index:
            self._cached = (index, self._file.read_row_group(index, columns=columns))
        return self._cached[1]

    def read(self, lo: int, hi: int, columns: list[str] | None = None) -> pa.Table:
        """Rows ``lo..hi-1`` (whole row groups read, then sliced)."""
        first = int(np.searchsorted(self.starts, lo, "right")) - 1
        parts = []
        group = first
        while group < len(self.starts) - 1 and self.starts[group] < hi:
            table = self._group(group, columns)
            a = max(lo - int(self.starts[group]), 0)
            b = min(hi - int(self.starts[group]), table.num_rows)
            parts.append(table.slice(a, b - a))
            group += 1
        if not parts:
            return self._file.schema_arrow.empty_table()
        return pa.concat_tables(parts) if len(parts) > 1 else parts[0]

    def batches(self, columns: list[str] | None = None) -> Iterator[tuple[int, pa.Table]]:
        """``(first row, table)`` for each row group in order."""
        for i in range(len(self.starts) - 1):
            yield int(self.starts[i]), self._file.read_row_group(i, columns=columns)


def read_parquet(path: str | Path) -> pa.Table:
    """A whole Parquet file; :class:`InputError` if it is missing or not Parquet."""
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", str(path)) from None


def file_digest(path: str | Path) -> str:
    """sha256 of a file's bytes (hex), read in 4 MiB pieces."""
    digest = hashlib.sha256()
    regular_file(path)
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


PARQUET_PAYLOAD_BYTES = 1 << 20
"""Tables at least this large (in memory) are stored as Parquet bytes, smaller ones as IPC."""


def to_payload(table: pa.Table) -> bytes:
    """A task's rows as bytes for the store: a Parquet file (zstd level 6) for large tables, a
    little smaller than the same rows in the published table (zstd at Parquet's default level),
    so that the store and the table merged from it stay within twice the result on disk (Arrow
    IPC at level 6 is larger and slower to write); an Arrow IPC stream for small ones, where
    Parquet's fixed cost to write and read back would be the driver's largest cost per task
    (benchmarks/driver_cost.py; figures on the speed page, docs/speed.md)."""
    sink = pa.BufferOutputStream()
    if table.nbytes >= PARQUET_PAYLOAD_BYTES:
        pq.write_table(table, sink, compression="zstd", compression_level=6)
    else:
        codec = pa.Codec("zstd", compression_level=6) if table.nbytes > 4096 else None
        options = ipc.IpcWriteOptions(compression=codec)
        with ipc.new_stream(sink, table.schema, options=options) as writer:
            writer.write_table(table)
    return sink.getvalue().to_pybytes()


def from_payload(data: bytes) -> pa.Table:
    """The table of :func:`to_payload` bytes, told apart by Parquet's magic number."""
    if is_parquet(data):
        return pq.read_table(pa.BufferReader(data))
    return ipc.open_stream(pa.py_buffer(data)).read_all()


def no_space(exc: OSError) -> bool:
    """Whether an error says the disk (or the user's quota, or the file size limit) is full."""
    return exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


NAME_BYTES = 255  # a name in a folder, on Linux file systems
PATH_BYTES = 480  # a whole path: SQLite opens no store whose path is over 512 bytes


def _shown(path: Path) -> str:
    """A path for a message: a long one cut in the middle."""
    text = str(path)
    return text if len(text) <= 120 else f"{text[:60]}...{text[-50:]}"


def writable_folder(path: str | Path, folder: bool = False) -> None:
    """:class:`InputError` unless ``path`` can be written: a file (or with ``folder``, a
    folder) that is absent or of that kind, below folders that exist or can be made.

    Checked before any work and without writing anything (a test file is made and dropped
    in the nearest folder that exists), so a bad output is one line and nothing left behind;
    a name over :data:`NAME_BYTES` is refused, and so is a folder's path over
    :data:`PATH_BYTES` (a run's output and state folders: its store is opened there).
    """
    path = Path(path)
    long = max((len(os.fsencode(part)) for part in path.parts), default=0)
    most = PATH_BYTES if folder else 4095  # a run's folders hold its store; a file, Linux's
    if long > NAME_BYTES or len(os.fsencode(str(path.absolute()))) > most:
        raise InputError(
            f"the name is too long: at most {NAME_BYTES} bytes a name and {most} in all",
            _shown(path),
        ) from None
    if path.exists() and path.is_dir() != folder:
        raise InputError(
            f"cannot write here: it is a {'file' if folder else 'folder'}, "
            f"expected a {'folder' if folder else 'file'}",
            str(path),
        )
    base = path if folder and path.is_dir() else path.absolute().parent
    while not base.exists() and not base.is_symlink():
        base = base.parent
    if not base.is_dir():
        raise InputError(f"cannot write here: {base} is a file, not a folder", str(path))
    try:
        with tempfile.TemporaryFile(dir=base):
            pass
    except OSError as exc:
        raise InputError(f"cannot write here: {exc.strerror}", str(path)) from None


@contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """A private temp file beside ``path``, moved onto it when the block ends without error,
    removed otherwise (with the folders made for it).  A full disk or a refused write is
    :class:`InputError` naming ``path``."""
    path = Path(path)
    made = []  # folders this call makes, innermost first: removed again if the write fails
    folder = path.absolute().parent
    while not folder.exists():
        made.append(folder)
        folder = folder.parent
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        _remove_folders(made)
        raise InputError(f"cannot write: {exc.strerror}", str(path)) from None
    os.close(handle)
    temp = Path(name)
    done = False
    try:
        yield temp
        with open(temp, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temp, path)
        done = True
    except OSError as exc:
        if no_space(exc) or exc.errno in (errno.EACCES, errno.EROFS, errno.EPERM):
            raise InputError(f"cannot write: {os.strerror(exc.errno)}", str(path)) from None
        raise
    finally:
        temp.unlink(missing_ok=True)
        if not done:
            _remove_folders(made)


def _remove_folders(folders: list[Path]) -> None:
    """Remove ``folders`` (innermost first) where they are empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


class ParquetSink:
    """Write tables one after another into one Parquet file (zstd); rows are counted and the
    file's key-value ``metadata`` goes in its footer."""

    def __init__(self, path: str | Path, schema: pa.Schema, metadata: dict[str, str] | None = None):
        self.schema = schema.with_metadata(
            {
                **(schema.metadata or {}),
                **{k.encode(): v.encode() for k, v in (metadata or {}).items()},
            }
        )
        self.writer = pq.ParquetWriter(
            str(path), self.schema, compression="zstd", write_page_checksum=True
        )
        self.rows = 0

    def write(self, table: pa.Table) -> None:
        """Append ``table`` (its columns must match the schema's, in order and type)."""
        if table.num_rows:
            self.writer.write_table(
                table.replace_schema_metadata(self.schema.metadata).cast(self.schema, safe=True)
            )
            self.rows += table.num_rows

    def close(self) -> None:
        """Finish the file."""
        self.writer.close()


def write_parquet(
    path: str | Path,
    tables: Iterable[pa.Table],
    schema: pa.Schema,
    metadata: dict[str, str] | None = None,
) -> int:
    """Write ``tables`` into ``path`` (no temp file: the caller owns the folder); return rows."""
    sink = ParquetSink(path, schema, metadata)
    try:
        for table in tables:
            sink.write(table)
    finally:
        sink.close()
    return sink.rows
