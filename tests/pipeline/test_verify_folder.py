"""``boardsweep verify RESULTS`` (pipeline/audit.py) on real published folders, as a user runs it.

One small folder made by ``boardsweep run`` (in-process: the jobs are small) holds a job of
every problem; each test copies it before changing anything.  A clean folder and a copy
elsewhere pass; a value edited with the manifest's sha256 rewritten (only a recomputation
can catch it) and a value edited under the old sha256 fail with exit 1 and name what is wrong;
bad input is exit 2 and one line.
"""

from __future__ import annotations

import io
import json
import shutil
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.tables import file_digest
from tests.conftest import boardsweep

CONFIG = """\
output: {output}
jobs:
  - {{name: queens, problem: nqueens, n: "4..9", solutions: true}}
  - {{name: mixed, problem: queens_rooks, total: "1..6"}}
  - name: walled
    problem: max_rooks
    counts: true
    boards: {{generate: {{n: 4, density: 0.3, count: 40, seed: 1}}}}
  - {{name: slant, problem: slant, puzzles: {{generate: {{n: 4, count: 12, seed: 3}}}}}}
"""


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """A results folder published by ``boardsweep run`` with a job of every problem."""
    base = tmp_path_factory.mktemp("verify")
    config = base / "config.yaml"
    config.write_text(CONFIG.format(output=base / "results"))
    done = boardsweep("-q", "run", str(config), cwd=base)
    assert done.returncode == 0, done.stderr
    return base / "results"


@pytest.fixture
def results(published, tmp_path) -> Path:
    """A copy of the published folder (its tables and manifests alone) to change."""
    copy = tmp_path / "copy"
    shutil.copytree(published, copy)
    return copy


def edit(folder: Path, table: str, column: str, row: int, value, rewrite_sha: bool) -> None:
    """Set one cell of a published table (its ``_text`` twin too, for a count); with
    ``rewrite_sha`` the manifest's sha256 is made to match the edited file."""
    path = folder / f"{table}.parquet"
    data = pq.read_table(path)
    names = [column] + ([f"{column}_text"] if f"{column}_text" in data.schema.names else [])
    for name in names:
        values = data.column(name).to_pylist()
        values[row] = (
            str(value)
            if name.endswith("_text")
            else Decimal(value)
            if pa.types.is_decimal(data.schema.field(name).type)
            else value
        )
        i = data.schema.get_field_index(name)
        data = data.set_column(i, data.schema.field(i), pa.array(values, data.schema.field(i).type))
    pq.write_table(data, path)
    if rewrite_sha:
        manifest_path = folder / "_boardsweep" / "manifest.json"
        manifest = json.loads(manifest_path.read_text())
        manifest["tables"][table]["sha256"] = file_digest(path)
        manifest_path.write_text(json.dumps(manifest))


def row_of(folder: Path, table: str, column: str, value) -> int:
    """The first row of a published table whose ``column`` holds ``value``."""
    return pq.read_table(folder / f"{table}.parquet").column(column).to_pylist().index(value)


def test_a_clean_folder_passes_by_the_second_methods(published):
    done = boardsweep("verify", str(published), "--sample", "0.5")
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for method in (
        "row search",
        "plain Python backtracking",
        "Ryser's permanent",
        "the seeds' exhaustive search",
        "depth-first search and clause learning",
    ):
        assert method in out, method
    assert "DISAGREES" not in out and "DAMAGED" not in out
    assert "verified 4 job(s), 5 table(s) (0 damaged)" in out
    assert "all agree" in out


def test_a_copy_elsewhere_verifies_without_the_state_folder(results):
    manifest = json.loads((results / "queens" / "_boardsweep" / "manifest.json").read_text())
    state = Path(manifest["state"])
    assert state.is_dir()
    away = state.with_name(state.name + ".away")
    state.rename(away)  # as on another machine: the store is not there
    try:
        done = boardsweep("verify", str(results), "--job", "queens", "--job", "walled")
        one = boardsweep("verify", str(results / "mixed"))  # one job folder
    finally:
        away.rename(state)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified 2 job(s)" in done.stdout and "all agree" in done.stdout
    assert one.returncode == 0, one.stdout + one.stderr
    assert "verified 1 job(s)" in one.stdout


@pytest.mark.parametrize(
    "job, table, column, find, value, point",
    [
        ("queens", "counts", "count", ("n", 8), 93, "n=8"),
        ("queens", "solutions", "solution", ("n", 6), [0, 1, 2, 3, 4, 5], "n=6"),
        ("mixed", "counts", "count", ("queens", 2), 997, "n=2 (M=0..2)"),
        ("walled", "maxima", "max_rooks", ("board_id", 0), 9, "4x4 density 0.3"),
        ("slant", "slant", "status", ("puzzle_id", 0), "multiple", "4x4"),
    ],
)
def test_an_edited_value_with_its_sha256_rewritten_is_caught_by_recomputation(
    results, job, table, column, find, value, point
):
    folder = results / job
    row = row_of(folder, table, *find)
    before = pq.read_table(folder / f"{table}.parquet").column(column)[row].as_py()
    edit(folder, table, column, row, value, rewrite_sha=True)
    done = boardsweep("verify", str(results), "--job", job, "--sample", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if "DISAGREES" in line]
    assert lines, done.stdout
    assert "sha256 ok" in done.stdout  # only the recomputation could see it
    want = f"published {value!r}, recomputed {before!r}"
    if column == "count":  # counts are shown as their digits
        want = f"published {value}, recomputed {int(before)}"
    assert any(point in line and want in line for line in lines), (want, lines)
    assert done.stderr.strip().count("\n") == 0  # one line on stderr


def test_an_edited_value_under_the_old_sha256_is_a_damaged_table(results):
    edit(
        results / "queens",
        "counts",
        "count",
        row_of(results / "queens", "counts", "n", 8),
        93,
        rewrite_sha=False,
    )
    done = boardsweep("verify", str(results))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "counts.parquet: sha256 DAMAGED" in done.stdout
    assert "1 damaged" in done.stdout


def test_bad_input_is_exit_2_and_one_line(results, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, words in (
        ((str(empty),), "not a results folder"),
        ((str(results), "--job", "nope"), "no job 'nope'"),
        ((str(results), "--sample", "0"), "--sample"),
    ):
        done = boardsweep("verify", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert words in done.stderr
        assert done.stderr.strip().count("\n") == 0 or "Usage" in done.stderr


def test_a_large_point_is_sampled_by_records_against_the_manifest_digests(results, monkeypatch):
    from boardsweep.pipeline import app, audit

    monkeypatch.setattr(audit, "WHOLE_SECONDS", 0.0)  # every point counts as large
    out = io.StringIO()
    assert app.verify_results(results, out, 0.01, ("queens",), seed=1).ok, out.getvalue()
    assert "digest agrees with the manifest's" in out.getvalue()
    assert "the published sum of this large point is not recomputed" in out.getvalue()
    manifest_path = results / "queens" / "_boardsweep" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for point in manifest["points"]["counts"]:  # as if a worker had computed each wrongly
        for record in point["records"]:
            record[3] = "0" * 64
    manifest_path.write_text(json.dumps(manifest))
    out = io.StringIO()
    outcome = app.verify_results(results, out, 0.01, ("queens",), seed=1)
    assert not outcome.ok
    assert len([d for d in outcome.disagreements if "queens/counts n=" in d]) == 6
    assert "digest of the record's rows: manifest 0000000000000000" in out.getvalue()
