"""Limits before allocation: a size that cannot fit is refused with its estimate (exit 2,
one line, nothing written, no memory taken), and long work says what it will cost."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.conftest import BOARDSWEEP, run_env, start_boardsweep

ESTIMATE = re.compile(
    r"one instance needs about [0-9.]+ [KMGT]?B of memory, more than the "
    r"[0-9.]+ [KMGT]?B a worker may use"
)
OUT_OF_REACH = re.compile(
    r"10 x 10: out of reach: .* at most 9; this one would hold about [0-9.e+]+ states, "
    r"[0-9]+ GB at once, for about [0-9]+ CPU hours \(estimated\)"
)


def _run(tmp_path, *args, env=None):
    started = time.monotonic()
    done = subprocess.run(
        [*BOARDSWEEP, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**run_env(), **(env or {})},
        timeout=120,
    )
    return done, time.monotonic() - started


@pytest.mark.parametrize("problem, n", [("max_rooks", "46340"), ("slant", "46339")])
def test_a_generated_size_too_big_for_memory_is_refused_before_allocating(tmp_path, problem, n):
    """The seeds' ``generate max_rooks --n 46340 --count 2`` reached 6.5 GB: now one line with
    the estimate, exit 2, nothing written, in well under the time an allocation would take."""
    extra = ["--density", "0.3"] if problem == "max_rooks" else []
    done, seconds = _run(
        tmp_path,
        "generate",
        problem,
        "--n",
        n,
        "--count",
        "2",
        "--seed",
        "1",
        *extra,
        "-o",
        "set.parquet",
    )
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert ESTIMATE.search(done.stderr), done.stderr
    assert f"{n} x {n}" in done.stderr
    assert not (tmp_path / "set.parquet").exists()
    assert list(tmp_path.iterdir()) == []
    assert seconds < 60


def test_the_memory_cap_can_be_set_and_sizes_below_it_run(tmp_path):
    args = (
        "generate",
        "max_rooks",
        "--n",
        "300",
        "--count",
        "1",
        "--seed",
        "1",
        "--density",
        "0.3",
        "-o",
        "set.parquet",
    )
    refused, _ = _run(tmp_path, *args, env={"BOARDSWEEP_MEMORY_LIMIT": "1MB"})
    assert refused.returncode == 2, refused.stderr
    assert (
        "300 x 300: one instance needs about 6.48 MB of memory, more than the 1 MB"
        in refused.stderr
    )
    assert "BOARDSWEEP_MEMORY_LIMIT" in refused.stderr
    done, _ = _run(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    assert pq.read_table(tmp_path / "set.parquet").num_rows == 1


def test_a_board_set_with_a_board_too_big_names_that_board(tmp_path):
    """Checked when the set is read, before any cluster starts (the cap lowered to 1 MB, so
    that a 200 x 200 board is too big; the 4 x 4 one alone runs)."""
    table = pa.table(
        {
            "board_id": pa.array([7, 8], pa.int64()),
            "rows": pa.array([4, 200], pa.int32()),
            "cols": pa.array([4, 200], pa.int32()),
            "cells": ["." * 16, "." * 40000],
        }
    )
    pq.write_table(table, tmp_path / "boards.parquet")
    small = {"BOARDSWEEP_MEMORY_LIMIT": "1MB"}
    done, _ = _run(tmp_path, "solve", "max_rooks", "boards.parquet", "-o", "out.parquet", env=small)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert (
        "boards.parquet: board_id 8, 200 x 200: one instance needs about 2.88 MB of "
        "memory, more than the 1 MB a worker may use (BOARDSWEEP_MEMORY_LIMIT sets it)"
        in done.stderr
    ), done.stderr
    assert not (tmp_path / "out.parquet").exists()
    pq.write_table(table.slice(0, 1), tmp_path / "boards.parquet")
    done, _ = _run(tmp_path, "solve", "max_rooks", "boards.parquet", "-o", "out.parquet", env=small)
    assert done.returncode == 0, done.stderr
    assert pq.read_table(tmp_path / "out.parquet").column("max_rooks").to_pylist() == [4]


def test_a_long_judge_says_its_estimate_and_shows_progress_then_stops_on_ctrl_c(tmp_path):
    """``echo 20 | boardsweep judge nqueens`` ran with no output at all: now the estimated
    CPU time first, then progress lines on stderr (stdout stays the seed's output); Ctrl-C
    says that a one-shot command keeps nothing, and leaves no scratch store behind."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    proc = start_boardsweep(
        "judge",
        "nqueens",
        cwd=tmp_path,
        env={**run_env(), "TMPDIR": str(scratch)},
        stdin=subprocess.PIPE,
    )
    proc.stdin.write("20\n")
    proc.stdin.close()
    lines = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            if not line:
                break
            lines.append(line)
            if "% of the estimated work" in line:
                break
        os.killpg(proc.pid, signal.SIGINT)
        rest = proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    text = "".join(lines)
    assert re.search(r"about [0-9.]+ CPU-hours of work estimated", text), text
    assert re.search(r"\d+% of the estimated work, \d+/\d+ tasks, .* elapsed, ETA ", text), text
    assert proc.returncode == 130, text + rest
    assert proc.stdout.read() == ""
    assert "Traceback" not in text + rest
    assert "boardsweep: error: interrupted (SIGINT); nothing of this run was kept\n" in rest
    assert list(scratch.iterdir()) == []


