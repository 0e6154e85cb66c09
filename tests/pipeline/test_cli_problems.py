"""The command line for queens_rooks and max_rooks, through real subprocesses."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from tests.conftest import ROOT, boardsweep

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n


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
    [
        (("3", "1"), "8\n"),
        (("0", "0"), "1\n"),
        (("0", "21"), "51090942171709440000\n"),
        (("8", "0"), "92\n"),
    ],
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
    done = boardsweep(
        "ingest", "max_rooks", str(ROOT / "data" / "max_rooks_sample.txt"), "-o", str(boards)
    )
    assert done.returncode == 0, done.stderr
    assert pq.read_table(boards).column("cells").to_pylist()[1] == "XX.X"
    gen = tmp_path / "gen.parquet"
    generate = "generate max_rooks --n 6 --density 0.25 --count 500 --seed 3".split()
    done = boardsweep(*generate, "-o", str(gen))
    assert done.returncode == 0, done.stderr
    again = tmp_path / "again.parquet"
    boardsweep(*generate, "-o", str(again), "--workers", "2")
    assert pq.read_table(gen).equals(pq.read_table(again))
    out = tmp_path / "res" / "walled" / "maxima.parquet"
    done = boardsweep("solve", "max_rooks", str(gen), "-o", str(out), "--counts")
    assert done.returncode == 0, done.stderr
    table = pq.read_table(out)
    assert table.num_rows == 500 and table.column("placements").null_count == 0
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".")]
    shown = boardsweep("report", str(tmp_path / "res"))
    assert shown.returncode == 0 and "6     6    0.25     500" in shown.stdout
    assert list((tmp_path / "res" / "_report").glob("walled-maxima-*.png"))
