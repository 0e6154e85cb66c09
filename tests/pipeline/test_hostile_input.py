"""Hostile inputs, as real processes: each is one line and exit 2 within seconds, or handled.

Files that never end or never open (a FIFO, a link to /dev/zero), broken problem modules in
``BOARDSWEEP_PROBLEMS``, a bad ``BOARDSWEEP_MEMORY_LIMIT``, numbers past Python's digit limit,
a closed stdin, SIGHUP and SIGQUIT; and what a run leaves: results a colleague can read, a
state folder only its owner can, and a state folder on another file system refused first.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest

from boardsweep.pipeline.spec import load_config
from tests.conftest import BOARDSWEEP, ROOT, run_env, start_boardsweep

ERROR = "boardsweep: error: "
NOT_REGULAR = "is not a regular file (a FIFO, a device or a socket): expected a file"


def _run(
    tmp_path: Path, *args: str, env: dict | None = None, stdin=None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*BOARDSWEEP, *args],
        cwd=tmp_path,
        env={**run_env(), **(env or {})},
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _one_line(done: subprocess.CompletedProcess, line: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == line + "\n"


@pytest.fixture
def specials(tmp_path) -> Path:
    """A FIFO and a link to /dev/zero in ``tmp_path``."""
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero.txt").symlink_to("/dev/zero")
    return tmp_path


@pytest.mark.parametrize(
    "args, config, named",
    [
        (("solve", "max_rooks", "zero.txt", "-o", "out.parquet"), None, "zero.txt"),
        (("solve", "max_rooks", "fifo", "-o", "out.parquet"), None, "fifo"),
        (("ingest", "max_rooks", "fifo", "-o", "out.parquet"), None, "fifo"),
        (("run", "fifo"), None, "fifo"),
        (
            ("run", "c.yaml"),
            "jobs: [{name: w, problem: max_rooks, boards: {ingest: zero.txt}}]\n",
            "c.yaml:1: jobs[0] (w): 'boards.ingest': {tmp}/zero.txt",
        ),
        (
            ("run", "c.yaml"),
            "jobs: [{name: w, problem: max_rooks, boards: {parquet: fifo}}]\n",
            "c.yaml:1: jobs[0] (w): 'boards.parquet': {tmp}/fifo",
        ),
    ],
    ids=[
        "solve-dev-zero",
        "solve-fifo",
        "ingest-fifo",
        "config-fifo",
        "ingest-key-dev-zero",
        "parquet-key-fifo",
    ],
)
def test_inputs_that_never_end_or_never_open_are_refused_at_once(specials, args, config, named):
    if config:
        (specials / "c.yaml").write_text(config)
    before = sorted(p.name for p in specials.iterdir())
    done = _run(specials, *args, timeout=30)
    _one_line(done, f"{ERROR}{named.replace('{tmp}', str(specials))}: {NOT_REGULAR}")
    assert sorted(p.name for p in specials.iterdir()) == before


def test_report_skips_a_fifo_named_like_a_table(specials):
    folder = specials / "results"
    folder.mkdir()
    os.mkfifo(folder / "t.parquet")
    done = _run(specials, "report", "results", timeout=30)
    assert done.returncode == 2
    assert (
        "t.parquet: is not a regular file (a FIFO, a device or a socket); skipped" in done.stderr
        and "Traceback" not in done.stderr
    )


@pytest.mark.parametrize(
    "module, source, says",
    [
        ("broken_syntax", "x = (\n", "SyntaxError: '(' was never closed"),
        ("raises_at_import", "raise RuntimeError('boom')\n", "RuntimeError: boom"),
        ("json", None, "module 'json' defines no PROBLEM"),
        ("os", None, "module 'os' defines no PROBLEM"),  # a frozen module: no source file
    ],
)
def test_a_broken_problem_module_is_one_line_and_help_still_works(tmp_path, module, source, says):
    if source is not None:
        (tmp_path / f"{module}.py").write_text(source)
    env = {"BOARDSWEEP_PROBLEMS": module, "PYTHONPATH": str(tmp_path)}
    done = _run(tmp_path, "--help", env=env)
    assert done.returncode == 0 and "Usage: boardsweep" in done.stdout, done.stderr
    done = _run(tmp_path, "solve", "nqueens", "4", env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(ERROR) and says in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("value", ["1.2.3GB", "4gigs", "-5GB", "0"])
def test_a_bad_memory_limit_is_one_line(tmp_path, value):
    done = _run(
        tmp_path,
        "solve",
        "max_rooks",
        str(ROOT / "data" / "max_rooks_sample.txt"),
        "-o",
        "out.parquet",
        env={"BOARDSWEEP_MEMORY_LIMIT": value},
    )
    _one_line(
        done,
        f"{ERROR}BOARDSWEEP_MEMORY_LIMIT={value!r}: expected a size in bytes or "
        "with a unit, such as 4GB or 512MiB (units: B, KB, MB, GB, TB, KIB, MIB, "
        "GIB, TIB)",
    )
    assert not (tmp_path / "out.parquet").exists()


def test_a_number_past_pythons_digit_limit_is_one_line(tmp_path):
    done = subprocess.run(
        [*BOARDSWEEP, "judge", "queens_rooks"],
        input="1" * 5000 + " 1\n",
        cwd=tmp_path,
        env=run_env(),
        capture_output=True,
        text=True,
        timeout=30,
    )
    _one_line(done, f"{ERROR}<stdin>:1: a number of 5000 digits is too large: expected M + N <= 32")


def test_a_closed_stdin_is_one_line(tmp_path):
    done = subprocess.run(
        [*BOARDSWEEP, "judge", "nqueens"],
        stdin=subprocess.DEVNULL,
        cwd=tmp_path,
        env=run_env(),
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=lambda: os.close(0),
    )
    _one_line(done, f"{ERROR}<stdin>: standard input is closed: pipe the seed's input in")


@pytest.mark.parametrize("signum, word", [(signal.SIGHUP, "hung up"), (signal.SIGQUIT, "quit")])
def test_sighup_and_sigquit_end_a_long_command_with_one_line(tmp_path, signum, word):
    proc = start_boardsweep("judge", "nqueens", cwd=tmp_path, stdin=subprocess.PIPE)
    proc.stdin.write("20\n")
    proc.stdin.close()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and "estimated" not in proc.stderr.readline():
            pass
        proc.send_signal(signum)
        rest = proc.stderr.read()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 128 + signum, rest
    assert (
        f"{ERROR}{word} ({signal.Signals(signum).name}); nothing of this run was kept\n" in rest
    ), rest
    assert "Traceback" not in rest


def test_published_results_are_readable_by_others_and_the_state_is_not(tmp_path):
    from tests.pipeline.test_store_damage import Output

    old = os.umask(0o022)
    try:
        out = Output(tmp_path / "results")
        out.run("8..9")
    finally:
        os.umask(old)
    assert stat.S_IMODE((out.folder / "q").stat().st_mode) == 0o755
    assert stat.S_IMODE((out.folder / "q" / "counts.parquet").stat().st_mode) & 0o044 == 0o044
    assert stat.S_IMODE(out.state.stat().st_mode) == 0o700


def test_a_state_folder_on_another_file_system_is_refused_before_any_work(tmp_path):
    from tests.pipeline.test_bad_input import _mounted

    with _mounted("full", tmp_path / "m", size="1m"):
        (tmp_path / "c.yaml").write_text(
            "output: results\nstate: m/state\njobs: [{name: q, problem: nqueens, n: 8}]\n"
        )
        done = _run(tmp_path, "run", "c.yaml")
        _one_line(
            done,
            f"{ERROR}{tmp_path}/m/state: is on another file system than the "
            f"output folder {tmp_path}/results: a new generation is built in it "
            "and renamed into the output, so put 'state:' on the output's file "
            "system",
        )
        assert not (tmp_path / "results").exists() and not (tmp_path / "m" / "state").exists()


def test_a_home_folder_in_output_is_expanded_as_in_a_set_path(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "c.yaml").write_text(
        "output: ~/res\nstate: ~/st\njobs: [{name: q, problem: nqueens, n: 4}]\n"
    )
    config = load_config(tmp_path / "c.yaml")
    assert config.output == tmp_path / "home" / "res"
    assert config.state == tmp_path / "home" / "st"


@pytest.mark.parametrize(
    "args, most",
    [
        (("run", "c.yaml"), 480),  # the output of the config: a 300-byte name
        (("run", "c.yaml", "--output", "/".join(["d" * 200] * 5)), 480),  # SQLite's path limit
        (("solve", "nqueens", "6", "--solutions", "s" * 300 + ".parquet"), 4095),
    ],
    ids=["output-name", "output-path", "solutions-name"],
)
def test_names_too_long_are_one_line_and_nothing_is_made(tmp_path, args, most):
    (tmp_path / "c.yaml").write_text(
        f"output: {'r' * 300}\njobs: [{{name: q, problem: nqueens, n: 4}}]\n"
    )
    done = _run(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith(ERROR) and done.stderr.endswith(
        f": the name is too long: at most 255 bytes a name and {most} in all\n"
    ), done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["c.yaml"]


def test_a_log_file_that_cannot_be_written_sends_the_log_to_stderr_in_one_line(tmp_path):
    """``--log-file /dev/full``: every write fails (ENOSPC); one warning, then the log on
    stderr, no traceback, and the command's own answer unchanged."""
    (tmp_path / "config.yaml").write_text(
        "output: out\njobs:\n  - {name: q, problem: nqueens, n: '4..8'}\n"
    )
    done = _run(tmp_path, "--log-file", "/dev/full", "plan")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Logging error" not in done.stderr, done.stderr
    warnings = [line for line in done.stderr.splitlines() if "--log-file" in line]
    assert warnings == [
        "boardsweep: warning: --log-file /dev/full: cannot write (No space "
        "left on device); the log goes to stderr from here"
    ], done.stderr
    assert "q: planned in" in done.stderr
    assert done.stdout.startswith("plan for ")


