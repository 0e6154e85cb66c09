"""Results of edited code are never reused, and numba never runs a stale kernel.

Each test copies the package into a temp folder, runs ``boardsweep run`` there (real
processes, a numba cache folder of its own), edits one source file and runs again: the edited
problem's results must be computed anew, with the edited code.
"""

from __future__ import annotations

import os
import shutil
import textwrap

import pyarrow.parquet as pq
import pytest

from tests.conftest import BOARDSWEEP, ROOT, run_ok

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

PROBE = {
    "__init__.py": '''
        """A count problem whose numba kernel inlines a helper from another file."""
        import pyarrow as pa

        from boardsweep.solvers.contract import Column, CountProblem, Point, SolveCommand, Table
        from boardsweep.solvers.contract import count_arrays, count_columns
        from boardsweep.solvers.schema import Field, Integer, Record

        TABLE = Table("counts", "the kernel's value", (
            Column("n", pa.int32(), "n", "", "key"), *count_columns("count", "value")),
            merge="sum", keys=("n",))


        def _compute(point, lo, hi):
            from .kernel import value
            count, text = count_arrays([value(point.params["n"])])
            return pa.table({"n": pa.array([point.params["n"]], pa.int32()), "count": count,
                             "count_text": text}, schema=TABLE.compute_schema())


        PROBLEM = CountProblem(
            name="probe", doc="a kernel and its helper in two files",
            params=Record({"n": Field(Integer(1, 10), required=True)}), tables=(TABLE,),
            modules=(__name__,),
            solve=SolveCommand((("n", Integer(1, 10), "n"),), lambda a: {"n": a["n"]},
                               lambda t, a: t.column("count_text")[0].as_py()),
            outputs_of=lambda p: ("counts",),
            points_of=lambda p, t: [Point("counts", {"n": p["n"]}, 1, 0.01, "n")],
            compute_units=_compute)
    ''',
    "kernel.py": """
        from numba import njit

        from .helper import base


        @njit(cache=True)
        def value(n):
            return base() * 1000 + n
    """,
    "helper.py": """
        from numba import njit


        @njit(cache=True, inline="always")
        def base():
            return 41
    """,
}

CONFIG = """output: out
cluster: {kind: local, workers: 1}
jobs:
  - {name: q, problem: queens_rooks, pairs: [[10, 1]]}
  - {name: w, problem: max_rooks, boards: {generate: {n: 6, density: 0.3, count: 40, seed: 1}}}
  - {name: p, problem: probe, n: 7}
"""


@pytest.fixture
def copy(tmp_path):
    """The package copied into tmp_path/pkg, plus the probe problem, and a runner."""
    pkg = tmp_path / "pkg"
    ignore = shutil.ignore_patterns("__pycache__")
    for name, inside in (
        ("pipeline/root", "boardsweep"),
        ("solvers", "boardsweep/solvers"),
        ("pipeline", "boardsweep/pipeline"),
    ):  # the wheel's layout
        shutil.copytree(ROOT / name, pkg / inside, ignore=ignore, dirs_exist_ok=True)
    for name, text in PROBE.items():
        (pkg / "probe").mkdir(exist_ok=True)
        (pkg / "probe" / name).write_text(textwrap.dedent(text).lstrip())
    (tmp_path / "c.yaml").write_text(CONFIG)
    env = {
        **os.environ,
        "PYTHONPATH": str(pkg),
        "BOARDSWEEP_PROBLEMS": "probe",
        "BOARDSWEEP_CACHE": str(tmp_path / "cache"),
    }

    def run() -> dict:
        run_ok([*BOARDSWEEP, "run", "c.yaml"], cwd=tmp_path, env=env, timeout=600)
        out = {}
        for job in ("q", "w", "p"):
            table = "maxima" if job == "w" else "counts"
            out[job] = pq.read_table(tmp_path / "out" / job / f"{table}.parquet")
            out[job + "-run"] = pq.read_table(tmp_path / "out" / job / "runs.parquet").to_pylist()[
                -1
            ]
        return out

    def edit(path: str, old: str, new: str) -> None:
        file = pkg / path
        text = file.read_text()
        assert text.count(old) >= 1, f"{old!r} not in {path}"
        file.write_text(text.replace(old, new, 1))

    return run, edit


def test_edits_to_a_kernel_a_generator_and_an_inlined_helper_are_all_recomputed(copy):
    run, edit = copy
    first = run()
    # 10 queens and 1 rook on the 11x11 board (row 11, M = 10 of data/queens_rooks_triangle.txt),
    # a point the typed-pieces search answers
    triangle = (ROOT / "data" / "queens_rooks_triangle.txt").read_text().splitlines()
    row = next(line.split(":")[1].split() for line in triangle if line.strip().startswith("11:"))
    cell = [row[10]]
    assert first["q"].column("count_text").to_pylist() == cell
    assert first["p"].column("count_text").to_pylist() == ["41007"]

    # the counts table's numba kernel (typed pieces, called from the one in kernel.py): each
    # complete placement counted twice
    edit("boardsweep/solvers/queens_rooks/typed.py", "hist[q] += _U1", "hist[q] += _U1 + _U1")
    second = run()
    assert second["q-run"]["units_run"] == second["q-run"]["units"]  # recomputed, all of it
    assert second["q"].column("count_text").to_pylist() == [str(2 * int(cell[0]))]  # edited
    assert second["w-run"]["units_run"] == 0 and second["p-run"]["units_run"] == 0

    edit("boardsweep/solvers/max_rooks/generate.py", "0x9E3779B97F4A7C15", "0x9E3779B97F4A7C17")
    edit("probe/helper.py", "return 41", "return 42")  # inlined into kernel.py's cached value
    third = run()
    assert third["q-run"]["units_run"] == 0
    assert third["w-run"]["units_run"] == 40  # new boards, solved anew
    assert third["w"].column("walls").to_pylist() != first["w"].column("walls").to_pylist()
    assert third["p-run"]["units_run"] == 1
    assert third["p"].column("count_text").to_pylist() == ["42007"]  # not the stale 41007
