"""Instance jobs end to end: generated sets, solving on a real cluster, merged tables."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
from pipeline.config import JobSpec
from pipeline.execute import dask_runner, local_runner

import solvers
from pipeline import datasets, store
from pipeline.jobs import generate_set, run_job
from tests.conftest import ROOT

ROOKS = solvers.get("max_rooks")
GENERATE = {"n": [4, 6], "density": [0.1, 0.3], "count": 3000, "seed": 7}


def test_generated_set_is_the_same_for_any_number_of_workers(tmp_path, dask_client):
    generate_set("max_rooks", GENERATE, local_runner, 1, tmp_path / "one.parquet")
    generate_set("max_rooks", GENERATE, dask_runner(dask_client), 2, tmp_path / "two.parquet")
    one, two = pq.read_table(tmp_path / "one.parquet"), pq.read_table(tmp_path / "two.parquet")
    assert one.num_rows == 12000 and one.equals(two)
    assert one.column("board_id").to_pylist() == list(range(12000))


def test_max_rooks_job_on_cluster_matches_direct_solve(tmp_path, dask_client):
    job = JobSpec("walled", "max_rooks", {"boards": {"generate": GENERATE}, "counts": True})
    manifest = run_job(job, tmp_path, dask_runner(dask_client), workers=2)
    table = pq.read_table(tmp_path / "walled" / "maxima.parquet")
    assert manifest["tables"] == ["maxima.parquet"] and table.num_rows == 12000
    assert table.column_names == ["board_id", "rows", "cols", "density", "walls", "max_rooks",
                                  "max_placements", "placements", "placement", "nodes"]
    batch = datasets.table_to_batch(ROOKS, pq.read_table(_generated(tmp_path)), "set")
    direct = ROOKS.solve_batch(batch, counts=True)
    assert table.column("max_rooks").to_pylist() == direct["max_rooks"].tolist()
    assert [int(v) for v in table.column("placements").to_pylist()] == [
        int(v) for v in direct["placements"]]
    assert table.column("board_id").to_pylist() == list(range(12000))
    rerun = run_job(job, tmp_path, dask_runner(dask_client), workers=2)
    assert rerun["tasks"]["run"] == 0 and rerun["tasks"]["skipped"] == manifest["tasks"]["run"]


def _generated(tmp_path):
    path = tmp_path / "set.parquet"
    generate_set("max_rooks", GENERATE, local_runner, 1, path)
    return path


def test_ingested_job_leaves_counts_null_without_counts(tmp_path):
    sample = str(ROOT / "data" / "max_rooks_sample.txt")
    job = JobSpec("seed", "max_rooks", {"boards": {"ingest": sample}})
    run_job(job, tmp_path, local_runner, workers=2)
    table = store.read_table(tmp_path / "seed" / "maxima.parquet")
    assert table.column("max_rooks").to_pylist() == [5, 1, 5, 2, 4]
    assert table.column("placements").null_count == 5
    assert table.column("density").null_count == 5
    placement = table.column("placement").to_pylist()[0]
    assert len(placement) == 5 and np.all(np.diff(placement) > 0)


def test_extended_generated_sweep_reuses_finished_points(tmp_path):
    small = {**GENERATE, "n": [4]}
    first = run_job(JobSpec("w", "max_rooks", {"boards": {"generate": small}}), tmp_path,
                    local_runner, workers=2)
    assert first["tasks"]["points"] == 2 and first["tasks"]["points_reused"] == 0
    job = JobSpec("w", "max_rooks", {"boards": {"generate": GENERATE}})
    again = run_job(job, tmp_path, local_runner, workers=1)
    assert again["tasks"]["points"] == 4 and again["tasks"]["points_reused"] == 2
    extended = pq.read_table(tmp_path / "w" / "maxima.parquet")
    fresh = run_job(job, tmp_path / "fresh", local_runner, workers=1)
    assert fresh["tasks"]["points_reused"] == 0
    assert extended.equals(pq.read_table(tmp_path / "fresh" / "w" / "maxima.parquet"))
