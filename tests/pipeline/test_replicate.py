"""Replicated verification against a lying worker (``tests/liar.py``), in real processes.

Three workers of one scheduler, started apart (`dask scheduler`, `dask worker`, TLS), one of
which returns a wrong count for one unit in 50.  With ``verify: 0.2`` the run must publish
exact Q(n), name the liar (log and ``runs.parquet``) and publish nothing only it computed; with
``verify: 0`` the same run publishes a wrong count, so the check is what catches it.
"""

from __future__ import annotations

import json

import pytest

from boardsweep.pipeline.replicate import sampled, share_key
from boardsweep.pipeline.store import Record
from boardsweep.pipeline.tables import read_parquet
from tests.conftest import ROOT, boardsweep, run_env
from tests.pipeline.test_external_cluster import _address, cluster_on_loopback
from tests.pipeline.tls import flags, write_tls

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

# OEIS A000170
Q = {
    8: 92,
    9: 352,
    10: 724,
    11: 2680,
    12: 14200,
    13: 73712,
    14: 365596,
    15: 2279184,
    16: 14772512,
    17: 95815104,
}
N = "8..17"  # about 250 tasks at 0.05 s: the liar computes a third of them


def _liar_env() -> dict:
    return {**run_env(), "DASK_DISTRIBUTED__WORKER__PRELOAD": '["tests.liar"]'}


@pytest.fixture(scope="module")
def liars_cluster(tmp_path_factory):
    """A TLS scheduler with two honest workers and one liar; ``(address, tls files)``."""
    tls = write_tls(tmp_path_factory.mktemp("tls"))
    path = tmp_path_factory.mktemp("cluster") / "scheduler.json"
    with cluster_on_loopback(
        path, [(run_env(), ROOT), (run_env(), ROOT), (_liar_env(), ROOT)], tls
    ):
        yield _address(path, 3, tls), tls


def _liar(address: str, tls: dict) -> str:
    from distributed import Client

    from tests.pipeline.test_external_cluster import _security

    with Client(address, timeout=30, security=_security(tls)) as client:
        found = [
            w
            for w, names in client.run(lambda dask_worker: sorted(dask_worker.plugins)).items()
            if "liar" in names
        ]
    assert len(found) == 1, found
    return found[0]


def _run(tmp_path, cluster, share: float):
    address, tls = cluster
    config = tmp_path / "c.yaml"
    config.write_text(
        f"output: {tmp_path / 'out'}\ncluster: {{task_seconds: 0.05}}\njobs:\n"
        f"  - {{name: q, problem: nqueens, n: '{N}', verify: {share}}}\n"
    )
    done = boardsweep("run", str(config), "--scheduler", address, *flags(tls))
    folder = tmp_path / "out" / "q"
    return done, folder


def _counts(folder) -> dict[int, int]:
    table = read_parquet(folder / "counts.parquet").to_pylist()
    return {row["n"]: int(row["count_text"]) for row in table}


def test_the_lying_worker_is_caught_named_and_undone(tmp_path, liars_cluster):
    liar = _liar(*liars_cluster)
    done, folder = _run(tmp_path, liars_cluster, 0.2)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _counts(folder) == {n: Q[n] for n in range(8, 18)}
    assert f"worker {liar}" in done.stderr and "computed again elsewhere" in done.stderr
    runs = read_parquet(folder / "runs.parquet").to_pylist()[-1]
    assert runs["verify"] == 0.2 and runs["records_verified"] > 0
    assert runs["disagreements"] >= 1
    assert [w["address"] for w in runs["disagreeing_workers"]] == [liar]
    assert runs["disagreeing_workers"][0]["host"] == "127.0.0.1"
    manifest = json.loads((folder / "_boardsweep" / "manifest.json").read_text())
    assert manifest["run"]["disagreements"] == runs["disagreements"]


def test_without_verification_the_lie_is_published(tmp_path, liars_cluster):
    done, folder = _run(tmp_path, liars_cluster, 0)
    assert done.returncode == 0, done.stderr[-3000:]
    counts = _counts(folder)
    assert counts != {n: Q[n] for n in range(8, 18)}  # the liar's counts went in unseen
    assert all(counts[n] >= Q[n] for n in counts)  # one too high, where it lied
    assert read_parquet(folder / "runs.parquet").to_pylist()[-1]["records_verified"] == 0


def test_the_sample_is_deterministic_and_covers_every_point():
    records = [
        Record("t", f"p{p}", lo, lo + 1, 1, 0.0, "", "v") for p in range(20) for lo in range(50)
    ]
    by_point = {}
    for r in records:
        by_point.setdefault(r.point, []).append(r)
    chosen = [r for rs in by_point.values() for r in sampled(rs, 0.2)]
    assert chosen == [r for rs in by_point.values() for r in sampled(rs, 0.2)]
    assert {r.point for r in chosen} == set(by_point)  # every point
    assert 0.15 < len(chosen) / len(records) < 0.25
    assert all(
        share_key(r.point, r.lo, r.hi) < 0.2 or len([x for x in chosen if x.point == r.point]) >= 1
        for r in chosen
    )
    assert not [r for rs in by_point.values() for r in sampled(rs, 0.0)]
    assert len([r for rs in by_point.values() for r in sampled(rs, 1.0)]) == len(records)


def test_the_default_share_is_0_on_a_local_cluster_and_0_05_elsewhere(write_config):
    from boardsweep.pipeline.spec import ClusterSpec, load_config, verify_share

    config = load_config(
        write_config(
            "jobs:\n  - {name: a, problem: nqueens, n: 8}\n"
            "  - {name: b, problem: nqueens, n: 9, verify: 0.3}\n"
        )
    )
    plain, own = config.jobs
    assert verify_share(plain, ClusterSpec("local")) == 0
    for kind in ("address", "scheduler-file", "slurm", "pbs"):
        assert verify_share(plain, ClusterSpec(kind)) == 0.05
        assert verify_share(own, ClusterSpec(kind)) == 0.3
    assert verify_share(own, ClusterSpec("local"), 0.1) == 0.1  # --verify wins


def test_plan_shows_the_cpu_verification_adds(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("jobs: [{name: q, problem: nqueens, n: '8..12'}]\n")
    done = boardsweep("plan", str(config), "--verify", "0.25", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.splitlines()[1:3]
    assert header.split()[-2:] == ["verify", "+CPU"] or header.endswith("verify    +CPU h")
    cpu, share, extra = float(row.split()[-4]), float(row.split()[-2]), float(row.split()[-1])
    assert share == 0.25 and extra == pytest.approx(0.25 * cpu, rel=0.01)


@pytest.mark.parametrize("value", ["2", "-0.1", "yes", "[0.1]"])
def test_a_bad_verify_share_is_one_line(tmp_path, value):
    config = tmp_path / "c.yaml"
    config.write_text(f"jobs:\n  - {{name: q, problem: nqueens, n: 8, verify: {value}}}\n")
    done = boardsweep("run", str(config), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"boardsweep: error: {config}:2: jobs[0] (q): 'verify': ")
    assert len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "results").exists()
