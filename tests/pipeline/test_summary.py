"""``keep: summary``: histograms per group that merge across tasks, workers, sets and nights,
equal to the statistics of the same boards kept one row each."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.publish import prepare_state
from boardsweep.pipeline.run import dask_runner, local_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.max_rooks.summary import histograms, statistics
from boardsweep.solvers.schema import Context
from tests.conftest import ROOT, boardsweep

GENERATE = {"n": [5, 8], "density": [0.2, 0.4], "count": 4000, "seed": 11}


def _run(tmp_path, name, params, runner=local_runner, threads=1, target=0.02):
    output = tmp_path / "results"
    state = state_folder(output)
    prepare_state(output, state)
    store = Store(state / "store.sqlite")
    try:
        job = make_job("max_rooks", name, params, Context(str(ROOT)))
        manifest = run_job(job, output, state, store, runner, threads, target, "test")
    finally:
        store.close()
    table = job.outputs()[0]
    return manifest, pq.read_table(output / name / f"{table}.parquet")


def _per_board(maxima, column="max_rooks", binned=False):
    """``{(rows, cols, density): Counter(value)}`` from rows kept one per board."""
    out = {}
    for row in maxima.to_pylist():
        value = row[column]
        if binned:
            value = None if value is None else int(value).bit_length() - 1
        if value is not None:
            out.setdefault((row["rows"], row["cols"], row["density"]), Counter())[value] += 1
    return out


def test_a_summary_equals_the_histograms_of_the_same_boards_kept_one_by_one(tmp_path):
    boards = {"boards": {"generate": GENERATE}, "counts": True}
    manifest, summary = _run(tmp_path / "s", "walled", {**boards, "keep": "summary"})
    assert manifest["tables"]["summary"]["rows"] == summary.num_rows < 200
    assert sum(r["units"] for r in summary.select(["units"]).to_pylist()) > 0
    _, maxima = _run(tmp_path / "b", "walled", boards)
    assert maxima.num_rows == 16000
    assert histograms(summary) == _per_board(maxima)
    for statistic, column in (
        ("placements_log2", "placements_text"),
        ("max_placements_log2", "max_placements_text"),
    ):
        assert histograms(summary, statistic) == _per_board(maxima, column, binned=True)
    assert {k: dict(v) for k, v in histograms(summary, "count_status").items()} == {
        k: {0: 4000} for k in _per_board(maxima)
    }
    stats = statistics(summary).set_index(["rows", "cols", "density"])
    for (r, c, d), part in maxima.to_pandas().groupby(["rows", "cols", "density"]):
        got = stats.loc[(r, c, d)]
        values = part["max_rooks"].to_numpy()
        assert got["boards"] == len(values)
        assert got["mean"] == pytest.approx(values.mean(), rel=1e-12)
        assert got["variance"] == pytest.approx(values.var(ddof=1), rel=1e-9)
        assert got["median"] == np.quantile(values, 0.5, method="inverted_cdf")
        assert got["p95"] == np.quantile(values, 0.95, method="inverted_cdf")
        half = 1.959964 * (values.var(ddof=1) / len(values)) ** 0.5
        assert got["ci95_low"] == pytest.approx(values.mean() - half, rel=1e-9)


def test_summaries_merge_the_same_across_task_sizes_and_workers(tmp_path, dask_client):
    params = {"boards": {"generate": GENERATE}, "keep": "summary"}
    _, small = _run(tmp_path / "a", "walled", params, target=0.005)
    _, whole = _run(tmp_path / "b", "walled", params, target=1000.0)
    _, cluster = _run(tmp_path / "c", "walled", params, dask_runner(dask_client, 2), 2)
    drop = ["units", "cpu_seconds"]
    assert small.drop(drop).equals(whole.drop(drop)) and cluster.drop(drop).equals(whole.drop(drop))
    # every work unit (board) is in exactly one task: the units add up to the boards
    units = {(r["rows"], r["density"]): r["units"] for r in small.to_pylist()}
    assert set(units.values()) == {4000}


def test_a_rerun_reuses_the_stored_tasks_and_nights_add_up(tmp_path):
    params = {"boards": {"generate": GENERATE}, "keep": "summary"}
    _, first = _run(tmp_path, "walled", params)
    _, again = _run(tmp_path, "walled", params)
    assert again.equals(first)  # nothing counted twice on a rerun
    other = {"boards": {"generate": {**GENERATE, "seed": 12}}, "keep": "summary"}
    _, night = _run(tmp_path, "night2", other)
    both = statistics(pa.concat_tables([first, night]))
    assert set(both["boards"]) == {8000}


def test_a_given_set_summarises_with_a_null_density(tmp_path):
    sample = str(ROOT / "data" / "max_rooks_sample.txt")
    _, summary = _run(tmp_path, "given", {"boards": {"ingest": sample}, "keep": "summary"})
    _, maxima = _run(tmp_path, "rows", {"boards": {"ingest": sample}})
    assert histograms(summary) == _per_board(maxima)
    assert set(summary.column("density").to_pylist()) == {None}


def test_solve_keeps_a_summary_on_the_command_line(tmp_path):
    out = tmp_path / "summary.parquet"
    done = boardsweep(
        "solve",
        "max_rooks",
        str(ROOT / "data" / "max_rooks_sample.txt"),
        "--keep",
        "summary",
        "--output",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    table = pq.read_table(out)
    assert "statistic" in table.column_names and table.num_rows > 0
    bad = boardsweep(
        "solve",
        "max_rooks",
        str(ROOT / "data" / "max_rooks_sample.txt"),
        "--keep",
        "rows",
        "--output",
        str(tmp_path / "x.parquet"),
    )
    assert bad.returncode == 2 and "keep" in bad.stderr


def test_every_pattern_job_publishes_the_distribution_of_plain_enumeration(tmp_path):
    from tests.solvers.test_max_rooks_exhaustive import _enumerated

    params = {"boards": {"all": {"rows": [3, 4], "cols": 4}}}
    manifest, table = _run(tmp_path, "every", params)
    assert manifest["tables"]["distribution"]["rows"] == table.num_rows
    from boardsweep.solvers.max_rooks.exact import histograms as exact_histograms

    found = exact_histograms(table)
    assert set(found) == {(3, 4), (4, 4)}
    for shape, hist in found.items():
        assert hist == dict(_enumerated(*shape))
    _, again = _run(tmp_path, "every", params)
    assert again.equals(table)  # reused, not recomputed


@pytest.mark.parametrize(
    "params,message",
    [
        ({"boards": {"all": {"rows": 10}}}, "shorter side is at most 9"),
        ({"boards": {"all": {"rows": 8, "cols": 20}}}, "at most 127 cells"),
        ({"boards": {"all": {"rows": 4}}, "counts": True}, "'counts' applies to boards solved"),
        ({"boards": {"all": {"rows": 4}}, "keep": "summary"}, "'keep' applies to boards solved"),
        ({"boards": {"all": {"rows": 0}}}, "boards.all.rows"),
        ({"boards": {"all": {"cols": 4}}}, "rows"),
    ],
)
def test_every_pattern_jobs_refuse_what_they_cannot_do(params, message):
    from boardsweep.solvers.schema import ParamError

    with pytest.raises(ParamError) as caught:
        make_job("max_rooks", "bad", params, Context(str(ROOT)))
    assert message in f"{caught.value.key}: {caught.value}" or message in str(caught.value)
