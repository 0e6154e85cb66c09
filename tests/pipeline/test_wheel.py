"""The wheel a user installs, not the checkout: built, installed non-editable into a fresh
virtual environment, and used from an empty folder as a person would.  README.md's first
set-up command (``pip install . && boardsweep run``) is what these tests do, from a wheel.

The fresh environment gets boardsweep from the wheel alone (``pip install --no-deps``); its
dependencies come from this test's environment through a ``.pth`` line, which adds that
site-packages folder to ``sys.path`` without running its ``.pth`` files, so the editable
checkout's finder never reaches the fresh environment: every ``boardsweep`` module it imports
is the wheel's.  Kernels compile there as on a new machine (a cache folder of its own).
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import sysconfig
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, SCHEDULER_ON_LOOPBACK, run_ok, start_dask_worker
from tests.pipeline import test_slurm as on_slurm

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

slurm, job_name = on_slurm.slurm, on_slurm.job_name  # Slurm's fixtures: skip/fail, no jobs left

PACKAGES = ("pipeline", "solvers")  # the repository's folders the wheel maps under boardsweep


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built the way `pip wheel` / `python -m build` builds it."""
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    (found,) = out.glob("boardsweep-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict:
    """A fresh venv with the wheel installed non-editable; its python, its boardsweep, an
    empty working folder and the environment to run them in."""
    base = tmp_path_factory.mktemp("installed")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # the site-packages folder venv made: its "venv" scheme, with the new venv as the base
    purelib = sysconfig.get_path("purelib", "venv", {"base": venv, "platbase": venv})
    (Path(purelib) / "dependencies.pth").write_text(
        "\n".join(p for p in site.getsitepackages() if Path(p).is_dir()) + "\n"
    )
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    empty = base / "work"
    empty.mkdir()
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(base),
        "NO_COLOR": "1",
        "BOARDSWEEP_CACHE": str(base / "cache"),
        "LANG": "C.UTF-8",
    }
    return {
        "python": str(python),
        "boardsweep": str(venv / "bin" / "boardsweep"),
        "cwd": empty,
        "env": env,
    }


def _run(installed: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(args),
        cwd=installed["cwd"],
        env=installed["env"],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_the_wheel_holds_boardsweep_alone_and_every_module_of_it(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"boardsweep", wheel.name.split("-py3")[0] + ".dist-info"}
    inside = {name for name in names if name.endswith(".py")}
    expected = {"boardsweep/__init__.py", "boardsweep/__main__.py"}
    for folder in PACKAGES:
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT / folder)
            if relative.parts[0] != "root":  # pipeline/root is boardsweep itself
                expected.add(f"boardsweep/{folder}/{relative.as_posix()}")
    assert inside == expected
    assert not any(
        "tests/" in n or "benchmarks/" in n or n.endswith(".txt") and "data" in n for n in names
    )


def test_the_installed_command_line_and_module_answer_from_an_empty_folder(installed):
    done = _run(installed, installed["boardsweep"], "solve", "nqueens", "8")
    assert (done.returncode, done.stdout) == (0, "92\n"), done.stderr
    done = _run(
        installed, installed["python"], "-m", "boardsweep", "solve", "queens_rooks", "3", "1"
    )
    assert (done.returncode, done.stdout) == (0, "8\n"), done.stderr
    done = _run(
        installed,
        installed["python"],
        "-c",
        "import boardsweep, boardsweep.solvers; "
        "print(boardsweep.__version__, boardsweep.__file__, "
        "boardsweep.solvers.get('slant').name)",
    )
    version, path, name = done.stdout.split()
    assert "site-packages/boardsweep/" in path and name == "slant", done.stderr
    assert version == json.loads(
        _run(
            installed,
            installed["python"],
            "-c",
            "import json, importlib.metadata as m; print(json.dumps(m.version('boardsweep')))",
        ).stdout
    )
    for name in ("solvers", "pipeline"):  # nothing is installed under another project's name
        done = _run(installed, installed["python"], "-c", f"import {name}")
        assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr


def test_the_installed_package_runs_a_job_on_a_two_worker_cluster(installed):
    folder = installed["cwd"]
    (folder / "config.yaml").write_text(
        "output: results\ncluster: {kind: local, workers: 2}\njobs:\n"
        "  - {name: q, problem: nqueens, n: '4..9'}\n"
        "  - {name: w, problem: max_rooks, boards: {generate: {n: 5, density: 0.3, count: 50, "
        "seed: 1}}}\n"
    )
    done = _run(installed, installed["boardsweep"], "run")
    assert done.returncode == 0, done.stderr
    assert "2 workers ready" in done.stderr
    done = _run(
        installed,
        installed["python"],
        "-c",
        "import pyarrow.parquet as pq; t = "
        "pq.read_table('results/q/counts.parquet'); print(t.column('count_text')"
        ".to_pylist(), pq.read_table('results/w/maxima.parquet').num_rows)",
    )
    assert done.stdout.strip() == "['2', '10', '4', '40', '92', '352'] 50", done.stderr


