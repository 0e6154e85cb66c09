"""Seed text format for Slant (UVa 11694): parsing, errors, and byte-exact output."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.errors import InputError
from pipeline.formats.slant import parse, render
from solvers import slant

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
    """Parse, solve and render every case, as the seed's program would answer."""
    batch = parse(text, "sample.txt")
    out = slant.solve_batch(batch)
    pieces = []
    for j in range(len(batch["rows"])):
        lo, hi = out["solution_offsets"][j], out["solution_offsets"][j + 1]
        pieces.append(render(int(batch["rows"][j]), int(batch["cols"][j]), out["solution"][lo:hi]))
    return "".join(pieces)


def test_seed_sample_byte_exact():
    assert judge(SAMPLE_IN) == SAMPLE_OUT


def test_parse_layout():
    batch = parse(SAMPLE_IN, "sample.txt")
    assert batch["puzzle_id"].tolist() == [0, 1]
    assert batch["rows"].tolist() == [3, 5] and batch["cols"].tolist() == [3, 5]
    assert batch["offsets"].tolist() == [0, 16, 52]
    assert batch["clues"][:8].tolist() == [1, -1, 1, -1, -1, -1, -1, 0]
    assert batch["clues"].dtype == np.int8


def test_rectangular_extension_blank_lines_and_crlf():
    text = "1\r\n\r\n2 3\r\n.1..\r\n....\r\n..1.\r\n"
    batch = parse(text, "rect.txt")
    assert batch["rows"].tolist() == [2] and batch["cols"].tolist() == [3]
    assert batch["clues"].tolist() == [-1, 1, -1, -1, -1, -1, -1, -1, -1, -1, 1, -1]


def test_render_rows():
    assert render(2, 3, np.array([0, 1, 0, 1, 1, 0], dtype=np.uint8)) == "/\\/\n\\\\/\n"


def test_zero_cases():
    assert len(parse("0\n", "none.txt")["rows"]) == 0


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", None, "empty input"),
        ("two\n3\n", 1, "number of cases T"),
        ("1\nx\n", 2, "grid size"),
        ("1\n0\n", 2, "grid size"),
        ("1\n2\n1.1\n.5.\n...\n", 4, "clue 5 is above 4 at column 2"),
        ("1\n2\n1.1\n.x.\n...\n", 4, "unexpected character 'x' at column 2"),
        ("1\n2\n1.1\n....\n...\n", 4, "row of 3 characters"),
        ("1\n2\n1.1\n...\n", 4, "expected 3 rows of clues, found 2"),
        ("2\n2\n1.1\n...\n2\n...\n...\n...\n", 5, "expected 3 rows of clues, found 2"),
        ("2\n2\n1.1\n...\n...\n...\n", 6, "has case 1 too many rows"),
        ("2\n1\n1.\n..\n", 4, "expected 2 cases (T = 2), found 1"),
        ("1\n1\n1.\n..\n1\n1.\n..\n", 5, "T = 1 but more input follows"),
    ],
)
def test_bad_input(text, line, message):
    with pytest.raises(InputError) as err:
        parse(text, "bad.txt")
    assert message in err.value.message
    assert err.value.path == "bad.txt"
    assert err.value.line == line
