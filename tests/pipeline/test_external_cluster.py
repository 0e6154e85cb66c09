"""Jobs on a cluster started apart: `dask scheduler` and `dask worker` as separate processes,
found through a scheduler file or an address, all on loopback.  The cluster speaks TLS with
certificates of its own; plain TCP must be asked for (``--security none``), and a client with
no certificate or one from another authority is refused."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from importlib.metadata import version as package_version
from pathlib import Path

import pytest
from distributed import Client

from boardsweep.pipeline.tables import read_parquet
from tests.conftest import ROOT, SCHEDULER_ON_LOOPBACK, boardsweep, run_env, start_dask_worker
from tests.pipeline.tls import dask_flags, flags, no_certificate, write_tls

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]


def _counts(path: Path) -> list[int]:
    """The exact counts of a published counts table, in its row order."""
    return [int(text) for text in read_parquet(path).column("count_text").to_pylist()]


def _security(tls: dict[str, str] | None):
    from distributed.security import Security

    if tls is None:
        return None
    return Security(
        tls_ca_file=tls["ca"],
        tls_client_cert=tls["cert"],
        tls_client_key=tls["key"],
        require_encryption=True,
    )


def _address(path: Path, workers: int, tls: dict[str, str] | None = None) -> str:
    """The scheduler's address from its file, once ``workers`` workers have joined it."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the cluster did not come up"
        text = path.read_text() if path.exists() else ""
        if text.endswith("}"):  # the scheduler may have written only part of it yet
            address = json.loads(text)["address"]
            if workers:
                with Client(address, timeout=30, security=_security(tls)) as client:
                    client.wait_for_workers(workers, timeout=60)
            return address
        time.sleep(0.1)


@contextmanager
def cluster_on_loopback(
    path: Path, worker_envs: list[tuple[dict, Path]], tls: dict[str, str] | None = None
):
    """A scheduler found by the file ``path`` and one single-threaded worker per (environment,
    working directory); TLS with the files ``tls``, or plain TCP without."""
    secure = ["--protocol", "tls", *dask_flags(tls)] if tls else []
    worker_tls = dask_flags(tls) if tls else []
    procs = [
        subprocess.Popen(
            [
                *DASK,
                "--scheduler-file",
                str(path),
                *SCHEDULER_ON_LOOPBACK,
                *secure,
            ],
            env=run_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    procs += [
        start_dask_worker(
            "--scheduler-file", str(path), "--no-nanny", *worker_tls, env=env, cwd=cwd
        )
        for env, cwd in worker_envs
    ]
    try:
        yield path
    finally:
        for proc in reversed(procs):  # workers first: without their scheduler they would
            proc.terminate()  # try to reconnect until their death timeout
        for proc in reversed(procs):
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:  # one that sits out SIGTERM: no waiting
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def tls(tmp_path_factory) -> dict[str, str]:
    """The TLS files of the module's cluster."""
    return write_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def scheduler_file(tmp_path_factory, tls):
    """A TLS scheduler and two worker processes with this interpreter's packages."""
    path = tmp_path_factory.mktemp("cluster") / "scheduler.json"
    with cluster_on_loopback(path, [(run_env(), ROOT), (run_env(), ROOT)], tls):
        yield path


def _other_boardsweep(folder: Path) -> tuple[dict, Path]:
    """A worker setting in which ``boardsweep`` reports version 0.0.1 (a stale install).

    It runs in ``folder``, not the checkout, whose ``boardsweep.egg-info`` would come first.
    """
    info = folder / "boardsweep-0.0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: boardsweep\nVersion: 0.0.1\n")
    return {**run_env(), "PYTHONPATH": str(folder)}, folder


def test_worker_with_another_version_is_refused(tmp_path):
    mine = package_version("boardsweep")
    envs = [(run_env(), ROOT), _other_boardsweep(tmp_path / "stale")]
    with cluster_on_loopback(tmp_path / "scheduler.json", envs) as path:
        address = _address(path, 2)  # both workers in, or the check might miss the stale one
        done = boardsweep("solve", "nqueens", "8", "--scheduler", address, "--security", "none")
    assert done.returncode == 2, done.stderr
    assert re.search(
        rf"version mismatch with worker tcp://127\.0\.0\.1:\d+: boardsweep "
        rf"{re.escape(mine)} here but 0\.0\.1 there",
        done.stderr,
    ), done.stderr
    assert done.stdout == ""


def test_run_on_scheduler_file_and_address(tmp_path, scheduler_file, tls):
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\njobs:\n  - {{name: q, problem: nqueens, n: [10, 15]}}\n"
    )
    address = _address(scheduler_file, 2, tls)  # both workers in, so both get tasks
    assert address.startswith("tls://127.0.0.1:")
    done = boardsweep("run", str(config), "--scheduler-file", str(scheduler_file), *flags(tls))
    assert done.returncode == 0, done.stderr
    job = tmp_path / "out" / "q"
    assert _counts(job / "counts.parquet") == [724, 2279184]
    assert (job / "runs.parquet").is_file() and (job / "_boardsweep" / "manifest.json").is_file()
    # the dashboard as the scheduler bound it (127.0.0.1, a free port), and both workers ran
    assert re.search(r"dashboard: http://127\.0\.0\.1:\d+/status;", done.stderr), done.stderr
    assert "2 workers ready (2 threads" in done.stderr, done.stderr
    done = boardsweep("solve", "nqueens", "15", "--scheduler", address, *flags(tls))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2279184\n"
    assert "plain TCP" not in done.stderr


