"""All Parquet and JSON reading and writing, and the lock on an output folder.

Layout under the output folder::

    <output>/.lock                                  held (flock) by the run writing here
    <output>/<job>/fragments/<table>/<key>.parquet  one per finished task
    <output>/<job>/<table>.parquet                  the merged result
    <output>/<job>/manifest.json

A file is written as ``.<name>.tmp`` beside its final name and moved into place with
``os.replace``, so a reader (and Arrow's dataset discovery, which skips dot files) only ever
sees whole files, and a run killed mid-write leaves at most a stray temp file.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import BoardsweepError, InputError

__all__ = [
    "fragment_path", "write_table", "write_json", "read_table", "output_lock",
    "remove_fragments", "stream_concat", "existing_fragments",
]


def fragment_path(output: str | Path, job: str, table: str, key: str) -> Path:
    """Where the fragment of task ``key`` for ``table`` of ``job`` lives."""
    return Path(output) / job / "fragments" / table / f"{key}.parquet"


def _temp_beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_table(table: pa.Table, path: str | Path) -> None:
    """Write ``table`` to ``path`` atomically (temp file, fsync, rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_beside(path)
    try:
        pq.write_table(table, temp, compression="zstd")
        with open(temp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def stream_concat(tables: Iterable[pa.Table], schema: pa.Schema, path: str | Path) -> int:
    """Write the tables one after another into one Parquet file atomically; return its rows.

    Only one input table is in memory at a time, so the result may be far larger than memory.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_beside(path)
    rows = 0
    try:
        with pq.ParquetWriter(temp, schema, compression="zstd") as writer:
            for table in tables:
                writer.write_table(table.cast(schema))
                rows += table.num_rows
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)
    return rows


def write_json(data: dict, path: str | Path) -> None:
    """Write ``data`` as indented JSON atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = _temp_beside(path)
    try:
        temp.write_text(json.dumps(data, indent=2, sort_keys=True, default=str) + "\n")
        os.replace(temp, path)
    finally:
        temp.unlink(missing_ok=True)


def read_table(path: str | Path) -> pa.Table:
    """Read one Parquet file; :class:`InputError` if it is missing or not Parquet."""
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowInvalid) as exc:
        raise InputError(f"cannot read Parquet: {exc}", str(path)) from None


def existing_fragments(output: str | Path, job: str, table: str) -> set[str]:
    """Keys of the tasks of ``job`` whose ``table`` fragment is already written."""
    folder = Path(output) / job / "fragments" / table
    if not folder.is_dir():
        return set()
    return {p.stem for p in folder.glob("*.parquet") if not p.name.startswith(".")}


def remove_fragments(output: str | Path, job: str) -> None:
    """Forget every earlier fragment of ``job`` (``--fresh``)."""
    shutil.rmtree(Path(output) / job / "fragments", ignore_errors=True)


@contextmanager
def output_lock(output: str | Path) -> Iterator[None]:
    """Hold an exclusive lock on the output folder; refuse if another run holds it.

    The lock is an ``flock`` on ``<output>/.lock``: the kernel drops it when its holder dies, so a
    killed run never leaves a stale lock behind.
    """
    folder = Path(output)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / ".lock", "a+")
    except OSError as exc:
        raise InputError(f"cannot write to the output folder: {exc.strerror}",
                         str(folder)) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise BoardsweepError(
                f"{folder}: output folder is in use by {holder}; wait for it or choose --output"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()} on {socket.gethostname()} since "
                     f"{time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        handle.flush()
        yield
    finally:
        handle.close()
