"""A sweep that shrinks (and grows again) publishes exactly what a fresh folder would.

Each sequence runs versions of one job, one after another, into ONE output folder (one
store, one generation after another), and after every run compares each table the job
published with the tables a fresh output folder gets for that same version of the job: same
tables, same schema, same rows in the same order (leaving out the columns that are timings),
and a manifest whose rows per table are the table's rows.  A lower ``count`` keeps the
points but cuts their units, so the store holds records past the new unit count; they must
not reach the published tables (nor make an old table look unchanged).
"""

from __future__ import annotations

import hashlib
import json
import textwrap

import pyarrow.parquet as pq
import pytest

from boardsweep import solvers
from boardsweep.pipeline.spec import make_job
from boardsweep.solvers.schema import Context
from tests.conftest import boardsweep
from tests.pipeline.test_jobs import Bench

JOB = "w"

# Columns that are not a function of the job's params: timings (README "Results"; the
# problems' table declarations and solvers.contract.SUM_COLUMNS).  ``units`` is compared.
TIMINGS = {
    "counts": {"cpu_seconds"},
    "distribution": {"cpu_seconds"},
    "summary": {"cpu_seconds"},
    "slant": {"seconds"},
}


def _generate(count, n=6, density=0.3, seed=1, **extra):
    return {
        "boards": {"generate": {"n": n, "density": density, "count": count, "seed": seed}},
        **extra,
    }


def _puzzles(count, n=5, seed=3):
    return {"puzzles": {"generate": {"n": n, "count": count, "seed": seed}}}


# name -> (problem, the versions of the job, run in this order into one folder).  The
# generated counts are large enough that a point is several records at Bench's 0.05 s tasks
# (test_points_are_several_records checks it), and each shrink ends inside a record.
SEQUENCES = {
    "nqueens-n": ("nqueens", [{"n": "4..9"}, {"n": "4..7"}, {"n": "4..10"}]),
    "nqueens-n-solutions": (
        "nqueens",
        [
            {"n": "4..9", "solutions": True},
            {"n": "4..7", "solutions": True},
            {"n": "4..10", "solutions": True},
        ],
    ),
    "nqueens-solutions-off-and-on": (
        "nqueens",
        [{"n": "4..8", "solutions": True}, {"n": "4..8"}, {"n": "4..8", "solutions": True}],
    ),
    "queens_rooks-total": (
        "queens_rooks",
        [{"total": "1..7"}, {"total": "1..5"}, {"total": "1..8"}],
    ),
    "max_rooks-count-bug-report": ("max_rooks", [_generate(100, n=4), _generate(50, n=4)]),
    "max_rooks-count-boards": (
        "max_rooks",
        [_generate(40000), _generate(20000), _generate(30000), _generate(60000)],
    ),
    "max_rooks-count-summary": (
        "max_rooks",
        [_generate(c, keep="summary") for c in (40000, 20000, 30000, 60000)],
    ),
    "max_rooks-count-counts": (
        "max_rooks",
        [_generate(c, n=9, counts=True) for c in (3000, 1200, 2000, 4000)],
    ),
    "max_rooks-n": (
        "max_rooks",
        [
            _generate(20000, n=[4, 6, 8]),
            _generate(20000, n=[4, 6]),
            _generate(20000, n=[4, 6, 8, 9]),
        ],
    ),
    "max_rooks-all-rows": (
        "max_rooks",
        [
            {"boards": {"all": {"rows": "3..5"}}},
            {"boards": {"all": {"rows": "3..4"}}},
            {"boards": {"all": {"rows": "3..5"}}},
        ],
    ),
    "slant-count-bug-report": ("slant", [_puzzles(6), _puzzles(3)]),
    "slant-count": ("slant", [_puzzles(c) for c in (800, 300, 500, 1200)]),
}


def _count(params):
    """The generated instances per group of a max_rooks or slant job's params."""
    return (params.get("boards") or params["puzzles"])["generate"]["count"]


def _job(problem, params):
    return make_job(solvers.get(problem), JOB, params, Context("."))


def _tables(bench):
    """``{table: pyarrow table}`` of every table the job published (not runs.parquet)."""
    folder = bench.output / JOB
    return {
        p.stem: pq.read_table(p)
        for p in sorted(folder.glob("*.parquet"))
        if p.name != "runs.parquet"
    }


def _manifest(bench):
    return json.loads((bench.output / JOB / "_boardsweep" / "manifest.json").read_text())


def _comparable(name, table):
    """The table without its timing columns (which must be there)."""
    timings = TIMINGS.get(name, set())
    assert timings <= set(table.column_names), (name, table.column_names)
    return table.drop_columns(sorted(timings))


