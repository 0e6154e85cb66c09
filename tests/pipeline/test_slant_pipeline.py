"""Slant through the pipeline: judge byte-exact, jobs on a real cluster, report by status."""

from __future__ import annotations

import pyarrow.parquet as pq

from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.publish import prepare_state
from boardsweep.pipeline.run import dask_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context
from tests.conftest import ROOT, boardsweep
from tests.result_columns import SLANT_COLUMNS


def test_judge_slant_seed_sample_byte_for_byte():
    done = boardsweep("judge", "slant", stdin=(ROOT / "data" / "slant_sample.txt").read_text())
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "data" / "slant_sample.out").read_text()


def test_slant_job_on_cluster_and_report(tmp_path, dask_client):
    spec = {"puzzles": {"generate": {"n": [5, 8], "count": 60, "seed": 9}}}
    state = state_folder(tmp_path)
    prepare_state(tmp_path, state)
    store = Store(state / "store.sqlite")
    manifest = run_job(
        make_job("slant", "sl", spec, Context(".")),
        tmp_path,
        state,
        store,
        dask_runner(dask_client, 2),
        2,
        0.2,
        "test",
    )
    store.close()
    table = pq.read_table(tmp_path / "sl" / "slant.parquet")
    assert manifest["tables"]["slant"]["rows"] == 120 and table.num_rows == 120
    assert table.column_names == SLANT_COLUMNS
    assert set(table.column("status").to_pylist()) == {"unique"}  # generated puzzles are unique
    assert [len(s) for s in table.column("solution").to_pylist()] == [25] * 60 + [64] * 60
    assert set("".join(table.column("solution").to_pylist())) <= {"/", "\\"}
    shown = boardsweep("report", str(tmp_path))
    assert shown.returncode == 0, shown.stderr
    assert "p50 ms" in shown.stdout and "    8     8       60      60" in shown.stdout


def test_solve_slant_reports_none_and_multiple(tmp_path):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("2\n1\n..\n..\n1\n4.\n..\n")  # no clues: several fillings; 4 at a corner
    out = tmp_path / "s.parquet"
    done = boardsweep("solve", "slant", str(puzzles), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert pq.read_table(out).column("status").to_pylist() == ["multiple", "none"]


def test_bad_slant_input_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n1\n5.\n..\n")
    done = boardsweep("solve", "slant", str(bad), "-o", str(tmp_path / "o.parquet"))
    assert done.returncode == 2 and f"{bad}:3:" in done.stderr
    assert not (tmp_path / "o.parquet").exists()
