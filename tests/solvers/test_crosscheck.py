"""Each problem's second method (``crosscheck``, for ``boardsweep verify``) against its
``compute`` on small points, and a witness it must not echo when it is wrong."""

from __future__ import annotations

import pyarrow as pa
import pytest

from boardsweep.solvers import max_rooks, nqueens, queens_rooks, slant


def agree(problem, point, lo, hi, published=None):
    """The crosscheck's rows equal compute's in every column it returns; the check."""
    computed = problem.compute(point, lo, hi)
    check = problem.crosscheck(point, lo, hi, computed if published is None else published)
    assert check is not None and check.method
    for name in check.rows.schema.names:
        want = computed.column(name).to_pylist()
        if problem.table(point.table).merge == "sum":  # the rows it covers, by key
            keys = problem.table(point.table).keys
            have = {
                tuple(computed.column(k)[i].as_py() for k in keys): i
                for i in range(computed.num_rows)
            }
            want = [
                want[have[tuple(check.rows.column(k)[i].as_py() for k in keys)]]
                for i in range(check.rows.num_rows)
            ]
        assert check.rows.column(name).to_pylist() == want, (point.label, name)
    return check


@pytest.mark.parametrize("n", [1, 2, 4, 8, 10])
def test_nqueens_row_search_and_backtracking(n):
    counts = nqueens.PROBLEM.points({"n": (n,)}, "counts")[0]
    agree(nqueens.PROBLEM, counts, 0, counts.units)
    assert nqueens.crosscheck(counts, 0, counts.units - 1, None) is None or counts.units == 1
    solutions = nqueens.PROBLEM.points({"n": (n,)}, "solutions")[0]
    agree(nqueens.PROBLEM, solutions, 0, solutions.units)
    agree(nqueens.PROBLEM, solutions, solutions.units - 1, solutions.units)


@pytest.mark.parametrize("n", [1, 3, 6, 8])
def test_queens_rooks_permanent(n):
    point = queens_rooks.PROBLEM.points({"total": (n,)}, "counts")[0]
    check = agree(queens_rooks.PROBLEM, point, 0, point.units)
    assert check.rows.column("queens").to_pylist() == list(range(min(n, 2) + 1))
    large = queens_rooks.PROBLEM.points({"pairs": ((5, 3),)}, "counts")[0]
    assert queens_rooks.crosscheck(large, 0, large.units, None) is None  # M = 5: none


def test_max_rooks_seed_search_and_a_wrong_placement():
    params = max_rooks.PROBLEM.check_params(
        {"boards": {"generate": {"n": 5, "density": 0.3, "count": 30, "seed": 4}}, "counts": True}
    )
    point = max_rooks.PROBLEM.points(params, "maxima")[0]
    computed = max_rooks.PROBLEM.compute(point, 3, 20)
    agree(max_rooks.PROBLEM, point, 3, 20, computed)
    placements = computed.column("placement").to_pylist()
    placements[0] = placements[0][:-1]  # one rook short of the maximum
    wrong = computed.set_column(
        computed.schema.get_field_index("placement"),
        "placement",
        pa.array(placements, pa.list_(pa.int32())),
    )
    check = max_rooks.crosscheck(point, 3, 20, wrong)
    assert check.rows.column("placement")[0].as_py() == [-1]
    summary = max_rooks.PROBLEM.points({**params, "keep": "summary"}, "summary")[0]
    agree(max_rooks.PROBLEM, summary, 0, summary.units)
    big = max_rooks.PROBLEM.check_params(
        {"boards": {"generate": {"n": 7, "density": 0.3, "count": 2, "seed": 4}}}
    )
    point = max_rooks.PROBLEM.points(big, "maxima")[0]
    assert max_rooks.crosscheck(point, 0, 2, max_rooks.PROBLEM.compute(point, 0, 2)) is None


def test_slant_both_searches_and_a_wrong_solution():
    params = slant.PROBLEM.check_params({"puzzles": {"generate": {"n": 5, "count": 8, "seed": 2}}})
    point = slant.PROBLEM.points(params, "slant")[0]
    computed = slant.PROBLEM.compute(point, 0, 8)
    agree(slant.PROBLEM, point, 0, 8, computed)
    solutions = computed.column("solution").to_pylist()
    solutions[0] = "/" * 25
    wrong = computed.set_column(
        computed.schema.get_field_index("solution"), "solution", pa.array(solutions, pa.string())
    )
    check = slant.crosscheck(point, 0, 8, wrong)
    assert check.rows.column("solution")[0].as_py() == computed.column("solution")[0].as_py()
