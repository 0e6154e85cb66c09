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
from tests.conftest import BOARDSWEEP, ROOT, boardsweep


def _env() -> dict:
    return {
        **os.environ,
        "BOARDSWEEP_PROBLEMS": "tests.toy_rooks",
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "NO_COLOR": "1",
    }


def _boardsweep(*args, stdin=None, cwd=None):
    return boardsweep(*args, stdin=stdin, cwd=cwd, env=_env())


def test_a_problem_from_outside_the_package_runs_through_every_command(tmp_path, write_config):
    config = write_config(
        "output: out\ncluster: {kind: local, workers: 1}\n"
        'jobs:\n  - {name: r, problem: toy_rooks, n: "1..7"}\n',
        "c.yaml",
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


# ------------------------------------------------------------------ the toy instance problem

TOY_BOARDS = """2
2 3
.#.
..#
3 3
...
...
...
"""


def _boards_env() -> dict:
    return {**_env(), "BOARDSWEEP_PROBLEMS": "tests.toy_boards"}


def _most_by_subsets(rows: int, cols: int, cells: str) -> tuple[int, int]:
    """The toy's answer by a second method: every set of open cells, kept if no two share a
    row or a column (it shares no code with tests.toy_boards.most_rooks)."""
    from itertools import combinations

    open_cells = [(i // cols, i % cols) for i, c in enumerate(cells) if c == "."]
    for k in range(min(rows, cols), -1, -1):
        ways = sum(
            1
            for chosen in combinations(open_cells, k)
            if len({r for r, _ in chosen}) == k and len({c for _, c in chosen}) == k
        )
        if ways:
            return k, ways
    return 0, 1


def test_the_toy_solver_agrees_with_every_subset_of_cells():
    import random

    from tests.toy_boards import most_rooks

    rng = random.Random(4)
    for _ in range(300):
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        cells = "".join(rng.choice(".#.") for _ in range(rows * cols))
        assert most_rooks(rows, cols, cells) == _most_by_subsets(rows, cols, cells), cells


def test_an_instance_problem_from_outside_the_package_runs_through_every_command(tmp_path):
    """Generated and ingested sets through run, a file through solve, generate, judge and
    report, each a real process with the toy registered only by BOARDSWEEP_PROBLEMS."""
    env = _boards_env()

    def boardsweep(*args, stdin=None):
        return subprocess.run(
            [*BOARDSWEEP, *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=600,
        )

    (tmp_path / "boards.txt").write_text(TOY_BOARDS)
    (tmp_path / "c.yaml").write_text(
        "output: out\ncluster: {kind: local, workers: 1}\njobs:\n"
        "  - {name: made, problem: toy_boards, boards: {generate: {n: [2, 3], count: 50}}}\n"
        "  - {name: read, problem: toy_boards, boards: {ingest: boards.txt}}\n"
    )
    done = boardsweep("run", "c.yaml")
    assert done.returncode == 0, done.stderr
    made = pq.read_table(tmp_path / "out" / "made" / "most.parquet").to_pylist()
    assert len(made) == 100 and {row["rows"] for row in made} == {2, 3}
    read = pq.read_table(tmp_path / "out" / "read" / "most.parquet").to_pylist()
    assert [(r["most_rooks"], r["placements_text"]) for r in read] == [(2, "3"), (3, "6")]

    generated = boardsweep("generate", "toy_boards", "--n", "3", "--count", "40", "-o", "g.parquet")
    assert generated.returncode == 0, generated.stderr
    boards = pq.read_table(tmp_path / "g.parquet").to_pylist()
    assert len(boards) == 40
    solved = boardsweep("solve", "toy_boards", "g.parquet", "-o", "s.parquet")
    assert solved.returncode == 0, solved.stderr
    for board, row in zip(boards, pq.read_table(tmp_path / "s.parquet").to_pylist(), strict=True):
        expected = _most_by_subsets(board["rows"], board["cols"], board["cells"])
        assert (row["most_rooks"], int(row["placements_text"])) == expected
    # the same boards as the run's first 40 of 3x3: each a function of (seed, shape, index)
    first = [r for r in made if r["rows"] == 3 and r["board_id"] < 40]
    assert first == pq.read_table(tmp_path / "s.parquet").to_pylist()

    judged = boardsweep("judge", "toy_boards", stdin=TOY_BOARDS)
    assert (judged.returncode, judged.stdout) == (0, "2 3\n3 6\n"), judged.stderr
    bad = boardsweep("judge", "toy_boards", stdin="1\n2 2\n..\n")
    assert bad.returncode == 2
    assert bad.stderr == "boardsweep: error: <stdin>:2: board 0: expected 2 rows of cells\n"

    shown = boardsweep("report", "out")
    assert shown.returncode == 0, shown.stderr
    assert "boards by most rooks" in shown.stdout
