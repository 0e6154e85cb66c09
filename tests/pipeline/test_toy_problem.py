"""The contract's proof: a problem defined under tests/, registered the way a third-party
module is (``BOARDSWEEP_PROBLEMS``), runs through ``run``, ``solve``, ``judge`` and ``report``
as real processes, and nothing in ``pipeline/`` knows it (or any other problem) by name."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys

import pyarrow.parquet as pq

from boardsweep import solvers
from tests.conftest import BOARDSWEEP, ROOT


def _env() -> dict:
    return {
        **os.environ,
        "BOARDSWEEP_PROBLEMS": "tests.toy_rooks",
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "NO_COLOR": "1",
    }


def _boardsweep(*args, stdin=None, cwd=None):
    return subprocess.run(
        [*BOARDSWEEP, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=_env(),
        timeout=600,
    )


def test_a_problem_from_outside_the_package_runs_through_every_command(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        "output: out\ncluster: {kind: local, workers: 1}\n"
        'jobs:\n  - {name: r, problem: toy_rooks, n: "1..7"}\n'
    )
    done = _boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    counts = pq.read_table(tmp_path / "out" / "r" / "counts.parquet")
    assert counts.column("count_text").to_pylist() == [str(math.factorial(n)) for n in range(1, 8)]
    assert counts.column("units").to_pylist() == list(range(1, 8))

    solved = _boardsweep("solve", "toy_rooks", "6")
    assert (solved.returncode, solved.stdout) == (0, "720\n"), solved.stderr
    judged = _boardsweep("judge", "toy_rooks", stdin="5\n")
    assert (judged.returncode, judged.stdout) == (0, "120\n"), judged.stderr
    bad = _boardsweep("judge", "toy_rooks", stdin="5\n6\n")
    assert bad.returncode == 2
    assert bad.stderr == "boardsweep: error: <stdin>:2: expected one line with n\n"
    shown = _boardsweep("report", str(tmp_path / "out"))
    assert shown.returncode == 0, shown.stderr
    assert "== r: n rooks" in shown.stdout and "5040" in shown.stdout
    listed = _boardsweep("solve", "--help")
    assert "toy_rooks" in listed.stdout


def test_without_the_variable_the_toy_is_unknown():
    done = subprocess.run(
        [*BOARDSWEEP, "solve", "toy_rooks", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k != "BOARDSWEEP_PROBLEMS"},
    )
    assert done.returncode == 2 and "No such command 'toy_rooks'" in done.stderr


def test_pipeline_names_no_problem():
    names = set(solvers.names()) | {"toy_rooks", "noop"}
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) + r")\b")
    found = []
    for path in sorted((ROOT / "pipeline").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_solvers_never_import_the_pipeline_dask_or_files():
    offending = []
    for path in sorted((ROOT / "solvers").rglob("*.py")):
        text = path.read_text()
        for word in (
            "import pipeline",
            "from pipeline",
            "boardsweep.pipeline",
            "from boardsweep import pipeline",
            "import dask",
            "from dask",
            "import distributed",
            "from distributed",
            "open(",
            "print(",
        ):
            if word in text:
                offending.append(f"{path.relative_to(ROOT)}: {word}")
    assert offending == []


def test_the_registry_sees_the_toy_only_through_the_variable():
    code = "from boardsweep import solvers; print(sorted(solvers.names()))"
    plain = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "BOARDSWEEP_PROBLEMS"},
    )
    extra = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=_env()
    )
    assert "toy_rooks" not in plain.stdout and "toy_rooks" in extra.stdout
