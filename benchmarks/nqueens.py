"""N-queens through the whole pipeline against a plain mirror-symmetric C counter.

    python benchmarks/nqueens.py [--sizes 14 15 16 17] [--enumerate 16]

Prints, for each n: Q(n), the C counter's seconds (compiled here with cc -O3 -march=native from
benchmarks/nqueens_mirror.c and run in this script), boardsweep's seconds on a local Dask cluster
of 1 and of 2 worker processes (wall time of planning + tasks + merge, workers already warm),
search nodes, nodes/s on one worker, and the ratios.  Then the JIT warm start of a fresh process
(numba cache) and the enumeration of every solution of one n into Parquet on 2 workers with the
peak memory of the whole process tree.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pipeline.cluster import open_client  # noqa: E402
from pipeline.config import ClusterSpec  # noqa: E402
from pipeline.execute import dask_runner  # noqa: E402
from pipeline.jobs import solve_count  # noqa: E402
from pipeline.results import count_values  # noqa: E402
from pipeline.tasks import warm_up  # noqa: E402


def compile_c() -> Path:
    """Build the plain C counter into benchmarks/bin/."""
    binary = HERE / "bin" / "nqueens_mirror"
    binary.parent.mkdir(exist_ok=True)
    subprocess.run(["cc", "-O3", "-march=native", "-o", str(binary),
                    str(HERE / "nqueens_mirror.c")], check=True)
    return binary


def time_c(binary: Path, n: int) -> tuple[int, float]:
    """(Q(n), wall seconds) of the C counter."""
    start = time.perf_counter()
    out = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True)
    return int(out.stdout.split()[1]), time.perf_counter() - start


def time_cluster(workers: int, sizes: list[int]) -> dict[int, tuple[int, int, float]]:
    """{n: (Q(n), nodes, seconds)} on the local cluster ``boardsweep run`` makes, ``workers``
    processes with its scheduler settings."""
    timings = {}
    spec = ClusterSpec("local", {"workers": workers, "dashboard_address": ":0"})
    with open_client(spec) as client:
        client.run(warm_up, ["nqueens"])
        runner = dask_runner(client)
        solve_count("nqueens", {"n": 15}, runner, workers)  # Dask's first-task costs, untimed
        for n in sizes:
            start = time.perf_counter()
            table = solve_count("nqueens", {"n": n}, runner, workers)
            seconds = time.perf_counter() - start
            timings[n] = (count_values(table)[0], int(table.column("nodes")[0].as_py()), seconds)
    return timings


def warm_start_seconds() -> float:
    """Seconds for a fresh process to import the kernel and count n = 8 from the numba cache."""
    code = ("import time; t = time.perf_counter(); from solvers import nqueens; "
            "assert nqueens.total(8)[0] == 92; print(time.perf_counter() - t)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=HERE.parent,
                   capture_output=True)  # fills the cache
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=HERE.parent)
    return float(out.stdout)


def enumerate_to_parquet(n: int) -> tuple[float, float, int]:
    """(seconds, peak GiB of the process tree, rows) for ``solve nqueens n --solutions``."""
    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / f"q{n}.parquet"
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", "solve", "nqueens", str(n),
                                 "--solutions", str(out), "--workers", "2"],
                                cwd=HERE.parent, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        root, peak = psutil.Process(proc.pid), 0
        while proc.poll() is None:
            try:
                tree = [root, *root.children(recursive=True)]
                peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.05)
        seconds = time.perf_counter() - start
        rows = pq.ParquetFile(out).metadata.num_rows
    return seconds, peak / 2**30, rows


def main() -> None:
    """Run the measurements and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--enumerate", type=int, default=16, help="n to enumerate (0: skip)")
    args = parser.parse_args()
    binary = compile_c()
    c_times = {n: time_c(binary, n) for n in args.sizes}
    one = time_cluster(1, args.sizes)
    two = time_cluster(2, args.sizes)
    print("| n | Q(n) | C mirror s | 1 worker s | 2 workers s | nodes | nodes/s (1 worker) "
          "| 1 worker / C | 2 workers speed-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        q, c_seconds = c_times[n]
        q1, nodes, s1 = one[n]
        q2, _, s2 = two[n]
        assert q == q1 == q2, f"n = {n}: C says {q}, 1 worker {q1}, 2 workers {q2}"
        print(f"| {n} | {q:,} | {c_seconds:.2f} | {s1:.2f} | {s2:.2f} | {nodes:,} "
              f"| {nodes / s1 / 1e6:.0f} M | {s1 / c_seconds:.3f} | {s1 / s2:.2f}x |")
    print(f"\nJIT warm start (fresh process, numba cache): {warm_start_seconds():.2f} s")
    if args.enumerate:
        seconds, peak, rows = enumerate_to_parquet(args.enumerate)
        print(f"Enumerate n = {args.enumerate} to Parquet on 2 workers: {rows:,} solutions, "
              f"{seconds:.1f} s, peak memory of all processes {peak:.2f} GiB")


if __name__ == "__main__":
    main()
