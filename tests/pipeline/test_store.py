"""Parquet and lock handling: whole files only, and one run per output folder."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pytest

from pipeline import store
from pipeline.errors import BoardsweepError, InputError


def test_write_table_is_atomic_and_leaves_no_temp(tmp_path):
    path = tmp_path / "a" / "b.parquet"
    store.write_table(pa.table({"x": [1, 2, 3]}), path)
    assert store.read_table(path).column("x").to_pylist() == [1, 2, 3]
    assert sorted(p.name for p in path.parent.iterdir()) == ["b.parquet"]


def test_failed_write_leaves_nothing(tmp_path):
    path = tmp_path / "bad.parquet"
    with pytest.raises(AttributeError):
        store.write_table("not a table", path)
    assert list(tmp_path.iterdir()) == []


def test_stream_concat_keeps_order(tmp_path):
    schema = pa.schema([("x", pa.int64())])
    tables = (pa.table({"x": [i, i + 10]}, schema=schema) for i in range(3))
    rows = store.stream_concat(tables, schema, tmp_path / "all.parquet")
    assert rows == 6
    assert store.read_table(tmp_path / "all.parquet").column("x").to_pylist() == [
        0, 10, 1, 11, 2, 12]


def test_existing_fragments_ignores_temp_files(tmp_path):
    store.write_table(pa.table({"x": [1]}), store.fragment_path(tmp_path, "job", "counts", "k1"))
    (tmp_path / "job" / "fragments" / "counts" / ".k2.parquet.9.tmp").write_text("half")
    assert store.existing_fragments(tmp_path, "job", "counts") == {"k1"}
    store.remove_fragments(tmp_path, "job")
    assert store.existing_fragments(tmp_path, "job", "counts") == set()


def test_read_table_names_the_file(tmp_path):
    bad = tmp_path / "x.parquet"
    bad.write_text("not parquet")
    with pytest.raises(InputError, match=str(bad)):
        store.read_table(bad)


def test_second_holder_of_output_is_refused(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pipeline import store\n"
         f"with store.output_lock({str(tmp_path)!r}):\n"
         "    print('locked', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(BoardsweepError, match=rf"in use by pid {holder.pid} on "):
            with store.output_lock(tmp_path):
                pass
    finally:
        holder.kill()
        holder.wait()
    with store.output_lock(tmp_path):  # a killed holder leaves no stale lock
        pass
