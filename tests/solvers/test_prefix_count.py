"""The prefix-count kit on its own: the plan's choice of depth, the unit ranges, chunked sums."""

from __future__ import annotations

import numpy as np
import pytest

from boardsweep.solvers import prefix_count
from boardsweep.solvers.prefixes import prefix_numbers


def test_plan_takes_the_shallowest_depth_that_reaches_the_target():
    at = {1: 4, 2: 16, 3: 64, 4: 256, 5: 1024}
    seconds = 100 * prefix_count.UNIT_SECONDS  # a target of 100 units
    assert prefix_count.plan(seconds, at, lambda d, cap: at[d], 8, 10_000) == (4, 256)
    # the minimum rules a cheap point; a depth past max_units stops the walk
    assert prefix_count.plan(0.0, at, lambda d, cap: at[d], 8, 10_000) == (2, 16)
    assert prefix_count.plan(1e9, at, lambda d, cap: at[d], 8, 300) == (4, 256)
    # nothing reaches the target: the depth with the most prefixes; nothing splits: (0, 1)
    assert prefix_count.plan(1e9, [1, 2], lambda d, cap: at[d], 8, 10_000) == (2, 16)
    assert prefix_count.plan(1e9, [1, 2], lambda d, cap: 1, 8, 10_000) == (0, 1)


def test_a_unit_range_outside_the_point_is_refused():
    prefix_count.check_range(10, 0, 10)
    for lo, hi in ((-1, 3), (4, 3), (0, 11)):
        with pytest.raises(ValueError, match=f"unit range {lo}..{hi} is not within 0..10"):
            prefix_count.check_range(10, lo, hi)


@pytest.mark.parametrize("units", [1, 7, 97, 1000])
def test_prefix_numbers_of_a_range_are_its_units_prefixes_in_search_order(units):
    got = prefix_count.sorted_prefix_numbers(units, 0, units)
    assert got.tolist() == list(range(units))  # every prefix once
    lo, hi = units // 3, units // 3 + units // 2
    part = prefix_count.sorted_prefix_numbers(units, lo, hi)
    assert part.tolist() == sorted(prefix_numbers(units, lo, hi).tolist())


def test_chunked_sums_are_exact_and_the_same_over_any_partition():
    units, big = 1000, 1 << 70  # past int64: the sums stay Python ints

    def count_chunk(a: int, b: int) -> list[int]:
        numbers = prefix_numbers(units, a, b)
        return [len(numbers), int(np.sum(numbers)) * big]

    whole = prefix_count.count_units(units, 0, units, 10**6, 2, count_chunk)
    assert whole == [units, units * (units - 1) // 2 * big]
    rng = np.random.default_rng(5)
    cuts = [0, *sorted(rng.choice(np.arange(1, units), 9, replace=False).tolist()), units]
    for chunk in (1, 7, 64):
        parts = [
            prefix_count.count_units(units, a, b, chunk, 2, count_chunk)
            for a, b in zip(cuts, cuts[1:], strict=False)
        ]
        assert [sum(column) for column in zip(*parts, strict=True)] == whole
