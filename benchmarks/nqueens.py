"""N-queens through the whole pipeline against a plain mirror-symmetric C counter.

    python benchmarks/nqueens.py [--sizes 14 15 16 17] [--enumerate 16] [--repeats 3]

Prints, for each n: Q(n), the C counter's seconds (compiled here with cc -O3 -march=native from
benchmarks/nqueens_mirror.c and run in this script), boardsweep's seconds on a local Dask cluster
of 1 and of 2 worker processes (wall time of planning + tasks + merge into a temporary store, as
``boardsweep solve`` computes: ``pipeline.jobs.run_once`` on ``pipeline.jobs.open_runner``'s
cluster, workers already warm; nothing is published), search nodes, nodes/s on one worker, and
the ratios.  The two programs do not walk the same tree: the C counter uses the left-right
mirror only, boardsweep's constellation search the whole square's symmetry, so it visits far
fewer nodes; the C counter's own nodes (one more, untimed run of a build with -DCOUNT_NODES)
and the ratio of the two are printed too. Times are medians of ``--repeats``
runs, interleaved (each repeat: C for every n, then a 1-worker cluster for every n, then a
2-worker one; only one cluster is up at a time, so an idle one takes no CPU from the other). The
compute columns time the task loop alone (the runner, from the first bundle handed to the cluster
to the last result back). Then the JIT warm start of a fresh process (numba cache) and the
enumeration of every solution of one n into Parquet on 2 workers (``boardsweep solve nqueens N
--solutions``, a subprocess) with the peak memory of the whole process tree.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import (
    HERE,
    ROOT,
    TreeSampler,
    build_c,
    conditions,
    local_cluster,
    make,
    markdown,
    median,
    solve_once,
    write_results,
)

TIMED = (
    "boardsweep.pipeline.jobs",
    "boardsweep.pipeline.cli",
    "boardsweep.solvers.nqueens",
    "benchmarks/nqueens_mirror.c",
)


def time_c(binary: Path, n: int) -> tuple[int, float]:
    """(Q(n), wall seconds) of the C counter."""
    start = time.perf_counter()
    out = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[1]), time.perf_counter() - start


def c_nodes(binary: Path, n: int) -> int:
    """Nodes (queens placed) of the C counter, from its -DCOUNT_NODES build (not timed)."""
    out = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[2])


def time_cluster(cluster, n: int) -> tuple[int, int, float, float]:
    """(Q(n), nodes, wall seconds, compute seconds) of one count on a warm cluster
    ``(runner, threads, _)``; compute is the runner's own time, from the first bundle handed
    to the cluster to the last result back (no planning, merge or publication)."""
    runner, threads, _ = cluster
    job = make("nqueens", "q", {"n": n})
    compute = [0.0]

    def timed(source):
        begin = time.perf_counter()
        try:
            yield from runner(source)
        finally:
            compute[0] += time.perf_counter() - begin

    start = time.perf_counter()
    table = solve_once(job, timed, threads)["counts"]
    seconds = time.perf_counter() - start
    return (
        int(table.column("count_text")[0].as_py()),
        int(table.column("nodes")[0].as_py()),
        seconds,
        compute[0],
    )


def warm_start_seconds() -> float:
    """Seconds for a fresh process to import the kernel and count n = 8 from the numba cache."""
    code = (
        "import time; t = time.perf_counter(); from boardsweep.solvers import nqueens; "
        "assert nqueens.total(8)[0] == 92; print(time.perf_counter() - t)"
    )
    subprocess.run(
        [sys.executable, "-c", code], check=True, cwd=HERE.parent, capture_output=True
    )  # fills the cache
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=HERE.parent
    )
    return float(out.stdout)


def enumerate_to_parquet(n: int) -> tuple[float, float, int]:
    """(seconds, peak GiB of the process tree, rows) for ``solve nqueens n --solutions``."""
    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / f"q{n}.parquet"
        start = time.perf_counter()
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "boardsweep",
                "solve",
                "nqueens",
                str(n),
                "--solutions",
                str(out),
                "--workers",
                "2",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        with TreeSampler(proc.pid) as sampler:
            proc.communicate()
        seconds = time.perf_counter() - start
        if proc.returncode:
            raise RuntimeError(f"solve nqueens {n} --solutions exited {proc.returncode}")
        rows = pq.ParquetFile(out).metadata.num_rows
    return seconds, sampler.peak_tree / 2**30, rows


def main() -> None:
    """Run the measurements and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--enumerate", type=int, default=16, help="n to enumerate (0: skip)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sizes = {
        "n": " ".join(map(str, args.sizes)),
        "enumerate": args.enumerate or "skipped",
        "clusters": "local, 1 and 2 worker processes (1 thread each)",
    }
    repeats = (
        f"{args.repeats}, interleaved (C for every n, then 1 worker, then 2); the warm start "
        "and the enumeration once"
    )
    print(conditions(repeats=args.repeats, **sizes), flush=True)
    binary = build_c("nqueens_mirror")
    counting = build_c("nqueens_mirror", ["COUNT_NODES"])
    c_times: dict[int, list] = {n: [] for n in args.sizes}
    one: dict[int, list] = {n: [] for n in args.sizes}
    two: dict[int, list] = {n: [] for n in args.sizes}
    for r in range(args.repeats):
        for n in args.sizes:
            c_times[n].append(time_c(binary, n))
        for workers, times in ((1, one), (2, two)):  # one cluster up at a time
            with local_cluster(workers, ["nqueens"]) as cluster:
                time_cluster(cluster, 15)  # Dask's first-task costs, untimed
                for n in args.sizes:
                    times[n].append(time_cluster(cluster, n))
        for n in args.sizes:
            print(
                f"repeat {r + 1}/{args.repeats} n = {n}: C {c_times[n][-1][1]:.2f} s, "
                f"1 worker {one[n][-1][2]:.2f} s, 2 workers {two[n][-1][2]:.2f} s",
                file=sys.stderr,
                flush=True,
            )
    rows = []
    for n in args.sizes:
        answers = {x[0] for x in c_times[n] + one[n] + two[n]}
        assert len(answers) == 1, f"n = {n}: answers differ: {answers}"
        q = answers.pop()
        nodes, mirror = one[n][0][1], c_nodes(counting, n)
        c_seconds = median([x[1] for x in c_times[n]])
        s1 = median([x[2] for x in one[n]])
        s2 = median([x[2] for x in two[n]])
        k1 = median([x[3] for x in one[n]])
        k2 = median([x[3] for x in two[n]])
        rows.append(
            [
                n,
                f"{q:,}",
                f"{c_seconds:.2f}",
                f"{s1:.2f}",
                f"{s2:.2f}",
                f"{mirror:,}",
                f"{nodes:,}",
                f"{nodes / mirror:.3f}",
                f"{mirror / c_seconds / 1e6:.0f} M",
                f"{nodes / s1 / 1e6:.0f} M",
                f"{s1 / c_seconds:.3f}",
                f"{s1 / s2:.2f}x",
                f"{k1:.2f} / {k2:.2f}",
                f"{k2 / k1:.3f}",
            ]
        )
    table = markdown(
        [
            "n",
            "Q(n)",
            "C mirror s",
            "1 worker s",
            "2 workers s",
            "C mirror nodes",
            "our nodes",
            "our nodes / C's",
            "C nodes/s",
            "our nodes/s (1 worker)",
            "1 worker / C",
            "2 workers speed-up",
            "compute 1 / 2 workers s",
            "compute 2 / 1",
        ],
        rows,
    )
    parts = [
        table,
        f"Medians of {args.repeats} interleaved runs (wall seconds); baseline: the C "
        "counter, run in this script, which walks the left-right mirror's tree (its nodes "
        "from an untimed build that counts them), where boardsweep walks the constellation "
        "search's: most of the ratio to C is the nodes not visited. boardsweep's time is a "
        "whole job as `boardsweep solve` runs it (plan, task loop, merge, into a temporary "
        "store; nothing published); compute: the task loop alone (first bundle out to last "
        "result in).",
        f"JIT warm start (fresh process, numba cache): {warm_start_seconds():.2f} s.",
    ]
    if args.enumerate:
        seconds, peak, count = enumerate_to_parquet(args.enumerate)
        parts.append(
            f"Enumerate n = {args.enumerate} to Parquet on 2 workers (`boardsweep solve "
            f"nqueens {args.enumerate} --solutions FILE`, one run): {count:,} solutions, "
            f"{seconds:.1f} s, peak memory of all processes {peak:.2f} GiB."
        )
    body = "\n\n".join(parts)
    print(f"\n{body}")
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
