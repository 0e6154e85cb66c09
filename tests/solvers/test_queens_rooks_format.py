"""The b510 seed format: the sample byte for byte, several lines, bad input with line numbers."""

from __future__ import annotations

import pytest

from boardsweep.solvers.queens_rooks import format as fmt
from tests.contract_checks import assert_format_error_at, format_cases


def test_seed_sample():
    assert fmt.parse("3 1\n") == [(3, 1)]
    assert fmt.render([8]) == "8\n"


def test_lines_until_end_of_input():
    text = "3 1\n\n  0 0  \n2\t5\r\n+1 0"  # blank lines ignored, no final newline needed
    assert fmt.parse(text) == [(3, 1), (0, 0), (2, 5), (1, 0)]
    assert fmt.parse("") == [] and fmt.parse("\n\n") == []


def test_render_is_newline_terminated_and_exact():
    assert fmt.render([]) == ""
    assert fmt.render([8, 1, 2**70]) == f"8\n1\n{2**70}\n"


def test_limit_matches_the_kernel():
    from boardsweep.solvers.queens_rooks import MAX_TOTAL

    assert fmt.MAX_TOTAL == MAX_TOTAL
    assert fmt.parse("32 0\n0 32") == [(32, 0), (0, 32)]


#: text (a Python literal) | the line the error names | a regex
BAD_LINES = format_cases(
    r"""
    "3 1\n4\n"     | 2 | expected a line 'M N'
    "3 1 2\n"      | 1 | expected a line 'M N'
    "3 1\n\nx 2\n" | 3 | not 'x 2'
    "1.5 2\n"      | 1 | two non-negative integers
    "1_0 2\n"      | 1 | two non-negative integers
    "3 -1\n"       | 1 | not M = 3, N = -1
    "1 1\n20 13\n" | 2 | M \+ N = 33 is too large
    """
)


@pytest.mark.parametrize("text, line, message", BAD_LINES)
def test_bad_lines_name_the_line(text, line, message):
    assert_format_error_at(fmt.parse, text, line, message)
