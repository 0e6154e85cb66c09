"""The Python API (``boardsweep.count/solve/run/load/plan``) on the command line's engine:
exact answers, real clusters, the published folder the command line would write, and bad
input as exceptions carrying the command line's text, never an exit or a print."""

from __future__ import annotations

import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

import boardsweep
from boardsweep.pipeline.cli import cli
from boardsweep.pipeline.errors import InputError
from tests.conftest import ROOT

JOBS = {
    "output": "results",
    "jobs": [
        {"name": "q", "problem": "nqueens", "n": "4..9"},
        {
            "name": "w",
            "problem": "max_rooks",
            "counts": True,
            "boards": {"generate": {"n": 5, "density": 0.3, "count": 40, "seed": 3}},
        },
    ],
}


def test_count_gives_exact_ints():
    assert boardsweep.count("nqueens", n=10) == 724
    assert boardsweep.count("queens_rooks", queens=3, rooks=1) == 8
    assert type(boardsweep.count("nqueens", n=4)) is int


def test_count_on_a_cluster_the_caller_keeps(dask_client):
    assert boardsweep.count("nqueens", n=11, client=dask_client) == 2680
    assert dask_client.status == "running"  # not closed by the API


def test_solve_takes_a_path_a_dataframe_or_a_table():
    sample = ROOT / "data" / "max_rooks_sample.txt"
    from_path = boardsweep.solve("max_rooks", sample)
    assert from_path["max_rooks"].tolist() == [5, 1, 5, 2, 4]  # the seed's sample answers
    boards = from_path[["board_id", "rows", "cols"]]
    from boardsweep.solvers import get

    text_table = get("max_rooks").seed_format.read(sample.read_text())
    from_frame = boardsweep.solve("max_rooks", text_table.to_pandas(), counts=True)
    assert from_frame["max_rooks"].tolist() == [5, 1, 5, 2, 4]
    assert from_frame["placements_text"].notna().all()
    assert (
        boardsweep.solve("max_rooks", text_table)["board_id"].tolist()
        == boards["board_id"].tolist()
    )


def test_run_publishes_what_the_command_line_does_and_load_reads_it(
    tmp_path, monkeypatch, dask_client
):
    monkeypatch.chdir(tmp_path)
    results = boardsweep.run(JOBS, client=dask_client)
    assert (tmp_path / "results" / "q" / "counts.parquet").is_file()  # relative to the cwd
    counts = results["q"]["counts"]
    assert counts["count_text"].map(int).tolist() == [2, 10, 4, 40, 92, 352]
    assert len(results["w"]["maxima"]) == 40
    again = boardsweep.load("results")
    assert sorted(again) == ["q", "w"]
    pd.testing.assert_frame_equal(again["w"]["maxima"], results["w"]["maxima"])
    # the same config as a file, through the command line: nothing left to compute
    (tmp_path / "c.yaml").write_text(
        "output: results\njobs:\n  - {name: q, problem: nqueens, n: '4..9'}\n"
    )
    done = CliRunner().invoke(cli, ["run", "c.yaml", "--job", "q"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert "nothing to compute" in done.stderr
    plan = boardsweep.plan(JOBS, workers=4)
    assert list(plan["job"]) == ["q", "w"] and (plan["units"] == plan["done"]).all()
    assert (plan["tasks"] == 0).all()


def test_bad_input_raises_with_the_command_lines_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(
        InputError,
        match=r"^count nqueens: 'n': 99 is out of range: expected "
        r"1 <= n <= 32$",
    ):
        boardsweep.count("nqueens", n=99)
    with pytest.raises(InputError, match="expected the arguments queens, rooks, got n"):
        boardsweep.count("queens_rooks", n=3)
    with pytest.raises(
        InputError,
        match=r"^<config>:4: jobs\[0\] \(q\): 'n': expected an "
        r"integer",
    ):
        boardsweep.run({"jobs": [{"name": "q", "problem": "nqueens", "n": "x"}]})
    with pytest.raises(InputError, match="nqueens has no instance set"):
        boardsweep.solve("nqueens", "x.txt")
    with pytest.raises(InputError, match="no such results folder"):
        boardsweep.load("nowhere")
    one = {"jobs": [{"name": "q", "problem": "nqueens", "n": 4}]}
    for call in (boardsweep.run, boardsweep.plan):  # the range of task_seconds and --task-seconds
        with pytest.raises(
            InputError,
            match=r"^'task_seconds': 0.001 is out of range: expected "
            r"0.01 <= task_seconds <= 86400$",
        ):
            call(one, task_seconds=0.001)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_importing_boardsweep_imports_nothing_heavy():
    code = (
        "import sys, boardsweep; heavy = [m for m in ('numba', 'dask', 'pyarrow', 'pandas', "
        "'boardsweep.pipeline') if m in sys.modules]; print(heavy, boardsweep.__version__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("[] ")