def test_a_killed_one_shot_commands_scratch_store_is_swept_by_the_next(tmp_path):
    scratch = tmp_path / "tmp"
    dead = subprocess.Popen(["true"])
    dead.wait()
    (scratch / f"boardsweep-{dead.pid}-abc").mkdir(parents=True)  # its process was killed
    (scratch / f"boardsweep-{dead.pid}-abc" / "store.sqlite").write_bytes(b"x" * 100)
    (scratch / f"boardsweep-{os.getpid()}-def").mkdir()  # a live process's: kept
    done = subprocess.run(
        [*BOARDSWEEP, "solve", "nqueens", "6"],
        cwd=tmp_path,
        env={**run_env(), "TMPDIR": str(scratch)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (done.returncode, done.stdout) == (0, "4\n"), done.stderr
    assert [p.name for p in scratch.iterdir()] == [f"boardsweep-{os.getpid()}-def"]


def test_a_board_too_large_to_count_is_that_boards_status_not_the_runs_failure(tmp_path):
    """``--counts`` on a set holding a board the counting program cannot hold: exit 0, that
    board ``too_wide`` (or ``too_large`` under a small ``--count-mib``) with null counts and
    its maximum, the others counted exactly (checked against the seeds' DFS)."""
    from boardsweep.solvers.max_rooks import max_rooks_dfs

    small = ["..X.", ".X..", "....", "X..."]
    table = pa.table(
        {
            "board_id": pa.array([1, 2, 3], pa.int64()),
            "rows": pa.array([4, 64, 14], pa.int32()),
            "cols": pa.array([4, 64, 14], pa.int32()),
            "cells": ["".join(small), "." * 64 * 64, "." * 196],
        }
    )
    pq.write_table(table, tmp_path / "boards.parquet")
    done, _ = _run(
        tmp_path,
        "solve",
        "max_rooks",
        "boards.parquet",
        "--counts",
        "--count-mib",
        "1",
        "-o",
        "out.parquet",
    )
    assert done.returncode == 0, done.stderr
    rows = pq.read_table(tmp_path / "out.parquet").to_pylist()
    assert [r["count_status"] for r in rows] == ["counted", "too_wide", "too_large"]
    assert [r["max_rooks"] for r in rows] == [
        max_rooks_dfs([[int(c == "X") for c in line] for line in small]).max_rooks,
        64,
        14,
    ]
    dfs = max_rooks_dfs([[int(c == "X") for c in line] for line in small])
    assert int(rows[0]["placements_text"]) == dfs.placements
    assert int(rows[0]["max_placements_text"]) == dfs.max_placements
    assert rows[1]["placements_text"] is None and rows[2]["placements_text"] is None
    assert rows[1]["count_memory"] is None and rows[2]["count_memory"] > 2**20
    assert rows[0]["count_memory"] is None


def test_every_pattern_of_a_shape_too_big_for_memory_is_refused_with_its_estimates(tmp_path):
    """``{all: ...}`` carries the search's own memory estimate: a shape over the cap is refused
    when the config is read (exit 2, one line), before a cluster starts; the narrow side past
    what the program takes is refused with its estimates, whatever the cap."""
    (tmp_path / "big.yaml").write_text(
        "output: results\njobs:\n"
        "  - {name: a, problem: max_rooks, boards: {all: {rows: [9], cols: [14]}}}\n"
    )
    done, _ = _run(tmp_path, "run", "big.yaml", env={"BOARDSWEEP_MEMORY_LIMIT": "4GB"})
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert re.search(
        r"boards\.all': its largest shape needs about [0-9.]+ GB of memory, more than the "
        r"4 GB a worker may use \(BOARDSWEEP_MEMORY_LIMIT sets it\)",
        done.stderr,
    ), done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.yaml"]
    (tmp_path / "ten.yaml").write_text(
        "output: results\njobs:\n  - {name: a, problem: max_rooks, boards: {all: {rows: 10}}}\n"
    )
    done, _ = _run(tmp_path, "plan", "ten.yaml", env={"BOARDSWEEP_MEMORY_LIMIT": "1TB"})
    assert done.returncode == 2, done.stderr
    assert OUT_OF_REACH.search(done.stderr), done.stderr
