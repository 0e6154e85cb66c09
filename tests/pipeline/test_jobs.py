"""Jobs end to end in this process: exact results, resume, reuse, generations, verification.

Each test runs ``run_job`` with the in-process runner against a real store and real Parquet
generations, the way ``boardsweep run`` does on a cluster.
"""

from __future__ import annotations

import json
import logging
import sqlite3

import pyarrow.parquet as pq
import pytest

from boardsweep.pipeline.errors import JobError
from boardsweep.pipeline.jobs import run_job
from boardsweep.pipeline.plan import plan_job
from boardsweep.pipeline.run import local_runner
from boardsweep.pipeline.spec import make_job, state_folder
from boardsweep.pipeline.store import Store
from boardsweep.solvers.schema import Context

Q = {1: 1, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}


class Bench:
    """An output folder, its state and store, and a way to run jobs into it."""

    def __init__(self, tmp_path):
        self.output = tmp_path / "results"
        self.state = state_folder(self.output)
        (self.state / "tmp").mkdir(parents=True)
        self.store = Store(self.state / "store.sqlite")

    def job(self, problem, params, name="j"):
        return make_job(problem, name, params, Context("."))

    def run(self, job, target=0.05, threads=2):
        return run_job(
            job, self.output, self.state, self.store, local_runner, threads, target, "test"
        )

    def table(self, job, name):
        return pq.read_table(self.output / job / f"{name}.parquet")

    def runs(self, job="j"):
        return self.table(job, "runs").to_pylist()


@pytest.fixture
def bench(tmp_path):
    made = Bench(tmp_path)
    yield made
    made.store.close()


def _counts(table):
    return {
        n: int(c)
        for n, c in zip(
            table.column("n").to_pylist(), table.column("count_text").to_pylist(), strict=True
        )
    }


def test_counts_are_exact_and_the_published_folder_holds_only_tables(bench):
    manifest = bench.run(bench.job("nqueens", {"n": "4..12", "solutions": True}))
    assert _counts(bench.table("j", "counts")) == {n: Q[n] for n in range(4, 13)}
    solutions = bench.table("j", "solutions")
    assert solutions.num_rows == sum(Q[n] for n in range(4, 13))
    rows = solutions.column("solution").to_pylist()
    assert rows[:2] == [[1, 3, 0, 2], [2, 0, 3, 1]]  # n = 4, lexicographic
    assert sorted(p.name for p in (bench.output / "j").iterdir()) == [
        "_boardsweep",
        "counts.parquet",
        "runs.parquet",
        "solutions.parquet",
    ]
    assert manifest["generation"] == 1
    meta = pq.read_schema(bench.output / "j" / "counts.parquet").metadata
    assert json.loads(meta[b"boardsweep.params"])["n"] == list(range(4, 13))
    assert meta[b"boardsweep.problem_version"].decode() == manifest["problem_version"]


def test_a_rerun_computes_nothing_and_rewrites_no_table(bench):
    job = bench.job(
        "max_rooks",
        {
            "boards": {"generate": {"n": [6, 9], "density": 0.3, "count": 400, "seed": 1}},
            "counts": True,
        },
    )
    bench.run(job)
    before = (bench.output / "j" / "maxima.parquet").stat().st_ino
    manifest = bench.run(job)
    assert manifest["generation"] == 2 and manifest["tables"]["maxima"]["linked"]
    assert (bench.output / "j" / "maxima.parquet").stat().st_ino == before
    runs = bench.runs()
    assert [r["tasks_run"] for r in runs] == [runs[0]["tasks_run"], 0]
    assert runs[1]["units_reused"] == runs[1]["units"] == 800


def test_an_extended_sweep_computes_only_its_new_points(bench):
    bench.run(bench.job("nqueens", {"n": "4..9"}))
    first = bench.runs()[0]
    bench.run(bench.job("nqueens", {"n": "4..11"}))
    second = bench.runs()[1]
    done = {
        p.point.params["n"]: p.point.units
        for p in plan_job(bench.job("nqueens", {"n": "4..11"}), None).points
    }
    assert second["units_run"] == done[10] + done[11]
    assert second["units_reused"] == first["units"]
    assert _counts(bench.table("j", "counts")) == {n: Q[n] for n in range(4, 12)}


def test_boards_do_not_depend_on_list_order_or_count(bench):
    def boards(n, density, count, name):
        job = bench.job(
            "max_rooks",
            {"boards": {"generate": {"n": n, "density": density, "count": count, "seed": 5}}},
            name,
        )
        bench.run(job)
        table = bench.table(name, "maxima").to_pandas()
        return table.set_index(["rows", "density", "board_id"])["max_rooks"]

    small = boards([5, 7], [0.2, 0.4], 50, "a")
    other = boards([7, 3, 5], [0.4, 0.2], 80, "b")
    assert other.loc[small.index].equals(small)


def test_raising_count_computes_only_the_new_boards(bench):
    spec = {"n": 6, "density": 0.3, "seed": 2}
    bench.run(bench.job("max_rooks", {"boards": {"generate": {**spec, "count": 300}}}))
    bench.run(bench.job("max_rooks", {"boards": {"generate": {**spec, "count": 500}}}))
    runs = bench.runs()
    assert runs[1]["units_reused"] == 300 and runs[1]["units_run"] == 200
    table = bench.table("j", "maxima")
    assert table.column("board_id").to_pylist() == list(range(500))


