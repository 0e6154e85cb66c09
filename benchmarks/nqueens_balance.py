"""How evenly the pipeline's work units of Q(n) spread over 1 and 2 workers, in nodes.

    python benchmarks/nqueens_balance.py [--n 16 17] [--target 60]

For each n: the nodes below every work unit of the counts table (one in-process count of all
units, the kernel's own node counts), the tasks the planner cuts for a job of that one n on 1 and
on 2 worker threads (``pipeline.plan``: ``task_seconds(target, workers)``, then ``tasks``), and
each task's nodes.  Tasks go to whichever worker is free first, in the planner's order (greedy
list scheduling, what a Dask cluster with nothing else queued does).  It prints the nodes of the
busiest worker against the total: the 2-worker compute time as a share of 1 worker's, were every
node equally fast and nothing else cost time.  It times nothing, so a busy machine does not
change it; the measured wall time of 1 and 2 workers is ``benchmarks/nqueens.py``'s.
"""

from __future__ import annotations

import argparse
import heapq
import sys
from pathlib import Path

import numpy as np
from common import ROOT, conditions, make, markdown, write_results

TIMED = ("boardsweep.pipeline.plan", "boardsweep.solvers.nqueens")
REPEATS = "1 (deterministic: nodes are counted, nothing is timed)"
SPREAD = "none: nothing is timed"


def unit_nodes(n: int) -> tuple[np.ndarray, int]:
    """(nodes below each work unit of Q(n) in unit order, int64 [units]; Q(n))."""
    from boardsweep.solvers import nqueens
    from boardsweep.solvers.nqueens import constellations, tail
    from boardsweep.solvers.prefixes import prefix_numbers

    depth, units = nqueens.unit_plan(n)
    every, stabs = constellations.units(n, depth)  # in the search's order: unit number = row
    assert len(every) == units
    counts, classes, nodes = (np.zeros(units, np.int64) for _ in range(3))
    constellations.count_batch(n, every, stabs, counts, classes, nodes, tail.tables())
    order = np.asarray(prefix_numbers(units, 0, units), dtype=np.int64)
    q = int(counts.astype(object).sum())
    return nodes[order], q


def makespan(costs: list[int], workers: int) -> int:
    """Nodes of the busiest worker when each task goes to the first free worker, in order."""
    free = [0] * workers
    for c in costs:
        heapq.heapreplace(free, free[0] + c)
    return max(free)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--target", type=float, default=60.0, help="target task seconds")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from boardsweep.pipeline.plan import plan_job

    print(conditions(n=" ".join(map(str, args.n)), target=args.target), flush=True)
    rows = []
    for n in args.n:
        nodes, q = unit_nodes(n)
        total = int(nodes.sum())
        spans = {}
        for workers in (1, 2):
            plan = plan_job(make("nqueens", "q", {"n": n}), None)
            tasks = list(plan.tasks(plan.task_seconds(args.target, workers)))
            costs = [int(nodes[t.lo : t.hi].sum()) for t in tasks]
            assert sum(costs) == total
            spans[workers] = (len(tasks), max(costs), makespan(costs, workers))
        t2, big2, span2 = spans[2]
        rows.append(
            [
                n,
                f"{q:,}",
                f"{len(nodes):,}",
                f"{total:,}",
                f"{int(nodes.max()):,}",
                t2,
                f"{big2 / total:.3f}",
                f"{span2 / total:.3f}",
            ]
        )
    table = markdown(
        [
            "n",
            "Q(n)",
            "units",
            "nodes",
            "largest unit",
            "tasks (2 workers)",
            "largest task / all",
            "2 workers / 1 worker (nodes)",
        ],
        rows,
    )
    print(f"\n{table}")
    body = (
        "Nodes, not time: the busiest worker's nodes against all, the planner's tasks handed "
        f"to whichever worker is free first.\n\n{table}"
    )
    sizes = {"n": " ".join(map(str, args.n)), "target task seconds": args.target}
    write_results(
        __file__, body, timed=TIMED, repeats=REPEATS, spread=SPREAD, sizes=sizes, out=args.out
    )


if __name__ == "__main__":
    main()
