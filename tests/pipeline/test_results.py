"""Result tables: fragments merge into exact sums, far past 64 bits."""

from __future__ import annotations

import numpy as np

from pipeline import results


def _fragment(counts, task):
    outputs = [{"n": 30, "queens": q, "rooks": 30 - q} for q in range(len(counts))]
    result = {"counts": counts, "nodes": 5, "prefixes": 2, "cpu_seconds": 0.5}
    return results.counts_fragment("queens_rooks", outputs, result, task)


def test_merge_is_exact_beyond_64_bits():
    big = 2**64 + 12345
    merged = results.merge_counts([_fragment([big, 1], "a"), _fragment([big, 2], "b")])
    assert results.count_values(merged) == [2 * big, 3]
    assert merged.column("tasks").to_pylist() == [2, 2]
    assert merged.column("nodes").to_pylist() == [10, 10]
    assert merged.schema.field("count").type == results.COUNT


def test_merge_sorts_rows():
    merged = results.merge_counts([_fragment([7, 8, 9], "a")])
    assert merged.column("queens").to_pylist() == [0, 1, 2]


def test_solutions_table_round_trip():
    rows = np.array([[1, 3, 0, 2], [2, 0, 3, 1]], dtype=np.int8)
    table = results.solutions_table(4, rows)
    assert table.column("solution").to_pylist() == rows.tolist()
    assert table.column("n").to_pylist() == [4, 4]


def test_concat_results_rebases_offsets():
    a = {"status": np.array([1, 2]), "solution_offsets": np.array([0, 3, 5]),
         "solution": np.array([1, 1, 0, 0, 1])}
    b = {"status": np.array([0]), "solution_offsets": np.array([0, 0]),
         "solution": np.array([], dtype=np.int64)}
    c = {"status": np.array([1]), "solution_offsets": np.array([0, 2]),
         "solution": np.array([0, 1])}
    joined = results.concat_results([a, b, c])
    assert joined["status"].tolist() == [1, 2, 0, 1]
    assert joined["solution_offsets"].tolist() == [0, 3, 5, 5, 7]
    assert joined["solution"].tolist() == [1, 1, 0, 0, 1, 0, 1]
