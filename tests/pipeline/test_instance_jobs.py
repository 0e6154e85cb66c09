"""Instance jobs end to end on a real two-process cluster: generated and given sets, exact
against the solver called directly, the same whatever the number of workers."""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

from boardsweep import solvers
from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.publish import prepare_state
from boardsweep.pipeline.run import dask_runner, local_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context
from tests.conftest import ROOT, boardsweep
from tests.result_columns import MAXIMA_COLUMNS

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

ROOKS = solvers.get("max_rooks")
GENERATE = {"n": [4, 6], "density": [0.1, 0.3], "count": 3000, "seed": 7}


def _run(tmp_path, name, params, runner, threads):
    output = tmp_path / "results"
    state = state_folder(output)
    prepare_state(output, state)
    store = Store(state / "store.sqlite")
    try:
        manifest = run_job(
            make_job("max_rooks", name, params, Context(str(ROOT))),
            output,
            state,
            store,
            runner,
            threads,
            0.2,
            "test",
        )
    finally:
        store.close()
    return manifest, pq.read_table(output / name / "maxima.parquet")


def test_generated_job_on_a_cluster_equals_the_solver_called_directly(tmp_path, dask_client):
    params = {"boards": {"generate": GENERATE}, "counts": True}
    manifest, table = _run(tmp_path, "walled", params, dask_runner(dask_client, 2), 2)
    assert table.num_rows == 12000 and manifest["tables"]["maxima"]["rows"] == 12000
    assert table.column_names == MAXIMA_COLUMNS
    assert set(table.column("count_status").to_pylist()) == {"counted"}
    for n in (4, 6):
        for density in (0.1, 0.3):
            part = table.filter(
                (table["rows"].to_numpy() == n) & (table["density"].to_numpy() == density)
            )
            batch = ROOKS.generator.generate(
                ROOKS.generator.groups(
                    ROOKS.check_params(
                        {"boards": {"generate": {**GENERATE, "n": n, "density": density}}}
                    )["boards"][1]
                )[0],
                0,
                3000,
            )
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
    assert table.column("count_status").null_count == 5
    assert table.column("density").null_count == 5
    placement = table.column("placement").to_pylist()[0]
    assert len(placement) == 5 and np.all(np.diff(placement) > 0)


def test_generate_command_gives_the_same_set_on_any_number_of_workers(tmp_path):
    args = "generate max_rooks --n 6 --density 0.25 --count 4000 --seed 3".split()
    one = boardsweep(*args, "-o", str(tmp_path / "one.parquet"))
    two = boardsweep(*args, "-o", str(tmp_path / "two.parquet"), "--workers", "2")
    assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
    first, second = pq.read_table(tmp_path / "one.parquet"), pq.read_table(tmp_path / "two.parquet")
    assert first.num_rows == 4000 and first.equals(second)


def test_a_generated_set_of_several_groups_solves_as_written(tmp_path):
    """``generate`` numbers each group's instances from 0, so ids repeat across groups; the
    set reads back (ids are distinct within a group) and every instance is solved once, the
    same as the job that generates and solves in one go."""
    generate = "generate max_rooks --n 4,5 --density 0.1,0.2 --count 3 --seed 3".split()
    made = boardsweep(*generate, "-o", str(tmp_path / "b.parquet"))
    assert made.returncode == 0, made.stderr
    solved = boardsweep(
        "solve",
        "max_rooks",
        str(tmp_path / "b.parquet"),
        "--counts",
        "-o",
        str(tmp_path / "m.parquet"),
    )
    assert solved.returncode == 0, solved.stderr
    table = pq.read_table(tmp_path / "m.parquet")
    assert table.num_rows == 12 and table.column("board_id").to_pylist() == [0, 1, 2] * 4
    _, direct = _run(
        tmp_path / "job",
        "walled",
        {
            "boards": {"generate": {"n": [4, 5], "density": [0.1, 0.2], "count": 3, "seed": 3}},
            "counts": True,
        },
        local_runner,
        1,
    )
    for name in ("rows", "density", "max_rooks", "placements_text", "count_status"):
        assert table.column(name).to_pylist() == direct.column(name).to_pylist(), name
    generate = "generate slant --n 4,5 --count 2 --seed 1".split()
    made = boardsweep(*generate, "-o", str(tmp_path / "p.parquet"))
    assert made.returncode == 0, made.stderr
    puzzles = boardsweep(
        "solve", "slant", str(tmp_path / "p.parquet"), "-o", str(tmp_path / "s.parquet")
    )
    assert puzzles.returncode == 0, puzzles.stderr
    assert pq.read_table(tmp_path / "s.parquet").column("status").to_pylist() == ["unique"] * 4