def _difference(rows, expected):
    """A short account of how ``rows`` differ from ``expected``."""
    if len(rows) != len(expected):
        return f"{len(rows)} rows, a fresh folder has {len(expected)}"
    at = next(i for i, (a, b) in enumerate(zip(rows, expected, strict=True)) if a != b)
    return f"row {at} is {rows[at]}, a fresh folder has {expected[at]}"


def _check_manifest(bench, tables, what):
    manifest = _manifest(bench)
    assert sorted(manifest["tables"]) == sorted(tables), what
    for name, table in tables.items():
        entry = manifest["tables"][name]
        assert entry["rows"] == table.num_rows, (
            f"{what}: manifest says {name} has {entry['rows']} rows, the table has {table.num_rows}"
        )
        digest = hashlib.sha256((bench.output / JOB / f"{name}.parquet").read_bytes())
        assert entry["sha256"] == digest.hexdigest(), f"{what}: {name}'s sha256"


def _compare(same, fresh, what):
    got, expected = _tables(same), _tables(fresh)
    assert sorted(got) == sorted(expected), f"{what}: tables"
    for name, table in got.items():
        want = expected[name]
        assert [(f.name, f.type) for f in table.schema] == [
            (f.name, f.type) for f in want.schema
        ], f"{what}: {name}'s columns"
        rows, wanted = _comparable(name, table), _comparable(name, want)
        if not rows.equals(wanted):
            pytest.fail(
                f"{what}: {name}.parquet has {_difference(rows.to_pylist(), wanted.to_pylist())}"
            )
    _check_manifest(same, got, what)
    _check_manifest(fresh, expected, f"{what} (fresh folder)")


@pytest.fixture
def benches(tmp_path):
    """Make benches (output folders with their stores) under ``tmp_path``; close them after."""
    made = []

    def make(name):
        made.append(Bench(tmp_path / name))
        return made[-1]

    yield make
    for bench in made:
        bench.store.close()


@pytest.mark.parametrize("name", list(SEQUENCES))
def test_each_run_of_a_changing_sweep_publishes_what_a_fresh_folder_does(benches, name):
    problem, versions = SEQUENCES[name]
    same = benches("same")
    for step, params in enumerate(versions):
        what = f"{name}, run {step + 1} of {len(versions)} ({params})"
        same.run(_job(problem, params))
        fresh = benches(f"fresh{step}")
        fresh.run(_job(problem, params))
        _compare(same, fresh, what)


@pytest.mark.parametrize("name", [n for n in SEQUENCES if "-count" in n and "bug" not in n])
def test_points_are_several_records(benches, name):
    """The count sequences exercise records past the new unit count: a point of the first
    version is stored as several records, and the shrink ends inside one of them."""
    problem, versions = SEQUENCES[name]
    bench = benches("one")
    bench.run(_job(problem, versions[0]))
    spans = bench.store.db.execute(
        "SELECT point, lo, hi FROM records WHERE job=?", (JOB,)
    ).fetchall()
    per_point = {}
    for point, lo, hi in spans:
        per_point.setdefault(point, []).append((lo, hi))
    assert per_point and all(len(s) >= 3 for s in per_point.values()), per_point
    shrunk = _count(versions[1])
    assert all(any(lo < shrunk < hi for lo, hi in s) for s in per_point.values()), (
        shrunk,
        per_point,
    )


def test_a_lower_count_on_the_command_line_publishes_only_the_boards_asked_for(tmp_path):
    """The bug report as a user meets it: ``boardsweep run`` with count 100, then 50."""
    out = tmp_path / "out"
    config = tmp_path / "config.yaml"
    maxima = out / JOB / "maxima.parquet"
    first = None
    for count in (100, 50):
        config.write_text(
            textwrap.dedent(f"""\
            output: out
            jobs:
              - name: {JOB}
                problem: max_rooks
                boards: {{generate: {{n: 4, density: 0.3, count: {count}, seed: 1}}}}
            """)
        )
        done = boardsweep("run", str(config), "--output", str(out), "--workers", "1")
        assert done.returncode == 0, done.stderr
        table = pq.read_table(maxima)
        manifest = json.loads((out / JOB / "_boardsweep" / "manifest.json").read_text())
        rows, listed = table.num_rows, manifest["tables"]["maxima"]["rows"]
        assert rows == count == listed, (
            f"count {count}: maxima.parquet has {rows} rows, the manifest says {listed}"
        )
        assert table.column("board_id").to_pylist() == list(range(count))
        if first is None:
            first = table
    assert table.equals(first.slice(0, 50))  # a board is a function of its index alone
