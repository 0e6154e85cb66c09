"""``boardsweep report`` over damaged results, with real files: a job published by ``run`` (two
tiny N-queens jobs, published once for the module), then copied and damaged.  A published
table that no longer matches its manifest's sha256, or is cut short, is named in one warning
line and its job left out; the other jobs are still reported, and when none is left the
command exits 2 with one line naming the damage.  A loose table cut short is skipped with a
warning.  Never a traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from boardsweep.pipeline.cli import cli
from boardsweep.pipeline.tables import file_digest

CONFIG = 'jobs: [{name: q, problem: nqueens, n: "4..6"}, {name: r, problem: nqueens, n: "4..5"}]\n'
SHA_DIFFERS = (
    "does not match its manifest (sha256 differs: edited or damaged); its job is not reported"
)
TRUNCATED = "is truncated or damaged (its Parquet footer cannot be read)"
NO_JOB = "no job could be reported: damaged table(s): "
Q_TITLE = "== q: q: N-queens Q(n)"
R_TITLE = "== r: r: N-queens Q(n)"


@pytest.fixture(scope="module")
def published(tmp_path_factory) -> Path:
    """Jobs q (n 4..6) and r (n 4..5), published by ``boardsweep run`` in this process."""
    base = tmp_path_factory.mktemp("published")
    config = base / "config.yaml"
    config.write_text(CONFIG)
    out = base / "out"
    result = CliRunner().invoke(
        cli, ["run", str(config), "--output", str(out), "--workers", "1"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    for job in ("q", "r"):
        manifest = json.loads((out / job / "_boardsweep" / "manifest.json").read_text())
        assert manifest["tables"]["counts"]["sha256"] == file_digest(out / job / "counts.parquet")
    return out


@pytest.fixture
def results(published, tmp_path):
    """A results folder holding copies of the named published jobs."""

    def copy(*jobs: str) -> Path:
        folder = tmp_path / "results"
        for job in jobs:
            shutil.copytree(published / job, folder / job)
        return folder

    return copy


def report(results: Path):
    result = CliRunner().invoke(cli, ["report", str(results)])
    # an error the command reports is a SystemExit with its status; anything else escaped
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def change_one_byte(path: Path) -> None:
    """Flip one byte near the start (in the first data page: the footer still reads)."""
    data = bytearray(path.read_bytes())
    data[8] ^= 0xFF
    path.write_bytes(bytes(data))


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def damage_and_report(folder: Path, damaged: Path, damage=cut_in_half):
    """``report`` on ``folder`` once ``damage`` has been done to its file ``damaged``."""
    damage(damaged)
    return report(folder)


def assert_reported_without(result, shown: str, left_out: str) -> None:
    """The report succeeded, with the job titled ``shown`` and not the one titled ``left_out``."""
    assert result.exit_code == 0, result.output
    assert shown in result.stdout and left_out not in result.stdout


def the_one_warning(result) -> str:
    """The report's only WARNING line."""
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, warnings
    return warnings[0]


def assert_nothing_reported(result, damaged: Path, damage: str) -> None:
    """The report exited 2, naming ``damaged`` with ``damage`` and as why no job was left."""
    assert result.exit_code == 2
    assert f"{damaged}: {damage}" in result.stderr
    assert f"{NO_JOB}{damaged}" in result.stderr


def test_one_changed_byte_in_the_only_job_exits_2_naming_the_file(results):
    folder = results("q")
    table = folder / "q" / "counts.parquet"
    result = damage_and_report(folder, table, change_one_byte)
    assert_nothing_reported(result, table, SHA_DIFFERS)
    errors = [line for line in result.stderr.splitlines() if "boardsweep: error:" in line]
    assert errors == [f"boardsweep: error: {folder}: {NO_JOB}{table} (see the warnings above)"]
    assert "no job results found" not in result.stderr
    assert Q_TITLE not in result.stdout


def test_the_good_job_is_reported_beside_a_damaged_one(results):
    folder = results("q", "r")
    table = folder / "r" / "counts.parquet"
    result = damage_and_report(folder, table, change_one_byte)
    assert_reported_without(result, Q_TITLE, R_TITLE)
    assert the_one_warning(result).endswith(f"{table}: {SHA_DIFFERS}")
    assert "error" not in result.stderr
    assert (folder / "_report" / "report.html").is_file()


def test_a_truncated_table_is_named(results):
    folder = results("q")
    table = folder / "q" / "counts.parquet"
    result = damage_and_report(folder, table)
    assert_nothing_reported(result, table, f"{TRUNCATED}; its job is not reported")


def test_a_truncated_table_beside_a_good_job_leaves_that_job_out(results):
    folder = results("q", "r")
    table = folder / "q" / "counts.parquet"
    result = damage_and_report(folder, table)
    assert_reported_without(result, R_TITLE, Q_TITLE)
    assert f"{table}: {TRUNCATED}; its job is not reported" in result.stderr


def test_a_truncated_loose_table_is_skipped_with_a_warning(results, published):
    folder = results("q", "r")
    (folder / "one").mkdir()
    shutil.copy(published / "q" / "counts.parquet", folder / "one" / "good.parquet")
    loose = folder / "one" / "half.parquet"
    shutil.copy(published / "q" / "counts.parquet", loose)
    result = damage_and_report(folder, loose)
    assert result.exit_code == 0, result.output
    assert Q_TITLE in result.stdout and R_TITLE in result.stdout
    assert "== one-good: " in result.stdout and "== one-half: " not in result.stdout
    assert the_one_warning(result).endswith(f"{loose}: {TRUNCATED}; skipped")


def test_only_damaged_loose_tables_name_the_damage(results, tmp_path, published):
    folder = tmp_path / "loose"
    folder.mkdir()
    loose = folder / "half.parquet"
    shutil.copy(published / "q" / "counts.parquet", loose)
    result = damage_and_report(folder, loose)
    assert_nothing_reported(result, loose, f"{TRUNCATED}; skipped")


def test_a_missing_table_is_named(results):
    folder = results("q", "r")
    table = folder / "r" / "counts.parquet"
    result = damage_and_report(folder, table, Path.unlink)
    assert_reported_without(result, Q_TITLE, R_TITLE)
    assert f"{table}: is missing (its manifest lists it); its job is not reported" in result.stderr