def test_a_parquet_set_with_a_column_name_twice_is_one_line(tmp_path):
    """Parquet allows two columns of one name; which one holds the boards cannot be told, so
    the set is refused in one line (it was a KeyError traceback)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    done = _run(
        tmp_path,
        "generate",
        "max_rooks",
        "--n",
        "4",
        "--density",
        "0.3",
        "--count",
        "3",
        "--seed",
        "1",
        "-o",
        "good.parquet",
    )
    assert done.returncode == 0, done.stderr
    good = pq.read_table(tmp_path / "good.parquet")
    pq.write_table(
        pa.Table.from_arrays(
            [*good.columns, good.column("cells")], names=[*good.column_names, "cells"]
        ),
        tmp_path / "twice.parquet",
    )
    done = _run(tmp_path, "solve", "max_rooks", "twice.parquet", "-o", "out.parquet")
    _one_line(
        done,
        f"{ERROR}{tmp_path / 'twice.parquet'}: not a max_rooks boards set: "
        "column(s) cells appear more than once",
    )
    assert not (tmp_path / "out.parquet").exists()


@pytest.mark.parametrize("blocker", ["read-only", "file"])
def test_report_where_its_figures_cannot_go_prints_the_tables_and_one_warning(tmp_path, blocker):
    """A results folder one may read but not write (an archive: a read-only bind mount here),
    or ``_report`` taken by a file: the tables still come on stdout, one warning says why there
    are no figures, no traceback."""
    from tests.pipeline.test_bad_input import _unavailable

    (tmp_path / "config.yaml").write_text(
        "output: out\njobs:\n  - {name: q, problem: nqueens, n: '4..8'}\n"
    )
    done = _run(tmp_path, "run")
    assert done.returncode == 0, done.stderr
    results = tmp_path / "out"
    mounted = False
    if blocker == "file":
        (results / "_report").write_text("not a folder\n")
    else:
        if os.geteuid() != 0:
            _unavailable("a read-only bind mount needs root")
        for step in (
            ["mount", "--bind", str(results), str(results)],
            ["mount", "-o", "remount,bind,ro", str(results)],
        ):
            made = subprocess.run(step, capture_output=True, text=True)
            if made.returncode:
                _unavailable(f"{' '.join(step)} failed: {made.stderr.strip()}")
            mounted = True
    try:
        done = _run(tmp_path, "report", "out")
    finally:
        if mounted:
            subprocess.run(["umount", str(results)], check=True)
    assert done.returncode == 0, done.stderr
    assert " 92" in done.stdout and "== q" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "_report" in line]
    assert len(lines) == 1 and "cannot write the figures and report.html" in lines[0], done.stderr


def test_an_instance_over_the_workers_memory_limit_is_refused_before_any_work(tmp_path):
    """count_mib under 80% of this machine but over the cluster's memory_limit: the workers
    would be killed one after another (WorkerLost, exit 1); the cluster's own limit decides."""
    (tmp_path / "c.yaml").write_text(
        "cluster: {kind: local, workers: 2, memory_limit: 1GB}\njobs:\n"
        "  - {name: m, problem: max_rooks, counts: true, count_mib: 2000,\n"
        "     boards: {generate: {n: 6, density: 0.3, count: 50, seed: 1}}}\n"
    )
    done = _run(tmp_path, "run", "c.yaml", timeout=120)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith(ERROR)]
    assert errors == [
        f"{ERROR}job m: one instance needs about 2.1 GB of memory, more than the "
        "1 GB a worker of this cluster may use (its memory_limit); ask the job "
        "for less memory, or give the workers more"
    ]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "results" / "m").exists()
