"""The command line for queens_rooks and max_rooks, through real subprocesses."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.conftest import ROOT, boardsweep


def test_judge_queens_rooks_seed_sample_and_more():
    sample = (ROOT / "data" / "queens_rooks_sample.txt").read_text()
    done = boardsweep("judge", "queens_rooks", stdin=sample)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "data" / "queens_rooks_sample.out").read_text()
    # 0 rooks: Q(M); 0 queens: N!; the empty board: 1; answers keep the input order
    done = boardsweep("judge", "queens_rooks", stdin="8 0\n0 0\n0 7\n\n3 1\n")
    assert done.stdout == "92\n1\n5040\n8\n"


@pytest.mark.parametrize(
    ("args", "out"),
    [(("3", "1"), "8\n"), (("0", "0"), "1\n"), (("0", "21"), "51090942171709440000\n"),
     (("8", "0"), "92\n")],
)
def test_solve_queens_rooks(args, out):
    done = boardsweep("solve", "queens_rooks", *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout == out


def test_judge_max_rooks_seed_sample_byte_for_byte():
    sample = (ROOT / "data" / "max_rooks_sample.txt").read_text()
    done = boardsweep("judge", "max_rooks", stdin=sample)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "data" / "max_rooks_sample.out").read_text() == "5\n1\n5\n2\n4\n"


def test_ingest_generate_solve_report(tmp_path):
    boards = tmp_path / "seed.parquet"
    done = boardsweep("ingest", "max_rooks", str(ROOT / "data" / "max_rooks_sample.txt"),
                      "-o", str(boards))
    assert done.returncode == 0, done.stderr
    assert pq.read_table(boards).column("cells").to_pylist()[1] == "XX.X"
    gen = tmp_path / "gen.parquet"
    done = boardsweep("generate", "max_rooks", "--n", "6", "--density", "0.25", "--count",
                      "500", "--seed", "3", "-o", str(gen))
    assert done.returncode == 0, done.stderr
    again = tmp_path / "again.parquet"
    boardsweep("generate", "max_rooks", "--n", "6", "--density", "0.25", "--count", "500",
               "--seed", "3", "-o", str(again), "--workers", "2")
    assert pq.read_table(gen).equals(pq.read_table(again))
    out = tmp_path / "res" / "walled" / "maxima.parquet"
    done = boardsweep("solve", "max_rooks", str(gen), "-o", str(out), "--counts")
    assert done.returncode == 0, done.stderr
    table = pq.read_table(out)
    assert table.num_rows == 500 and table.column("placements").null_count == 0
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]
    shown = boardsweep("report", str(tmp_path / "res"))
    assert shown.returncode == 0 and "6     6    0.25     500" in shown.stdout
    assert (out.parent / "maxima.png").exists()


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("solve", "queens_rooks", "-1", "3"), None,
         "queens_rooks: M (queens) must be a non-negative integer, not -1"),
        (("solve", "queens_rooks", "20", "20"), None,
         "queens_rooks: M + N = 40 is out of range: expected 1 <= M + N <= 32"),
        (("judge", "queens_rooks"), "3 1\n3\n", "<stdin>:2: expected a line 'M N'"),
        (("judge", "queens_rooks"), "30 5\n", "<stdin>:1: M + N = 35 is too large"),
        (("judge", "max_rooks"), "2\n..\n.Y\n0\n", "<stdin>:3:"),
        (("judge", "max_rooks"), "2\n..\n...\n0\n", "<stdin>:3:"),
        (("judge", "max_rooks"), "2\n..\n..\n", "<stdin>"),
        (("generate", "max_rooks", "--n", "4", "--density", "1.5", "--count", "3", "-o",
          "x.parquet"), None, "max_rooks: 'density' = 1.5 is out of range"),
        (("generate", "max_rooks", "--n", "0", "--density", "0.5", "--count", "3", "-o",
          "x.parquet"), None, "max_rooks: 'n' = 0 is out of range"),
        (("ingest", "max_rooks", "no/such.txt", "-o", "x.parquet"), None,
         "no/such.txt: cannot read: No such file or directory"),
    ],
)
def test_bad_input_exit_2_and_nothing_written(tmp_path, args, stdin, message):
    done = boardsweep(*args, stdin=stdin, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert done.stdout == "" and list(tmp_path.iterdir()) == []
