"""Checks the problems' contract and format tests share: the same question asked of each
problem."""

from __future__ import annotations

import ast
import random
from collections.abc import Callable

import numpy as np
import pyarrow as pa
import pytest

from boardsweep.solvers.contract import FormatError, Report
from boardsweep.solvers.schema import ParamError
from tests.contract_driver import run_in_process


def format_cases(table: str) -> list[tuple[str, int | None, str]]:
    """The ``(text, line, message)`` cases of a bad-input table, one a row: ``TEXT | LINE |
    MESSAGE``, the text and the line as Python literals, the message as it stands (blank rows
    are passed over)."""
    cases = []
    for row in table.splitlines():
        if row.strip():
            text, line, message = row.split("|", 2)
            cases.append(
                (ast.literal_eval(text.strip()), ast.literal_eval(line.strip()), message.strip())
            )
    return cases


def assert_format_error_at(parse: Callable, text: str, line: int | None, message: str) -> None:
    """``parse(text)`` raises a :class:`FormatError` matching ``message`` at the line ``line``,
    whose text is its message alone (the pipeline adds the file name)."""
    with pytest.raises(FormatError, match=message) as caught:
        parse(text)
    assert caught.value.line == line
    assert str(caught.value) == caught.value.message


def assert_param_error_at(problem, raw, key: tuple, message: str, job: tuple) -> None:
    """``problem`` refuses the params ``raw`` with a :class:`ParamError` matching ``message``
    at the key path ``key``, and at ``job`` + ``key`` when checked under the path ``job``."""
    with pytest.raises(ParamError, match=message) as caught:
        problem.check_params(raw)
    assert caught.value.key == key
    with pytest.raises(ParamError) as caught:
        problem.check_params(raw, job)
    assert caught.value.key == (*job, *key)


def assert_set_check_refuses(
    problem, make_set: Callable[..., pa.Table], change: dict, message: str
) -> None:
    """``problem``'s instance check passes the set ``make_set()`` and refuses the set
    ``make_set(**change)`` with a :class:`ParamError` matching ``message``."""
    problem.instances.check(make_set())
    with pytest.raises(ParamError, match=message):
        problem.instances.check(make_set(**change))


def assert_judged_byte_for_byte(
    problem, params: dict, rows: pa.Table, table: str, expected: bytes, sizes: tuple[int, ...]
) -> None:
    """``problem``'s judge answers the seed input ``rows`` with ``expected`` exactly and no
    note, its result table ``table`` (computed in process) streamed in batches of each of
    ``sizes`` rows."""
    result = run_in_process(problem, params, random.Random(1), rows=rows)[table]
    notes: list[str] = []
    for size in sizes:
        out = b"".join(
            problem.seed_format.answer(
                {table: iter(result.to_batches(max_chunksize=size))}, params, notes.append
            )
        )
        assert out == expected
    assert notes == []


def report_of_one_table(problem, params: dict, seed: int, name: str, published: Callable):
    """``problem``'s report ``name`` on the tables of the job ``params``, computed in process
    (units cut at random by ``seed``) and handed over by ``published``: a :class:`Report` of one
    table, titled with ``name``.  Return the report and that table's frame."""
    out = run_in_process(problem, params, random.Random(seed))
    report = problem.report(name, published(out))
    assert isinstance(report, Report)
    ((title, frame),) = report.tables
    assert name in title
    return report, frame


def assert_costs_rise(cost: np.ndarray) -> None:
    """``cost`` holds finite float64 estimates, each above the one before."""
    assert cost.dtype == np.float64 and np.isfinite(cost).all() and (np.diff(cost) > 0).all()
