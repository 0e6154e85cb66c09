"""The worker job scripts boardsweep has dask-jobqueue write for PBS, SGE, LSF and HTCondor
(none of them runs here; Slurm is tested for real in test_slurm.py), checked the way
dask-jobqueue's own tests check them: the directives asked for, this interpreter, one worker
process per job, and the TLS files of the run's own certificate authority."""

from __future__ import annotations

import sys

import pytest

from boardsweep.pipeline.batch import BATCH, batch_settings, run_security
from boardsweep.pipeline.spec import cluster_spec
from boardsweep.solvers.schema import Context

pytest.importorskip("dask_jobqueue")

CASES = {
    "pbs": (
        {
            "queue": "batch",
            "account": "proj",
            "walltime": "02:00:00",
            "resource_spec": "select=1:ncpus=2:mem=3GB",
        },
        [
            "#PBS -q batch",
            "#PBS -A proj",
            "#PBS -l walltime=02:00:00",
            "#PBS -l select=1:ncpus=2:mem=3GB",
        ],
    ),
    "sge": (
        {"queue": "all.q", "project": "proj", "walltime": "02:00:00", "resource_spec": "h_vmem=3G"},
        ["#$ -q all.q", "#$ -P proj", "#$ -l h_rt=02:00:00", "#$ -l h_vmem=3G"],
    ),
    "lsf": (
        {"queue": "normal", "project": "proj", "walltime": "02:00"},
        ["#BSUB -q normal", '#BSUB -P "proj"', "#BSUB -W 02:00"],
    ),
    "htcondor": ({"disk": "1GB"}, ["RequestDisk = "]),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_worker_job_script(kind, tmp_path):
    from boardsweep.pipeline.batch import _import_cluster_class

    extra, lines = CASES[kind]
    raw = {
        "kind": kind,
        "cores": 2,
        "memory": "3GB",
        "job_name": "bsw",
        "job_script_prologue": ["module load gcc"],
        "dashboard_address": ":0",
        "task_seconds": 60,
        "allowed_failures": 2,
        "workers": 3,
        **extra,
    }
    spec = cluster_spec(raw, Context(str(tmp_path)))
    settings = batch_settings(kind, spec.options)
    security, protocol = run_security(kind, spec.options, tmp_path / "keys")
    assert protocol == "tls"
    assert (tmp_path / "keys").stat().st_mode & 0o777 == 0o700
    cluster = _import_cluster_class(kind)(**settings, **security)
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    for line in lines:
        assert line in script, (line, script)
    assert "module load gcc" in script and sys.executable in script, script
    assert "--nthreads 2" in script, script
    # one worker process per job: "--nworkers 1", or no --nworkers at all (HTCondor's script)
    assert "--nworkers 1" in script or "--nworkers" not in script, script
    for flag in ("--tls-ca-file", "--tls-cert", "--tls-key"):
        assert f"{flag} {tmp_path / 'keys'}" in script, script  # the run's own CA, shared
    assert "tls://" in script, script
    for own in ("task_seconds", "allowed_failures"):
        assert own not in script


@pytest.mark.parametrize("kind", sorted(k for k in BATCH if BATCH[k].walltime_directive))
def test_no_walltime_asks_for_none(kind, tmp_path):
    """Without walltime the job script asks for no time limit (the queue's default applies),
    not dask-jobqueue's 30 minutes."""
    from boardsweep.pipeline.batch import _import_cluster_class

    extra = {"disk": "1GB"} if kind == "htcondor" else {}
    spec = cluster_spec({"kind": kind, "security": "none", **extra}, Context(str(tmp_path)))
    cluster = _import_cluster_class(kind)(**batch_settings(kind, spec.options))
    try:
        script = cluster.job_script()
    finally:
        cluster.close()
    assert BATCH[kind].walltime_directive not in script, script
    assert "tcp://" in script and "--tls-ca-file" not in script
