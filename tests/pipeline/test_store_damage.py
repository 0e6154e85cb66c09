"""A damaged, foreign, shared or locked store never publishes a wrong table.

Each test builds a real output folder and store the way ``boardsweep run`` does (the output
claimed, the store bound to it, ``run_job`` with the in-process runner), damages it as an
unlucky operator would, runs again, and checks every published number against the truth:
Q(n) solutions that are each valid and distinct, in the right count per n.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from boardsweep import solvers
from boardsweep.pipeline.claim import claim_output
from boardsweep.pipeline.cli import cli
from boardsweep.pipeline.errors import BoardsweepError, InputError
from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.run import local_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context
from tests.conftest import ROOT, run_env

Q = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}


class Output:
    """An output folder claimed like ``boardsweep run`` claims it, and jobs run into it."""

    def __init__(self, folder: Path, state: Path | None = None):
        self.folder = folder
        self.state = state or state_folder(folder)

    def run(self, n: str, name: str = "q") -> dict:
        job = make_job(solvers.get("nqueens"), name, {"n": n, "solutions": True}, Context("."))
        with claim_output(self.folder, self.state) as ident:
            (self.state / "tmp").mkdir(exist_ok=True)
            store = Store(self.state / "store.sqlite", owner=ident)
            try:
                store.label(self.folder)
                return run_job(job, self.folder, self.state, store, local_runner, 2, 0.05, "test")
            finally:
                store.close()

    def db(self) -> contextlib.closing[sqlite3.Connection]:
        """The store, opened the way a person with the sqlite3 shell would (closed after)."""
        return contextlib.closing(
            sqlite3.connect(self.state / "store.sqlite", isolation_level=None)
        )


def _valid(solution: list[int]) -> bool:
    n = len(solution)
    return (
        sorted(solution) == list(range(n))
        and len({r + c for r, c in enumerate(solution)}) == n
        and len({r - c for r, c in enumerate(solution)}) == n
    )


def _check_solutions(folder: Path, sizes: range) -> None:
    """The published solutions: Q(n) rows per n, each valid, none repeated."""
    table = pq.read_table(folder / "q" / "solutions.parquet").to_pydict()
    by_n: dict[int, list[tuple]] = {}
    for n, solution in zip(table["n"], table["solution"], strict=True):
        by_n.setdefault(n, []).append(tuple(solution))
    assert {n: len(rows) for n, rows in by_n.items()} == {n: Q[n] for n in sizes}
    for rows in by_n.values():
        assert len(set(rows)) == len(rows) and all(_valid(list(r)) for r in rows)
    counts = pq.read_table(folder / "q" / "counts.parquet").to_pydict()
    assert dict(zip(counts["n"], map(int, counts["count_text"]), strict=True)) == {
        n: Q[n] for n in sizes
    }


@pytest.fixture
def base(tmp_path) -> Output:
    """An output with ``nqueens n: 8..11, solutions: true`` published (payloads compacted)."""
    out = Output(tmp_path / "results")
    out.run("8..11")
    with out.db() as db:
        assert (
            db.execute(
                "SELECT count(*) FROM records WHERE tbl='solutions' AND payload IS NOT NULL"
            ).fetchone()[0]
            == 0
        )  # re-read from the published table
    return out


def test_shifted_placements_are_caught_and_the_rows_computed_again(base, caplog):
    with base.db() as db:
        shifted = db.execute(
            "UPDATE placements SET row = row + 1 WHERE tbl='solutions' AND row > 0"
        ).rowcount
    assert shifted >= 3
    base.run("8..12")
    _check_solutions(base.folder, range(8, 13))
    assert "not the ones it computed" in caplog.text


def test_exchanged_placements_are_caught(base, caplog):
    with base.db() as db:
        rows = db.execute(
            "SELECT point, lo, row FROM placements WHERE tbl='solutions' ORDER BY row"
        ).fetchall()
        (p1, lo1, r1), (p2, lo2, r2) = rows[3], rows[-3]
        db.execute(
            "UPDATE placements SET row=? WHERE point=? AND lo=? AND tbl='solutions'", (r2, p1, lo1)
        )
        db.execute(
            "UPDATE placements SET row=? WHERE point=? AND lo=? AND tbl='solutions'", (r1, p2, lo2)
        )
    base.run("8..12")
    _check_solutions(base.folder, range(8, 13))


def test_a_store_of_another_output_copied_in_is_set_aside_not_applied(base, tmp_path, caplog):
    other = Output(tmp_path / "other")
    other.run("9..12")
    for suffix in ("-wal", "-shm"):
        Path(f"{base.state / 'store.sqlite'}{suffix}").unlink(missing_ok=True)
    shutil.copy(other.state / "store.sqlite", base.state / "store.sqlite")
    base.run("8..12")
    _check_solutions(base.folder, range(8, 13))
    assert caplog.text.count("belongs to another output folder") == 1
    assert list(base.state.glob("store.sqlite.foreign-*"))


def test_a_state_folder_belongs_to_one_output(tmp_path):
    shared = tmp_path / "state"
    Output(tmp_path / "a", shared).run("8..9")
    with pytest.raises(
        InputError,
        match=r"belongs to the output folder .*/a: give each output "
        r"its own state folder",
    ):
        Output(tmp_path / "b", shared).run("8..12")
    _check_solutions(tmp_path / "a", range(8, 10))
    assert not (tmp_path / "b").exists()  # refused before anything was written


def test_one_output_has_one_state_whatever_the_state_key_says(tmp_path):
    first = Output(tmp_path / "results", tmp_path / "s1")
    first.run("8..9")
    with pytest.raises(
        InputError,
        match=r"this output's state folder is .*/s1 .*, not "
        r".*/s2: set 'state:' to it",
    ):
        Output(tmp_path / "results", tmp_path / "s2").run("8..12")
    assert not (tmp_path / "s2").exists()
    shutil.rmtree(tmp_path / "s1")  # its own state gone: another may take its place
    Output(tmp_path / "results", tmp_path / "s2").run("8..10")
    _check_solutions(tmp_path / "results", range(8, 11))


def test_two_runs_on_one_output_through_two_state_keys_do_not_both_run(tmp_path):
    """A real second process holds the output; a run naming another state folder waits for
    nothing and is refused, naming the holder."""
    holder = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        from boardsweep.pipeline.claim import claim_output
        with claim_output(Path({str(tmp_path / "results")!r}), Path({str(tmp_path / "s1")!r})):
            print("held", flush=True)
            time.sleep(60)
    """)
    process = subprocess.Popen(
        [sys.executable, "-c", holder], cwd=ROOT, env=run_env(), stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout.readline().strip() == "held"
        config = tmp_path / "c.yaml"
        config.write_text("output: results\nstate: s2\njobs: [{name: q, problem: nqueens, n: 8}]\n")
        result = CliRunner().invoke(cli, ["run", str(config)], catch_exceptions=False)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(
            f"boardsweep: error: {tmp_path / 'results'}: the output "
            f"folder is in use by pid {process.pid} on "
        )
        assert not (tmp_path / "results" / "q").exists()
    finally:
        process.kill()
        process.wait()


def test_plan_never_changes_the_store(base, tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(
        "output: results\njobs: [{name: q, problem: nqueens, n: '8..12', solutions: true}]\n"
    )
    store = base.state / "store.sqlite"
    before = store.read_bytes()
    result = CliRunner().invoke(cli, ["plan", str(config)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert store.read_bytes() == before
    assert "q               counts" in result.stdout
    store.write_bytes(b"not a database" * 100)  # damaged: plan says so, and moves nothing
    result = CliRunner().invoke(cli, ["plan", str(config)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "the result store cannot be read" in result.stderr
    assert store.read_bytes() == b"not a database" * 100
    assert sorted(p.name for p in base.state.iterdir() if p.name.startswith("store")) == [
        "store.sqlite"
    ]


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE records SET version = CAST(X'FF41' AS TEXT) WHERE lo = 0",  # one flipped bit
        "UPDATE records SET hi = 'seven' WHERE lo = 0",
        "UPDATE placements SET row = 'x' WHERE row = 0",
    ],
    ids=["invalid-utf8", "wrong-type", "wrong-type-placement"],
)
def test_a_store_with_damaged_values_is_moved_aside_and_everything_computed_again(
    base, damage, caplog
):
    with base.db() as db:
        assert db.execute(damage).rowcount > 0
    base.run("8..12")
    _check_solutions(base.folder, range(8, 13))
    assert "cannot be read" in caplog.text
    assert list(base.state.glob("store.sqlite.corrupt-*"))
    base.run("8..12")  # and the fresh store is sound
    _check_solutions(base.folder, range(8, 13))


def _hold_locked(path: Path, seconds: float) -> subprocess.Popen:
    """Another process holding the store's write lock for ``seconds``."""
    script = textwrap.dedent(f"""
        import sqlite3, time
        db = sqlite3.connect({str(path)!r}, isolation_level=None)
        db.execute("BEGIN EXCLUSIVE")
        print("locked", flush=True)
        time.sleep({seconds})
        db.execute("ROLLBACK")
    """)
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "locked"
    return process


def test_a_locked_store_is_waited_for_never_discarded(base, caplog):
    holder = _hold_locked(base.state / "store.sqlite", 4)
    try:
        started = time.monotonic()
        base.run("8..12")
        assert time.monotonic() - started > 2
    finally:
        holder.wait()
    _check_solutions(base.folder, range(8, 13))
    assert caplog.text.count("locked by another process; waiting for it") == 1
    assert not list(base.state.glob("store.sqlite.*-*"))  # nothing set aside


def test_a_store_locked_too_long_fails_with_one_line_and_is_kept(base, monkeypatch):
    monkeypatch.setattr("boardsweep.pipeline.store.LOCK_WAIT_SECONDS", 1.0)
    with base.db() as db:
        records = db.execute("SELECT count(*) FROM records").fetchone()[0]
    holder = _hold_locked(base.state / "store.sqlite", 30)
    try:
        with pytest.raises(
            BoardsweepError, match="still locked by another process after 1 s; nothing was changed"
        ) as caught:
            base.run("8..12")
        assert caught.value.exit_code == 1
    finally:
        holder.kill()
        holder.wait()
    with base.db() as db:
        assert db.execute("SELECT count(*) FROM records").fetchone()[0] == records
    assert not list(base.state.glob("store.sqlite.*-*"))


def test_a_full_disk_is_one_line_and_exit_2_with_the_store_untouched(tmp_path):
    """The state folder on a small tmpfs that fills up: bad input (exit 2), one line, the
    store neither moved aside nor changed."""
    from tests.pipeline.test_bad_input import _mounted

    with _mounted("full", tmp_path / "m", size="512k"):
        out = Output(tmp_path / "m" / "results", tmp_path / "m" / "state")
        out.run("8..9")
        with out.db() as db:
            before = db.execute("SELECT count(*) FROM records").fetchone()[0]
        filler = os.open(tmp_path / "m" / "filler", os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):  # the disk fills up
            while True:
                os.write(filler, b"\0" * 4096)
        os.close(filler)
        config = tmp_path / "c.yaml"
        config.write_text(
            "output: m/results\nstate: m/state\njobs: [{name: q, problem: nqueens, "
            "n: '8..11', solutions: true}]\n"
        )
        result = CliRunner().invoke(
            cli, ["-q", "run", str(config), "--workers", "1"], catch_exceptions=False
        )
        assert result.exit_code == 2, result.output
        lines = result.stderr.splitlines()
        assert (
            len(lines) == 1
            and lines[0].startswith("boardsweep: error: ")
            and ("No space left on device" in lines[0] or "no space left" in lines[0])
        ), lines
        (tmp_path / "m" / "filler").unlink()
        with out.db() as db:
            assert db.execute("SELECT count(*) FROM records").fetchone()[0] == before
        assert not list(out.state.glob("store.sqlite.*-*"))  # nothing set aside
        out.run("8..11")  # space again: the run goes on from what was kept
        _check_solutions(out.folder, range(8, 12))
