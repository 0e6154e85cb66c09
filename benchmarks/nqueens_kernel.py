"""Speed of the N-queens count (``solvers.nqueens.total``: the constellation search,
solvers/nqueens/constellations.py) against a mirror-symmetric C counter.

Compiles benchmarks/nqueens_mirror.c into benchmarks/bin/ with ``cc -O3 -march=native``, warms the
numba JIT, then for each n prints: Q(n), the C counter's seconds and nodes (from a build with
-DCOUNT_NODES, run once more untimed: the C counter uses the left-right mirror only, so it walks
far more nodes than the constellation search), the numba kernel's seconds, its nodes (queens
placed), nodes per second of each and the ratio numba / C.  Times are CPU seconds of the
process doing the work (the C child's user+sys time, this process's time for numba), so a busy
machine disturbs them less than wall time; with ``--repeat`` each pair runs several times,
interleaved, and the fastest time of each side is kept (default 3).  Last, a fresh interpreter
imports the module and counts n = 8 from the numba cache; its wall time is the JIT warm start.

The table goes to stdout and to ``benchmarks/results/nqueens_kernel.md`` (``--out``).

Usage: python benchmarks/nqueens_kernel.py [--n 14 15 16 17] [--repeat 3] [--out PATH]
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import common
from common import HERE, ROOT, build_c, conditions, markdown, spread

TIMED = ("boardsweep.solvers.nqueens", "benchmarks/nqueens_mirror.c")
BINARY = HERE / "bin" / "nqueens_mirror"  # built by build_c("nqueens_mirror")
COUNTING = HERE / "bin" / "nqueens_mirror-count_nodes"  # build_c(..., ["COUNT_NODES"])


def run_c(n: int, binary: Path = BINARY) -> tuple[int, int, float]:
    """(Q(n), nodes, CPU seconds) of one run of the C baseline (nodes 0 unless ``binary`` is
    the counting build)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(binary), str(n)], check=True, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    _, q, nodes = out.stdout.split()
    return int(q), int(nodes), seconds


def run_numba(n: int) -> tuple[int, int, float]:
    """(Q(n), nodes, CPU seconds) of one symmetric count with the numba search."""
    from boardsweep.solvers import nqueens

    start = time.process_time()
    q, nodes = nqueens.total(n)
    return q, nodes, time.process_time() - start


def warm_start() -> float:
    """Wall seconds of a fresh interpreter that imports the module and counts n = 8 (cached)."""
    code = "from boardsweep.solvers import nqueens; assert nqueens.total(8)[0] == 92"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def main() -> None:
    """Print the comparison table and the warm-start time."""
    parser = common.benchmark_parser(__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--repeat", type=int, default=3, help="runs per side, fastest kept")
    args = common.parse_benchmark_args(parser)
    sizes = {"n": " ".join(map(str, args.n))}
    repeats = f"{args.repeat} per side, interleaved, the fastest kept; the warm start once"
    print(conditions(**sizes, repeat=args.repeat), flush=True)

    sys.path.insert(0, str(ROOT))
    build_c("nqueens_mirror")
    build_c("nqueens_mirror", ["COUNT_NODES"])
    start = time.perf_counter()
    run_numba(8)  # compile, or load from the cache
    print(f"JIT compile/load in this process: {time.perf_counter() - start:.2f} s", flush=True)

    rows = []
    for n in args.n:
        c_times, nb_times = [], []
        for _ in range(args.repeat):
            q_c, _, c_sec = run_c(n)
            q_nb, nodes, nb_sec = run_numba(n)
            if q_c != q_nb:
                raise SystemExit(f"n={n}: C says {q_c}, numba says {q_nb}")
            c_times.append(c_sec)
            nb_times.append(nb_sec)
        spread(c_times)
        spread(nb_times)
        c_best, nb_best = min(c_times), min(nb_times)
        c_nodes = run_c(n, COUNTING)[1]
        rows.append(
            [
                n,
                f"{q_nb:,}",
                f"{c_best:.3f}",
                f"{c_nodes:,}",
                f"{c_nodes / c_best / 1e6:.1f} M",
                f"{nb_best:.3f}",
                f"{nodes:,}",
                f"{nodes / nb_best / 1e6:.1f} M" if nb_best > 0 else "-",
                f"{nodes / c_nodes:.3f}",
                f"{nb_best / c_best:.3f}",
            ]
        )
        common.progress(f"n = {n}: C {c_best:.3f} s, numba {nb_best:.3f} s")
    table = markdown(
        [
            "n",
            "Q(n)",
            "C s",
            "C nodes",
            "C nodes/s",
            "numba s",
            "numba nodes",
            "numba nodes/s",
            "numba nodes / C's",
            "numba / C",
        ],
        rows,
    )
    body = (
        f"CPU seconds, the fastest of {args.repeat} interleaved runs per side; the C counter's "
        "nodes from an untimed run of its counting build.\n\n"
        f"{table}\n\nJIT warm start (fresh python, import + count n=8 from cache): "
        f"{warm_start():.2f} s."
    )
    common.print_and_write(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