def test_resume_with_another_task_length_reuses_every_finished_unit(bench):
    job = bench.job("nqueens", {"n": "10..12"})
    plan = plan_job(job, bench.store)
    from boardsweep.pipeline.run import execute

    execute(plan, local_runner, bench.store, 0.003, "first")  # tiny tasks, not published
    recorded = sum(p.point.units for p in plan.points)
    # forget a third of the records, as if the run was killed before they were committed
    db = bench.store.db
    keys = db.execute("SELECT tbl, point, lo FROM records WHERE job='j'").fetchall()
    for key in keys[::3]:
        db.execute("DELETE FROM records WHERE job='j' AND tbl=? AND point=? AND lo=?", key)
    left = sum(hi - lo for lo, hi in db.execute("SELECT lo, hi FROM records WHERE job='j'"))
    bench.run(job, target=10.0, threads=3)  # a different split entirely
    run = bench.runs()[0]
    assert run["units_reused"] == left and run["units_run"] == recorded - left
    assert _counts(bench.table("j", "counts")) == {10: 724, 11: 2680, 12: 14200}


def _corrupt(bench, how):
    db = bench.store.db
    rows = db.execute(
        "SELECT point, lo, payload FROM records WHERE job='j' AND tbl='counts' ORDER BY point, lo"
    ).fetchall()
    (p1, lo1, pay1), (p2, lo2, pay2) = rows[0], rows[-1]
    if how == "swapped":
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (pay2, p1, lo1))
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (pay1, p2, lo2))
    elif how == "truncated":
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (pay1[:-9], p1, lo1))
    elif how == "flipped":
        flipped = bytes([pay1[len(pay1) // 2] ^ 1])
        changed = pay1[: len(pay1) // 2] + flipped + pay1[len(pay1) // 2 + 1 :]
        db.execute("UPDATE records SET payload=? WHERE point=? AND lo=?", (changed, p1, lo1))
    elif how == "moved":  # a whole valid record copied over another one's key
        row = db.execute(
            "SELECT hi, rows, cpu, checksum, version, payload FROM records WHERE point=? AND lo=?",
            (p2, lo2),
        ).fetchone()
        db.execute(
            "UPDATE records SET hi=?, rows=?, cpu=?, checksum=?, version=?, payload=? "
            "WHERE point=? AND lo=?",
            (*row, p1, lo1),
        )


@pytest.mark.parametrize("how", ["swapped", "truncated", "flipped", "moved"])
def test_damaged_records_are_found_and_computed_again(bench, how, caplog):
    caplog.set_level(logging.INFO, logger="boardsweep")
    bench.run(bench.job("nqueens", {"n": "8..11"}))
    _corrupt(bench, how)
    bench.run(bench.job("nqueens", {"n": "8..12"}))  # the counts table is merged again
    assert _counts(bench.table("j", "counts")) == {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200}
    if how != "moved":  # a record whose range no longer tiles its point is not used at all:
        assert "failed verification" in caplog.text  # the plan computes over it instead
    new = plan_job(bench.job("nqueens", {"n": 12}), None).units
    assert bench.runs()[1]["units_run"] > new  # the damaged records were computed again


def test_a_published_table_edited_by_hand_is_not_trusted(bench):
    job = bench.job(
        "max_rooks", {"boards": {"generate": {"n": 5, "density": 0.3, "count": 300, "seed": 4}}}
    )
    bench.run(job)
    truth = bench.table("j", "maxima")
    path = bench.output / "j" / "maxima.parquet"
    fake = truth.set_column(
        truth.schema.get_field_index("max_rooks"), "max_rooks", pq.read_table(path).column("walls")
    )
    path.unlink()
    pq.write_table(fake, path)
    bench.run(
        bench.job(
            "max_rooks",
            {"boards": {"generate": {"n": [5, 6], "density": 0.3, "count": 300, "seed": 4}}},
        )
    )
    again = bench.table("j", "maxima").to_pandas()
    assert again[again["rows"] == 5]["max_rooks"].tolist() == truth.column("max_rooks").to_pylist()


def test_published_rows_are_compacted_out_of_the_store(bench):
    job = bench.job(
        "max_rooks", {"boards": {"generate": {"n": 8, "density": 0.3, "count": 3000, "seed": 4}}}
    )
    bench.run(job)
    payloads = bench.store.db.execute(
        "SELECT count(*) FROM records WHERE job='j' AND payload IS NOT NULL"
    ).fetchone()[0]
    assert payloads == 0
    extended = bench.job(
        "max_rooks", {"boards": {"generate": {"n": 8, "density": 0.3, "count": 3500, "seed": 4}}}
    )
    bench.run(extended)  # old rows come back from the published table, checked
    table = bench.table("j", "maxima")
    assert table.column("board_id").to_pylist() == list(range(3500))


def test_a_failed_task_keeps_the_published_generation_and_the_finished_records(bench, toy_problems):
    bench.run(bench.job("noop", {"units": 30}))
    with pytest.raises(JobError, match=r"units 12\.\.12\): ValueError: unit 12 fails"):
        bench.run(bench.job("noop", {"units": 40, "fail": [12]}))
    assert len(bench.runs()) == 1  # generation 1 still published
    kept = (
        sqlite3.connect(bench.state / "store.sqlite")
        .execute("SELECT count(*) FROM records WHERE job='j'")
        .fetchone()[0]
    )
    assert kept >= 30 + 39
