"""The Don't Get Rooked seed format: the POJ 1315 sample byte for byte, extensions, bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.max_rooks import format as fmt
from tests.contract_checks import assert_format_error_at, format_cases

# POJ 1315's sample (seed 003_2cf135e6840760fd.txt), input and expected output
SAMPLE_INPUT = """4
.X..
....
XX..
....
2
XX
.X
3
.X.
X.X
.X.
3
...
.XX
.XX
4
....
....
....
....
0
"""
SAMPLE_OUTPUT = "5\n1\n5\n2\n4\n"
SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "003_2cf135e6840760fd.txt"


def judge(text: str) -> str:
    """What ``boardsweep judge max_rooks`` computes: read, solve, render."""
    batch = mr.table_to_batch(fmt.read(text))
    return fmt.render_maxima(mr.solve_batch(batch)["max_rooks"])


def test_seed_sample_byte_for_byte():
    assert judge(SAMPLE_INPUT).encode() == SAMPLE_OUTPUT.encode()


@pytest.mark.skipif(not SEED.exists(), reason="seed documents not present")
def test_sample_matches_the_seed_document():
    text = SEED.read_text(encoding="utf-8")
    given = text.split("输入样例：")[1].split("输出样例：")[0]
    expected = text.split("输出样例：")[1].split("题意")[0]
    assert given.split() == SAMPLE_INPUT.split()
    assert expected.split() == SAMPLE_OUTPUT.split()


def test_read_layout():
    table = fmt.read(SAMPLE_INPUT)
    assert table.schema.equals(mr.BOARDS.compute_schema())
    assert table.column("board_id").to_pylist() == [0, 1, 2, 3, 4]
    assert table.column("density").null_count == 5
    assert table.column("cells")[1].as_py() == "XX.X"
    batch = mr.table_to_batch(table)
    assert batch["rows"].tolist() == [4, 2, 3, 3, 4] == batch["cols"].tolist()
    assert batch["offsets"].tolist() == [0, 16, 20, 29, 38, 54]
    assert batch["cells"].dtype == np.uint8
    assert mr.board_at(batch, 1).tolist() == [[1, 1], [0, 1]]


def test_rectangular_boards_blank_lines_and_crlf():
    text = "2 3\r\n.X.\r\n...\r\n\r\n  1 4 \n X..X\n1\nX\n\n0\n\n"
    batch = mr.table_to_batch(fmt.read(text))
    assert batch["rows"].tolist() == [2, 1, 1] and batch["cols"].tolist() == [3, 4, 1]
    assert mr.board_at(batch, 0).tolist() == [[0, 1, 0], [0, 0, 0]]
    assert judge(text) == "3\n1\n0\n"


def test_only_terminator():
    assert judge("0\n") == ""
    assert fmt.read("0").num_rows == 0


def test_write_round_trip():
    batch = mr.make_batch(
        [
            (np.random.default_rng(s).random((r, c)) < 0.4).astype(np.uint8)
            for s, (r, c) in enumerate([(3, 3), (2, 5), (6, 1), (1, 1)])
        ]
    )
    table = mr.batch_to_table(batch)
    text = fmt.write(table)
    assert text.startswith("3\n") and "\n2 5\n" in text and text.endswith("0\n")
    again = mr.table_to_batch(fmt.read(text))
    for key in batch:
        assert np.array_equal(batch[key], again[key])
    assert fmt.write(fmt.read(SAMPLE_INPUT)) == SAMPLE_INPUT
    assert fmt.write(fmt.read("0\n")) == "0\n"


def test_board_and_placement_text():
    batch = mr.table_to_batch(fmt.read(SAMPLE_INPUT))
    out = mr.solve_batch(batch)
    cells = mr.board_at(batch, 0)
    assert fmt.board_to_text(4, 4, cells) == ".X..\n....\nXX..\n....\n"
    placement = out["placement"][out["placement_offsets"][0] : out["placement_offsets"][1]]
    shown = fmt.placement_to_text(4, 4, cells, placement)
    assert shown.count("R") == 5 and shown.replace("R", ".") == ".X..\n....\nXX..\n....\n"
    assert fmt.placement_to_text(1, 3, np.array([0, 1, 0]), np.array([0, 2])) == "RXR\n"


def test_render_maxima():
    assert fmt.render_maxima(np.array([5, 1], dtype=np.int32)) == "5\n1\n"
    assert fmt.render_maxima(pa.array([], pa.int32()).to_numpy()) == ""


#: text (a Python literal) | the line the error names | a regex
BAD_INPUT = format_cases(
    r"""
    ""                     | 1 | unexpected end of input.*must end with a line '0'
    "2\n..\n..\n"          | 3 | unexpected end of input.*must end with a line '0'
    "3\n...\n...\n"        | 3 | board 1 \(size at line 1\) needs 3 rows, found 2
    "2\n..\n.\n0\n"        | 3 | row 2 of board 1 has 1 cells, expected 2
    "2\n...\n..\n0\n"      | 2 | row 1 of board 1 has 3 cells, expected 2
    "2\n..\n.x\n0\n"       | 3 | row 2 of board 1, column 2: expected '\.' \(open\) or 'X'.*'x'
    "1\n.\n2\n.#\n..\n0\n" | 4 | row 1 of board 2, column 2
    "1\n. \n1\n. .\n0\n"   | 4 | row 1 of board 2 has 3 cells
    "-2\n..\n..\n0\n"      | 1 | board size must be >= 1
    "0 3\n0\n"             | 1 | board size must be >= 1
    "abc\n0\n"             | 1 | expected a size line: 'n' or 'rows cols'.*got 'abc'
    "2.5\n0\n"             | 1 | expected a size line
    "2 3 4\n0\n"           | 1 | expected a size line
    ".X\n0\n"              | 1 | expected a size line
    "1\n.\n0\n1\n.\n"      | 4 | expected nothing after the terminating '0', got '1'
    "70000\n0\n"           | 1 | too large
    "2\n..\n1\n0\n"        | 3 | looks like a size line: does board 1 have only 1 of its 2 rows
    """
)


@pytest.mark.parametrize("text, line, message", BAD_INPUT)
def test_bad_input(text, line, message):
    assert_format_error_at(fmt.read, text, line, message)
