"""Bad input, collected: every kind of malformed input, and the exact line the program prints.

One row per input: the files it writes into a fresh temp folder, the command line, stdin, and
the whole error line, ``{tmp}`` standing for the folder.  Every row must exit with status 2,
print that line on stderr (naming the file and line where there is one) and nothing on stdout,
and leave the folder holding only the inputs the row wrote: no output file or folder, no
``.boardsweep`` state folder, no lock.

An error the program raises (:class:`pipeline.errors.BoardsweepError`) is the only line on
stderr, ``boardsweep: error: ...``; a value click itself rejects (not an integer, not a choice)
ends click's usage text with ``Error: ...``.

A subprocess costs 1 to 3 s of imports, so the rows run in this process through click's
``CliRunner`` against ``pipeline.cli.cli``, which is what ``main`` runs: the same ``_Group``
turns the error into its line and exit status.  The rows in :data:`SUBPROCESS` run as real
processes as well, the way a user runs them.

The rows of :data:`MOUNTED` write into a folder that is a read-only bind mount or a 64 KiB
tmpfs (full outputs): they need root (CI runs as root, where permission bits stop nothing, so
a read-only mount is the way to refuse a write).  Elsewhere they are skipped, unless
``BOARDSWEEP_REQUIRE_TMPFS=1`` (set by ``.ci/run``), where they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from boardsweep.pipeline.cli import cli
from tests.conftest import boardsweep

ERROR = "boardsweep: error: "
JOB = "jobs: [{name: q, problem: nqueens, n: 4}]\n"
TOP = "a mapping with 'jobs' (and optionally 'output', 'state', 'cluster')"
TOP_KEYS = "cluster, jobs, output, state"
NAME_RULE = "a job name: a letter or digit, then letters, digits, '_', '.' or '-' (at most 64)"
N_SET = 'an integer, a "lo..hi" range or a list of integers (1 <= each <= 32)'
TOTAL_SET = N_SET
SIDES = 'an integer, a "lo..hi" range or a list of integers (1 <= each <= 46340)'
SLANT_SIDES = 'an integer, a "lo..hi" range or a list of integers (1 <= each <= 46339)'
DENSITIES = "a number or a list of numbers (0.0 <= each <= 1.0)"
DENSITY = "a number (0.0 <= value <= 1.0)"
SOURCES = "one of {ingest: ...}, {parquet: ...}, {generate: ...}, {all: ...}"  # walled boards
KINDS = "local, address, scheduler-file, slurm, pbs, sge, lsf, htcondor"
ADDRESS = "expected a scheduler address tcp://HOST:PORT"
TLS = (
    "a tls:// address needs tls_ca_file, tls_cert and tls_key (config keys, or "
    "--tls-ca-file, --tls-cert, --tls-key), or Dask's distributed.comm.tls settings: "
    "tls_ca_file, tls_cert, tls_key not set"
)
PLAIN = (
    "tcp://h:1 is plain TCP: anyone who reaches that scheduler can run code as you. Use a "
    "tls:// address with tls_ca_file, tls_cert and tls_key, or accept plain TCP with "
    "security: none"
)
TLS_TOGETHER = "TLS needs tls_ca_file, tls_cert and tls_key together"
SIZE_LINE = "a size line: 'n' or 'rows cols' (integers >= 1), or '0' to end the input"
CLUE = "expected a digit 0-4 or '.'"
M_N = "expected a line 'M N': two non-negative integers (queens, rooks)"
SEED = "an integer (0 <= value <= 9223372036854775807)"
BOARD_TEXT = "max_rooks seed-format text"
FOLDER_IN_THE_WAY = "cannot write here: {tmp}/f is a file, not a folder"
SLURM_KEYS = (
    "account, allowed_failures, cores, dashboard_address, interface, "
    "job_extra_directives, job_name, job_script_prologue, local_directory, "
    "log_directory, memory, queue, security, task_seconds, timeout, walltime, "
    "workers"
)
PBS_KEYS = SLURM_KEYS.replace("queue, security", "queue, resource_spec, security")
HTCONDOR_KEYS = (
    "allowed_failures, cores, dashboard_address, disk, interface, "
    "job_extra_directives, job_name, job_script_prologue, local_directory, "
    "log_directory, memory, security, task_seconds, timeout, workers"
)
REPEATED = "is listed twice: each value may appear once"
COUNT_MIB_ALONE = "applies only with counts: true (--counts), whose memory per board it caps"


# ----------------------------------------------------------------------------- row makers


def row(files: dict, args: tuple, stdin: str | bytes | None, line: str):
    return files, args, stdin, line


def config(text: str, line: str, *extra: str, files: dict | None = None):
    """``boardsweep run`` on the config ``output: out`` + ``text`` (so ``text`` starts on
    line 2)."""
    return row(
        {"c.yaml": "output: out\n" + text, **(files or {})},
        ("run", "{tmp}/c.yaml", *extra),
        None,
        line,
    )


def raw_config(content: str | bytes, line: str, *extra: str):
    """``boardsweep run`` on a config file of exactly ``content``."""
    return row({"c.yaml": content}, ("run", "{tmp}/c.yaml", *extra), None, line)


def at(line: int | None, message: str, name: str = "c.yaml") -> str:
    """The error line for ``{tmp}/NAME:LINE: message``."""
    where = f":{line}" if line is not None else ""
    return f"{ERROR}{{tmp}}/{name}{where}: {message}"


#: the test job of a problem with an instance set: its name and the key naming its set (the
#: job of any other problem is named q)
SET_JOBS = {"max_rooks": ("w", "boards"), "slant": ("s", "puzzles")}


def job(problem: str, body: str, line: int, message: str, files: dict | None = None):
    """A config with one job (named as in :data:`SET_JOBS`); ``body`` (its own keys, indented
    4) starts on line 5."""
    name = SET_JOBS.get(problem, ("q",))[0]
    return config(
        f"jobs:\n  - name: {name}\n    problem: {problem}\n{body}",
        at(line, f"jobs[0] ({name}): {message}"),
        files=files,
    )


def bad_name(name: str, shown: str):
    """A config whose one job (nqueens) is named ``name`` (as YAML writes it): not a job name,
    which the error line shows as ``shown``."""
    return config(
        f"jobs:\n  - {{name: {name}, problem: nqueens, n: 4}}\n",
        at(3, f"jobs[0]: 'name': expected {NAME_RULE}, not {shown}"),
    )


def cluster_key(kind: str, key: str, value: str, message: str, before: str = ""):
    """A config whose cluster of ``kind`` has ``key: value`` (line 4 + lines of ``before``)."""
    text = f"cluster:\n  kind: {kind}\n{before}  {key}: {value}\n" + JOB
    return config(text, at(4 + before.count("\n"), f"cluster (kind {kind}): '{key}': {message}"))


def ingest(problem: str, name: str, text: str | bytes, line: int | None, message: str):
    """``boardsweep ingest PROBLEM FILE -o out.parquet``, refused with ``message`` at line
    ``line`` of the file ``name`` (which holds ``text``)."""
    return row(
        {name: text},
        ("ingest", problem, "{tmp}/" + name, "-o", "{tmp}/out.parquet"),
        None,
        at(line, message, name),
    )


def judge(problem: str, stdin: str | bytes, line: str):
    return row({}, ("judge", problem), stdin, line)


def command(*args: str, line: str, files: dict | None = None):
    return row(files or {}, args, None, line)


def command_line(text: str, line: str, files: dict | None = None):
    """:func:`command` on the words of ``text``, the command line as a user types it (split at
    spaces: no word of it is empty or holds a space)."""
    return command(*text.split(" "), line=line, files=files)


ONE_BOARD = {"b.txt": "1\n.\n0\n"}  # a board file (seed format) of one board
ONE_PUZZLE = {"p.txt": "1\n1\n..\n..\n"}  # a puzzle file (seed format) of one puzzle
ONE_SET = {"max_rooks": ONE_BOARD, "slant": ONE_PUZZLE}


def under_a_file(text: str, files: dict | None = None):
    """:func:`command_line` on ``text`` and the output ``{tmp}/f/out.parquet``: under
    ``{tmp}/f``, which is a file."""
    return command_line(
        text + " {tmp}/f/out.parquet",
        files={"f": "x\n", **(files or {})},
        line=f"{ERROR}{{tmp}}/f/out.parquet: {FOLDER_IN_THE_WAY}",
    )


def output_is_input(command: str, files: dict):
    """``boardsweep COMMAND {tmp}/NAME -o {tmp}/NAME``: the one file of ``files`` its input and
    its output."""
    (name,) = files
    return command_line(
        f"{command} {{tmp}}/{name} -o {{tmp}}/{name}",
        files=files,
        line=f"{ERROR}{{tmp}}/{name}: is the input file too: choose another output file",
    )


def not_a_job_folder(files: dict):
    """``boardsweep run`` on :data:`JOB` where ``files`` make its folder ``{tmp}/out/q``, which
    is not a boardsweep job folder."""
    return config(
        JOB,
        f"{ERROR}{{tmp}}/out/q: exists but is not a boardsweep job folder (no "
        "_boardsweep/manifest.json): move it away or choose another --output",
        files=files,
    )


# a valid two-board set (ids 7, 8) and a valid two-puzzle set (ids 2, 3), column by column
VALID_BOARDS = {
    "board_id": pa.array([7, 8], pa.int64()),
    "rows": pa.array([1, 2], pa.int32()),
    "cols": pa.array([1, 2], pa.int32()),
    "density": pa.array([None, 0.25], pa.float64()),
    "cells": pa.array([".", "..X."]),
}
VALID_PUZZLES = {
    "puzzle_id": pa.array([2, 3], pa.int64()),
    "rows": pa.array([1, 1], pa.int32()),
    "cols": pa.array([1, 1], pa.int32()),
    "clues": pa.array(["1...", "...."]),
}


def _replaced(valid: dict, columns: dict) -> Callable[[], pa.Table]:
    """A maker of the table ``valid`` with ``columns`` replaced (None: left out; a callable:
    its result)."""

    def make() -> pa.Table:
        out = dict(valid)
        for name, value in columns.items():
            if value is None:
                del out[name]
            else:
                out[name] = value() if callable(value) else value
        return pa.table(out)

    return make


def boards(**columns) -> Callable[[], pa.Table]:
    """A valid two-board Parquet set (ids 7, 8) with ``columns`` replaced (None: left out)."""
    return _replaced(VALID_BOARDS, columns)


def puzzles(**columns) -> Callable[[], pa.Table]:
    """A valid two-puzzle Parquet set (ids 2, 3) with ``columns`` replaced."""
    return _replaced(VALID_PUZZLES, columns)


def solve_set(problem: str, name: str, table, message: str):
    """``boardsweep solve PROBLEM NAME -o out.parquet`` on the set ``table`` written to
    ``name``, refused with ``message`` about ``name``."""
    return command_line(
        f"solve {problem} {{tmp}}/{name} -o {{tmp}}/out.parquet",
        files={name: table},
        line=at(None, message, name),
    )


def solve_boards(table, message: str):
    """:func:`solve_set` of max_rooks on the boards ``table`` as ``b.parquet``."""
    return solve_set("max_rooks", "b.parquet", table, message)


def solve(problem: str, args: str, message: str, files: dict | None = None):
    """``boardsweep solve PROBLEM ARGS`` (:func:`command_line`), refused with
    ``solve PROBLEM: MESSAGE``."""
    return command_line(
        f"solve {problem} {args}", line=f"{ERROR}solve {problem}: {message}", files=files
    )


def set_file(problem: str, source: str, name: str, message: str, files: dict | None = None):
    """A config job of ``problem`` whose set is ``{SOURCE: NAME}`` (line 5), refused with
    ``'SET.SOURCE': {tmp}/NAME: MESSAGE``."""
    key = SET_JOBS[problem][1]
    return job(
        problem,
        f"    {key}: {{{source}: {name}}}\n",
        5,
        f"'{key}.{source}': {{tmp}}/{name}: {message}",
        files=files,
    )


def bad_boards(message: str, **columns):
    """:func:`solve_boards` on the set :func:`boards` makes of ``columns``."""
    return solve_boards(boards(**columns), message)


def bad_puzzles(message: str, **columns):
    """:func:`solve_set` of slant on the set :func:`puzzles` makes of ``columns``, as
    ``p.parquet``."""
    return solve_set("slant", "p.parquet", puzzles(**columns), message)


def set_and_key(problem: str, key: str, message: str):
    """A config job of ``problem`` whose set is a file of one instance (line 5) and that has
    the key ``key`` (line 6), refused with ``message``."""
    files = ONE_SET[problem]
    (name,) = files
    body = f"    {SET_JOBS[problem][1]}: {{ingest: {name}}}\n    {key}\n"
    return job(problem, body, 6, message, files=files)


def generate_max_rooks(n="4", density="0.5", count="3", seed="1", error=""):
    """``boardsweep generate max_rooks`` with these options, refused with
    ``generate max_rooks: ERROR``."""
    return command(
        "generate",
        "max_rooks",
        "--n",
        n,
        "--density",
        density,
        "--count",
        count,
        "--seed",
        seed,
        "-o",
        "{tmp}/out.parquet",
        line=f"{ERROR}generate max_rooks: {error}",
    )


def big_board() -> str:
    """A 3000 x 3000 board with no walls, as seed text (9 MB)."""
    return "3000\n" + ("." * 3000 + "\n") * 3000 + "0\n"


MAX_ROOKS = "jobs:\n  - name: w\n    problem: max_rooks\n    boards:\n"
GEN_OK = {"n": "4", "density": "0.5", "count": "3", "seed": "1"}


def generate_key(key: str, value: str | None, message: str, problem: str = "max_rooks"):
    """A config job generating its set with ``key: value`` (None: key left out); the keys
    are on lines 7.. in the order n, density, count, seed, then any other."""
    keys = dict(GEN_OK) if problem == "max_rooks" else {"n": "4", "count": "3", "seed": "1"}
    if value is None:
        del keys[key]
    else:
        keys[key] = value
    name, set_key = SET_JOBS[problem]
    text = (
        f"jobs:\n  - name: {name}\n    problem: {problem}\n    {set_key}:\n"
        "      generate:\n" + "".join(f"        {k}: {v}\n" for k, v in keys.items())
    )
    line = 6 if value is None else 7 + list(keys).index(key)
    where = f"'{set_key}.generate'" if value is None else None
    return config(text, at(line, f"jobs[0] ({name}): {where + ': ' if where else ''}{message}"))


CASES = {
    # ------------------------------------------------------------------ config files
    "yaml-syntax": config(
        "jobs:\n  - name: q\n   problem: nqueens\n",
        at(4, "malformed YAML: expected <block end>, but found '<block mapping start>'"),
    ),
    "yaml-tab": config(
        "jobs:\n  - name: q\n\tproblem: nqueens\n",
        at(4, "malformed YAML: found character '\\t' that cannot start any token"),
    ),
    "yaml-list-after-mapping": config(
        "- 1\n", at(2, "malformed YAML: expected <block end>, but found '-'")
    ),
    "yaml-two-documents": config(
        "---\n" + JOB,
        at(
            2, "malformed YAML: expected a single document in the stream but found another document"
        ),
    ),
    "yaml-bad-escape": raw_config(
        'output: "\\q"\n' + JOB, at(1, "malformed YAML: found unknown escape character 'q'")
    ),
    "yaml-python-tag": raw_config(
        "output: !!python/object:os.system x\n" + JOB,
        at(
            1,
            "malformed YAML: could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/object:os.system'",
        ),
    ),
    "yaml-duplicate-key": config(
        "jobs:\n  - name: q\n    problem: nqueens\n    n: 4\n    n: 5\n",
        at(6, "duplicate key 'n' (also at line 5)"),
    ),
    "yaml-alias-bomb": raw_config(
        "a: &a [x, x, x, x, x, x, x, x, x]\n"
        + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n"
            for i in range(8)
        ),
        at(1, f"'a': unknown key: expected one of {TOP_KEYS}"),
    ),
    "top-level-list": raw_config(
        "- {name: q, problem: nqueens, n: 4}\n", at(1, f"expected {TOP}, not a list")
    ),
    "top-level-text": raw_config("just some text\n", at(1, f"expected {TOP}, not a string")),
    "empty-config": raw_config("", at(None, f"empty config: expected {TOP}")),
    "config-only-comments": raw_config(
        "# nothing yet\n\n", at(None, f"empty config: expected {TOP}")
    ),
    "config-missing": row(
        {}, ("run", "{tmp}/c.yaml"), None, at(None, "cannot read: No such file or directory")
    ),
    "config-is-a-folder": row(
        {"d/c.yaml": JOB},
        ("run", "{tmp}/d"),
        None,
        "Error: Invalid value for '[CONFIG]': File '{tmp}/d' is a directory.",
    ),
    "config-binary": raw_config(
        bytes(range(256)),
        at(2, "byte 0x80 at column 118 is not UTF-8: expected a YAML config in UTF-8"),
    ),
    "config-utf16": raw_config(
        ("output: out\n" + JOB).encode("utf-16"),
        at(
            1,
            "is UTF-16 text (it starts with a UTF-16 byte-order mark): expected a YAML "
            "config in UTF-8",
        ),
    ),
    "config-utf16-big-endian": raw_config(
        ("\ufeffoutput: out\n" + JOB).encode("utf-16-be"),
        at(
            1,
            "is UTF-16 text (it starts with a UTF-16 byte-order mark): expected a YAML "
            "config in UTF-8",
        ),
    ),
    "config-nul-bytes": raw_config(
        ("output: out\n" + JOB + "\0\n").encode(),
        at(3, "a NUL byte at column 1: not a text file (expected a YAML config)"),
    ),
    "config-latin1": raw_config(
        ("output: out\n# caf\xe9\n" + JOB).encode("latin-1"),
        at(2, "byte 0xe9 at column 6 is not UTF-8: expected a YAML config in UTF-8"),
    ),
    "config-utf8-bom-then-error": raw_config(
        "\ufeffjobs: []\n".encode(), at(1, "'jobs': expected a non-empty list of jobs, got 0 items")
    ),
    "unknown-top-key": config(
        JOB + "bogus: 1\n", at(3, f"'bogus': unknown key: expected one of {TOP_KEYS}")
    ),
    "top-key-not-a-name": raw_config(
        "1: 2\noutput: out\n" + JOB, at(1, f"unknown key 1: expected one of {TOP_KEYS}")
    ),
    "jobs-missing": raw_config(
        "output: out\n", at(1, "missing key 'jobs': expected a non-empty list of jobs")
    ),
    "jobs-empty": config(
        "jobs: []\n", at(2, "'jobs': expected a non-empty list of jobs, got 0 items")
    ),
    "jobs-not-a-list": config(
        "jobs: {name: q}\n", at(2, "'jobs': expected a non-empty list of jobs, not {'name': 'q'}")
    ),
    "jobs-null": config("jobs:\n", at(2, "'jobs': expected a non-empty list of jobs, not None")),
    "output-a-number": raw_config(
        "output: 5\n" + JOB, at(1, "'output': expected a folder name, not 5")
    ),
    "output-a-list": raw_config(
        "output: [a]\n" + JOB, at(1, "'output': expected a folder name, not ['a']")
    ),
    "output-empty": raw_config(
        'output: ""\n' + JOB, at(1, "'output': expected a folder name, not ''")
    ),
    "state-a-number": config("state: 5\n" + JOB, at(2, "'state': expected a folder name, not 5")),
    "plan-bad-config": row(
        {"c.yaml": "jobs: []\n"},
        ("plan", "{tmp}/c.yaml"),
        None,
        at(1, "'jobs': expected a non-empty list of jobs, got 0 items"),
    ),
    "dry-run-bad-config": row(
        {"c.yaml": "jobs: {}\n"},
        ("run", "{tmp}/c.yaml", "--dry-run"),
        None,
        at(1, "'jobs': expected a non-empty list of jobs, not {}"),
    ),
    # ------------------------------------------------------------------ jobs
    "job-not-a-mapping": config(
        "jobs:\n  - q\n", at(3, "jobs[0]: expected a mapping with 'name' and 'problem'")
    ),
    "job-missing-name": config(
        "jobs:\n  - {problem: nqueens, n: 4}\n", at(3, "jobs[0]: missing key 'name'")
    ),
    "job-missing-problem": config(
        "jobs:\n  - {name: q, n: 4}\n", at(3, "jobs[0] (q): missing key 'problem'")
    ),
    "job-unknown-problem": job(
        "chess",
        "",
        4,
        "'problem': unknown problem 'chess': expected one of max_rooks, "
        "nqueens, queens_rooks, slant",
    ),
    "job-problem-not-a-name": job(
        "[nqueens]",
        "",
        4,
        "'problem': unknown problem ['nqueens']: expected one of "
        "max_rooks, nqueens, queens_rooks, slant",
    ),
    "job-name-with-space": bad_name("a b", "'a b'"),
    "job-name-300-characters": bad_name("a" * 300, "a string of 300 characters (at most 64)"),
    "job-name-newline": bad_name('"a\\n"', "'a\\n'"),
    "job-name-underscore": bad_name("_a", "'_a'"),
    "job-name-dot": bad_name(".a", "'.a'"),
    "job-name-parquet": config(
        "jobs:\n  - {name: a.parquet, problem: nqueens, n: 4}\n",
        at(
            3,
            "jobs[0] (a.parquet): 'name': a job name may not end in .parquet (its folder "
            "would look like a table to Parquet readers)",
        ),
    ),
    "job-name-a-number": bad_name("5", "5"),
    "job-name-empty": bad_name('""', "''"),
    "job-duplicate-name": config(
        "jobs:\n  - {name: q, problem: nqueens, n: 4}\n  - {name: q, problem: nqueens, n: 5}\n",
        at(4, "jobs[1] (q): 'name': duplicate job name 'q' (also jobs[0])"),
    ),
    "job-not-selected": config(
        JOB, at(None, "no job named 'nope': the jobs are q"), "--job", "nope"
    ),
    "job-unknown-key": job(
        "nqueens",
        "    n: 4\n    depth: 3\n",
        6,
        "'depth': unknown key: expected one of n, solutions, unique",
    ),
    # nqueens keys
    "n-zero": job("nqueens", "    n: 0\n", 5, "'n': 0 is out of range: expected 1 <= n <= 32"),
    "n-negative": job(
        "nqueens", "    n: -1\n", 5, "'n': -1 is out of range: expected 1 <= n <= 32"
    ),
    "n-text": job("nqueens", "    n: x\n", 5, f"'n': expected {N_SET}, not 'x'"),
    "n-too-large": job(
        "nqueens", "    n: 40\n", 5, "'n': 40 is out of range: expected 1 <= n <= 32"
    ),
    "n-range-too-large": job(
        "nqueens", '    n: "4..40"\n', 5, "'n': 40 is out of range: expected 1 <= n <= 32"
    ),
    "n-range-empty": job("nqueens", '    n: "8..4"\n', 5, "'n': range '8..4' is empty (lo > hi)"),
    "n-float": job("nqueens", "    n: 4.5\n", 5, f"'n': expected {N_SET}, not 4.5"),
    "n-empty-list": job("nqueens", "    n: []\n", 5, f"'n': is an empty list: expected {N_SET}"),
    "n-range-10-to-the-21": job(
        "nqueens", '    n: "1..10**21"\n', 5, f"'n': expected {N_SET}, not '1..10**21'"
    ),
    "n-range-a-billion": job(
        "nqueens",
        '    n: "1..1000000000"\n',
        5,
        "'n': 1000000000 is out of range: expected 1 <= n <= 32",
    ),
    "n-range-10-to-the-23": job(
        "nqueens",
        '    n: "1..100000000000000000000000"\n',
        5,
        "'n': 100000000000000000000000 is out of range: expected 1 <= n <= 32",
    ),
    "n-repeated": job("nqueens", "    n: [8, 8]\n", 5, f"'n[1]': 8 {REPEATED}"),
    "n-bool": job("nqueens", "    n: true\n", 5, f"'n': expected {N_SET}, not True"),
    "n-null": job("nqueens", "    n:\n", 5, f"'n': expected {N_SET}, not None"),
    "n-mapping": job("nqueens", "    n: {a: 1}\n", 5, f"'n': expected {N_SET}, not {{'a': 1}}"),
    "n-list-with-text": job(
        "nqueens", "    n: [4, x]\n", 5, "'n[1]': expected an integer (1 <= value <= 32), not 'x'"
    ),
    "n-list-too-long": job(
        "nqueens",
        "    n: [" + ", ".join(["1"] * 100_001) + "]\n",
        5,
        "'n': lists 100001 values: at most 100000",
    ),
    "n-missing": job("nqueens", "", 3, f"missing key 'n': expected {N_SET}"),
    "solutions-text": job(
        "nqueens",
        "    n: 4\n    solutions: yes please\n",
        6,
        "'solutions': expected true or false, not 'yes please'",
    ),
    # queens_rooks keys
    "total-repeated": job("queens_rooks", "    total: [4, 4]\n", 5, f"'total[1]': 4 {REPEATED}"),
    "pairs-repeated": job(
        "queens_rooks", "    pairs: [[3, 1], [3, 1]]\n", 5, f"'pairs[1]': [3, 1] {REPEATED}"
    ),
    "total-too-large": job(
        "queens_rooks",
        "    total: 40\n",
        5,
        "'total': 40 is out of range: expected 1 <= total <= 32",
    ),
    "total-zero": job(
        "queens_rooks", "    total: 0\n", 5, "'total': 0 is out of range: expected 1 <= total <= 32"
    ),
    "total-float": job(
        "queens_rooks", "    total: 4.0\n", 5, f"'total': expected {TOTAL_SET}, not 4.0"
    ),
    "total-range-empty": job(
        "queens_rooks", '    total: "8..4"\n', 5, "'total': range '8..4' is empty (lo > hi)"
    ),
    "total-range-a-billion": job(
        "queens_rooks",
        '    total: "1..1000000000"\n',
        5,
        "'total': 1000000000 is out of range: expected 1 <= total <= 32",
    ),
    "pairs-queens-too-many": job(
        "queens_rooks",
        "    pairs: [[40, 1]]\n",
        5,
        "'pairs[0][0]': 40 is out of range: expected 0 <= M <= 32",
    ),
    "pairs-rooks-negative": job(
        "queens_rooks",
        "    pairs: [[1, -2]]\n",
        5,
        "'pairs[0][1]': -2 is out of range: expected 0 <= N <= 32",
    ),
    "pairs-float": job(
        "queens_rooks",
        "    pairs: [[1.5, 2]]\n",
        5,
        "'pairs[0][0]': expected an integer (0 <= M <= 32), not 1.5",
    ),
    "pairs-short": job(
        "queens_rooks",
        "    pairs: [[1]]\n",
        5,
        "'pairs[0]': expected a pair [M, N] of non-negative integers (queens, rooks), not [1]",
    ),
    "pairs-empty": job(
        "queens_rooks",
        "    pairs: []\n",
        5,
        "'pairs': expected a non-empty list of [M, N] pairs, got 0 items",
    ),
    "pairs-a-number": job(
        "queens_rooks",
        "    pairs: 5\n",
        5,
        "'pairs': expected a non-empty list of [M, N] pairs, not 5",
    ),
    "pairs-empty-board": job(
        "queens_rooks",
        "    pairs: [[0, 0]]\n",
        5,
        "'pairs[0]': M + N = 0 is out of range: expected 1 <= M + N <= 32 "
        "(the empty board is not part of a sweep)",
    ),
    "total-and-pairs": job(
        "queens_rooks",
        "    total: 4\n    pairs: [[1, 2]]\n",
        3,
        "expected exactly one of 'total' (board sides M + N) or 'pairs' (a list of [M, N])",
    ),
    "neither-total-nor-pairs": job(
        "queens_rooks",
        "",
        3,
        "expected exactly one of 'total' (board sides M + N) or 'pairs' (a list of [M, N])",
    ),
    "solutions-on-queens-rooks": job(
        "queens_rooks",
        "    total: 4\n    solutions: true\n",
        6,
        "'solutions': unknown key: expected one of lines, pairs, total",
    ),
    # instance sets named in a config
    "boards-missing": job("max_rooks", "", 3, f"missing key 'boards': expected {SOURCES}"),
    "boards-two-sources": job(
        "max_rooks",
        "    boards: {ingest: a, parquet: b}\n",
        5,
        f"'boards': expected {SOURCES}, not {{'ingest': 'a', 'parquet': 'b'}}",
    ),
    "boards-no-source": job(
        "max_rooks", "    boards: {}\n", 5, f"'boards': expected {SOURCES}, not {{}}"
    ),
    "boards-a-file-name": job(
        "max_rooks", "    boards: b.txt\n", 5, f"'boards': expected {SOURCES}, not 'b.txt'"
    ),
    "boards-unknown-source": job(
        "max_rooks",
        "    boards: {download: x}\n",
        5,
        f"'boards': expected {SOURCES}, not {{'download': 'x'}}",
    ),
    "count-mib-zero": job(
        "max_rooks",
        "    count_mib: 0\n    boards: {ingest: b.txt}\n",
        5,
        "'count_mib': 0 is out of range: expected 1 <= count_mib <= 1073741824",
    ),
    "count-mib-text": job(
        "max_rooks",
        "    count_mib: 1GB\n    boards: {ingest: b.txt}\n",
        5,
        "'count_mib': expected an integer (1 <= value <= 1073741824), not '1GB'",
    ),
    "count-mib-without-counts": job(  # it caps counting: alone it would only change task keys
        "max_rooks",
        "    boards: {ingest: b.txt}\n    count_mib: 64\n",
        6,
        f"'count_mib': {COUNT_MIB_ALONE}",
    ),
    "count-mib-with-counts-false": job(
        "max_rooks",
        "    boards: {ingest: b.txt}\n    counts: false\n    count_mib: 64\n",
        7,
        f"'count_mib': {COUNT_MIB_ALONE}",
    ),
    "solve-count-mib-without-counts": solve(
        "max_rooks",
        "{tmp}/b.txt -o {tmp}/out.parquet --count-mib 64",
        f"--count-mib: {COUNT_MIB_ALONE}",
        ONE_BOARD,
    ),
    "generate-job-count-mib-without-counts": job(
        "max_rooks",
        "    boards: {generate: {n: 4, density: 0.3, count: 2, seed: 1}}\n    count_mib: 64\n",
        6,
        f"'count_mib': {COUNT_MIB_ALONE}",
    ),
    "solve-count-mib-negative": solve(
        "max_rooks",
        "{tmp}/b.txt -o {tmp}/out.parquet --counts --count-mib -5",
        "--count-mib: -5 is out of range: expected 1 <= count_mib <= 1073741824",
        ONE_BOARD,
    ),
    "ingest-a-number": job(
        "max_rooks",
        "    boards: {ingest: 5}\n",
        5,
        "'boards.ingest': expected a seed-format text file, not 5",
    ),
    "ingest-file-missing": set_file(
        "max_rooks", "ingest", "none.txt", "cannot read: No such file or directory"
    ),
    "parquet-file-missing": set_file(
        "max_rooks", "parquet", "none.parquet", "cannot read: No such file or directory"
    ),
    "ingest-a-folder": set_file(
        "max_rooks",
        "ingest",
        "d",
        "is a folder: expected a seed-format text file",
        files={"d/b.txt": "0\n"},
    ),
    "ingest-a-parquet-file": set_file(
        "max_rooks",
        "ingest",
        "b.parquet",
        f"is a Parquet file: expected {BOARD_TEXT} (a "
        "Parquet set is read as it is, with {parquet: FILE})",
        files={"b.parquet": boards()},
    ),
    "parquet-a-text-file": set_file(
        "slant",
        "parquet",
        "p.txt",
        "is not a Parquet file (seed-format text goes in {ingest: FILE})",
        files=ONE_PUZZLE,
    ),
    "ingest-no-boards": set_file(
        "max_rooks",
        "ingest",
        "b.txt",
        "holds no boards: a set needs at least one",
        files={"b.txt": "0\n"},
    ),
    "ingest-no-puzzles": set_file(
        "slant",
        "ingest",
        "p.txt",
        "holds no puzzles: a set needs at least one",
        files={"p.txt": "0\n"},
    ),
    "parquet-set-bad-column": set_file(
        "max_rooks",
        "parquet",
        "b.parquet",
        "column 'rows', row 1: null: expected integers (int32)",
        files={"b.parquet": boards(rows=pa.array([1, None], pa.int32()))},
    ),
    "ingest-file-malformed": config(
        MAX_ROOKS + "      ingest: b.txt\n",
        at(3, "row 2 of board 1, column 2: expected '.' (open) or 'X' (wall), got 'Y'", "b.txt"),
        "--output",
        "{tmp}/res",
        files={"b.txt": "2\n..\n.Y\n0\n"},
    ),
    "counts-text": set_and_key(
        "max_rooks", "counts: yes please", "'counts': expected true or false, not 'yes please'"
    ),
    "counts-on-slant": set_and_key(
        "slant", "counts: true", "'counts': unknown key: expected one of puzzles"
    ),
    "solutions-on-slant": set_and_key(
        "slant", "solutions: true", "'solutions': unknown key: expected one of puzzles"
    ),
    # generated sets
    "generate-n-empty": generate_key(
        "n", "[]", f"'boards.generate.n': is an empty list: expected {SIDES}"
    ),
    "generate-density-empty": generate_key(
        "density", "[]", f"'boards.generate.density': is an empty list: expected {DENSITIES}"
    ),
    "generate-density-repeated": generate_key(
        "density", "[0.1, 0.1]", f"'boards.generate.density[1]': 0.1 {REPEATED}"
    ),
    "generate-density-nan": generate_key(
        "density", ".nan", f"'boards.generate.density': expected {DENSITY}, not nan"
    ),
    "generate-density-text": generate_key(
        "density", "lots", f"'boards.generate.density': expected {DENSITY}, not 'lots'"
    ),
    "generate-density-above-1": generate_key(
        "density",
        "1.5",
        "'boards.generate.density': 1.5 is out of range: expected 0.0 <= density <= 1.0",
    ),
    "generate-density-below-0": generate_key(
        "density",
        "-0.1",
        "'boards.generate.density': -0.1 is out of range: expected 0.0 <= density <= 1.0",
    ),
    "generate-n-zero": generate_key(
        "n", "0", "'boards.generate.n': 0 is out of range: expected 1 <= n <= 46340"
    ),
    "generate-n-too-large": generate_key(
        "n", "100000", "'boards.generate.n': 100000 is out of range: expected 1 <= n <= 46340"
    ),
    "generate-n-range-empty": generate_key(
        "n", '"8..4"', "'boards.generate.n': range '8..4' is empty (lo > hi)"
    ),
    "generate-count-too-large": generate_key(
        "count",
        "10000000000000",
        "'boards.generate."
        "count': 10000000000000 is out of range: expected "
        "1 <= count <= 1000000000000",
    ),
    "generate-count-negative": generate_key(
        "count",
        "-1",
        "'boards.generate.count': -1 is out of range: expected 1 <= count <= 1000000000000",
    ),
    "generate-seed-negative": generate_key(
        "seed",
        "-1",
        "'boards.generate.seed': -1 is out of range: expected 0 <= seed <= 9223372036854775807",
    ),
    "generate-seed-missing": generate_key("seed", None, f"missing key 'seed': expected {SEED}"),
    "generate-density-missing": generate_key(
        "density", None, f"missing key 'density': expected {DENSITIES}"
    ),
    "generate-unknown-key": generate_key(
        "size",
        "9",
        "'boards.generate.size': unknown key: expected one of count, density, n, rows, seed",
    ),
    "generate-rows-repeated": generate_key(
        "rows", "[3, 3]", f"'boards.generate.rows[1]': 3 {REPEATED}"
    ),
    "generate-not-a-mapping": config(
        MAX_ROOKS + "      generate: 5\n",
        at(
            6,
            "jobs[0] (w): 'boards.generate': expected a mapping with n, density, count, seed "
            "(and rows), not 5",
        ),
    ),
    "slant-generate-density": generate_key(
        "density",
        "0.5",
        "'puzzles.generate.density': unknown key: expected one of count, difficulty, n, rows, seed",
        "slant",
    ),
    "slant-generate-n-empty": generate_key(
        "n", "[]", f"'puzzles.generate.n': is an empty list: expected {SLANT_SIDES}", "slant"
    ),
    "slant-generate-n-zero": generate_key(
        "n", "0", "'puzzles.generate.n': 0 is out of range: expected 1 <= n <= 46339", "slant"
    ),
    "slant-generate-count-negative": generate_key(
        "count",
        "-2",
        "'puzzles.generate.count': -2 is out of range: expected 1 <= count <= 1000000000000",
        "slant",
    ),
    # ------------------------------------------------------------------ clusters
    "cluster-unknown-kind": config(
        "cluster:\n  kind: cloud\n" + JOB,
        at(3, f"cluster: 'kind': expected one of {KINDS}, not 'cloud'"),
    ),
    "cluster-kind-a-number": config(
        "cluster:\n  kind: 5\n" + JOB, at(3, f"cluster: 'kind': expected one of {KINDS}, not 5")
    ),
    "cluster-not-a-mapping": config(
        "cluster: local\n" + JOB,
        at(2, "cluster: expected a mapping like {kind: local, workers: 2}"),
    ),
    "local-workers-text": cluster_key(
        "local", "workers", "two", "expected an integer (1 <= value <= 4096), not 'two'"
    ),
    "local-workers-zero": cluster_key(
        "local", "workers", "0", "0 is out of range: expected 1 <= workers <= 4096"
    ),
    "local-workers-float": cluster_key(
        "local", "workers", "1.5", "expected an integer (1 <= value <= 4096), not 1.5"
    ),
    "local-workers-bool": cluster_key(
        "local", "workers", "true", "expected an integer (1 <= value <= 4096), not True"
    ),
    "local-threads-per-worker": cluster_key(
        "local", "threads_per_worker", "x", "expected an integer (1 <= value <= 1024), not 'x'"
    ),
    "local-memory-limit": cluster_key(
        "local", "memory_limit", "lots", 'expected a memory size like "4GB" or "auto", not \'lots\''
    ),
    "local-memory-limit-a-number": cluster_key(
        "local", "memory_limit", "4", 'expected a memory size like "4GB" or "auto", not 4'
    ),
    "local-dashboard-address": cluster_key(
        "local", "dashboard_address", "5", "expected an address, not 5"
    ),
    "local-allowed-failures": cluster_key(
        "local",
        "allowed_failures",
        "-1",
        "-1 is out of range: expected 0 <= allowed_failures <= 1000",
    ),
    "local-task-seconds-text": cluster_key(
        "local", "task_seconds", "fast", "expected a number (0.01 <= value <= 86400), not 'fast'"
    ),
    "local-task-seconds-zero": cluster_key(
        "local", "task_seconds", "0", "0 is out of range: expected 0.01 <= task_seconds <= 86400"
    ),
    "local-unknown-key": cluster_key(
        "local",
        "bogus",
        "1",
        "unknown key: expected one of allowed_failures, "
        "dashboard_address, memory_limit, profile, "
        "task_seconds, threads_per_worker, workers",
    ),
    "address-missing": config(
        "cluster:\n  kind: address\n" + JOB,
        at(2, f"cluster (kind address): missing key 'address': {ADDRESS}"),
    ),
    "address-a-number": cluster_key("address", "address", "5", f"{ADDRESS}, not 5"),
    "address-unknown-scheme": cluster_key(
        "address", "address", "foo://h:1", f"{ADDRESS}, not 'foo://h:1'"
    ),
    "address-tls": cluster_key("address", "address", "tls://h:1", TLS),
    "address-no-scheme": cluster_key("address", "address", "h:1", f"{ADDRESS}, not 'h:1'"),
    "address-timeout": cluster_key(
        "address",
        "timeout",
        "soon",
        "expected a number (0.01 <= value <= 604800), not 'soon'",
        "  address: tcp://h:1\n",
    ),
    "address-timeout-negative": cluster_key(
        "address",
        "timeout",
        "-1",
        "-1 is out of range: expected 0.01 <= timeout <= 604800",
        "  address: tcp://h:1\n",
    ),
    "address-task-seconds": cluster_key(
        "address",
        "task_seconds",
        "[]",
        "expected a number (0.01 <= value <= 86400), not []",
        "  address: tcp://h:1\n",
    ),
    "address-unknown-key": cluster_key(
        "address",
        "workers",
        "2",
        "unknown key: expected one of address, security, "
        "task_seconds, timeout, tls_ca_file, tls_cert, tls_key",
        "  address: tcp://h:1\n",
    ),
    "scheduler-file-missing-path": config(
        "cluster:\n  kind: scheduler-file\n" + JOB,
        at(2, "cluster (kind scheduler-file): missing key 'path': expected a scheduler file path"),
    ),
    "scheduler-file-path-a-number": cluster_key(
        "scheduler-file", "path", "5", "expected a scheduler file path, not 5"
    ),
    "scheduler-file-path-empty": cluster_key(
        "scheduler-file", "path", '""', "expected a scheduler file path, not ''"
    ),
    "scheduler-file-timeout": cluster_key(
        "scheduler-file",
        "timeout",
        "x",
        "expected a number (0.01 <= value <= 604800), not 'x'",
        "  path: s.json\n",
    ),
    "scheduler-file-task-seconds": cluster_key(
        "scheduler-file",
        "task_seconds",
        "-5",
        "-5 is out of range: expected 0.01 <= task_seconds <= 86400",
        "  path: s.json\n",
    ),
    "scheduler-file-unknown-key": cluster_key(
        "scheduler-file",
        "address",
        "tcp://h:1",
        "unknown key: expected one of path, security, "
        "task_seconds, timeout, tls_ca_file, tls_cert, "
        "tls_key",
        "  path: s.json\n",
    ),
    "slurm-workers": cluster_key(
        "slurm", "workers", "x", "expected an integer (1 <= value <= 100000), not 'x'"
    ),
    "slurm-cores": cluster_key(
        "slurm", "cores", "0", "0 is out of range: expected 1 <= cores <= 1024"
    ),
    "slurm-memory": cluster_key(
        "slurm", "memory", "5", 'expected a memory size like "4GB" or "auto", not 5'
    ),
    "slurm-walltime": cluster_key(
        "slurm", "walltime", "2h", "expected a walltime like \"02:00:00\" (quoted), not '2h'"
    ),
    "slurm-walltime-sexagesimal": cluster_key(
        "slurm", "walltime", "1:00:00", 'expected a walltime like "02:00:00" (quoted), not 3600'
    ),
    "slurm-queue": cluster_key("slurm", "queue", "5", "expected a non-empty string, not 5"),
    "slurm-account": cluster_key("slurm", "account", "[]", "expected a non-empty string, not []"),
    "slurm-job-name": cluster_key("slurm", "job_name", '""', "expected a non-empty string, not ''"),
    "slurm-job-extra-directives": cluster_key(
        "slurm", "job_extra_directives", "x", "expected a list of strings, not 'x'"
    ),
    "slurm-job-extra-directive-not-a-string": config(
        "cluster:\n  kind: slurm\n  job_extra_directives: [1]\n" + JOB,
        at(4, "cluster (kind slurm): 'job_extra_directives[0]': expected a string, not 1"),
    ),
    "slurm-job-extra": cluster_key(  # dask-jobqueue's name before 0.8: no longer an alias
        "slurm", "job_extra", "[--qos=low]", f"unknown key: expected one of {SLURM_KEYS}"
    ),
    "slurm-job-script-prologue": cluster_key(
        "slurm", "job_script_prologue", "5", "expected a list of strings, not 5"
    ),
    "slurm-local-directory": cluster_key(
        "slurm", "local_directory", "5", "expected a non-empty string, not 5"
    ),
    "slurm-log-directory": cluster_key("slurm", "log_directory", "5", "expected a folder, not 5"),
    "slurm-interface": cluster_key("slurm", "interface", "5", "expected a non-empty string, not 5"),
    "slurm-dashboard-address": cluster_key(
        "slurm", "dashboard_address", "5", "expected a non-empty string, not 5"
    ),
    "slurm-timeout": cluster_key(
        "slurm", "timeout", "x", "expected a number (0.01 <= value <= 604800), not 'x'"
    ),
    "slurm-allowed-failures": cluster_key(
        "slurm", "allowed_failures", "x", "expected an integer (0 <= value <= 1000), not 'x'"
    ),
    "slurm-task-seconds": cluster_key(
        "slurm", "task_seconds", "x", "expected a number (0.01 <= value <= 86400), not 'x'"
    ),
    "slurm-unknown-key": cluster_key(
        "slurm", "bogus", "1", f"unknown key: expected one of {SLURM_KEYS}"
    ),
    "slurm-security": cluster_key(
        "slurm", "security", "plain", "expected one of tls, none, not 'plain'"
    ),
    "pbs-resource-spec": cluster_key(
        "pbs",
        "resource_spec",
        "5",
        'expected a resource request like "select=1:ncpus=1:mem=2GB", not 5',
    ),
    "pbs-unknown-key": cluster_key(
        "pbs", "project", "p", f"unknown key: expected one of {PBS_KEYS}"
    ),
    "sge-walltime": cluster_key(
        "sge", "walltime", "2h", "expected a walltime like \"02:00:00\" (quoted), not '2h'"
    ),
    "lsf-walltime": cluster_key(
        "lsf",
        "walltime",
        '"02:00:00"',
        "expected a walltime like \"02:00\" (quoted), not '02:00:00'",
    ),
    "htcondor-missing-disk": config(
        "cluster:\n  kind: htcondor\n" + JOB,
        at(
            2,
            "cluster (kind htcondor): missing key 'disk': expected a memory size like "
            '"4GB" or "auto"',
        ),
    ),
    "htcondor-queue": cluster_key(
        "htcondor", "queue", "q", f"unknown key: expected one of {HTCONDOR_KEYS}", "  disk: 1GB\n"
    ),
    "address-plain-tcp": cluster_key("address", "address", "tcp://h:1", PLAIN),
    "address-tls-one-file": cluster_key(
        "address",
        "tls_ca_file",
        "ca.pem",
        f"{TLS_TOGETHER}: tls_cert, tls_key missing",
        "  address: tls://h:1\n",
    ),
    "address-tls-security-none": cluster_key(
        "address",
        "security",
        "none",
        "tls://h:1 is a TLS address but security is none",
        "  address: tls://h:1\n",
    ),
    "address-security-bogus": cluster_key(
        "address",
        "security",
        "yes",
        "expected one of tls, none, not True",
        "  address: tls://h:1\n",
    ),
    "run-scheduler-plain-tcp": config(
        JOB, f"{ERROR}--scheduler: {PLAIN}", "--scheduler", "tcp://h:1"
    ),
    "run-tls-flags-without-scheduler": config(
        JOB,
        f"{ERROR}--security and --tls-* go with --scheduler or --scheduler-file",
        "--tls-ca-file",
        "ca.pem",
    ),
    "run-scheduler-tls-one-flag": config(
        JOB,
        f"{ERROR}--scheduler: {TLS_TOGETHER}: tls_cert, tls_key missing",
        "--scheduler",
        "tls://h:1",
        "--tls-ca-file",
        "ca.pem",
    ),
    "run-scheduler-unknown-scheme": config(
        JOB, f"{ERROR}--scheduler: {ADDRESS}, not 'foo://h:1'", "--scheduler", "foo://h:1"
    ),
    "run-scheduler-tls": config(JOB, f"{ERROR}--scheduler: {TLS}", "--scheduler", "tls://h:1"),
    "run-scheduler-no-scheme": config(
        JOB, f"{ERROR}--scheduler: {ADDRESS}, not 'h:1'", "--scheduler", "h:1"
    ),
    "solve-scheduler-unknown-scheme": command_line(
        "solve nqueens 8 --scheduler foo://h:1",
        line=f"{ERROR}--scheduler: {ADDRESS}, not 'foo://h:1'",
    ),
    "solve-scheduler-tls": command_line(
        "solve nqueens 8 --scheduler tls://h:1", line=f"{ERROR}--scheduler: {TLS}"
    ),
    "solve-boards-scheduler-tls": command_line(
        "solve max_rooks {tmp}/b.txt -o {tmp}/out.parquet --scheduler tls://h:1",
        files={"b.txt": "1\n.\n0\n"},
        line=f"{ERROR}--scheduler: {TLS}",
    ),
    "run-workers-zero": config(
        JOB,
        "Error: Invalid value for '--workers': 0 is not in the range 1<=x<=4096.",
        "--workers",
        "0",
    ),
    # ------------------------------------------------------------------ where results go
    "run-output-is-a-file": row(
        {"f": "x\n", "c.yaml": "output: f\n" + JOB},
        ("run", "{tmp}/c.yaml"),
        None,
        f"{ERROR}{{tmp}}/f: cannot write here: it is a file, expected a folder",
    ),
    "run-output-under-a-file": config(
        JOB,
        f"{ERROR}{{tmp}}/f/out: {FOLDER_IN_THE_WAY}",
        "--output",
        "{tmp}/f/out",
        files={"f": "x\n"},
    ),
    "run-job-folder-not-ours": not_a_job_folder({"out/q/notes.txt": "mine\n"}),
    # manifest.json at the top: refused, not moved
    "run-job-folder-of-an-old-layout": not_a_job_folder(
        {"out/q/manifest.json": "{}\n", "out/q/fragments/0.parquet": "x\n"}
    ),
    "run-job-folder-is-a-file": not_a_job_folder({"out/q": "mine\n"}),
    "run-state-folder-under-a-file": config(
        JOB,
        f"{ERROR}{{tmp}}/.boardsweep/out: cannot write here: {{tmp}}/.boardsweep is a "
        "file, not a folder",
        files={".boardsweep": "x\n"},
    ),
    "ingest-output-under-a-file": under_a_file("ingest max_rooks {tmp}/b.txt -o", ONE_BOARD),
    "generate-output-under-a-file": under_a_file(
        "generate max_rooks --n 4 --density 0.5 --count 2 --seed 1 -o"
    ),
    "solve-solutions-under-a-file": under_a_file("solve nqueens 6 --solutions"),
    "solve-boards-output-under-a-file": under_a_file("solve max_rooks {tmp}/b.txt -o", ONE_BOARD),
    "solve-puzzles-output-under-a-file": under_a_file("solve slant {tmp}/p.txt -o", ONE_PUZZLE),
    "solve-output-is-the-input": output_is_input("solve max_rooks", ONE_BOARD),
    "ingest-output-is-the-input": output_is_input("ingest slant", ONE_PUZZLE),
    "log-file-under-a-file": command_line(
        "--log-file {tmp}/f/log.txt solve nqueens 8",
        files={"f": "x\n"},
        line=f"{ERROR}{{tmp}}/f/log.txt: --log-file: cannot write: Not a directory",
    ),
    "solve-output-is-a-folder": command_line(
        "solve max_rooks {tmp}/b.txt -o {tmp}/d",
        files={"b.txt": "1\n.\n0\n", "d/keep.txt": "x\n"},
        line="Error: Invalid value for '-o' / '--output': File '{tmp}/d' is a directory.",
    ),
    # ------------------------------------------------------------------ board files (UVa 639)
    "board-row-length": ingest(
        "max_rooks", "b.txt", "2\n..\n...\n0\n", 3, "row 2 of board 1 has 3 cells, expected 2"
    ),
    "board-bad-char": ingest(
        "max_rooks",
        "b.txt",
        "2\n..\n.Y\n0\n",
        3,
        "row 2 of board 1, column 2: expected '.' (open) or 'X' (wall), got 'Y'",
    ),
    "board-too-few-rows": ingest(
        "max_rooks",
        "b.txt",
        "3\n...\n...\n0\n",
        4,
        "row 3 of board 1 has 1 cells, expected 3 ('0' looks like a size line: does "
        "board 1 have only 2 of its 3 rows?)",
    ),
    "board-too-many-rows": ingest(
        "max_rooks", "b.txt", "2\n..\n..\n..\n0\n", 4, f"expected {SIZE_LINE}, got '..'"
    ),
    "board-empty-file": ingest(
        "max_rooks",
        "b.txt",
        "",
        1,
        f"unexpected end of input: expected {SIZE_LINE} (the input must end with a line '0')",
    ),
    "board-size-not-integer": ingest(
        "max_rooks", "b.txt", "four\n....\n0\n", 1, f"expected {SIZE_LINE}, got 'four'"
    ),
    "board-size-negative": ingest(
        "max_rooks", "b.txt", "-2\n..\n..\n0\n", 1, "board size must be >= 1, got '-2'"
    ),
    "board-size-too-large": ingest(
        "max_rooks",
        "b.txt",
        "100000 100000\n0\n",
        1,
        "board 100000 x 100000 is too large (at most 2**31 - 1 cells)",
    ),
    "board-no-final-zero": ingest(
        "max_rooks",
        "b.txt",
        "2\n..\n..\n",
        3,
        f"unexpected end of input: expected {SIZE_LINE} (the input must end with a line '0')",
    ),
    "board-after-final-zero": ingest(
        "max_rooks",
        "b.txt",
        "1\n.\n0\n1\n",
        4,
        "expected nothing after the terminating '0', got '1'",
    ),
    "board-latin1": ingest(
        "max_rooks",
        "b.txt",
        b"1\n\xe9\n0\n",
        2,
        f"byte 0xe9 at column 1 is not UTF-8: expected {BOARD_TEXT} in UTF-8",
    ),
    "board-nul-bytes": ingest(
        "max_rooks",
        "b.txt",
        b"1\n.\x00\n0\n",
        2,
        f"a NUL byte at column 2: not a text file (expected {BOARD_TEXT})",
    ),
    "board-utf16": ingest(
        "max_rooks",
        "b.txt",
        "1\n.\n0\n".encode("utf-16"),
        1,
        f"is UTF-16 text (it starts with a UTF-16 byte-order mark): expected {BOARD_TEXT} in UTF-8",
    ),
    "board-no-boards": ingest(
        "max_rooks", "b.txt", "0\n", None, "holds no boards: a set needs at least one"
    ),
    "board-file-is-parquet": ingest(
        "max_rooks",
        "b.parquet",
        boards(),
        None,
        f"is a Parquet file: expected {BOARD_TEXT} (a Parquet set is read as it is, "
        "with {parquet: FILE})",
    ),
    "board-file-missing": command_line(
        "ingest max_rooks {tmp}/none.txt -o {tmp}/out.parquet",
        line=at(None, "cannot read: No such file or directory", "none.txt"),
    ),
    # ------------------------------------------------------------------ puzzle files (UVa 11694)
    "puzzle-row-length": ingest(
        "slant",
        "p.txt",
        "1\n2\n...\n..\n...\n",
        4,
        "case 1: expected a row of 3 characters (one per grid point: 0-4 or '.'), found 2 in '..'",
    ),
    "puzzle-bad-char": ingest(
        "slant",
        "p.txt",
        "1\n2\n...\n.x.\n...\n",
        4,
        f"case 1: unexpected character 'x' at column 2: {CLUE}",
    ),
    "puzzle-clue-5": ingest(
        "slant",
        "p.txt",
        "1\n2\n...\n.5.\n...\n",
        4,
        f"case 1: clue 5 is above 4 at column 2: {CLUE}",
    ),
    "puzzle-too-few-rows": ingest(
        "slant", "p.txt", "1\n2\n...\n...\n", 4, "case 1: expected 3 rows of clues, found 2"
    ),
    "puzzle-fewer-cases-than-T": ingest(
        "slant", "p.txt", "2\n2\n...\n...\n...\n", 5, "expected 2 cases (T = 2), found 1"
    ),
    "puzzle-more-cases-than-T": ingest(
        "slant",
        "p.txt",
        "1\n1\n..\n..\n1\n..\n..\n",
        5,
        "T = 1 but more input follows: expected 1 cases",
    ),
    "puzzle-empty-file": ingest(
        "slant", "p.txt", "\n\n", None, "empty input: expected the number of cases T"
    ),
    "puzzle-T-not-integer": ingest(
        "slant",
        "p.txt",
        "two\n",
        1,
        "expected the number of cases T (an integer >= 0), found 'two'",
    ),
    "puzzle-size-zero": ingest(
        "slant",
        "p.txt",
        "1\n0\n.\n",
        2,
        "case 1: expected the grid size 'n' or 'rows cols' (integers >= 1), found '0'",
    ),
    "puzzle-no-puzzles": ingest(
        "slant", "p.txt", "0\n", None, "holds no puzzles: a set needs at least one"
    ),
    "puzzle-latin1": ingest(
        "slant",
        "p.txt",
        b"1\n1\n\xe9.\n..\n",
        3,
        "byte 0xe9 at column 1 is not UTF-8: expected slant seed-format text in UTF-8",
    ),
    # ------------------------------------------------------------------ judge input on stdin
    "judge-nqueens-not-integer": judge(
        "nqueens", "x\n", f"{ERROR}<stdin>:1: expected one integer n (the board size), not 'x'"
    ),
    "judge-nqueens-zero": judge(
        "nqueens", "0\n", f"{ERROR}<stdin>:1: n = 0 is out of range: expected 1 <= n <= 32"
    ),
    "judge-nqueens-too-large": judge(
        "nqueens", "33\n", f"{ERROR}<stdin>:1: n = 33 is out of range: expected 1 <= n <= 32"
    ),
    "judge-nqueens-empty": judge(
        "nqueens", "", f"{ERROR}<stdin>: expected one integer n (the board size), found no input"
    ),
    "judge-nqueens-two-lines": judge(
        "nqueens", "4\n5\n", f"{ERROR}<stdin>:2: expected nothing after n, found '5'"
    ),
    "judge-nqueens-two-numbers": judge(
        "nqueens", "4 5\n", f"{ERROR}<stdin>:1: expected one integer n (the board size), not '4 5'"
    ),
    "judge-queens-rooks-one-number": judge(
        "queens_rooks", "3 1\n3\n", f"{ERROR}<stdin>:2: {M_N}, not '3'"
    ),
    "judge-queens-rooks-negative": judge(
        "queens_rooks", "-1 2\n", f"{ERROR}<stdin>:1: {M_N}, not M = -1, N = 2"
    ),
    "judge-queens-rooks-text": judge(
        "queens_rooks", "a b\n", f"{ERROR}<stdin>:1: {M_N}, not 'a b'"
    ),
    "judge-queens-rooks-too-large": judge(
        "queens_rooks", "30 5\n", f"{ERROR}<stdin>:1: M + N = 35 is too large: expected M + N <= 32"
    ),
    "judge-max-rooks-bad-char": judge(
        "max_rooks",
        "1\n.\n2\n.#\n..\n0\n",
        f"{ERROR}<stdin>:4: row 1 of board 2, column 2: expected '.' (open) or 'X' (wall), got '#'",
    ),
    "judge-max-rooks-short-board": judge(
        "max_rooks",
        "2\n..\n",
        f"{ERROR}<stdin>:2: unexpected end of input: board 1 (size at "
        "line 1) needs 2 rows, found 1",
    ),
    "judge-max-rooks-empty": judge(
        "max_rooks",
        "",
        f"{ERROR}<stdin>:1: unexpected end of input: expected {SIZE_LINE} "
        "(the input must end with a line '0')",
    ),
    "judge-slant-clue-5": judge(
        "slant",
        "1\n2\n...\n.5.\n...\n",
        f"{ERROR}<stdin>:4: case 1: clue 5 is above 4 at column 2: {CLUE}",
    ),
    "judge-slant-empty": judge(
        "slant", "", f"{ERROR}<stdin>: empty input: expected the number of cases T"
    ),
    "judge-slant-T-not-integer": judge(
        "slant",
        "x\n",
        f"{ERROR}<stdin>:1: expected the number of cases T (an integer >= 0), found 'x'",
    ),
    "judge-slant-missing-case": judge(
        "slant", "2\n1\n..\n..\n", f"{ERROR}<stdin>:4: expected 2 cases (T = 2), found 1"
    ),
    "judge-stdin-latin1": judge(
        "max_rooks",
        b"1\n\xe9\n0\n",
        f"{ERROR}<stdin>:2: byte 0xe9 at column 1 is not UTF-8: expected max_rooks seed-format "
        "text in UTF-8",
    ),
    "judge-stdin-utf16": judge(
        "nqueens",
        "8\n".encode("utf-16"),
        f"{ERROR}<stdin>:1: is UTF-16 text (it starts with a UTF-16 byte-order mark): expected "
        "nqueens seed-format text in UTF-8",
    ),
    "judge-unknown-problem": judge(
        "sudoku",
        "1\n",
        f"{ERROR}unknown problem 'sudoku': expected one of max_rooks, nqueens, queens_rooks, slant",
    ),
    # ------------------------------------------------------------------ command-line values
    "solve-nqueens-zero": solve("nqueens", "0", "N: 0 is out of range: expected 1 <= N <= 32"),
    "solve-nqueens-negative": solve(
        "nqueens", "-3", "N: -3 is out of range: expected 1 <= N <= 32"
    ),
    "solve-nqueens-too-large": solve(
        "nqueens",
        "33 --solutions {tmp}/res/out.parquet",
        "N: 33 is out of range: expected 1 <= N <= 32",
    ),
    "solve-nqueens-word": solve(
        "nqueens", "eight", "N: expected an integer (1 <= value <= 32), not 'eight'"
    ),
    "solve-nqueens-exponent": solve(
        "nqueens", "1e3", "N: expected an integer (1 <= value <= 32), not '1e3'"
    ),
    "solve-nqueens-extra-argument": command_line(
        "solve nqueens 8 9", line="Error: Got unexpected extra argument (9)"
    ),
    "solve-nqueens-no-argument": command("solve", "nqueens", line="Error: Missing argument 'N'."),
    "solve-queens-rooks-too-many-queens": solve(
        "queens_rooks", "40 1", "QUEENS: 40 is out of range: expected 0 <= M <= 32"
    ),
    "solve-queens-rooks-too-large": solve(
        "queens_rooks", "20 20", "M + N = 40 is out of range: expected M + N <= 32"
    ),
    "solve-queens-rooks-negative": solve(
        "queens_rooks", "-1 2", "QUEENS: -1 is out of range: expected 0 <= M <= 32"
    ),
    "solve-queens-rooks-word": solve(
        "queens_rooks", "1 x", "ROOKS: expected an integer (0 <= N <= 32), not 'x'"
    ),
    "solve-queens-rooks-solutions": command_line(
        "solve queens_rooks 4 4 --solutions {tmp}/out.parquet",
        line="Error: Got unexpected extra arguments (--solutions {tmp}/out.parquet)",
    ),
    "solve-unknown-problem": command_line("solve chess 8", line="Error: No such command 'chess'."),
    "solve-workers-zero": command_line(
        "solve nqueens 8 --workers 0",
        line="Error: Invalid value for '--workers': 0 is not in the range 1<=x<=4096.",
    ),
    "generate-option-n-zero": generate_max_rooks(
        n="0", error="--n: 0 is out of range: expected 1 <= n <= 46340"
    ),
    "generate-density-2": generate_max_rooks(
        density="2", error="--density: 2.0 is out of range: expected 0.0 <= density <= 1.0"
    ),
    "generate-count-minus-1": generate_max_rooks(
        count="-1", error="--count: -1 is out of range: expected 1 <= count <= 1000000000000"
    ),
    "generate-seed-word": generate_max_rooks(seed="x", error=f"--seed: expected {SEED}, not 'x'"),
    "generate-n-empty-text": generate_max_rooks(
        n="", error="--n: expected an integer (1 <= value <= 46340), not ''"
    ),
    "generate-density-empty-text": generate_max_rooks(
        density="", error=f"--density: expected {DENSITY}, not ''"
    ),
    "generate-density-nan-text": generate_max_rooks(
        density="nan", error=f"--density: expected {DENSITY}, not 'nan'"
    ),
    "generate-density-repeated-text": generate_max_rooks(
        density="0.1,0.1", error=f"--density: 0.1 {REPEATED}"
    ),
    "generate-n-repeated-text": generate_max_rooks(n="8,8", error=f"--n: 8 {REPEATED}"),
    "generate-n-huge-range": generate_max_rooks(
        n="1..10**21", error=f"--n: expected {SIDES}, not '1..10**21'"
    ),
    "generate-n-billion-range": generate_max_rooks(
        n="1..1000000000", error="--n: 1000000000 is out of range: expected 1 <= n <= 46340"
    ),
    "generate-n-empty-range": generate_max_rooks(
        n="8..4", error="--n: range '8..4' is empty (lo > hi)"
    ),
    "generate-option-seed-missing": command_line(
        "generate max_rooks --n 4 --density 0.5 --count 1 -o {tmp}/out.parquet",
        line="Error: Missing option '--seed'.",
    ),
    "generate-output-missing": command_line(
        "generate max_rooks --n 4 --density 0.5 --count 1 --seed 1",
        line="Error: Missing option '-o' / '--output'.",
    ),
    "generate-slant-n-zero": command_line(
        "generate slant --n 0 --count 3 --seed 1 -o {tmp}/out.parquet",
        line=f"{ERROR}generate slant: --n: 0 is out of range: expected 1 <= n <= 46339",
    ),
    "generate-slant-count-negative": command_line(
        "generate slant --n 5 --count -1 --seed 1 -o {tmp}/out.parquet",
        line=f"{ERROR}generate slant: --count: -1 is out of range: expected 1 <= count <= "
        "1000000000000",
    ),
    "generate-slant-density": command_line(
        "generate slant --n 5 --count 1 --seed 1 --density 0.5 -o {tmp}/out.parquet",
        line="Error: No such option '--density'. Did you mean '--security'?",
    ),
    "generate-count-problem": command_line(
        "generate nqueens --n 4", line="Error: No such command 'nqueens'."
    ),
    "ingest-unknown-problem": command_line(
        "ingest chess {tmp}/b.txt -o {tmp}/out.parquet",
        files={"b.txt": "0\n"},
        line=f"{ERROR}unknown problem 'chess': expected one of max_rooks, nqueens, "
        "queens_rooks, slant",
    ),
    "ingest-count-problem": command_line(
        "ingest nqueens {tmp}/n.txt -o {tmp}/out.parquet",
        files={"n.txt": "4\n"},
        line=f"{ERROR}nqueens has no instance set (problems with one: max_rooks, slant)",
    ),
    "solve-board-file-missing": command_line(
        "solve max_rooks {tmp}/none.txt -o {tmp}/res/out.parquet",
        line=at(None, "cannot read: No such file or directory", "none.txt"),
    ),
    "solve-puzzle-file-malformed": command_line(
        "solve slant {tmp}/p.txt -o {tmp}/res/out.parquet",
        files={"p.txt": "1\n2\n...\n.5.\n...\n"},
        line=at(4, f"case 1: clue 5 is above 4 at column 2: {CLUE}", "p.txt"),
    ),
    "solve-boards-no-boards": command_line(
        "solve max_rooks {tmp}/b.txt -o {tmp}/out.parquet",
        files={"b.txt": "0\n"},
        line=at(None, "holds no boards: a set needs at least one", "b.txt"),
    ),
    "report-no-results": command(
        "report",
        "{tmp}/results",
        files={"results/notes.txt": "nothing yet\n"},
        line=at(None, "no job results found (expected <job>/_boardsweep/manifest.json)", "results"),
    ),
    "report-missing-folder": command(
        "report",
        "{tmp}/results",
        line="Error: Invalid value for 'RESULTS_DIR': Directory '{tmp}/results' does not exist.",
    ),
    # ------------------------------------------------------------------ Parquet sets
    "parquet-missing-column": bad_boards(
        "not a max_rooks boards set: missing column(s) cells "
        "(expected board_id, rows, cols, density, cells)",
        cells=None,
    ),
    "parquet-puzzles-as-boards": solve_boards(
        puzzles(),
        "not a max_rooks boards set: missing column(s) board_id, cells "
        "(expected board_id, rows, cols, density, cells)",
    ),
    "parquet-rows-as-text": bad_boards(
        "column 'rows' holds string: expected integers (int32)", rows=pa.array(["1", "2"])
    ),
    "parquet-rows-as-float": bad_boards(
        "column 'rows' holds double: expected integers (int32)", rows=pa.array([1.0, 2.0])
    ),
    "parquet-rows-as-list": bad_boards(
        "column 'rows' holds list<element: int64>: expected integers (int32)",
        rows=pa.array([[1], [2]]),
    ),
    "parquet-rows-beyond-int32": bad_boards(
        "column 'rows', row 1: 4294967298 does not fit int32",
        rows=pa.array([1, 2**32 + 2], pa.int64()),
    ),
    "parquet-id-beyond-int64": bad_boards(
        "column 'board_id', row 1: 18446744073709551615 does not fit int64",
        board_id=pa.array([7, 2**64 - 1], pa.uint64()),
    ),
    "parquet-null-id": bad_boards(
        "column 'board_id', row 1: null: expected integers (int64)",
        board_id=pa.array([7, None], pa.int64()),
    ),
    "parquet-null-rows": bad_boards(
        "column 'rows', row 1: null: expected integers (int32)",
        rows=pa.array([1, None], pa.int32()),
    ),
    "parquet-null-cells": bad_boards(
        "column 'cells', row 1: null: expected text", cells=pa.array([".", None])
    ),
    "parquet-cells-as-integers": bad_boards(
        "column 'cells' holds int64: expected text", cells=pa.array([1, 2])
    ),
    "parquet-density-nan": bad_boards(
        "column 'density', row 1: NaN: expected a number", density=pa.array([0.1, float("nan")])
    ),
    "parquet-density-above-1": bad_boards(
        "board 8: density 2.0 is out of range: expected 0.0 <= density <= 1.0",
        density=pa.array([0.1, 2.0]),
    ),
    "parquet-density-as-text": bad_boards(
        "column 'density' holds string: expected numbers", density=pa.array(["a", "b"])
    ),
    "parquet-duplicate-ids": bad_boards(
        "board_id 7 of the group rows 2, cols 2, density 0.25 appears twice (rows 0 "
        "and 1): ids must be distinct within a group",
        board_id=pa.array([7, 7], pa.int64()),
        rows=pa.array([2, 2], pa.int32()),
        cols=pa.array([2, 2], pa.int32()),
        density=pa.array([0.25, 0.25]),
        cells=pa.array(["....", "..X."]),
    ),
    "parquet-duplicate-ids-given-boards": bad_boards(
        "board_id 7 of the group rows 2, cols 2, density null appears twice (rows 0 "
        "and 1): ids must be distinct within a group",
        board_id=pa.array([7, 7], pa.int64()),
        rows=pa.array([2, 2], pa.int32()),
        cols=pa.array([2, 2], pa.int32()),
        density=pa.array([None, None], pa.float64()),
        cells=pa.array(["....", "..X."]),
    ),
    "parquet-cells-wrong-length": bad_boards(
        "board 8: 3 cells for 2 x 2", cells=pa.array([".", "..X"])
    ),
    "parquet-cells-bad-character": bad_boards(
        "board 8: cells may hold only '.' (open) and 'X' (wall), not 'Z'",
        cells=pa.array([".", "..Z."]),
    ),
    "parquet-cells-non-ascii": bad_boards(
        "board 8: cells may hold only '.' (open) and 'X' (wall), not '\xe9'",
        cells=pa.array([".", ".\xe9."]),
    ),
    "parquet-rows-zero": bad_boards(
        "board 7: 0 x 1 cells: rows and cols must be >= 1", rows=pa.array([0, 2], pa.int32())
    ),
    "parquet-too-many-cells": bad_boards(
        "board 8: 100000 x 100000 has 10000000000 cells: at most 2**31 - 1",
        rows=pa.array([1, 100000], pa.int32()),
        cols=pa.array([1, 100000], pa.int32()),
    ),
    "parquet-no-rows": solve_boards(
        lambda: boards()().slice(0, 0), "holds no boards: a set needs at least one"
    ),
    "parquet-puzzle-clues-wrong-length": bad_puzzles(
        "puzzle 3: 3 clue points for 1 x 1 cells (expected 4)", clues=pa.array(["1...", "..."])
    ),
    "parquet-puzzle-clue-5": bad_puzzles(
        "puzzle 3: clues may hold only '.' and the digits 0-4, not '5'",
        clues=pa.array(["1...", "..5."]),
    ),
    "parquet-puzzle-no-cells": bad_puzzles(
        "puzzle 3: 0 x 1 cells: a puzzle needs at least one row and one column",
        rows=pa.array([1, 0], pa.int32()),
        clues=pa.array(["1...", ".."]),
    ),
    "parquet-puzzle-missing-clues": bad_puzzles(
        "not a slant puzzles set: missing column(s) clues (expected puzzle_id, rows, cols, clues)",
        clues=None,
    ),
    "parquet-puzzle-id-as-text": bad_puzzles(
        "column 'puzzle_id' holds string: expected integers (int64)", puzzle_id=pa.array(["a", "b"])
    ),
    "parquet-corrupt": solve_boards(
        b"PAR1garbage",
        "cannot read Parquet: Parquet magic bytes not found in footer. "
        "Either the file is corrupted or this is not a parquet file.",
    ),
}

# rows that also run as real processes: one per input route (config, set file named by a
# config, seed file, stdin, argument, Parquet, output path) and one click usage error
SUBPROCESS = [
    "yaml-syntax",
    "ingest-file-missing",
    "board-bad-char",
    "judge-queens-rooks-negative",
    "solve-nqueens-negative",
    "parquet-missing-column",
    "run-output-under-a-file",
    "solve-queens-rooks-solutions",
]


# ----------------------------------------------------------------------------- mounted outputs

NO_SPACE = "cannot write: No space left on device"
READ_ONLY = "cannot write here: Read-only file system"


def random_boards() -> str:
    """Seed text of one 1000 x 1000 board of random walls: ~120 KB as Parquet, over 64 KiB."""
    cells = np.random.default_rng(1).choice(np.frombuffer(b".X", np.uint8), (1000, 1000))
    rows = np.concatenate([cells, np.full((1000, 1), ord("\n"), np.uint8)], axis=1)
    return "1000\n" + rows.tobytes().decode() + "0\n"


# kind ("ro": a read-only bind mount, "full": a 64 KiB tmpfs) of {tmp}/m, files, args, line;
# the full rows compute before the disk fills, so they run with -q: the progress of that work
# is logged otherwise, and the error must still be the only line
MOUNTED = {
    "ro-ingest": (
        "ro",
        {"b.txt": "1\n.\n0\n"},
        ("ingest", "max_rooks", "{tmp}/b.txt", "-o", "{tmp}/m/out.parquet"),
        f"{ERROR}{{tmp}}/m/out.parquet: {READ_ONLY}",
    ),
    "ro-generate": (
        "ro",
        {},
        (
            "generate",
            "slant",
            "--n",
            "3",
            "--count",
            "2",
            "--seed",
            "1",
            "-o",
            "{tmp}/m/out.parquet",
        ),
        f"{ERROR}{{tmp}}/m/out.parquet: {READ_ONLY}",
    ),
    "ro-solve-solutions": (
        "ro",
        {},
        ("solve", "nqueens", "6", "--solutions", "{tmp}/m/sub/out.parquet"),
        f"{ERROR}{{tmp}}/m/sub/out.parquet: {READ_ONLY}",
    ),
    "ro-solve-boards": (
        "ro",
        {"b.txt": "1\n.\n0\n"},
        ("solve", "max_rooks", "{tmp}/b.txt", "-o", "{tmp}/m/out.parquet"),
        f"{ERROR}{{tmp}}/m/out.parquet: {READ_ONLY}",
    ),
    "ro-run-output": (
        "ro",
        {"c.yaml": JOB},
        ("run", "{tmp}/c.yaml", "--output", "{tmp}/m/results"),
        f"{ERROR}{{tmp}}/m/results: {READ_ONLY}",
    ),
    "ro-log-file": (
        "ro",
        {},
        ("--log-file", "{tmp}/m/log.txt", "solve", "nqueens", "4"),
        f"{ERROR}{{tmp}}/m/log.txt: --log-file: cannot write: Read-only file system",
    ),
    "full-generate": (
        "full",
        {},
        (
            "-q",
            "generate",
            "max_rooks",
            "--n",
            "64",
            "--density",
            "0.5",
            "--count",
            "200",
            "--seed",
            "1",
            "-o",
            "{tmp}/m/out.parquet",
        ),
        f"{ERROR}{{tmp}}/m/out.parquet: {NO_SPACE}",
    ),
    "full-ingest": (
        "full",
        {"b.txt": random_boards},
        ("-q", "ingest", "max_rooks", "{tmp}/b.txt", "-o", "{tmp}/m/out.parquet"),
        f"{ERROR}{{tmp}}/m/out.parquet: {NO_SPACE}",
    ),
    "full-solve-solutions": (
        "full",
        {},
        ("-q", "solve", "nqueens", "12", "--solutions", "{tmp}/m/out.parquet"),
        f"{ERROR}{{tmp}}/m/out.parquet: {NO_SPACE}",
    ),
    "full-solve-boards": (
        "full",
        {"b.txt": random_boards},
        ("-q", "solve", "max_rooks", "{tmp}/b.txt", "-o", "{tmp}/m/deep/out.parquet"),
        f"{ERROR}{{tmp}}/m/deep/out.parquet: {NO_SPACE}",
    ),
}


# ----------------------------------------------------------------------------- running a row


def _fill(value: str, tmp: Path) -> str:
    return value.replace("{tmp}", str(tmp))


def _write_inputs(files: dict, tmp: Path) -> set[str]:
    """Write the row's input files; return every path now under ``tmp`` (relative)."""
    for name, content in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content = content()
        if isinstance(content, pa.Table):
            pq.write_table(content, path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(_fill(content, tmp))
    return _listing(tmp)


def _listing(tmp: Path) -> set[str]:
    return {str(p.relative_to(tmp)) for p in tmp.rglob("*")}


def _check(tmp: Path, inputs: set[str], code: int, stdout: str, stderr: str, line: str) -> None:
    assert code == 2, stderr
    assert stdout == ""
    if line.startswith("Error: "):  # click's usage text, its error last
        assert stderr.startswith("Usage: boardsweep ") and stderr.endswith(f"\n\n{line}\n"), stderr
    else:
        assert stderr == line + "\n"
    # nothing written: no output file or folder, no .boardsweep state folder, no lock
    assert _listing(tmp) == inputs


def _invoke(args: list[str], stdin) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        cli, args, input=stdin, prog_name="boardsweep", catch_exceptions=False
    )
    return result.exit_code, result.stdout, result.stderr


