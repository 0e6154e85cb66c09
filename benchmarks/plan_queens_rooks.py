"""The plan of the queens+rooks triangle's rows 15 to 17 (15 and 16 on 2 local workers, 17 on
a cluster).

    python benchmarks/plan_queens_rooks.py [--sizes 15 16 17] [--sample 1000] [--workers 64]
                                           [--task-seconds 300]

For each row n (a whole row M = 0..n is one point): its split depth and work units
(``solvers.queens_rooks.unit_plan``), the planner's CPU estimate (``cost``), and a measured one:
the CPU seconds of ``--sample`` units drawn at random (one ``count_units`` call each, in this
process, after a warm-up), times the number of units.  The sample's spread (slowest unit over
the mean, and the coefficient of variation) says how even the units are; tasks of many units
are more even still (unit u is a pseudo-random prefix, so a task is a random sample).  Then the
config to run each row past 16 on a Slurm cluster and ``boardsweep plan`` on it, and the local
configs that compute rows 15 and 16 on 2 workers (``benchmarks/queens_rooks_row15.yaml``,
``benchmarks/queens_rooks_row16.yaml``; row 16's run and its checks:
``benchmarks/queens_rooks_row16.py``).

Nothing here asserts on a time; CPU seconds are ``time.process_time``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from common import HERE, conditions, markdown, plan_output, write_results

TIMED = (
    "boardsweep.pipeline.plan",
    "boardsweep.pipeline.cli",
    "boardsweep.solvers.queens_rooks",
    "benchmarks/queens_rooks_row15.yaml",
    "benchmarks/queens_rooks_row16.yaml",
)
LOCAL = {15: ("queens_rooks_row15.yaml", 20), 16: ("queens_rooks_row16.yaml", 60)}  # task s
REPEATS = "1 (each sampled unit runs once)"
SPREAD = "not repeated: the unit CV column is the spread over the sampled units"

SLURM = """\
# Row {n} of the queens+rooks triangle on a Slurm cluster: {units:,} work units, about
# {hours:,.1f} core-hours here (a {sample}-unit sample), {wall:,.1f} h on {workers} workers.
# A run cut short resumes where it stopped: run the same command again.
output: results-queens-rooks-{n}
cluster:
  kind: slurm
  workers: {workers}               # worker jobs, one Dask worker each
  cores: 1
  memory: 2GB
  walltime: "{walltime}"
  task_seconds: {task_seconds:g}
jobs:
  - {{name: row{n}, problem: queens_rooks, total: [{n}]}}
"""


def sample_units(n: int, sample: int, seed: int) -> list[float]:
    """CPU seconds of ``sample`` units of row n drawn at random, one count_units call each."""
    from boardsweep.solvers import queens_rooks as qr

    point = {"n": n, "queens": list(range(n + 1))}
    _, units = qr.unit_plan(point)
    qr.count_units(point, 0, 1)  # the prefix table and the kernel, outside the clock
    seconds = []
    for u in random.Random(seed).sample(range(units), min(sample, units)):
        start = time.process_time()
        qr.count_units(point, u, u + 1)
        seconds.append(time.process_time() - start)
    return seconds


def plan_of(config: str, workers: int, target: float) -> str:
    """``python -m pipeline plan`` on ``config`` (text): what it prints."""
    with tempfile.TemporaryDirectory(prefix="plan-qr-") as scratch:
        path = Path(scratch) / "config.yaml"
        path.write_text(config)
        return plan_output(path, workers, target, scratch)


def main() -> None:
    """Sample every row's units, print the table, the Slurm config and its plan."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 16, 17])
    parser.add_argument("--sample", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=64)
    parser.add_argument("--task-seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    from boardsweep.solvers import queens_rooks as qr

    settings = {
        "rows": ", ".join(map(str, args.sizes)),
        "sample": f"{args.sample} units (seed {args.seed})",
        "workers": args.workers,
        "target task length": f"{args.task_seconds:g} s",
    }
    print(conditions(**settings), flush=True)
    rows, measured = [], {}
    for n in args.sizes:
        point = {"n": n, "queens": list(range(n + 1))}
        depth, units = qr.unit_plan(point)
        seconds = sample_units(n, args.sample, args.seed)
        mean = sum(seconds) / len(seconds)
        spread = (sum((s - mean) ** 2 for s in seconds) / len(seconds)) ** 0.5 / mean
        total = mean * units
        measured[n] = (units, total)
        rows.append(
            [
                n,
                depth,
                f"{units:,}",
                f"{qr.cost(point) / 3600:,.2f}",
                f"{total / 3600:,.2f}",
                f"{mean * 1e3:,.2f}",
                f"{max(seconds) / mean:.1f}",
                f"{spread:.2f}",
                f"{total / 2 / 60:,.1f}",
                f"{total / args.workers / 60:,.1f}",
            ]
        )
    parts = [
        markdown(
            [
                "n",
                "depth",
                "units",
                "planner est. core-h",
                "sampled est. core-h",
                "mean unit ms",
                "slowest / mean unit",
                "unit CV",
                "wall min on 2 workers",
                f"wall min on {args.workers} workers",
            ],
            rows,
        ),
        f"Sampled estimate = mean CPU seconds of {args.sample} random units x units "
        "(one process, this machine); wall = CPU / workers (tasks of many random units).",
    ]
    for n in args.sizes:
        if n in LOCAL:
            continue
        units, total = measured[n]
        wall = total / args.workers / 3600
        hours = max(1, int(wall * 1.5) + 1)
        config = SLURM.format(
            n=n,
            units=units,
            hours=total / 3600,
            sample=args.sample,
            wall=wall,
            workers=args.workers,
            walltime=f"{hours:02d}:00:00",
            task_seconds=args.task_seconds,
        )
        parts.append(f"Row {n} on Slurm (config):\n\n```yaml\n{config}```")
        parts.append(
            "```text\n" + plan_of(config, args.workers, args.task_seconds).rstrip() + "\n```"
        )
    for n, (name, task_seconds) in LOCAL.items():
        local = (HERE / name).read_text()
        parts.append(f"Row {n} on 2 local workers (`benchmarks/{name}`):\n\n```yaml\n{local}```")
        parts.append("```text\n" + plan_of(local, 2, task_seconds).rstrip() + "\n```")
    body = "\n\n".join(parts)
    print(f"\n{body}")
    write_results(
        __file__, body, timed=TIMED, repeats=REPEATS, spread=SPREAD, sizes=settings, out=args.out
    )


if __name__ == "__main__":
    main()
