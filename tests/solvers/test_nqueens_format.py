"""The AcWing 843 seed format: the sample byte for byte, bad input with line numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardsweep.solvers import nqueens
from boardsweep.solvers.nqueens import format as fmt
from tests.contract_checks import assert_format_error_at, format_cases

DATA = Path(__file__).resolve().parents[2] / "data"


def test_seed_sample():
    text = (DATA / "nqueens_sample.txt").read_text()
    n = fmt.parse(text)
    assert n == 4
    assert fmt.render(n, nqueens.solutions(n)) == (DATA / "nqueens_sample.out").read_bytes()


def test_blank_lines_around_n_are_ignored():
    assert fmt.parse("\n  8 \n\n") == 8
    assert fmt.parse("32") == 32 and fmt.MAX_JUDGE_N == nqueens.MAX_N


def test_render_boards():
    assert fmt.render(1, np.zeros((1, 1), np.int8)) == b"Q\n\n"
    assert fmt.render(3, np.zeros((0, 3), np.int8)) == b""
    two = np.array([[1, 3, 0, 2], [2, 0, 3, 1]], np.int8)
    assert fmt.render(4, two) == b".Q..\n...Q\nQ...\n..Q.\n\n..Q.\nQ...\n...Q\n.Q..\n\n"


#: text (a Python literal) | the line the error names | a regex
BAD_INPUT = format_cases(
    r"""
    ""         | None | found no input
    "\n \n"    | None | found no input
    "x\n"      | 1    | expected one integer n
    "\n4.5\n"  | 2    | not '4.5'
    "4\n5\n"   | 2    | expected nothing after n
    "4 5\n"    | 1    | expected one integer n
    "\n\n33\n" | 3    | n = 33 is out of range: expected 1 <= n <= 32
    "0\n"      | 1    | out of range
    "-2\n"     | 1    | out of range
    """
)


@pytest.mark.parametrize("text, line, message", BAD_INPUT)
def test_bad_input_names_the_line(text, line, message):
    assert_format_error_at(fmt.parse, text, line, message)
