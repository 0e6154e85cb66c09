"""Seed text format for Slant (UVa 11694): parsing, errors, and byte-exact output."""

from __future__ import annotations

import numpy as np
import pytest

from boardsweep.solvers import slant
from boardsweep.solvers.contract import FormatError
from boardsweep.solvers.slant.format import read, render, write
from tests.contract_checks import format_cases

SAMPLE_IN = """2
3
1.1.
...0
.3..
..2.
5
.21...
..33.0
......
..33..
0..33.
....11
"""

SAMPLE_OUT = """\\//
\\\\\\
/\\/
/\\\\//
//\\\\\\
\\\\\\//
\\/\\\\/
///\\\\
"""


def judge(text: str) -> str:
    """Read, solve and render every case, as the seed's program would answer."""
    table = read(text)
    out = slant.solve_batch(slant.table_to_batch(table))
    pieces = []
    for j in range(table.num_rows):
        lo, hi = out["solution_offsets"][j], out["solution_offsets"][j + 1]
        pieces.append(
            render(
                table.column("rows")[j].as_py(),
                table.column("cols")[j].as_py(),
                slant.to_text(out["solution"][lo:hi]),
            )
        )
    return "".join(pieces)


def test_seed_sample_byte_exact():
    assert judge(SAMPLE_IN) == SAMPLE_OUT


def test_read_layout():
    table = read(SAMPLE_IN)
    assert table.schema.equals(slant.PUZZLES.compute_schema())
    assert table.column("clues")[0].as_py() == "1.1....0.3....2."
    batch = slant.table_to_batch(table)
    assert batch["puzzle_id"].tolist() == [0, 1]
    assert batch["rows"].tolist() == [3, 5] and batch["cols"].tolist() == [3, 5]
    assert batch["offsets"].tolist() == [0, 16, 52]
    assert batch["clues"][:8].tolist() == [1, -1, 1, -1, -1, -1, -1, 0]
    assert batch["clues"].dtype == np.int8


def test_rectangular_extension_blank_lines_and_crlf():
    text = "1\r\n\r\n2 3\r\n.1..\r\n....\r\n..1.\r\n"
    batch = slant.table_to_batch(read(text))
    assert batch["rows"].tolist() == [2] and batch["cols"].tolist() == [3]
    assert batch["clues"].tolist() == [-1, 1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1]
    assert write(read(text)) == "1\n2 3\n.1..\n....\n..1.\n"


def test_write_round_trip():
    assert write(read(SAMPLE_IN)) == SAMPLE_IN
    batch = slant.generate(4, 3, seed=2, rows=2)
    again = slant.table_to_batch(read(write(slant.batch_to_table(batch))))
    for key in batch:
        assert np.array_equal(batch[key], again[key])


def test_render_rows():
    assert render(2, 3, "/\\/\\\\/") == "/\\/\n\\\\/\n"


def test_zero_cases():
    assert read("0\n").num_rows == 0
    assert write(read("0\n")) == "0\n"


#: text (a Python literal) | the line the error names | part of the message
BAD_INPUT = format_cases(
    r"""
    ""                                   | None | empty input
    "two\n3\n"                           | 1    | number of cases T
    "1\nx\n"                             | 2    | grid size
    "1\n0\n"                             | 2    | grid size
    "1\n2\n1.1\n.5.\n...\n"              | 4    | clue 5 is above 4 at column 2
    "1\n2\n1.1\n.x.\n...\n"              | 4    | unexpected character 'x' at column 2
    "1\n2\n1.1\n....\n...\n"             | 4    | row of 3 characters
    "1\n2\n1.1\n...\n"                   | 4    | expected 3 rows of clues, found 2
    "2\n2\n1.1\n...\n2\n...\n...\n...\n" | 5    | expected 3 rows of clues, found 2
    "2\n2\n1.1\n...\n...\n...\n"         | 6    | has case 1 too many rows
    "2\n1\n1.\n..\n"                     | 4    | expected 2 cases (T = 2), found 1
    "1\n1\n1.\n..\n1\n1.\n..\n"          | 5    | T = 1 but more input follows
    "1\n50000\n"                         | 2    | too large
    """
)


@pytest.mark.parametrize("text, line, message", BAD_INPUT)
def test_bad_input(text, line, message):
    with pytest.raises(FormatError) as err:
        read(text)
    assert message in err.value.message
    assert err.value.line == line
