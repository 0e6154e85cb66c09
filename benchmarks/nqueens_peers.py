"""N-queens kernel against a D4 C counter of our own and, when given, the fastest peers.

    python benchmarks/nqueens_peers.py [--n 16 17] [--repeats 3]
        [--takaken /tmp/peers/takaken] [--faf /tmp/peers/faf/run.sh] [--skip kernel "D4 C"]

Sides, each counting Q(n) on one core, interleaved (the order rotates every repeat):

* **kernel**: boardsweep's symmetric row search in this process (``solvers.nqueens.tree.whole``,
  numba, warmed first); CPU seconds of this process.
* **constellations**: boardsweep's constellation search (``solvers.nqueens.constellations``:
  the four border queens first, NQueensFAF's algorithm class) in this process, warmed first;
  CPU seconds of this process.  It walks its own tree, so its nodes are its own: the queens it
  places one by one, above the last five inner rows, which it scores by table
  (``solvers.nqueens.tail``).  Its nodes/s and cycles/node are per such queen and compare
  with no other side's; the sides compare by time.
* **D4 C**: ``benchmarks/nqueens_d4.c``, our own C counter of takaken's algorithm class that
  walks the same tree as the kernel (built here with ``cc -O3 -march=native`` into
  ``benchmarks/bin/``); CPU seconds of the child.  Both report the nodes (queens placed) and
  must agree on them, so their nodes/s compare the code, and the peers' times the algorithm.
* **takaken** (``--takaken``): his 2003 C counter with the full 8-fold symmetry, built from its
  public source outside the project; it must print ``N total unique seconds`` (the published
  program with its display code removed and that output line; ``cc -O3 -march=native``).
  CPU seconds of the child.
* **NQueensFAF** (``--faf``): olepoeschl/NQueensFAF's CpuSolver on 1 thread (constellations),
  compiled with plain javac from its public source (the Kryo save-file classes stubbed, as a
  count never saves), run by a wrapper that prints ``N solutions milliseconds`` for
  ``CpuSolver`` with ``setThreadCount(1)``; the time is the solver's own (``getDuration``, wall,
  JVM start excluded), as NQueensFAF reports it; a second row gives the same runs' CPU seconds
  of the whole JVM process (start, JIT compiler and GC threads included), which a busy machine
  disturbs less than the solver's wall time.

How the peers in the committed tables were built (in a scratch folder; none of their code is
in this project):

* takaken: his search code (``Check``, ``Backtrack1``, ``Backtrack2``, ``NQueens``; comments
  aside, byte for byte the copy in suzukiiichiro/N-Queens, ``06OpenCL/07_10NQueen.c``), his
  display code removed, and a ``main`` of ours that prints the one line; ``cc -O3
  -march=native``.
* NQueensFAF: ``CpuSolver`` and the classes it needs from olepoeschl/NQueensFAF (commit
  9c6ee92), compiled with ``javac``, the Kryo save-file classes replaced by empty stand-ins
  (only saving uses them).  Our wrapper calls ``setN``, ``setThreadCount(1)`` and
  ``setUpdateInterval(0)`` (no progress thread), then ``start()``, and prints
  ``getSolutions()`` and ``getDuration()``.  Its counts are right from N = 7 up (checked to
  13 against OEIS A000170) and wrong below, far from the boards timed here.

*cycles/node* is the median seconds times the clock Linux reports (``cpu MHz`` in
/proc/cpuinfo, the nominal rate: a boost clock would make the true count higher), over the
nodes.

Each cell is the median of ``--repeats`` runs with its min..max; ratios are kernel / side and
constellations / side.  ``--skip`` leaves sides out (the kernel, D4 C, takaken), to time a
long n = 18 run of constellations against NQueensFAF alone.
Without ``--takaken`` or ``--faf`` those rows are left out.  Every side's Q(n) (and U(n) where it
prints one) must agree, else the script stops.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

import common
from common import HERE, ROOT, build_c, conditions, markdown, median, rotated, write_results

TIMED = (
    "boardsweep.solvers.nqueens.tree",
    "boardsweep.solvers.nqueens.constellations",
    "boardsweep.solvers.nqueens.tail",
    "benchmarks/nqueens_d4.c",
)
BINARY = HERE / "bin" / "nqueens_d4"  # built by build_c("nqueens_d4")


def child(cmd: list[str]) -> tuple[list[str], float]:
    """(stdout words, CPU seconds: user + sys of the child) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# each side: n -> (Q, U or None, nodes or None, seconds)
Side = Callable[[int], tuple[int, int | None, int | None, float]]


def in_process(whole: Callable) -> Side:
    """A search of ours, ``whole(n) -> (Q, U, nodes)``, run in this process (CPU seconds)."""

    def run(n: int) -> tuple[int, int, int, float]:
        start = time.process_time()
        q, u, nodes = whole(n)
        return int(q), int(u), int(nodes), time.process_time() - start

    return run


def d4_c(n: int) -> tuple[int, int, int, float]:
    """benchmarks/nqueens_d4.c (CPU seconds of the child)."""
    out, seconds = child([str(BINARY), str(n)])
    return int(out[1]), int(out[2]), int(out[3]), seconds


def takaken(path: str) -> Side:
    """takaken's counter at ``path`` (CPU seconds of the child)."""

    def run(n: int) -> tuple[int, int, None, float]:
        out, seconds = child([path, str(n)])
        return int(out[1]), int(out[2]), None, seconds

    return run


def faf(path: str, cpu: dict[int, list[float]]) -> Side:
    """NQueensFAF's CpuSolver, 1 thread, through the wrapper at ``path`` (its solver time; the
    JVM's CPU seconds, start, JIT and GC threads included, go to ``cpu[n]``)."""

    def run(n: int) -> tuple[int, None, None, float]:
        out, seconds = child([path, str(n)])
        cpu.setdefault(n, []).append(seconds)
        return int(out[1]), None, None, int(out[2]) / 1000

    return run