def test_tls_scheduler_without_certificates_names_what_is_missing(tmp_path, scheduler_file, tls):
    address = _address(scheduler_file, 0)
    done = boardsweep("solve", "nqueens", "15", "--scheduler", address)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "boardsweep: error: --scheduler: a tls:// address needs tls_ca_file, tls_cert and "
        "tls_key (config keys, or --tls-ca-file, --tls-cert, --tls-key), or Dask's "
        "distributed.comm.tls settings: tls_ca_file, tls_cert, tls_key not set\n"
    )
    only_ca = boardsweep(
        "solve", "nqueens", "15", "--scheduler", address, "--tls-ca-file", tls["ca"]
    )
    assert only_ca.returncode == 2 and "tls_cert, tls_key missing" in only_ca.stderr


def test_plain_and_foreign_clients_are_refused_and_submit_nothing(tmp_path, scheduler_file, tls):
    from distributed.security import Security

    address = _address(scheduler_file, 2, tls)
    plain = address.replace("tls://", "tcp://")
    marker = tmp_path / "intruder-ran"
    for target, security in (
        (plain, None),
        (address, no_certificate()),
        (address, Security.temporary()),
    ):  # another authority
        with pytest.raises((OSError, TimeoutError)):
            with Client(target, timeout=5, security=security) as intruder:
                intruder.submit(marker.touch).result(timeout=5)
    assert not marker.exists()
    with Client(address, timeout=30, security=_security(tls)) as owner:  # still fine
        assert owner.submit(sum, [1, 2]).result(timeout=30) == 3


def test_plain_tcp_needs_security_none_and_is_warned_about(tmp_path):
    with cluster_on_loopback(tmp_path / "scheduler.json", [(run_env(), ROOT)]) as path:
        address = _address(path, 1)
        refused = boardsweep("solve", "nqueens", "12", "--scheduler", address)
        accepted = boardsweep(
            "solve", "nqueens", "12", "--scheduler", address, "--security", "none"
        )
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith(
        f"boardsweep: error: --scheduler: {address} is plain TCP: "
        "anyone who reaches that scheduler can run code as you"
    )
    assert accepted.returncode == 0 and accepted.stdout == "14200\n", accepted.stderr
    assert (
        f"{address}: plain TCP (security: none): anyone who can reach this scheduler can "
        "run code as this user" in accepted.stderr
    )


def _run_one_job(tmp_path: Path, cluster: str) -> subprocess.CompletedProcess:
    """``boardsweep run`` of one small N-queens job q on the cluster ``{CLUSTER}``, its config
    ``c.yaml`` and its output ``out`` in ``tmp_path``."""
    config = tmp_path / "c.yaml"
    config.write_text(f"cluster: {{{cluster}}}\njobs: [{{name: q, problem: nqueens, n: 4}}]\n")
    return boardsweep("run", str(config), "--output", str(tmp_path / "out"))


def _assert_refused(done: subprocess.CompletedProcess, message: str, tmp_path: Path) -> None:
    """The run exited 2 with ``message`` on stderr, nothing on stdout and no job folder."""
    assert done.returncode == 2, done.stderr
    assert message in done.stderr, done.stderr
    assert done.stdout == "" and not (tmp_path / "out" / "q").exists()


def test_missing_scheduler_file_times_out_with_a_message(tmp_path):
    started = time.monotonic()
    done = _run_one_job(tmp_path, "kind: scheduler-file, path: nowhere.json, timeout: 1")
    assert time.monotonic() - started < 30
    message = f"{tmp_path / 'nowhere.json'}: scheduler file did not appear within 1 s"
    _assert_refused(done, message, tmp_path)


def test_scheduler_without_workers_is_a_clear_error(tmp_path):
    with cluster_on_loopback(tmp_path / "scheduler.json", []) as path:
        address = _address(path, 0)
        done = _run_one_job(
            tmp_path, "kind: scheduler-file, path: scheduler.json, timeout: 2, security: none"
        )
    message = f"no worker joined the Dask scheduler at {address} within 2 s"
    _assert_refused(done, message, tmp_path)


def test_unreachable_scheduler_is_a_clear_error(tmp_path):
    done = _run_one_job(
        tmp_path, "kind: address, address: 'tcp://127.0.0.1:9', timeout: 2, security: none"
    )
    _assert_refused(done, "cannot reach the Dask scheduler at tcp://127.0.0.1:9", tmp_path)
