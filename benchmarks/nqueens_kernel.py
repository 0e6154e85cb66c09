"""Speed of the N-queens count (``solvers.nqueens.total``: the constellation search,
solvers/nqueens/constellations.py) against a mirror-symmetric C counter.

Compiles benchmarks/nqueens_mirror.c into benchmarks/bin/ with ``cc -O3 -march=native``, warms the
numba JIT, then for each n prints: Q(n), the C counter's seconds, the numba kernel's seconds, its
nodes (queens placed), nodes per second and the ratio numba / C.  Times are CPU seconds of the
process doing the work (the C child's user+sys time, this process's time for numba), so a busy
machine disturbs them less than wall time; with ``--repeat`` each pair runs several times,
interleaved, and the fastest time of each side is kept.  Last, a fresh interpreter imports the
module and counts n = 8 from the numba cache; its wall time is the JIT warm start.

Usage: python benchmarks/nqueens_kernel.py [--n 14 15 16 17] [--repeat 1]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from common import build_c  # noqa: E402

BINARY = HERE / "bin" / "nqueens_mirror"  # built by build_c("nqueens_mirror")


def run_c(n: int) -> tuple[int, int, float]:
    """(Q(n), nodes, CPU seconds) of one run of the C baseline."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([str(BINARY), str(n)], check=True, capture_output=True, text=True)
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--repeat", type=int, default=1, help="runs per side, fastest kept")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    build_c("nqueens_mirror")
    start = time.perf_counter()
    run_numba(8)  # compile, or load from the cache
    print(f"JIT compile/load in this process: {time.perf_counter() - start:.2f} s", flush=True)

    header = f"{'n':>3} {'Q(n)':>12} {'C s':>8} {'numba s':>8} {'numba nodes':>14} "
    header += f"{'nodes/s':>10} {'numba/C':>8}"
    print(header)
    for n in args.n:
        c_best = nb_best = float("inf")
        for _ in range(args.repeat):
            q_c, _, c_sec = run_c(n)
            q_nb, nodes, nb_sec = run_numba(n)
            if q_c != q_nb:
                raise SystemExit(f"n={n}: C says {q_c}, numba says {q_nb}")
            c_best, nb_best = min(c_best, c_sec), min(nb_best, nb_sec)
        rate = nodes / nb_best if nb_best > 0 else float("nan")
        print(
            f"{n:>3} {q_nb:>12} {c_best:>8.3f} {nb_best:>8.3f} {nodes:>14,} "
            f"{rate / 1e6:>9.1f}M {nb_best / c_best:>8.3f}",
            flush=True,
        )
    print(f"JIT warm start (fresh python, import + count n=8 from cache): {warm_start():.2f} s")


if __name__ == "__main__":
    main()
