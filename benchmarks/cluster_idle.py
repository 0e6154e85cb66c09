"""What an idle local cluster costs in CPU: Dask's defaults against the settings boardsweep uses.

    python benchmarks/cluster_idle.py [--workers 2] [--seconds 10] [--repeats 3]

A local cluster shares the machine's cores with the work, so every wake-up of Dask's own
periodic callbacks is time the workers do not get.  For each setting, interleaved over
``--repeats`` rounds, the script opens the local cluster ``boardsweep run`` opens
(``pipeline.cluster.open_client``), lets it settle for 3 s, then counts the CPU seconds (user +
system) that this process (driver, scheduler and client) and each worker process spend over
``--seconds`` of doing nothing:

* **dask defaults**: the sampling profiler on, the system monitor every 0.5 s, the event-loop
  tick every 20 ms;
* **profiler off, monitor 2 s**: boardsweep's settings before the tick;
* **boardsweep**: ``pipeline.cluster._local_worker_settings`` as it is (profiler off, monitor
  every 2 s, tick every second).

It prints the medians with min..max and each setting's total against Dask's defaults.  Nothing
here computes, so the figure is the cluster's own overhead; a busy machine inflates it a little.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from common import ROOT, conditions, markdown, median, rotated, write_results

TIMED = ("boardsweep.pipeline.cluster",)
SETTINGS = {
    "dask defaults": {
        "distributed.worker.profile.enabled": True,
        "distributed.admin.system-monitor.interval": "500ms",
        "distributed.admin.tick.interval": "20ms",
    },
    "profiler off, monitor 2 s": {
        "distributed.worker.profile.enabled": False,
        "distributed.admin.system-monitor.interval": "2s",
        "distributed.admin.tick.interval": "20ms",
    },
    "boardsweep": None,  # pipeline.cluster._local_worker_settings, unchanged
}


def cpu_seconds() -> float:
    """User + system CPU seconds of the calling process."""
    import os

    import psutil

    times = psutil.Process(os.getpid()).cpu_times()
    return times.user + times.system


def idle_cpu(name: str, workers: int, seconds: float) -> tuple[float, list[float]]:
    """(driver CPU s, [each worker's CPU s]) over ``seconds`` of an idle cluster with ``name``'s
    settings."""
    import boardsweep.pipeline.cluster as cluster
    from boardsweep.pipeline.spec import ClusterSpec

    own = cluster._local_worker_settings
    if SETTINGS[name] is not None:
        cluster._local_worker_settings = lambda options: dict(SETTINGS[name])
    try:
        spec = ClusterSpec("local", {"workers": workers, "dashboard_address": "127.0.0.1:0"})
        with cluster.open_client(spec) as client:
            time.sleep(3)
            before, driver = client.run(cpu_seconds), cpu_seconds()
            time.sleep(seconds)
            after, driver_after = client.run(cpu_seconds), cpu_seconds()
    finally:
        cluster._local_worker_settings = own
    return driver_after - driver, [after[w] - before[w] for w in sorted(before)]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    print(conditions(workers=args.workers, seconds=args.seconds, repeats=args.repeats), flush=True)
    names = list(SETTINGS)
    driver: dict[str, list[float]] = {name: [] for name in names}
    work: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.repeats):
        for name in rotated(names, r):
            d, w = idle_cpu(name, args.workers, args.seconds)
            driver[name].append(d)
            work[name].append(sum(w))
            print(
                f"round {r + 1}: {name}: driver {d:.2f} s, workers {[round(x, 2) for x in w]}",
                file=sys.stderr,
                flush=True,
            )
    base = median(driver[names[0]]) + median(work[names[0]])
    rows = []
    for name in names:
        total = median(driver[name]) + median(work[name])
        rows.append(
            [
                name,
                f"{median(driver[name]):.2f}",
                f"{min(driver[name]):.2f}..{max(driver[name]):.2f}",
                f"{median(work[name]):.2f}",
                f"{min(work[name]):.2f}..{max(work[name]):.2f}",
                f"{100 * total / (args.workers * args.seconds):.1f}%",
                f"{total / base:.2f}",
            ]
        )
    table = markdown(
        [
            "settings",
            "driver CPU s",
            "min..max",
            f"{args.workers} workers CPU s",
            "min..max",
            "share of the cores",
            "total / dask defaults",
        ],
        rows,
    )
    print(f"\n{table}")
    body = (
        f"CPU over {args.seconds:g} s of an idle cluster of {args.workers} workers, medians of "
        f"{args.repeats} interleaved rounds with min..max.\n\n{table}"
    )
    repeats = f"{args.repeats}, the settings interleaved (each first in turn)"
    sizes = {"workers": args.workers, "seconds": args.seconds}
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