def test_at_least_150_cases_and_no_duplicate_inputs():
    assert len(CASES) >= 150
    inputs = {(repr(files), args, stdin) for files, args, stdin, _ in CASES.values()}
    assert len(inputs) == len(CASES)
    assert set(SUBPROCESS) <= set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_bad_input_in_process(name, tmp_path):
    files, args, stdin, line = CASES[name]
    inputs = _write_inputs(files, tmp_path)
    code, stdout, stderr = _invoke([_fill(a, tmp_path) for a in args], stdin)
    _check(tmp_path, inputs, code, stdout, stderr, _fill(line, tmp_path))


@pytest.mark.parametrize("name", SUBPROCESS)
def test_bad_input_as_a_real_process(name, tmp_path):
    files, args, stdin, line = CASES[name]
    inputs = _write_inputs(files, tmp_path)
    done = boardsweep(*[_fill(a, tmp_path) for a in args], stdin=stdin, cwd=tmp_path)
    _check(tmp_path, inputs, done.returncode, done.stdout, done.stderr, _fill(line, tmp_path))


def test_judge_input_with_no_cases_is_not_bad_input():
    """The seeds' input may hold no case ('0' ends it at once): their answer is no output."""
    for problem in ("max_rooks", "slant"):
        assert _invoke(["judge", problem], "0\n") == (0, "", "")


