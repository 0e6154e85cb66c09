"""A run across hosts: network namespaces made by the test, a partition mid-run, intruders.

Every host is a network namespace of its own, on a network that exists only inside them
(10.231.0.0/24 on a bridge in the scheduler's namespace; nothing routes to or from any other
network, and no process here listens anywhere else but loopback)::

    bsw-<tag>-s   br0 10.231.0.1   scheduler; the driver (boardsweep run)
      ├─ p1 ══ eth0 10.231.0.11    bsw-<tag>-w1   worker (with its nanny)   <- link cut mid-run
      ├─ p2 ══ eth0 10.231.0.12    bsw-<tag>-w2   worker (with its nanny)
      └─ p3 ══ eth0 10.231.0.13    bsw-<tag>-w3   intruders: a worker with a certificate of
                                                  another authority, and one with none

The scheduler, the workers and the driver speak TLS with the run's certificate authority (the
config's ``tls_ca_file``, ``tls_cert``, ``tls_key``).  While ``boardsweep run`` counts Q(1..17)
(seconds of work: enough, since a task the cut host holds cannot finish until it is removed),
the first worker host's link goes down (``ip link set eth0 down`` in its namespace).  The
scheduler misses its heartbeats (``worker-ttl`` 6 s here, to keep the test short), removes it,
and the tasks it held run again elsewhere; then the link comes back, the old worker learns it
was removed and ends, and a new one started there (as a supervisor would) joins again.  The
test checks, from the scheduler's own events and transition log, that the tasks the lost host
held were computed again after it was removed; that every count is exact; and that the job is
published once (generation 1, one row per n, one row in runs.parquet, each task's record merged
once).  The intruders are refused at the TLS handshake and never join.

Making namespaces needs root and iproute2.  Without them the test skips, unless
``BOARDSWEEP_REQUIRE_NETNS=1`` (set by ``.ci/run``), where it fails.  Every namespace and
every process in them is removed at the end, whatever happened.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from boardsweep.pipeline.spec import state_folder
from boardsweep.pipeline.tables import read_parquet
from tests.conftest import BOARDSWEEP, ROOT, records_stored, run_env
from tests.oeis import A000170
from tests.pipeline.tls import dask_flags, write_tls

pytestmark = pytest.mark.slow  # long, real processes: started first under pytest -n

REQUIRED = os.environ.get("BOARDSWEEP_REQUIRE_NETNS") == "1"
NET = "10.231.0"  # exists only inside the test's namespaces
SCHEDULER = f"tls://{NET}.1:8786"
DASK = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
WORKER = [sys.executable, "-m", "distributed.cli.dask_worker"]
# the scheduler notices a silent worker after WORKER_TTL, and gives up reaching its nanny after
# CONNECT: Dask's defaults (5 minutes, 30 s) would make the test wait minutes
WORKER_TTL, CONNECT = "6s", "3s"
TOP = 17  # the run counts Q(1..TOP): long enough to cut a host off mid-run

# A worker that speaks TLS but has no certificate (and trusts any server): it listens on plain
# TCP itself, since it has no certificate to serve with.
NO_CERT_WORKER = """\
import asyncio, sys
from distributed import Worker
from tests.pipeline.tls import no_certificate

async def main():
    async with Worker(sys.argv[1], security=no_certificate(), protocol="tcp", host=sys.argv[2],
                      nthreads=1, dashboard=False, death_timeout=10) as worker:
        await worker.finished()

asyncio.run(main())
"""

# What the scheduler says, asked through a client with the run's certificates: its workers, the
# remove-worker events of the host given, and every transition of the tasks that host held.
QUERY = """\
import json, sys
from distributed import Client
from distributed.security import Security

address, ca, cert, key, host = sys.argv[1:6]
security = Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)
with Client(address, security=security, timeout=30) as client:
    workers = sorted(client.scheduler_info(n_workers=-1)["workers"])
    removed = [{"worker": topic, "time": when, **message}
               for topic, events in client.get_events().items() for when, message in events
               if topic.startswith(f"tls://{host}:") and isinstance(message, dict)
               and message.get("action") == "remove-worker"]
    held = sorted({key for event in removed
                   for key in [*event["processing-tasks"], *event["lost-computed-tasks"]]})
    story = client.run_on_scheduler(
        lambda dask_scheduler, keys: [list(t[:3]) + [t[5]] for t in dask_scheduler.story(*keys)],
        keys=held)
