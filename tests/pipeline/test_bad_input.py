"""Bad input, collected: every kind of malformed input, and the exact line the program prints.

One row per input: the files it writes into a fresh temp folder, the command line, stdin, and
the whole error line, ``{tmp}`` standing for the folder. Every row must exit with status 2, print
that line on stderr (naming the file and line where there is one) and nothing on stdout, and
leave the folder holding only the inputs the row wrote: no output file, no output folder.

An error the program raises (:class:`pipeline.errors.BoardsweepError`) is the only line on
stderr, ``boardsweep: error: ...``; a value click itself rejects (not an integer, not a choice)
ends click's usage text with ``Error: ...``.

A subprocess costs 1 to 3 s of imports, so the rows run in this process through click's
``CliRunner`` against ``pipeline.cli.cli``, which is what ``main`` runs: the same ``_Group``
turns the error into its line and exit status. The rows in :data:`SUBPROCESS` run as real
processes as well, the way a user runs them.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pipeline.cli import cli
from tests.conftest import boardsweep

ERROR = "boardsweep: error: "
JOB = "jobs: [{name: q, problem: nqueens, n: 4}]\n"
BOARD_ROWS = "{tmp}/b.txt:"
PUZZLE_ROWS = "{tmp}/p.txt:"


def config(text: str, line: str, *extra: str):
    """A row running ``boardsweep run`` on the config ``text`` (its output folder: out)."""
    return {"c.yaml": "output: out\n" + text}, ("run", "{tmp}/c.yaml", *extra), None, line


def cfg_error(line: int | None, message: str) -> str:
    where = f":{line}" if line is not None else ""
    return f"{ERROR}{{tmp}}/c.yaml{where}: {message}"


def ingest(problem: str, name: str, text: str | bytes, line: str):
    """A row running ``boardsweep ingest PROBLEM FILE -o out.parquet``."""
    return ({name: text}, ("ingest", problem, "{tmp}/" + name, "-o", "{tmp}/out.parquet"),
            None, line)


def judge(problem: str, stdin: str, line: str):
    return {}, ("judge", problem), stdin, line


def command(*args: str, line: str, files: dict | None = None):
    return files or {}, args, None, line


def board_set(**columns) -> pa.Table:
    return pa.table(columns)


MAX_ROOKS_GEN = "jobs:\n  - name: w\n    problem: max_rooks\n    boards:\n      generate: "
SLANT_GEN = "jobs:\n  - name: s\n    problem: slant\n    puzzles:\n      generate: "
CLUSTER = "cluster:\n  kind: "
SIZE_LINE = "a size line: 'n' or 'rows cols' (integers >= 1), or '0' to end the input"
CLUE = "expected a digit 0-4 or '.'"
M_N = "expected a line 'M N': two non-negative integers (queens, rooks)"

CASES = {
    # ------------------------------------------------------------------ config files
    "yaml-syntax": config(
        "jobs:\n  - name: q\n   problem: nqueens\n",
        cfg_error(4, "malformed YAML: expected <block end>, but found '<block mapping start>'")),
    "yaml-tab": config(
        "jobs:\n  - name: q\n\tproblem: nqueens\n",
        cfg_error(4, "malformed YAML: found character '\\t' that cannot start any token")),
    "yaml-list-after-mapping": config(
        "- 1\n", cfg_error(2, "malformed YAML: expected <block end>, but found '-'")),
    "top-level-list": (
        {"c.yaml": "- {name: q, problem: nqueens, n: 4}\n"}, ("run", "{tmp}/c.yaml"), None,
        cfg_error(None, "expected a mapping with 'jobs' (and optionally 'output', 'cluster')")),
    "empty-config": (
        {"c.yaml": ""}, ("run", "{tmp}/c.yaml"), None,
        cfg_error(None, "expected a mapping with 'jobs' (and optionally 'output', 'cluster')")),
    "config-missing": (
        {}, ("run", "{tmp}/c.yaml"), None,
        cfg_error(None, "cannot read config: No such file or directory")),
    "unknown-top-key": config(
        JOB + "bogus: 1\n",
        cfg_error(3, "config: unknown key 'bogus': expected one of cluster, jobs, output")),
    "no-jobs": config("jobs: []\n", cfg_error(2, "'jobs' must be a non-empty list")),
    "output-not-a-folder": (
        {"c.yaml": "output: 5\n" + JOB}, ("run", "{tmp}/c.yaml"), None,
        cfg_error(1, "'output' must be a folder name")),
    "unknown-job-key": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: 4\n    depth: 3\n",
        cfg_error(6, "jobs[0] (q): unknown key 'depth': expected one of n")),
    "missing-name": config(
        "jobs:\n  - {problem: nqueens, n: 4}\n", cfg_error(3, "jobs[0]: missing key 'name'")),
    "missing-problem": config(
        "jobs:\n  - {name: q, n: 4}\n", cfg_error(3, "jobs[0]: missing key 'problem'")),
    "bad-job-name": config(
        "jobs:\n  - {name: a b, problem: nqueens, n: 4}\n",
        cfg_error(3, "jobs[0]: name 'a b' must be letters, digits, '_', '.' or '-'")),
    "unknown-problem": config(
        "jobs:\n  - name: q\n    problem: chess\n",
        cfg_error(4, "jobs[0] (q): unknown problem 'chess': expected one of max_rooks, nqueens, "
                     "queens_rooks, slant")),
    "duplicate-job": config(
        "jobs:\n  - {name: q, problem: nqueens, n: 4}\n  - {name: q, problem: nqueens, n: 5}\n",
        cfg_error(4, "duplicate job name 'q'")),
    "job-not-selected": config(
        JOB, cfg_error(None, "no job named 'nope': the jobs are q"), "--job", "nope"),
    "n-zero": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: 0\n",
        cfg_error(5, "jobs[0] (q): 'n' = 0 is out of range: expected 1 <= n <= 32")),
    "n-negative": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: -1\n",
        cfg_error(5, "jobs[0] (q): 'n' = -1 is out of range: expected 1 <= n <= 32")),
    "n-not-a-number": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: x\n",
        cfg_error(5, "jobs[0] (q): 'n' must look like \"lo..hi\" with integers, not 'x'")),
    "n-too-large": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: \"4..40\"\n",
        cfg_error(5, "jobs[0] (q): 'n' = 33 is out of range: expected 1 <= n <= 32")),
    "n-range-empty": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: \"8..4\"\n",
        cfg_error(5, "jobs[0] (q): 'n' range '8..4' is empty (lo > hi)")),
    "n-float": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: 4.5\n",
        cfg_error(5, "jobs[0] (q): 'n' must be an integer, a \"lo..hi\" range or a list, "
                     "not 4.5")),
    "total-and-pairs": config(
        "jobs:\n  - name: q\n    problem: queens_rooks\n    total: 4\n    pairs: [[1, 2]]\n",
        cfg_error(5, "jobs[0] (q): expected exactly one of 'total' (M + N values) or 'pairs' "
                     "([M, N] list)")),
    "pairs-negative": config(
        "jobs:\n  - name: q\n    problem: queens_rooks\n    pairs: [[1, -2]]\n",
        cfg_error(5, "jobs[0] (q): N (rooks) must be a non-negative integer, not -2")),
    "solutions-not-enumerated": config(
        "jobs:\n  - name: q\n    problem: queens_rooks\n    total: 4\n    solutions: true\n",
        cfg_error(6, "jobs[0] (q): 'solutions' must be true or false, and only problems that "
                     "enumerate solutions accept it")),
    "cluster-unknown-kind": config(
        CLUSTER + "cloud\n" + JOB,
        cfg_error(3, "cluster: unknown kind 'cloud': expected one of local, address, "
                     "scheduler-file, slurm")),
    "cluster-workers-text": config(
        CLUSTER + "local\n  workers: two\n" + JOB,
        cfg_error(4, "cluster: 'workers' must be a positive integer, not 'two'")),
    "cluster-workers-zero": config(
        CLUSTER + "local\n  workers: 0\n" + JOB,
        cfg_error(4, "cluster: 'workers' must be a positive integer, not 0")),
    "cluster-missing-address": config(
        CLUSTER + "address\n" + JOB, cfg_error(3, "cluster (kind address): missing key 'address'")),
    "cluster-unknown-key": config(
        CLUSTER + "address\n  address: tcp://h:8786\n  workers: 2\n" + JOB,
        cfg_error(5, "cluster (kind address): unknown key 'workers': expected one of address, "
                     "timeout")),
    "cluster-not-a-mapping": config(
        "cluster: local\n" + JOB,
        cfg_error(2, "'cluster' must be a mapping like {kind: local, workers: 2}")),
    "ingest-file-missing": config(
        "jobs:\n  - name: w\n    problem: max_rooks\n    boards: {ingest: none.txt}\n",
        cfg_error(5, "jobs[0] (w): 'boards': ingest file {tmp}/none.txt does not exist")),
    "ingest-file-malformed": (
        {"c.yaml": "jobs:\n  - name: w\n    problem: max_rooks\n    boards: {ingest: b.txt}\n",
         "b.txt": "2\n..\n.Y\n0\n"},
        ("run", "{tmp}/c.yaml", "--output", "{tmp}/out"), None,
        f"{ERROR}{BOARD_ROWS}3: row 2 of board 1, column 2: expected '.' (open) or 'X' (wall), "
        "got 'Y'"),
    "parquet-source-is-text": (
        {"c.yaml": "output: out\njobs:\n  - name: s\n    problem: slant\n"
                   "    puzzles: {parquet: p.txt}\n",
         "p.txt": "1\n1\n..\n..\n"},
        ("run", "{tmp}/c.yaml"), None,
        cfg_error(5, "jobs[0] (s): 'puzzles': {tmp}/p.txt is not a Parquet file (seed-format "
                     "text goes in {ingest: FILE})")),
    "generate-density-above-1": config(
        MAX_ROOKS_GEN + "{n: 4, density: 1.5, count: 3, seed: 1}\n",
        cfg_error(6, "jobs[0] (w): 'density' = 1.5 is out of range: expected 0 <= density <= 1")),
    "generate-density-below-0": config(
        MAX_ROOKS_GEN + "\n        n: 4\n        density: -0.1\n        count: 3\n"
                        "        seed: 1\n",
        cfg_error(8, "jobs[0] (w): 'density' = -0.1 is out of range: expected "
                     "0 <= density <= 1")),
    "generate-n-zero": config(
        MAX_ROOKS_GEN + "{n: 0, density: 0.5, count: 3, seed: 1}\n",
        cfg_error(6, "jobs[0] (w): 'n' = 0 is out of range: expected 1 <= n <= 46340")),
    "generate-count-negative": config(
        MAX_ROOKS_GEN + "{n: 4, density: 0.5, count: -1, seed: 1}\n",
        cfg_error(6, "jobs[0] (w): 'count' = -1 is out of range: expected 1 <= count")),
    "generate-unknown-key": config(
        MAX_ROOKS_GEN + "{n: 4, density: 0.5, count: 3, seed: 1, size: 9}\n",
        cfg_error(6, "jobs[0] (w): unknown key 'size': expected one of count, density, n, seed")),
    "generate-missing-density": config(
        MAX_ROOKS_GEN + "{n: 4, count: 3, seed: 1}\n",
        cfg_error(5, "jobs[0] (w): missing key 'density'")),
    "slant-generate-n-zero": config(
        SLANT_GEN + "{n: 0, count: 3, seed: 1}\n",
        cfg_error(6, "jobs[0] (s): 'n' = 0 is out of range: expected n >= 1")),
    "slant-generate-count-negative": config(
        SLANT_GEN + "{n: 5, count: -2, seed: 1}\n",
        cfg_error(6, "jobs[0] (s): 'count' = -2 is out of range: expected count >= 1")),
    "slant-generate-unknown-key": config(
        SLANT_GEN + "\n        n: 5\n        count: 2\n        seed: 1\n        density: 1.5\n",
        cfg_error(10, "jobs[0] (s): unknown key 'density': expected one of count, n, rows, "
                      "seed")),
    # ------------------------------------------------------------------ board files (UVa 639)
    "board-row-length": ingest(
        "max_rooks", "b.txt", "2\n..\n...\n0\n",
        f"{ERROR}{BOARD_ROWS}3: row 2 of board 1 has 3 cells, expected 2"),
    "board-bad-char": ingest(
        "max_rooks", "b.txt", "2\n..\n.Y\n0\n",
        f"{ERROR}{BOARD_ROWS}3: row 2 of board 1, column 2: expected '.' (open) or 'X' (wall), "
        "got 'Y'"),
    "board-too-few-rows": ingest(
        "max_rooks", "b.txt", "3\n...\n...\n0\n",
        f"{ERROR}{BOARD_ROWS}4: row 3 of board 1 has 1 cells, expected 3 ('0' looks like a size "
        "line: does board 1 have only 2 of its 3 rows?)"),
    "board-too-many-rows": ingest(
        "max_rooks", "b.txt", "2\n..\n..\n..\n0\n",
        f"{ERROR}{BOARD_ROWS}4: expected {SIZE_LINE}, got '..'"),
    "board-empty-file": ingest(
        "max_rooks", "b.txt", "",
        f"{ERROR}{BOARD_ROWS}1: unexpected end of input: expected {SIZE_LINE} (the input must "
        "end with a line '0')"),
    "board-size-not-integer": ingest(
        "max_rooks", "b.txt", "four\n....\n0\n", f"{ERROR}{BOARD_ROWS}1: expected {SIZE_LINE}, "
                                                 "got 'four'"),
    "board-size-negative": ingest(
        "max_rooks", "b.txt", "-2\n..\n..\n0\n",
        f"{ERROR}{BOARD_ROWS}1: board size must be >= 1, got '-2'"),
    "board-no-final-zero": ingest(
        "max_rooks", "b.txt", "2\n..\n..\n",
        f"{ERROR}{BOARD_ROWS}3: unexpected end of input: expected {SIZE_LINE} (the input must "
        "end with a line '0')"),
    "board-after-final-zero": ingest(
        "max_rooks", "b.txt", "1\n.\n0\n1\n",
        f"{ERROR}{BOARD_ROWS}4: expected nothing after the terminating '0', got '1'"),
    "board-not-text": ingest(
        "max_rooks", "b.txt", b"\xff\xfe\x00", f"{ERROR}{{tmp}}/b.txt: not a text file"),
    # ------------------------------------------------------------------ puzzle files (UVa 11694)
    "puzzle-row-length": ingest(
        "slant", "p.txt", "1\n2\n...\n..\n...\n",
        f"{ERROR}{PUZZLE_ROWS}4: case 1: expected a row of 3 characters (one per grid point: "
        "0-4 or '.'), found 2 in '..'"),
    "puzzle-bad-char": ingest(
        "slant", "p.txt", "1\n2\n...\n.x.\n...\n",
        f"{ERROR}{PUZZLE_ROWS}4: case 1: unexpected character 'x' at column 2: {CLUE}"),
    "puzzle-clue-5": ingest(
        "slant", "p.txt", "1\n2\n...\n.5.\n...\n",
        f"{ERROR}{PUZZLE_ROWS}4: case 1: clue 5 is above 4 at column 2: {CLUE}"),
    "puzzle-too-few-rows": ingest(
        "slant", "p.txt", "1\n2\n...\n...\n",
        f"{ERROR}{PUZZLE_ROWS}4: case 1: expected 3 rows of clues, found 2"),
    "puzzle-fewer-cases-than-T": ingest(
        "slant", "p.txt", "2\n2\n...\n...\n...\n",
        f"{ERROR}{PUZZLE_ROWS}5: expected 2 cases (T = 2), found 1"),
    "puzzle-more-cases-than-T": ingest(
        "slant", "p.txt", "1\n1\n..\n..\n1\n..\n..\n",
        f"{ERROR}{PUZZLE_ROWS}5: T = 1 but more input follows: expected 1 cases"),
    "puzzle-empty-file": ingest(
        "slant", "p.txt", "\n\n",
        f"{ERROR}{{tmp}}/p.txt: empty input: expected the number of cases T"),
    "puzzle-T-not-integer": ingest(
        "slant", "p.txt", "two\n",
        f"{ERROR}{PUZZLE_ROWS}1: expected the number of cases T (an integer >= 0), found 'two'"),
    "puzzle-size-zero": ingest(
        "slant", "p.txt", "1\n0\n.\n",
        f"{ERROR}{PUZZLE_ROWS}2: case 1: expected the grid size 'n' or 'rows cols' (integers "
        ">= 1), found '0'"),
    # ------------------------------------------------------------------ judge input on stdin
    "judge-nqueens-not-integer": judge(
        "nqueens", "x\n", f"{ERROR}<stdin>:1: expected one integer n (the board size), not 'x'"),
    "judge-nqueens-zero": judge(
        "nqueens", "0\n", f"{ERROR}<stdin>:1: n = 0 is out of range: expected 1 <= n <= 32"),
    "judge-nqueens-empty": judge(
        "nqueens", "", f"{ERROR}<stdin>: expected one integer n (the board size), found no input"),
    "judge-nqueens-two-lines": judge(
        "nqueens", "4\n5\n", f"{ERROR}<stdin>:2: expected nothing after n, found '5'"),
    "judge-queens-rooks-one-number": judge(
        "queens_rooks", "3 1\n3\n", f"{ERROR}<stdin>:2: {M_N}, not '3'"),
    "judge-queens-rooks-negative": judge(
        "queens_rooks", "-1 2\n", f"{ERROR}<stdin>:1: {M_N}, not M = -1, N = 2"),
    "judge-queens-rooks-too-large": judge(
        "queens_rooks", "30 5\n",
        f"{ERROR}<stdin>:1: M + N = 35 is too large: expected M + N <= 32"),
    "judge-max-rooks-bad-char": judge(
        "max_rooks", "1\n.\n2\n.#\n..\n0\n",
        f"{ERROR}<stdin>:4: row 1 of board 2, column 2: expected '.' (open) or 'X' (wall), "
        "got '#'"),
    "judge-slant-clue-5": judge(
        "slant", "1\n2\n...\n.5.\n...\n",
        f"{ERROR}<stdin>:4: case 1: clue 5 is above 4 at column 2: {CLUE}"),
    # ------------------------------------------------------------------ command-line values
    "solve-nqueens-zero": command(
        "solve", "nqueens", "0",
        line=f"{ERROR}nqueens: 'n' = 0 is out of range: expected 1 <= n <= 32"),
    "solve-nqueens-negative": command(
        "solve", "nqueens", "-3",
        line=f"{ERROR}nqueens: 'n' = -3 is out of range: expected 1 <= n <= 32"),
    "solve-nqueens-not-integer": command(
        "solve", "nqueens", "abc",
        line="Error: Invalid value for 'N': 'abc' is not a valid integer."),
    "solve-nqueens-too-large": command(
        "solve", "nqueens", "33", "--solutions", "{tmp}/out.parquet",
        line=f"{ERROR}nqueens: 'n' = 33 is out of range: expected 1 <= n <= 32"),
    "solve-queens-rooks-negative": command(
        "solve", "queens_rooks", "-1", "2",
        line=f"{ERROR}queens_rooks: M (queens) must be a non-negative integer, not -1"),
    "solve-queens-rooks-too-large": command(
        "solve", "queens_rooks", "20", "20",
        line=f"{ERROR}queens_rooks: M + N = 40 is out of range: expected 1 <= M + N <= 32"),
    "workers-zero": command(
        "solve", "nqueens", "8", "--workers", "0",
        line="Error: Invalid value for '--workers': 0 is not in the range x>=1."),
    "generate-slant-n-zero": command(
        "generate", "slant", "--n", "0", "--count", "3", "-o", "{tmp}/out.parquet",
        line=f"{ERROR}slant: 'n' = 0 is out of range: expected n >= 1"),
    "generate-slant-count-negative": command(
        "generate", "slant", "--n", "5", "--count", "-1", "-o", "{tmp}/out.parquet",
        line=f"{ERROR}slant: 'count' = -1 is out of range: expected count >= 1"),
    "generate-max-rooks-density": command(
        "generate", "max_rooks", "--n", "4", "--density", "1.5", "--count", "3", "-o",
        "{tmp}/out.parquet",
        line=f"{ERROR}max_rooks: 'density' = 1.5 is out of range: expected 0 <= density <= 1"),
    "generate-max-rooks-count-zero": command(
        "generate", "max_rooks", "--n", "4", "--density", "0.5", "--count", "0", "-o",
        "{tmp}/out.parquet",
        line=f"{ERROR}max_rooks: 'count' = 0 is out of range: expected 1 <= count"),
    "ingest-unknown-problem": command(
        "ingest", "chess", "{tmp}/b.txt", "-o", "{tmp}/out.parquet", files={"b.txt": "0\n"},
        line="Error: Invalid value for 'PROBLEM': 'chess' is not one of 'max_rooks', 'slant'."),
    "solve-board-file-missing": command(
        "solve", "max_rooks", "{tmp}/none.txt", "-o", "{tmp}/res/out.parquet",
        line=f"{ERROR}{{tmp}}/none.txt: cannot read: No such file or directory"),
    "solve-puzzle-file-malformed": command(
        "solve", "slant", "{tmp}/p.txt", "-o", "{tmp}/res/out.parquet",
        files={"p.txt": "1\n2\n...\n.5.\n...\n"},
        line=f"{ERROR}{PUZZLE_ROWS}4: case 1: clue 5 is above 4 at column 2: {CLUE}"),
    "parquet-not-a-board-set": command(
        "solve", "max_rooks", "{tmp}/puzzles.parquet", "-o", "{tmp}/out.parquet",
        files={"puzzles.parquet": board_set(puzzle_id=[0], rows=[1], cols=[1],
                                            clues=["1..."])},
        line=f"{ERROR}{{tmp}}/puzzles.parquet: not a boards set: missing column(s) board_id, "
             "cells (expected board_id, rows, cols, cells)"),
    "parquet-board-bad-cell": command(
        "solve", "max_rooks", "{tmp}/b.parquet", "-o", "{tmp}/out.parquet",
        files={"b.parquet": board_set(board_id=[7, 8], rows=[1, 2], cols=[1, 2],
                                      cells=[".", "..Z."])},
        line=f"{ERROR}{{tmp}}/b.parquet: board_id 8: cells may hold only '.X'"),
    "parquet-board-short-cells": command(
        "solve", "max_rooks", "{tmp}/b.parquet", "-o", "{tmp}/out.parquet",
        files={"b.parquet": board_set(board_id=[7, 8], rows=[1, 2], cols=[1, 2],
                                      cells=[".", "..X"])},
        line=f"{ERROR}{{tmp}}/b.parquet: board 8: 3 cells for 2 x 2"),
    "parquet-puzzle-short-clues": command(
        "solve", "slant", "{tmp}/p.parquet", "-o", "{tmp}/out.parquet",
        files={"p.parquet": board_set(puzzle_id=[2, 3], rows=[1, 2], cols=[1, 2],
                                      clues=["1...", "1..."])},
        line=f"{ERROR}{{tmp}}/p.parquet: puzzle 3: 4 clue points for 2 x 2 cells (expected 9)"),
    "parquet-puzzle-no-cells": command(
        "solve", "slant", "{tmp}/p.parquet", "-o", "{tmp}/out.parquet",
        files={"p.parquet": board_set(puzzle_id=[5], rows=[0], cols=[1], clues=[".."])},
        line=f"{ERROR}{{tmp}}/p.parquet: puzzle 5: 0 x 1 cells: a puzzle needs at least one "
             "row and one column"),
    "report-no-results": command(
        "report", "{tmp}/results", files={"results/notes.txt": "nothing yet\n"},
        line=f"{ERROR}{{tmp}}/results: no job results found (expected <job>/counts.parquet)"),
}

# rows that also run as real processes: one per input route (config, file, stdin, argument,
# Parquet) and one click usage error
SUBPROCESS = ["yaml-syntax", "board-bad-char", "judge-queens-rooks-negative",
              "solve-nqueens-not-integer", "parquet-not-a-board-set", "ingest-file-malformed"]


def _fill(value: str, tmp: Path) -> str:
    return value.replace("{tmp}", str(tmp))


def _write_inputs(files: dict, tmp: Path) -> set[str]:
    """Write the row's input files; return every path now under ``tmp`` (relative)."""
    for name, content in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, pa.Table):
            pq.write_table(content, path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_fill(content, tmp))
    return _listing(tmp)