def _unavailable(why: str) -> None:
    if os.environ.get("BOARDSWEEP_REQUIRE_TMPFS") == "1":
        pytest.fail(f"{why}, and BOARDSWEEP_REQUIRE_TMPFS=1")
    pytest.skip(why)


@contextlib.contextmanager
def _mounted(kind: str, folder: Path, size: str = "64k"):
    """``folder`` as a read-only bind mount of itself (``ro``) or a tmpfs of ``size`` (``full``)."""
    folder.mkdir()
    if os.geteuid() != 0:
        _unavailable("mounting a tmpfs or a read-only bind needs root")
    if kind == "full":
        steps = [["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)]]
    else:
        steps = [
            ["mount", "--bind", str(folder), str(folder)],
            ["mount", "-o", "remount,bind,ro", str(folder)],
        ]
    mounted = False
    try:
        for step in steps:
            try:
                done = subprocess.run(step, capture_output=True, text=True)
            except OSError as exc:  # no mount command
                _unavailable(f"{' '.join(step)}: {exc}")
            if done.returncode:
                _unavailable(f"{' '.join(step)} failed: {done.stderr.strip()}")
            mounted = True
        yield
    finally:
        if mounted:
            subprocess.run(["umount", str(folder)], check=True)


@pytest.mark.parametrize("name", MOUNTED)
def test_unwritable_or_full_output(name, tmp_path):
    kind, files, args, line = MOUNTED[name]
    inputs = _write_inputs(files, tmp_path) | {"m"}
    with _mounted(kind, tmp_path / "m"):
        code, stdout, stderr = _invoke([_fill(a, tmp_path) for a in args], None)
        _check(tmp_path, inputs, code, stdout, stderr, _fill(line, tmp_path))
        assert os.listdir(tmp_path / "m") == []  # nothing left on the mount