def clock_hz() -> float | None:
    """The processor's clock as Linux reports it (the first ``cpu MHz`` of /proc/cpuinfo, in
    Hz), None where it reports none."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("cpu MHz"):
                    return float(line.split(":", 1)[1]) * 1e6
    except (OSError, ValueError):
        return None
    return None


def table_row(
    n: int,
    program: str,
    q: int,
    t: list[float],
    nodes: int | None,
    base: float | None,
    cbase: float,
    hz: float | None,
) -> list:
    """One program's row of the table at ``n``: Q(n), its times ``t`` (median, min..max), its
    nodes, their rate and the cycles per node at clock ``hz`` (``-`` where ``nodes`` or
    ``hz`` is None), and the kernel's (``base``, ``-`` where None) and the constellations'
    (``cbase``) median seconds over its median."""
    mid = median(t)
    return [
        n,
        program,
        f"{q:,}",
        f"{mid:.3f}",
        f"{min(t):.3f}..{max(t):.3f}",
        f"{nodes:,}" if nodes is not None else "-",
        f"{nodes / mid / 1e6:.1f}" if nodes is not None else "-",
        f"{mid * hz / nodes:.1f}" if nodes and hz else "-",
        f"{base / mid:.2f}" if base else "-",
        f"{cbase / mid:.2f}",
    ]


def main() -> None:
    """Print the table."""
    parser = common.benchmark_parser(__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--takaken", help="takaken's counter (prints N total unique seconds)")
    parser.add_argument("--faf", help="NQueensFAF wrapper (prints N solutions milliseconds)")
    parser.add_argument(
        "--skip",
        nargs="+",
        default=[],
        choices=["kernel", "D4 C", "takaken C"],
        help="sides left out (a long n = 18 run may time only constellations and NQueensFAF)",
    )
    args = common.parse_benchmark_args(parser)

    sys.path.insert(0, str(ROOT))
    build_c("nqueens_d4")
    from boardsweep.solvers.nqueens import constellations, tail, tree

    tables = tail.tables()  # made once, before any timing
    sides: dict[str, Side] = {
        "kernel": in_process(tree.whole),
        "constellations": in_process(partial(constellations.whole, tabs=tables)),
        "D4 C": d4_c,
    }
    if args.takaken:
        sides["takaken C"] = takaken(args.takaken)
    faf_cpu: dict[int, list[float]] = {}
    if args.faf:
        sides["NQueensFAF 1 thread"] = faf(args.faf, faf_cpu)
    sides["kernel"](8)  # compile, or load from numba's cache
    sides["constellations"](8)
    for name in args.skip:
        sides.pop(name, None)
    print(conditions(n=" ".join(map(str, args.n)), repeats=args.repeats), flush=True)
    hz = clock_hz()

    rows = []
    names = list(sides)
    for n in args.n:
        times: dict[str, list[float]] = {name: [] for name in names}
        seen: dict[str, tuple] = {}
        for r in range(args.repeats):
            for name in rotated(names, r):
                q, u, nodes, seconds = sides[name](n)
                times[name].append(seconds)
                seen[name] = (q, u, nodes)
        ref = "kernel" if "kernel" in seen else "constellations"
        q0, u0, nodes0 = seen[ref]
        for name, (q, u, nodes) in seen.items():
            same_tree = "kernel" in seen and name != "constellations"  # its own tree, nodes
            if (
                q != q0
                or (u is not None and u != u0)
                or (same_tree and nodes is not None and nodes != nodes0)
            ):
                raise SystemExit(
                    f"n = {n}: {name} says Q, U, nodes = {q}, {u}, {nodes}; "
                    f"the {ref} says {q0}, {u0}, {nodes0}"
                )
        base = median(times["kernel"]) if "kernel" in times else None
        cbase = median(times["constellations"])
        for name in names:
            rows.append(table_row(n, name, q0, times[name], seen[name][2], base, cbase, hz))
        if n in faf_cpu:  # the same runs, by the JVM process's CPU time
            rows.append(
                table_row(n, "NQueensFAF, JVM process CPU", q0, faf_cpu[n], None, base, cbase, hz)
            )
        common.progress(f"n = {n} done")
    table = markdown(
        [
            "n",
            "program",
            "Q(n)",
            "median s",
            "min..max s",
            "nodes",
            "M nodes/s",
            "cycles/node",
            "kernel / program",
            "constellations / program",
        ],
        rows,
    )
    print(f"\n{table}")
    peers = [name for name in ("takaken C", "NQueensFAF 1 thread") if name in names]
    body = (
        f"CPU seconds on one core, median of {args.repeats} interleaved runs with min..max "
        "(NQueensFAF's own row: its solver's time, as it reports it). Sides: "
        + ", ".join(names)
        + (
            "; the peers were built outside the project from their public sources."
            if peers
            else "; no peer was given (`--takaken`, `--faf`)."
        )
        + (
            f" *cycles/node*: median seconds times the clock Linux reports ({hz / 1e6:.0f} MHz, "
            "/proc/cpuinfo), over the nodes; the peers count no nodes, so theirs compare by "
            "time. The constellation search's nodes are the queens it places one by one, above "
            "the last five inner rows that it scores by table: its cycles/node is per such "
            "queen and compares with no other side's."
            if hz
            else " No clock is reported here, so no cycles per node."
        )
        + f"\n\n{table}"
    )
    repeats = f"{args.repeats}, the sides interleaved (the order rotating every repeat)"
    sizes = {"n": " ".join(map(str, args.n)), "skipped": " ".join(args.skip) or "none"}
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