print(json.dumps({"workers": workers, "removed": removed, "held": held, "story": story},
                 default=str))
"""


class Unavailable(Exception):
    """This machine cannot make the namespaces (no root, no iproute2, no veth or bridge)."""


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if done.returncode:
        raise Unavailable(f"`ip {' '.join(args)}` failed: {done.stderr.strip()}")


class Hosts:
    """The namespaces of one test run and the processes started in them; :meth:`close`
    ends the processes and deletes the namespaces."""

    def __init__(self, tag: str):
        self.tag = tag
        self.names: list[str] = []
        self.procs: list[subprocess.Popen] = []

    def ns(self, role: str) -> str:
        return f"bsw-{self.tag}-{role}"

    def build(self, workers: int) -> None:
        """The scheduler's namespace with a bridge, and ``workers`` hosts on veth pairs."""
        for role in ("s", *(f"w{i}" for i in range(1, workers + 1))):
            _ip("netns", "add", self.ns(role))
            self.names.append(self.ns(role))
            _ip("-n", self.ns(role), "link", "set", "lo", "up")
        s = self.ns("s")
        _ip("-n", s, "link", "add", "br0", "type", "bridge")
        _ip("-n", s, "addr", "add", f"{NET}.1/24", "dev", "br0")
        _ip("-n", s, "link", "set", "br0", "up")
        for i in range(1, workers + 1):
            w = self.ns(f"w{i}")
            _ip("-n", s, "link", "add", f"p{i}", "type", "veth", "peer", "name", "eth0", "netns", w)
            _ip("-n", s, "link", "set", f"p{i}", "master", "br0", "up")
            _ip("-n", w, "addr", "add", f"{NET}.{10 + i}/24", "dev", "eth0")
            _ip("-n", w, "link", "set", "eth0", "up")
        probe = subprocess.run(
            ["ip", "netns", "exec", s, "true"], capture_output=True, text=True, timeout=30
        )
        if probe.returncode:
            raise Unavailable(f"`ip netns exec` failed: {probe.stderr.strip()}")

    def start(
        self, role: str, argv: list[str], log: Path, env: dict | None = None, cwd: Path = ROOT
    ) -> subprocess.Popen:
        """``argv`` in the namespace of ``role``, its output to ``log``."""
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                ["ip", "netns", "exec", self.ns(role), *argv],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=cwd,
                env={**run_env(), **(env or {})},
            )
        self.procs.append(proc)
        return proc

    def link(self, role: str, state: str) -> None:
        _ip("-n", self.ns(role), "link", "set", "eth0", state)

    def close(self) -> None:
        for proc in reversed(self.procs):  # workers before their scheduler
            if proc.poll() is None:
                proc.terminate()
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=3)  # one that sits out SIGTERM is killed: nothing to wait for
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for name in self.names:  # what is left in them (a nanny's worker) is ours too
            pids = subprocess.run(
                ["ip", "netns", "pids", name], capture_output=True, text=True, timeout=30
            ).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


@pytest.fixture
def hosts():
    """Three worker hosts and a scheduler host, made for this test and removed after it."""
    reason = None
    if os.geteuid() != 0:
        reason = "network namespaces need root"
    elif shutil.which("ip") is None:
        reason = "iproute2's `ip` is not installed"
    made = Hosts(uuid.uuid4().hex[:8])
    try:
        if reason is None:
            try:
                made.build(3)
            except Unavailable as exc:
                reason = str(exc)
        if reason is not None:
            if REQUIRED:
                pytest.fail(f"BOARDSWEEP_REQUIRE_NETNS=1 but {reason}", pytrace=False)
            pytest.skip(f"{reason} (BOARDSWEEP_REQUIRE_NETNS=1 makes this a failure)")
        yield made
    finally:
        made.close()


