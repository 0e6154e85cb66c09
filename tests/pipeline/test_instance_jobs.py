"""Instance jobs end to end on a real two-process cluster: generated and given sets, exact
against the solver called directly, the same whatever the number of workers."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq

import solvers
from pipeline.jobs import run_job
from pipeline.publish import prepare_state
from pipeline.run import dask_runner, local_runner
from pipeline.spec import make_job, state_folder
from pipeline.store import Store
from solvers.schema import Context
from tests.conftest import ROOT, boardsweep

ROOKS = solvers.get("max_rooks")
GENERATE = {"n": [4, 6], "density": [0.1, 0.3], "count": 3000, "seed": 7}


def _run(tmp_path, name, params, runner, threads):
    output = tmp_path / "results"
    state = state_folder(output)
    prepare_state(output, state)
    store = Store(state / "store.sqlite")
    try:
        manifest = run_job(make_job("max_rooks", name, params, Context(str(ROOT))), output,
                           state, store, runner, threads, 0.2, "test")
    finally:
        store.close()
    return manifest, pq.read_table(output / name / "maxima.parquet")


def test_generated_job_on_a_cluster_equals_the_solver_called_directly(tmp_path, dask_client):
    params = {"boards": {"generate": GENERATE}, "counts": True}
    manifest, table = _run(tmp_path, "walled", params, dask_runner(dask_client, 2), 2)
    assert table.num_rows == 12000 and manifest["tables"]["maxima"]["rows"] == 12000
    assert table.column_names == [
        "board_id", "rows", "cols", "density", "walls", "max_rooks", "max_placements",
        "max_placements_text", "placements", "placements_text", "placement", "nodes"]
    for n in (4, 6):
        for density in (0.1, 0.3):
            part = table.filter((table["rows"].to_numpy() == n)
                                & (table["density"].to_numpy() == density))
            batch = ROOKS.generate(ROOKS.groups(ROOKS.check_params(
                {"boards": {"generate": {**GENERATE, "n": n, "density": density}}})
                ["boards"][1])[0], 0, 3000)
            direct = ROOKS.solve_rows(batch, {"counts": True})
            assert part.column("board_id").to_pylist() == list(range(3000))
            assert part.column("max_rooks").equals(direct.column("max_rooks"))
            assert part.column("placements_text").equals(direct.column("placements_text"))
    _, alone = _run(tmp_path / "one", "walled", params, local_runner, 1)
    assert alone.equals(table)  # the same rows on one worker in this process


def test_a_given_set_without_counts_leaves_them_null(tmp_path):
    sample = str(ROOT / "data" / "max_rooks_sample.txt")
    _, table = _run(tmp_path, "seed", {"boards": {"ingest": sample}}, local_runner, 1)
    assert table.column("max_rooks").to_pylist() == [5, 1, 5, 2, 4]
    assert table.column("placements").null_count == 5
    assert table.column("placements_text").null_count == 5
    assert table.column("density").null_count == 5
    placement = table.column("placement").to_pylist()[0]
    assert len(placement) == 5 and np.all(np.diff(placement) > 0)


def test_generate_command_gives_the_same_set_on_any_number_of_workers(tmp_path):
    args = ["generate", "max_rooks", "--n", "6", "--density", "0.25", "--count", "4000",
            "--seed", "3"]
    one = boardsweep(*args, "-o", str(tmp_path / "one.parquet"))
    two = boardsweep(*args, "-o", str(tmp_path / "two.parquet"), "--workers", "2")
    assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
    first, second = pq.read_table(tmp_path / "one.parquet"), pq.read_table(tmp_path /
                                                                            "two.parquet")
    assert first.num_rows == 4000 and first.equals(second)