def test_the_installed_package_runs_on_workers_started_apart(installed, tmp_path):
    python, env = installed["python"], installed["env"]
    scheduler_file = tmp_path / "scheduler.json"
    procs = [
        subprocess.Popen(
            [
                python,
                "-m",
                "distributed.cli.dask_scheduler",
                *SCHEDULER_ON_LOOPBACK,
                "--scheduler-file",
                str(scheduler_file),
            ],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while not (scheduler_file.exists() and scheduler_file.read_text().endswith("}")):
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        procs.append(
            start_dask_worker(
                "--scheduler-file", str(scheduler_file), env=env, cwd=tmp_path, python=python
            )
        )
        done = _run(
            installed,
            installed["boardsweep"],
            "solve",
            "nqueens",
            "10",
            "--scheduler-file",
            str(scheduler_file),
            "--security",
            "none",
        )
        assert (done.returncode, done.stdout) == (0, "724\n"), done.stderr
    finally:
        for proc in reversed(procs):
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=30)


# A worker preload (Dask runs it inside each worker process, before it joins the scheduler):
# it writes what that process is running and, after each task, which boardsweep modules it has
# imported, to <folder>/<Slurm job id>.json.
WITNESS = """
import json, os, sys

from distributed.diagnostics.plugin import WorkerPlugin

FOLDER = {folder!r}


def _write(record):
    path = os.path.join(FOLDER, record["job"] + ".json")
    with open(path + ".part", "w") as f:
        json.dump(record, f)
    os.replace(path + ".part", path)


def _modules():
    return {{name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())
            if name == "boardsweep" or name.startswith("boardsweep.")}}


class Witness(WorkerPlugin):
    def __init__(self, record):
        self.record = record

    def transition(self, key, start, finish, **kwargs):
        if finish == "memory":
            self.record["tasks"] += 1
            self.record["modules"] = _modules()
            _write(self.record)


async def dask_setup(worker):
    import boardsweep

    record = {{"job": os.environ["SLURM_JOB_ID"], "executable": sys.executable,
              "prefix": sys.prefix, "boardsweep": boardsweep.__file__, "tasks": 0,
              "modules": _modules()}}
    _write(record)
    await worker.plugin_add(Witness(record), name="witness")
"""


def test_the_installed_package_runs_a_job_on_slurm_worker_jobs(installed, job_name, tmp_path):
    """``cluster: {kind: slurm}`` from the installed command: the worker jobs run the fresh
    venv's python, and the boardsweep their tasks import is the wheel's, not the checkout's."""
    venv = Path(installed["python"]).parent.parent
    folder = installed["cwd"] / "on-slurm"  # a store of its own: nothing reused from other runs
    folder.mkdir()
    (folder / "config.yaml").write_text(
        f"output: results\ncluster: {{kind: slurm, job_name: {job_name}, interface: lo, "
        "dashboard_address: ':0', workers: 2, cores: 1, memory: 1GB, walltime: '00:10:00'}\n"
        "jobs:\n  - {name: q, problem: nqueens, n: '4..9'}\n"
        "  - {name: w, problem: max_rooks, boards: {generate: {n: 5, density: 0.3, count: 50, "
        "seed: 1}}}\n"
    )
    seen = tmp_path / "witness"
    seen.mkdir()
    preload = tmp_path / "witness.py"
    preload.write_text(WITNESS.format(folder=str(seen)))
    env = {**installed["env"], "DASK_DISTRIBUTED__WORKER__PRELOAD": str(preload)}
    done = run_ok([installed["boardsweep"], "run"], cwd=folder, env=env, timeout=600)
    done_read = subprocess.run(
        [
            installed["python"],
            "-c",
            "import pyarrow.parquet as pq; t = pq.read_table("
            "'results/q/counts.parquet'); print(t.column('count_text').to_pylist(), "
            "pq.read_table('results/w/maxima.parquet').num_rows)",
        ],
        cwd=folder,
        env=installed["env"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done_read.stdout.strip() == "['2', '10', '4', '40', '92', '352'] 50", done_read.stderr

    jobs = on_slurm._worker_jobs(done.stderr)
    assert len(jobs) == 2 and set(jobs) <= set(on_slurm._jobs(job_name)), done.stderr
    for job in jobs:  # the job script Slurm ran starts the worker with the venv's python
        script = subprocess.run(
            ["scontrol", "write", "batch_script", job, "-"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert f"\n{installed['python']} -m distributed.cli.dask_worker " in script.stdout, (
            script.stdout + script.stderr
        )
        assert on_slurm._job(job)["JobName"] == job_name
    # and inside each worker process: the venv's interpreter, the wheel's boardsweep
    purelib = subprocess.run(
        [installed["python"], "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    site_boardsweep = f"{purelib}/boardsweep/"
    assert site_boardsweep.startswith(f"{venv}/") and not site_boardsweep.startswith(str(ROOT))
    records = {p.stem: json.loads(p.read_text()) for p in seen.glob("*.json")}
    assert set(records) == set(jobs), (records, done.stderr)
    for record in records.values():
        assert record["executable"] == installed["python"], record
        assert os.path.samefile(record["prefix"], venv), record
        assert record["boardsweep"] == site_boardsweep + "__init__.py", record
        files = [f for f in record["modules"].values() if f is not None]
        assert files and all(f.startswith(site_boardsweep) for f in files), record
    worked = [r for r in records.values() if r["tasks"]]
    assert worked and all(
        {"boardsweep.solvers.nqueens", "boardsweep.solvers.max_rooks"} <= r["modules"].keys()
        for r in worked
    ), records
    assert not on_slurm._wait_ended(job_name, 20), on_slurm._jobs(job_name)