def _until(
    what: str,
    check,
    timeout: float,
    driver: subprocess.Popen | None = None,
    log: Path | None = None,
):
    """Poll ``check`` until it gives something true; fail after ``timeout`` seconds, or as soon
    as ``driver`` has ended (with ``log``'s tail)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if driver is not None and driver.poll() is not None:
            pytest.fail(
                f"the run ended (exit {driver.returncode}) before {what}:\n"
                f"{log.read_text()[-3000:] if log else ''}"
            )
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} within {timeout:g} s")
        time.sleep(0.2)


def _lines(log: Path, pattern: str) -> list[str]:
    text = log.read_text(errors="replace") if log.exists() else ""
    return re.findall(pattern, text)


def _worker(tls: dict[str, str], i: int, folder: Path, key: dict | None = None) -> list[str]:
    """``dask worker`` (with its nanny) of host ``w<i>``: certificate files ``tls``, the
    certificate and key ``key`` instead where given."""
    files = {**tls, **(key or {})}
    return [
        *WORKER,
        SCHEDULER,
        "--host",
        f"{NET}.1{i}",
        "--nthreads",
        "1",
        "--no-dashboard",
        "--local-directory",
        str(folder / f"w{i}"),
        "--death-timeout",
        "30",
        *dask_flags(files),
    ]


def test_partition_mid_run_exact_once_and_intruders_refused(hosts, tmp_path):
    started = time.monotonic()
    tls, foreign = write_tls(tmp_path / "tls"), write_tls(tmp_path / "foreign")
    logs = tmp_path / "logs"
    logs.mkdir()
    quick = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": CONNECT}
    scheduler_log = logs / "scheduler.log"
    hosts.start(
        "s",
        [
            *DASK,
            "--host",
            f"{NET}.1",
            "--port",
            "8786",
            "--protocol",
            "tls",
            *dask_flags(tls),
            "--dashboard-address",
            "127.0.0.1:0",
        ],
        scheduler_log,
        {
            **quick,
            "DASK_DISTRIBUTED__SCHEDULER__WORKER_TTL": WORKER_TTL,
            "DASK_DISTRIBUTED__ADMIN__LOW_LEVEL_LOG_LENGTH": "1000000",
        },
    )
    _until("scheduler", lambda: _lines(scheduler_log, r"Scheduler at: +tls://"), 60)
    cut_host = hosts.start("w1", _worker(tls, 1, tmp_path), logs / "w1.log", quick)
    hosts.start("w2", _worker(tls, 2, tmp_path), logs / "w2.log", quick)
    # intruders: one trusts the run's authority but holds a certificate of another, one has none
    intruders = [
        hosts.start(
            "w3",
            _worker(tls, 3, tmp_path, {"cert": foreign["cert"], "key": foreign["key"]}),
            logs / "foreign.log",
            quick,
        ),
        hosts.start(
            "w3",
            [sys.executable, "-c", NO_CERT_WORKER, SCHEDULER, f"{NET}.13"],
            logs / "no-cert.log",
            quick,
        ),
    ]
    registered = rf"Register worker addr: tls://{NET}\.11:\d+"
    _until(
        "two workers",
        lambda: (
            _lines(scheduler_log, registered)
            and _lines(scheduler_log, rf"Register worker addr: tls://{NET}\.12:")
        ),
        90,
    )

    out = tmp_path / "out"
    config = tmp_path / "run.yaml"
    config.write_text(
        f"output: {out}\n"
        f"cluster: {{kind: address, address: '{SCHEDULER}', tls_ca_file: {tls['ca']}, "
        f"tls_cert: {tls['cert']}, tls_key: {tls['key']}, timeout: 60, task_seconds: 1}}\n"
        f"jobs:\n  - {{name: q, problem: nqueens, n: '1..{TOP}'}}\n"
    )
    driver_log = logs / "driver.log"
    driver = hosts.start("s", [*BOARDSWEEP, "run", str(config)], driver_log)
    store = state_folder(out) / "store.sqlite"
    _until("records stored", lambda: records_stored(store) >= 3, 180, driver, driver_log)

    hosts.link("w1", "down")  # mid-run: the first worker host is cut off
    cut = time.monotonic()
    _until(
        "removal of the cut host's worker",
        lambda: _lines(scheduler_log, rf"Remove worker addr: tls://{NET}\.11:"),
        90,
        driver,
        driver_log,
    )  # the run goes on with the other host meanwhile
    down = time.monotonic() - cut
    hosts.link("w1", "up")
    # back on the network, the old worker learns it was removed and ends; a supervisor
    # (systemd, a batch system) would start it again, and so does the test
    try:
        cut_host.wait(timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the cut host's worker did not end:\n{(logs / 'w1.log').read_text()}")
    hosts.start("w1", _worker(tls, 1, tmp_path), logs / "w1-again.log", quick)
    try:
        driver.wait(timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the run did not end:\n{driver_log.read_text()[-3000:]}")
    driver_text = driver_log.read_text()
    assert driver.returncode == 0, driver_text[-5000:]

    # exact, and published once
    job = out / "q"
    assert sorted(p.name for p in out.rglob("*.parquet")) == ["counts.parquet", "runs.parquet"]
    counts = read_parquet(job / "counts.parquet")
    assert counts.column("n").to_pylist() == list(range(1, TOP + 1))
    assert [int(c) for c in counts.column("count_text").to_pylist()] == list(A000170[:TOP])
    manifest = json.loads((job / "_boardsweep" / "manifest.json").read_text())
    assert manifest["generation"] == 1 and manifest["tables"]["counts"]["rows"] == TOP
    runs = read_parquet(job / "runs.parquet").to_pylist()
    assert len(runs) == 1, runs
    run = runs[0]
    assert run["generation"] == 1 and run["tasks_reused"] == 0 and run["units_reused"] == 0
    assert run["units_run"] == run["units"] == manifest["run"]["units"]
    assert run["tasks_run"] == manifest["tables"]["counts"]["records"], (run, manifest)
    # an external cluster verifies 5% of the records on a second host by default; the hosts
    # agree, so nobody is named
    assert run["verify"] == 0.05 and run["records_verified"] >= TOP
    assert run["disagreements"] == 0 and not run["disagreeing_workers"]

    # the tasks the cut host held were computed again after it was removed
    _until(
        "the cut host's worker joining again",
        lambda: len(_lines(scheduler_log, registered)) >= 2,
        60,
    )
    query = subprocess.run(
        [
            "ip",
            "netns",
            "exec",
            hosts.ns("s"),
            sys.executable,
            "-c",
            QUERY,
            SCHEDULER,
            tls["ca"],
            tls["cert"],
            tls["key"],
            f"{NET}.11",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=run_env(),
    )
    assert query.returncode == 0, query.stderr
    seen = json.loads(query.stdout.splitlines()[-1])
    assert len(seen["removed"]) == 1, seen["removed"]
    removed_at = seen["removed"][0]["time"]
    assert seen["held"], f"the cut host held no task when it was removed: {seen['removed']}"
    again = {
        key for key, _, finish, when in seen["story"] if finish == "memory" and when > removed_at
    }
    assert again == set(seen["held"]), seen["story"]
    # both hosts are in now (the cut one with a new worker); the intruders' host never was
    hosts_in = sorted(re.match(r"tls://([\d.]+):", w).group(1) for w in seen["workers"])
    assert hosts_in == [f"{NET}.11", f"{NET}.12"], seen["workers"]

    # the intruders: refused at the TLS handshake, never registered
    for proc in intruders:
        proc.wait(timeout=60)  # each gives up: no scheduler takes it
    assert not _lines(scheduler_log, rf"Register worker addr: \w+://{NET}\.13:")
    refusals = _lines(
        scheduler_log,
        rf"TLS handshake failed with remote 'tls://{NET}\.13:\d+'"
        r": (.*)",
    )
    assert any("CERTIFICATE_VERIFY_FAILED" in why for why in refusals), refusals  # foreign
    assert any("PEER_DID_NOT_RETURN_A_CERTIFICATE" in why for why in refusals), refusals
    for name in ("foreign.log", "no-cert.log"):  # the scheduler's alert, or its hang-up
        text = (logs / name).read_text()
        # refused: an SSL error, or the scheduler hung up and its start timed out (under
        # load); never registered either way
        refused = re.search(r"\bSSL\w*Error\b|failure-to-start", text)
        assert refused and "Registered to" not in text, text[-3000:]
    print(
        f"multi-host test: {time.monotonic() - started:.0f} s; the cut host was removed "
        f"after {down:.0f} s holding {len(seen['held'])} task(s)"
    )
