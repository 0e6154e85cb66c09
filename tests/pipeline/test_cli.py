"""The command line through real subprocesses: answers on stdout, errors as one line, exit 2."""

from __future__ import annotations

import subprocess
import sys

import click
import pyarrow.parquet as pq

from boardsweep.pipeline import spec
from boardsweep.pipeline.cli import cli
from tests.conftest import ROOT, boardsweep
from tests.oeis import A000170


def test_solve_nqueens_prints_the_count_alone():
    done = boardsweep("solve", "nqueens", "10")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "724\n"


def test_judge_nqueens_matches_the_seed_sample_byte_for_byte():
    sample = (ROOT / "data" / "nqueens_sample.txt").read_text()
    done = boardsweep("judge", "nqueens", stdin=sample)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "data" / "nqueens_sample.out").read_text()


def test_judge_nqueens_n8_lists_92_boards_in_order():
    done = boardsweep("judge", "nqueens", stdin="8\n")
    boards = done.stdout.split("\n\n")
    assert boards[-1] == "" and len(boards) == 93
    assert boards[0].splitlines() == [
        "Q.......",
        "....Q...",
        ".......Q",
        ".....Q..",
        "..Q.....",
        "......Q.",
        ".Q......",
        "...Q....",
    ]


def test_run_with_bad_config_writes_nothing(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        f'output: {tmp_path / "out"}\njobs:\n  - {{name: q, problem: nqueens, n: "4..40"}}\n'
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 2
    assert f"{config}:3: jobs[0] (q): 'n': 40 is out of range" in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / ".boardsweep").exists()


def test_run_unknown_job_name(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("jobs: [{name: q, problem: nqueens, n: 4}]\n")
    done = boardsweep("run", str(config), "--job", "nope", "--output", str(tmp_path / "o"))
    assert done.returncode == 2 and "no job named 'nope': the jobs are q" in done.stderr
    assert not (tmp_path / "o").exists()


def test_run_then_report(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\ncluster: {{kind: local, workers: 2}}\n"
        'jobs:\n  - {name: q, problem: nqueens, n: "1..12", solutions: true}\n'
    )
    done = boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    assert "dashboard:" in done.stderr
    counts = pq.read_table(tmp_path / "out" / "q" / "counts.parquet")
    assert [int(c) for c in counts.column("count").to_pylist()] == list(A000170[:12])
    solutions = pq.read_table(tmp_path / "out" / "q" / "solutions.parquet")
    assert solutions.num_rows == sum(A000170[:12])
    assert sorted(p.name for p in (tmp_path / "out" / "q").iterdir()) == [
        "_boardsweep",
        "counts.parquet",
        "runs.parquet",
        "solutions.parquet",
    ]
    shown = boardsweep("report", str(tmp_path / "out"))
    assert shown.returncode == 0, shown.stderr
    assert "== q" in shown.stdout and "14200" in shown.stdout
    figures = list((tmp_path / "out" / "_report").glob("q-*.png"))
    assert figures and all(f.stat().st_size > 0 for f in figures)
    assert "data:image/png;base64," in (tmp_path / "out" / "_report" / "report.html").read_text()


def test_solve_writes_every_solution(tmp_path):
    out = tmp_path / "sol.parquet"
    done = boardsweep("solve", "nqueens", "9", "--solutions", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "352\n"
    table = pq.read_table(out)
    rows = table.column("solution").to_pylist()
    assert len(rows) == 352 and rows == sorted(rows)


def test_option_ranges_and_choices_are_the_schemas():
    """``--workers``, ``--task-seconds``, ``--verify`` and ``--security`` take their bounds and
    choices from the config keys' fields, read only when click needs them."""
    fields = {
        "workers": spec.CLUSTER_KINDS["local"].fields["workers"],
        "task_seconds": spec.TASK_SECONDS,
        "verify": spec.VERIFY,
        "security": spec.SECURITY,
    }
    seen = set()
    for name in ("run", "plan"):
        for param in cli.commands[name].params:
            if param.name not in fields or (name, param.name) == ("plan", "workers"):
                continue  # plan --workers: workers to plan for, not a local cluster's
            seen.add(param.name)
            validator = fields[param.name].validator
            if isinstance(param.type, click.Choice):
                assert tuple(param.type.choices) == validator.values
            else:
                assert (param.type.min, param.type.max) == (validator.lo, validator.hi), name
    assert seen == set(fields)
    code = (
        "import sys; from boardsweep.pipeline.cli import cli; "
        "print([m for m in ('boardsweep.pipeline.spec', 'numpy') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n", done.stdout  # the fields are read when click needs them