def _listing(tmp: Path) -> set[str]:
    return {str(p.relative_to(tmp)) for p in tmp.rglob("*")}


def _check(tmp: Path, args: list[str], inputs: set[str], code: int, stdout: str, stderr: str,
           line: str) -> None:
    assert code == 2, stderr
    assert stdout == ""
    if line.startswith("Error: "):  # click's usage text, its error last
        assert stderr.startswith("Usage: boardsweep ") and stderr.endswith(f"\n\n{line}\n")
    else:
        assert stderr == line + "\n"
    for flag in ("-o", "--output", "--solutions"):
        if flag in args:
            assert not Path(args[args.index(flag) + 1]).exists()
    assert not (tmp / "out").exists()  # every config's output folder
    assert _listing(tmp) == inputs


def test_at_least_32_cases_and_no_duplicate_inputs():
    assert len(CASES) >= 32
    assert len({(repr(files), args, stdin) for files, args, stdin, _ in CASES.values()}) == len(
        CASES)


@pytest.mark.parametrize("name", CASES)
def test_bad_input_in_process(name, tmp_path):
    files, args, stdin, line = CASES[name]
    inputs = _write_inputs(files, tmp_path)
    args = [_fill(a, tmp_path) for a in args]
    result = CliRunner().invoke(cli, args, input=stdin, prog_name="boardsweep",
                                catch_exceptions=False)
    _check(tmp_path, args, inputs, result.exit_code, result.stdout, result.stderr,
           _fill(line, tmp_path))


@pytest.mark.parametrize("name", SUBPROCESS)
def test_bad_input_as_a_real_process(name, tmp_path):
    files, args, stdin, line = CASES[name]
    inputs = _write_inputs(files, tmp_path)
    args = [_fill(a, tmp_path) for a in args]
    done = boardsweep(*args, stdin=stdin, cwd=tmp_path)
    _check(tmp_path, args, inputs, done.returncode, done.stdout, done.stderr,
           _fill(line, tmp_path))
