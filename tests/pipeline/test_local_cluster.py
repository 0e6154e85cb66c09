"""The local cluster's workers run without Dask's sampling profiler unless the config asks for
it, with the system monitor every 2 s and the event-loop tick every second (workers and
scheduler), and a worker restarted by its nanny keeps the same settings."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardsweep.pipeline.cluster import open_client
from boardsweep.pipeline.spec import cluster_spec
from boardsweep.solvers.schema import Context, ParamError


def _profiling(client) -> set[bool]:
    """Whether each worker has Dask's profile callbacks running."""
    return set(
        client.run(lambda dask_worker: "profile-cycle" in dask_worker.periodic_callbacks).values()
    )


def _seconds(client, key: str) -> set[float]:
    """Each worker's and the scheduler's setting ``key`` (a time) as its own config says."""
    import dask

    def interval():
        from dask.utils import parse_timedelta

        return parse_timedelta(dask.config.get(key))

    return set(client.run(interval).values()) | {client.run_on_scheduler(interval)}


def _monitor_seconds(client) -> set[float]:
    return _seconds(client, "distributed.admin.system-monitor.interval")


def _tick_seconds(client) -> set[float]:
    return _seconds(client, "distributed.admin.tick.interval")


def _local(**options):
    return cluster_spec(
        {"kind": "local", "workers": 1, "dashboard_address": "127.0.0.1:0", **options}, Context()
    )


def test_local_workers_run_without_the_profiler_even_after_a_restart():
    with open_client(_local()) as client:
        assert _profiling(client) == {False}
        assert _monitor_seconds(client) == {2.0}
        assert _tick_seconds(client) == {1.0}
        before = set(client.run(os.getpid).values())
        client.restart_workers(list(client.scheduler_info()["workers"]))
        client.wait_for_workers(1, timeout=60)
        assert set(client.run(os.getpid).values()).isdisjoint(before)  # a new process
        assert _profiling(client) == {False}
        assert _monitor_seconds(client) == {2.0}
        assert _tick_seconds(client) == {1.0}


def test_profile_true_turns_the_profiler_on():
    with open_client(_local(profile=True)) as client:
        assert _profiling(client) == {True}


def test_profile_must_be_true_or_false():
    with pytest.raises(ParamError, match="true or false"):
        _local(profile="sometimes")


def test_warm_up_hashes_the_code_version_before_the_first_task():
    """The version check of a worker's first bundle must not pay for hashing the sources (0.25 s,
    which read as load imbalance on 2 workers): warm_up leaves it cached, in a fresh process."""
    script = (
        "import boardsweep.solvers.identity as i; "
        "from boardsweep.pipeline.warm import warm_up; "
        "before = i._version.cache_info().currsize; warm_up(['nqueens']); "
        "print(before, i._version.cache_info().currsize)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["0", "1"]


def _sigint_at_start() -> str:
    """Run in a spawned process, first thing: how it found SIGINT."""
    import signal

    return {signal.SIG_IGN: "ignored", signal.SIG_DFL: "default"}.get(
        signal.getsignal(signal.SIGINT), "python's handler"
    )


def _report(queue) -> None:
    queue.put(_sigint_at_start())


def test_local_workers_are_spawned_with_sigint_already_ignored():
    """A Ctrl-C while a new worker still imports must not reach it (it printed a traceback):
    processes spawned while the local cluster lives start with SIGINT ignored, before any line
    of theirs runs, and a spawn after the cluster closed is ordinary again."""
    import multiprocessing
    from multiprocessing import spawn

    from boardsweep.pipeline.cluster import _workers_start_ignoring_sigint

    context = multiprocessing.get_context("spawn")

    def spawned() -> str:
        queue = context.Queue()
        process = context.Process(target=_report, args=(queue,))
        process.start()
        found = queue.get(timeout=60)
        process.join(60)
        assert process.exitcode == 0
        return found

    python = spawn.get_executable()
    with _workers_start_ignoring_sigint():
        assert spawned() == "ignored"
    assert spawn.get_executable() == python
    assert spawned() == "python's handler"
    with open_client(_local()) as client:
        # and the workers of a real local cluster ignore it (the preload agrees)
        assert set(client.run(_sigint_at_start).values()) == {"ignored"}


def test_the_sigint_script_is_kept_in_the_cache_not_a_folder_per_run(tmp_path, monkeypatch):
    """A driver killed with SIGKILL cleans up nothing, so the script lives in the user's cache,
    one per interpreter, written once: no run leaves a folder in the temporary folder."""
    import tempfile
    from multiprocessing import spawn

    from boardsweep.pipeline.cluster import _workers_start_ignoring_sigint

    monkeypatch.setenv("BOARDSWEEP_CACHE", str(tmp_path / "cache"))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    seen = []
    for _ in range(2):
        with _workers_start_ignoring_sigint():
            seen.append(os.fsdecode(spawn.get_executable()))
    kept = list((tmp_path / "cache" / "spawn").iterdir())
    assert [str(path) for path in kept] == seen[:1] == seen[1:]
    assert kept[0].read_text().startswith("#!/bin/sh\ntrap '' INT\nexec ")
    assert os.access(kept[0], os.X_OK) and list(scratch.iterdir()) == []


def test_the_sigint_script_goes_in_a_folder_of_the_run_where_the_cache_will_not_do(
    tmp_path, monkeypatch
):
    """A cache folder that cannot be written: the script goes in a temporary folder of this
    run's own, removed when the cluster closes."""
    import tempfile
    from multiprocessing import spawn

    from boardsweep.pipeline.cluster import _workers_start_ignoring_sigint

    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("BOARDSWEEP_CACHE", str(blocked))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    python = spawn.get_executable()
    with _workers_start_ignoring_sigint():
        wrapper = os.fsdecode(spawn.get_executable())
        assert wrapper != python and wrapper.startswith(str(scratch))
        assert os.access(wrapper, os.X_OK)
    assert spawn.get_executable() == python and list(scratch.iterdir()) == []


def test_a_script_that_cannot_be_put_in_place_leaves_no_copy_behind(tmp_path, monkeypatch):
    """Writing the kept script fails after its temporary copy exists: the copy is removed,
    and the caller is told (None), to fall back on a folder of its own."""
    from boardsweep.pipeline import cluster

    def refuse(src, dst):
        raise OSError("no room")

    monkeypatch.setattr(cluster.os, "replace", refuse)
    assert cluster._script(tmp_path / "spawn", "python-x", "#!/bin/sh\n") is None
    assert list((tmp_path / "spawn").iterdir()) == []
