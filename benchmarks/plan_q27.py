"""The plan of Q(27) for 1000 workers: how fast it starts, in how little memory, how even.

    python benchmarks/plan_q27.py [--sizes 20 24 27] [--workers 1000] [--task-seconds 600]
                                  [--repeats 3]

For each n, ``pipeline.plan.plan_job`` on ``make_job("nqueens", "q", {"n": n}, ...)`` with no
store, in a fresh Python process per measurement (imports done before the clock starts, so the
kernel's loading from numba's cache is part of the build, as it is for ``boardsweep plan``):
units and split depth (``solvers.nqueens.unit_plan``), tasks (``JobPlan.count_tasks`` at the
task length the plan cuts at for ``--workers``), mean and longest task in estimated seconds
(the longest found by walking every task), estimated CPU hours and wall hours on ``--workers``
workers, seconds to build the plan, to yield its first task and its first 10,000 tasks, and to
walk them all; peak memory as RSS growth over the process's RSS before the build (the
process's high-water mark, ``ru_maxrss``) and, in one more process per n, the tracemalloc peak
(traced separately: tracing slows the build).  Times are medians of ``--repeats`` runs,
interleaved over the sizes.  Then ``python -m pipeline plan`` on a config holding the same jobs,
with ``--workers`` and ``--task-seconds``, and its output as printed.

The baseline rows are the smaller sizes: build time and memory are also given as ratios to the
first size's.  Nothing here asserts on a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import common
from common import ROOT, MiB, conditions, markdown, median, plan_output, rotated

TIMED = ("boardsweep.pipeline.plan", "boardsweep.pipeline.cli", "boardsweep.solvers.nqueens")
FIRST = 10_000


def measure_one(n: int, workers: int, target: float, trace: bool) -> dict:
    """In this (fresh) process: build the plan of Q(n) and walk its tasks."""
    import psutil

    from boardsweep import solvers
    from boardsweep.pipeline.plan import plan_job
    from boardsweep.pipeline.spec import make_job
    from boardsweep.solvers.nqueens import unit_plan
    from boardsweep.solvers.schema import Context

    solvers.problems()
    rss0 = psutil.Process().memory_info().rss
    if trace:
        import tracemalloc

        tracemalloc.start()
    start = time.perf_counter()
    plan = plan_job(make_job("nqueens", "q", {"n": n}, Context(str(ROOT))), None)
    build = time.perf_counter() - start
    length = plan.task_seconds(target, workers)
    tasks = plan.tasks(length)
    first = next(tasks)
    to_first = time.perf_counter() - start
    longest = first.seconds
    for i, task in enumerate(tasks, start=2):
        longest = max(longest, task.seconds)
        if i == FIRST:
            break
    to_10k = time.perf_counter() - start
    built = time.perf_counter()
    count = plan.count_tasks(length)
    count_seconds = time.perf_counter() - built
    out = {
        "n": n,
        "units": plan.units,
        "depth": unit_plan(n)[0],
        "tasks": count,
        "length": length,
        "todo": plan.todo_seconds(),
        "build": build,
        "to_first": to_first,
        "to_10k": to_10k,
        "count_seconds": count_seconds,
    }
    if trace:
        import tracemalloc

        out["traced_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return out
    out["rss_growth"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss0
    walked, start = 0, time.perf_counter()
    for task in plan.tasks(length):
        walked += 1
        longest = max(longest, task.seconds)
    out.update(walk_seconds=time.perf_counter() - start, walked=walked, longest=longest)
    return out


def in_child(n: int, workers: int, target: float, trace: bool) -> dict:
    """:func:`measure_one` in a fresh interpreter; its JSON."""
    command = [
        sys.executable,
        __file__,
        "--one",
        str(n),
        "--workers",
        str(workers),
        "--task-seconds",
        str(target),
    ] + (["--trace"] if trace else [])
    out = subprocess.run(
        command,
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def plan_command(sizes: list[int], workers: int, target: float) -> tuple[str, float]:
    """``python -m pipeline plan`` on a config of the same jobs: (its output, wall seconds)."""
    with tempfile.TemporaryDirectory(prefix="plan-q27-") as scratch:
        config = Path(scratch) / "config.yaml"
        config.write_text(
            "output: results\ncluster: {kind: local}\njobs:\n"
            + "".join(f"  - {{name: q{n}, problem: nqueens, n: {n}}}\n" for n in sizes)
        )
        start = time.perf_counter()
        output = plan_output(config, workers, target, scratch)
        seconds = time.perf_counter() - start
    return output, seconds


def main() -> None:
    """Measure every size, print the table and the plan command's output."""
    parser = common.benchmark_parser(__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 24, 27])
    parser.add_argument("--workers", type=int, default=1000)
    parser.add_argument("--task-seconds", type=float, default=600.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = common.parse_benchmark_args(parser)
    if args.one is not None:
        print(json.dumps(measure_one(args.one, args.workers, args.task_seconds, args.trace)))
        return
    sizes = sorted(args.sizes)
    settings = {
        "plans": ", ".join(f"Q({n})" for n in sizes),
        "workers": args.workers,
        "target task length": f"{args.task_seconds:g} s",
    }
    repeats = (
        f"{args.repeats} fresh processes per size, the sizes interleaved; tracemalloc and the "
        "plan command once"
    )
    print(conditions(repeats=args.repeats, **settings), flush=True)
    runs: dict[int, list[dict]] = {n: [] for n in sizes}
    for r in range(args.repeats):
        for n in rotated(sizes, r):  # who goes first changes every repeat
            runs[n].append(in_child(n, args.workers, args.task_seconds, False))
            common.progress(
                f"repeat {r + 1}/{args.repeats} Q({n}): built in {runs[n][-1]['to_first']:.2f} s"
            )
    traced = {n: in_child(n, args.workers, args.task_seconds, True) for n in sizes}
    rows = []
    base = None
    for n in sizes:
        one = runs[n][0]
        first = median([x["to_first"] for x in runs[n]])
        growth = median([x["rss_growth"] for x in runs[n]])
        peak = traced[n]["traced_peak"]
        if base is None:
            base = (first, growth, peak)
        hours = one["todo"] / 3600
        rows.append(
            [
                f"Q({n})",
                f"{one['units']:,}",
                one["depth"],
                f"{one['tasks']:,}",
                f"{one['todo'] / one['tasks']:,.4g}",
                f"{max(x['longest'] for x in runs[n]):,.4g}",
                f"{one['length']:,.4g}",
                f"{hours:,.4g}",
                f"{hours / args.workers:,.4g}",
                f"{median([x['build'] for x in runs[n]]):.2f}",
                f"{first:.2f}",
                f"{median([x['to_10k'] for x in runs[n]]):.2f}",
                f"{median([x['count_seconds'] for x in runs[n]]):.2f}",
                f"{median([x['walk_seconds'] for x in runs[n]]):.1f}",
                f"{peak / MiB:,.1f}",
                f"{growth / MiB:,.1f}",
                f"{first / base[0]:.2f}",
                f"{growth / max(base[1], 1):.2f}",
            ]
        )
        if any(x["walked"] != one["tasks"] for x in runs[n]):
            rows[-1][3] += f" (walked {runs[n][0]['walked']:,})"
    table = markdown(
        [
            "plan",
            "units",
            "depth",
            "tasks",
            "mean task est. s",
            "longest task est. s",
            "cut at s",
            "CPU hours est.",
            f"wall hours on {args.workers} workers",
            "build s",
            "build + first task s",
            f"first {FIRST:,} tasks s",
            "count_tasks s",
            "walk every task s",
            "tracemalloc peak MiB",
            "RSS growth MiB",
            f"build + first task / Q({sizes[0]})'s",
            f"RSS growth / Q({sizes[0]})'s",
        ],
        rows,
    )
    note = (
        f"Medians of {args.repeats} runs, each in a fresh process (imports before the clock; "
        "the numba kernel's loading from cache is inside the build); tracemalloc in one more "
        f"process per size. Baseline: Q({sizes[0]}). Wall hours = estimated CPU hours / "
        "workers."
    )
    output, seconds = plan_command(sizes, args.workers, args.task_seconds)
    body = (
        f"{table}\n\n{note}\n\n`boardsweep plan` on a config of the same jobs (whole "
        f"command, one run, {seconds:.1f} s wall):\n\n```text\n{output.rstrip()}\n```"
    )
    common.print_and_write(
        __file__, body, timed=TIMED, repeats=repeats, sizes=settings, out=args.out
    )


if __name__ == "__main__":
    main()
