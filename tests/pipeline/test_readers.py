"""A results folder is a clean dataset: pandas, polars and duckdb read exactly the tables, and
counts of any size come back exact in all three."""

from __future__ import annotations

import duckdb
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.publish import prepare_state
from boardsweep.pipeline.run import local_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context

POWERS = [126, 127, 128, 256, 1000]  # a row of k isolated open cells has 2**k placements


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results folder with a count job, a board job of huge counts, and a report."""
    root = tmp_path_factory.mktemp("readers")
    cells = ["X".join("." * k) for k in POWERS]
    boards = pa.table(
        {
            "board_id": pa.array(range(len(POWERS)), pa.int64()),
            "rows": pa.array([1] * len(POWERS), pa.int32()),
            "cols": pa.array([2 * k - 1 for k in POWERS], pa.int32()),
            "density": pa.array([None] * len(POWERS), pa.float64()),
            "cells": pa.array(cells, pa.string()),
        }
    )
    pq.write_table(boards, root / "lines.parquet")
    output = root / "results"
    state = state_folder(output)
    prepare_state(output, state)
    store = Store(state / "store.sqlite")
    ctx = Context(str(root))
    for job in (
        make_job("nqueens", "queens", {"n": "1..10", "solutions": True}, ctx),
        make_job(
            "max_rooks", "lines", {"boards": {"parquet": "lines.parquet"}, "counts": True}, ctx
        ),
    ):
        run_job(job, output, state, store, local_runner, 1, 1.0, "test")
        run_job(job, output, state, store, local_runner, 1, 1.0, "test")  # a second run row
    store.close()
    (output / "_report").mkdir()
    (output / "_report" / "report.html").write_text("<html></html>")
    return output


TABLES = {
    "queens/counts.parquet": 10,
    "queens/solutions.parquet": 724 + 352 + 92 + 40 + 4 + 10 + 2 + 1,
    "queens/runs.parquet": 2,
    "lines/maxima.parquet": len(POWERS),
    "lines/runs.parquet": 2,
}


def test_duckdb_globs_see_exactly_the_tables(results):
    files = duckdb.sql(
        f"SELECT filename, count(*) FROM read_parquet('{results}/**/*.parquet', "
        "union_by_name=true, filename=true) GROUP BY filename"
    ).fetchall()
    seen = {str(path).removeprefix(f"{results}/"): n for path, n in files}
    assert seen == TABLES
    counts = duckdb.sql(f"SELECT sum(count) FROM read_parquet('{results}/*/counts.parquet')")
    assert counts.fetchall()[0][0] == 1 + 0 + 0 + 2 + 10 + 4 + 40 + 92 + 352 + 724


def test_polars_globs_see_exactly_the_tables(results):
    frame = (
        pl.scan_parquet(
            f"{results}/**/*.parquet",
            include_file_paths="path",
            missing_columns="insert",
            extra_columns="ignore",
        )
        .select("path")
        .collect()
    )
    seen = frame.group_by("path").len().rows()
    assert {p.removeprefix(f"{results}/"): n for p, n in seen} == TABLES
    counts = pl.scan_parquet(f"{results}/*/counts.parquet").select(pl.col("count").sum())
    assert int(counts.collect().item()) == 1 + 2 + 10 + 4 + 40 + 92 + 352 + 724


def test_pandas_reads_each_table_and_pyarrow_datasets_skip_the_rest(results):
    for name, rows in TABLES.items():
        assert len(pd.read_parquet(results / name)) == rows
    assert len(pd.read_parquet(results / "queens")) >= 10  # the job folder as a dataset


def test_counts_of_any_size_read_back_exactly_in_every_reader(results):
    path = results / "lines" / "maxima.parquet"
    want = [2**k for k in POWERS]
    frame = pd.read_parquet(path)
    assert [int(v) for v in frame["placements_text"]] == want
    assert [None if pd.isna(v) else int(v) for v in frame["placements"]] == [
        2**126,
        None,
        None,
        None,
        None,
    ]  # 2**126 has 38 digits; 2**127 has 39
    polars = pl.read_parquet(path)
    assert [int(v) for v in polars["placements_text"]] == want
    assert polars["placements"].to_list()[0] == 2**126
    rows = duckdb.sql(
        f"SELECT placements, placements_text, max_placements FROM "
        f"read_parquet('{path}') ORDER BY board_id"
    ).fetchall()
    assert [int(text) for _, text, _ in rows] == want
    assert rows[0][0] == 2**126 and all(r[0] is None for r in rows[1:])
    assert all(r[2] == 1 for r in rows)
    schema = pq.read_schema(path)
    assert schema.field("placements").type == pa.decimal128(38, 0)
    assert schema.field("placements_text").type == pa.string()
    assert schema.field("placements").metadata[b"unit"] is not None


def test_tables_carry_their_provenance(results):
    meta = pq.read_schema(results / "queens" / "counts.parquet").metadata
    for key in (
        b"boardsweep.version",
        b"boardsweep.problem",
        b"boardsweep.problem_version",
        b"boardsweep.params",
        b"boardsweep.job",
        b"boardsweep.generation",
    ):
        assert meta.get(key), key
    nodes = pq.read_schema(results / "queens" / "counts.parquet").field("nodes")
    assert nodes.metadata[b"unit"] == b"nodes" and nodes.metadata[b"doc"]
