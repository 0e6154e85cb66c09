"""What replicated verification costs: CPU-seconds of a run with ``verify: 0.05`` and ``0.2``
against the same run with ``verify: 0``, in the same script, on one local cluster.

Workloads: Q(17) (``nqueens``, n = 17) and 10^6 generated walled boards (``max_rooks``, 6 x 6,
density 0.3).  Each run goes through the product's own path (``boardsweep.run`` with the
cluster's client: plan, loop, verification, merge, publication) into a fresh output folder.
CPU is that of the worker processes (user + system, from ``psutil``) plus the driver's, read
before and after each run; the shares are interleaved, each going first in turn, and the
median of ``--repeats`` runs is reported.  The table goes to stdout and, with its conditions,
to ``--out`` (default ``benchmarks/results/verify_cost.md``, which the manual includes).

    python benchmarks/verify_cost.py [--repeats 3] [--workers 2] [--out PATH]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import psutil
from common import conditions, markdown, median, rotated, write_results

SHARES = (0.0, 0.05, 0.2)
# what this script times: a run (boardsweep.run) with verification, of these two problems
TIMED = ("boardsweep.pipeline.api", "boardsweep.solvers.nqueens", "boardsweep.solvers.max_rooks")
WORKLOADS = {
    "Q(17)": {"name": "q", "problem": "nqueens", "n": 17},
    "10^6 walled boards 6x6": {
        "name": "w",
        "problem": "max_rooks",
        "boards": {"generate": {"n": 6, "density": 0.3, "count": 1_000_000, "seed": 1}},
    },
}


def _cpu(pids: list[int]) -> float:
    """User + system CPU-seconds of these processes (this one's included)."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def _run(client, job: dict, share: float, folder: Path) -> tuple[float, float]:
    """``(CPU-s, wall s)`` of one fresh run of ``job`` at ``share``."""
    import boardsweep

    pids = [psutil.Process().pid, *client.run(lambda: psutil.Process().pid).values()]
    config = {"output": str(folder), "jobs": [job]}
    before, start = _cpu(pids), time.perf_counter()
    boardsweep.run(config, client=client, verify=share, fresh=True)
    wall = time.perf_counter() - start
    return _cpu(pids) - before, wall


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    header = conditions(workers=args.workers, repeats=args.repeats)
    print(header, flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="verify-cost-"))
    measured: dict[tuple[str, float], list[tuple[float, float]]] = {}
    try:
        with (
            LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
            ) as cluster,
            Client(cluster) as client,
        ):
            for job in WORKLOADS.values():  # a first run compiles: not measured
                _run(client, job, 0.0, scratch / "warm")
            for r in range(args.repeats):
                for label, job in WORKLOADS.items():
                    for share in rotated(SHARES, r):
                        folder = scratch / f"{job['name']}-{share}-{r}"
                        measured.setdefault((label, share), []).append(
                            _run(client, job, share, folder)
                        )
                        shutil.rmtree(folder, ignore_errors=True)
                        print(f"{label} verify {share}: {measured[(label, share)][-1]}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = []
    for label in WORKLOADS:
        base = median([c for c, _ in measured[(label, 0.0)]])
        for share in SHARES:
            cpu = median([c for c, _ in measured[(label, share)]])
            wall = median([w for _, w in measured[(label, share)]])
            rows.append(
                [
                    label,
                    f"{share:g}",
                    f"{cpu:.1f}",
                    f"{wall:.1f}",
                    f"{cpu / base:.3f}",
                    f"{(cpu - base) / base:+.1%}",
                ]
            )
    table = markdown(
        ["workload", "verify", "CPU-s (median)", "wall s (median)", "CPU vs verify 0", "overhead"],
        rows,
    )
    print(table)
    write_results(
        __file__,
        f"CPU of the workers and the driver, median of {args.repeats} interleaved runs each.\n\n"
        + table,
        timed=TIMED,
        repeats=f"{args.repeats}, the shares interleaved (each first in turn)",
        sizes={"workers": args.workers},
        out=args.out,
    )


if __name__ == "__main__":
    main()
