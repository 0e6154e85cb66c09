"""Exact distributions over every wall pattern: the whole process against a plain C brute force,
and the dynamic program against itself as it was when issue 30 was filed.

    python benchmarks/max_rooks_exact.py [--repeats 3] [--largest 9]

Prints four tables, every number measured in this run:

1. Times.  ``boardsweep run`` as a new process on a config holding one ``{all: {rows: n}}``
   job (local cluster of 2 workers: start, plan, search, merge, publication), against
   ``benchmarks/max_rooks_brute.c`` (every pattern, no symmetry, Kuhn's matching per pattern,
   one core, ``-O3 -march=native``) where it is feasible (5x5), as a ratio.  5x5 is repeated
   ``--repeats`` times, interleaved; 6x6 to 8x8 run once (9x9 through the pipeline is
   ``benchmarks/max_rooks_9x9.py``).  The brute force's 5x5 histogram must equal the
   pipeline's (a second method sharing no code).
2. The program alone, before and after: ``solvers/max_rooks/exhaustive.py`` as it is, against
   the same file at :data:`BASELINE` (git): int8 states of ``2**(cols+1)`` entries with every
   wall count's two-limb counts, no mirror inside the board, restarted twice as large when a
   layer outgrew its buffers.  Each side runs in a new process of its own, interleaved per
   size (``--repeats`` times up to 7x7, once above): wall seconds of the warm program, its
   widest layer and the process's peak memory.  Before is not run above 8x8: its estimated
   memory there is more than this machine has.
3. States: the most one program holds at once, per size, and the planner's estimates.
4. Results: per maximum m, the patterns whose maximum is m and P(max = m | p) at p = 0.1,
   0.25 and 0.5, exact values from the table, rounded for print; and E[max](p).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq
from common import HERE, ROOT, build_c, conditions, markdown, median, write_results

from boardsweep.solvers.max_rooks import exhaustive
from boardsweep.solvers.max_rooks.exact import (
    exhaustive_bytes,
    exhaustive_seconds,
    exhaustive_states,
    histograms,
    moments,
)

TIMED = (
    "boardsweep.pipeline.entry",
    "boardsweep.pipeline.cli",
    "boardsweep.solvers.max_rooks",
    "benchmarks/max_rooks_brute.c",
)
BIN = HERE / "bin"
BASELINE = "f70c2f3~1"  # exhaustive.py when issue 30 was filed
BEFORE_LARGEST = 8  # the baseline's 9x9 needs more memory than this machine has
PROGRAM = exhaustive.__name__  # the program as installed
PROBABILITIES = (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2))


def brute(exe: Path, n: int) -> tuple[float, dict]:
    """Seconds and histogram of the C brute force on every n x n pattern."""
    start = time.perf_counter()
    out = subprocess.run(
        [str(exe), str(n), str(n)], check=True, capture_output=True, text=True
    ).stdout
    seconds = time.perf_counter() - start
    hist = {}
    for line in out.split("\n"):
        if line:
            w, m, boards = map(int, line.split())
            hist[(w, m)] = boards
    return seconds, hist


def pipeline(n: int) -> tuple[float, dict]:
    """Wall seconds of ``boardsweep run`` (new process, 2 workers) for every n x n pattern,
    and the published histogram."""
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "all.yaml"
        config.write_text(
            f"output: results\njobs:\n  - {{name: all, problem: max_rooks, "
            f"boards: {{all: {{rows: {n}}}}}}}\n"
        )
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "boardsweep", "run", str(config), "--workers", "2"],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        seconds = time.perf_counter() - start
        table = pq.read_table(Path(folder) / "results" / "all" / "distribution.parquet")
    return seconds, histograms(table)[(n, n)]


def program(n: int, module: str, folder: str = "") -> tuple[float, int, int]:
    """Seconds of the dynamic program of ``module`` (importable, from ``folder`` if given)
    alone, warm, its widest layer and the peak memory (MiB) of the new process that ran it."""
    code = (
        "import importlib, resource, sys, time\n"
        "sys.path.insert(0, sys.argv[3]) if sys.argv[3] else None\n"
        "mod = importlib.import_module(sys.argv[1])\n"
        "n = int(sys.argv[2])\n"
        "mod.distribution_units(3, 3, 0, 1)\n"
        "start = time.perf_counter()\n"
        "_, widest = mod.distribution_units(n, n, 0, len(mod.first_rows(n)[0]))\n"
        "took = time.perf_counter() - start\n"
        "print(took, widest, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, module, str(n), folder],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def write_baseline(folder: Path) -> None:
    """exhaustive.py at :data:`BASELINE`, as the module ``exhaustive_baseline`` in ``folder``."""
    text = subprocess.run(
        ["git", "show", f"{BASELINE}:solvers/max_rooks/exhaustive.py"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    (folder / "exhaustive_baseline.py").write_text(text)


def before_after(largest: int, repeats: int) -> tuple[list[list[object]], dict[int, int]]:
    """The program before and after, per size 6..``largest``: table rows and the widest
    layers after."""
    rows = []
    states = {}
    with tempfile.TemporaryDirectory() as folder:
        write_baseline(Path(folder))
        for n in range(6, largest + 1):
            runs: dict[str, list[tuple[float, int, int]]] = {"before": [], "after": []}
            for _ in range(repeats if n <= 7 else 1):  # interleaved
                if n <= BEFORE_LARGEST:
                    runs["before"].append(program(n, "exhaustive_baseline", folder))
                runs["after"].append(program(n, PROGRAM))
            after = median([r[0] for r in runs["after"]])
            states[n] = runs["after"][0][1]
            row: list[object] = [f"{n}x{n}"]
            if runs["before"]:
                before = median([r[0] for r in runs["before"]])
                row += [f"{before:.2f}", f"{after:.2f}", f"{after / before:.2f}"]
                row += [runs["before"][0][1], states[n], max(r[2] for r in runs["before"])]
            else:
                row += ["not run", f"{after:.2f}", "-", "-", states[n], "not run"]
            rows.append(row + [max(r[2] for r in runs["after"])])
    return rows, states


def main() -> None:
    """Measure and print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--largest", type=int, default=9, choices=range(6, 10))
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    print(conditions(repeats=args.repeats, largest=f"{args.largest}x{args.largest}"))
    exe = build_c("max_rooks_brute")
    runs: dict[str, list[float]] = {"brute": [], "pipeline": []}
    for _ in range(args.repeats):  # interleaved
        seconds, reference = brute(exe, 5)
        runs["brute"].append(seconds)
        seconds, found = pipeline(5)
        runs["pipeline"].append(seconds)
        if found != reference:
            raise SystemExit("5x5: the pipeline's histogram differs from the brute force's")
    rows = [
        [
            "5x5",
            f"{median(runs['pipeline']):.2f}",
            f"{median(runs['brute']):.2f}",
            f"{median(runs['pipeline']) / median(runs['brute']):.3f}",
        ]
    ]
    tables = {5: reference}
    for n in range(6, min(args.largest, 8) + 1):
        seconds, tables[n] = pipeline(n)
        rows.append([f"{n}x{n}", f"{seconds:.2f}", "-", "-"])
    programs, states = before_after(args.largest, args.repeats)
    for n in range(3, 6):
        states[n] = program(n, PROGRAM)[1]
    parts = [
        f"**Times** (s): the whole `boardsweep run` process on 2 workers (5x5: median of "
        f"{args.repeats} interleaved runs; larger sizes once), the C brute force on one core",
        markdown(["board", "boardsweep run s", "C brute force s", "ratio"], rows),
        f"**The program alone**, before ({BASELINE}, when issue 30 was filed: int8 states "
        "with every wall count's counts, no mirror inside the board, restarted twice as large "
        "when a layer outgrew its buffers) and after (states as step bits, counts as runs of "
        "wall counts, the mirror at each row's end, layers grown in place): warm seconds on one "
        f"core (median of {args.repeats} interleaved runs up to 7x7, once above), the widest "
        "layer of each, and the peak memory of the process that ran it",
        markdown(
            [
                "board",
                "before s",
                "after s",
                "after / before",
                "before states",
                "after states",
                "before MiB",
                "after MiB",
            ],
            programs,
        ),
        "**States**: the most the program holds at once, and the planner's estimates of states, "
        "peak memory and seconds on one core",
        markdown(
            ["board", "states", "estimated states", "estimated MiB", "estimated s"],
            [
                [
                    f"{n}x{n}",
                    states.get(n, "-"),
                    f"{exhaustive_states(n, n):.3g}",
                    f"{exhaustive_bytes(n, n) / 2**20:.0f}",
                    f"{exhaustive_seconds(n, n):.3g}",
                ]
                for n in range(3, 11)
            ],
        ),
    ]
    for n, hist in tables.items():
        if n < 6:
            continue
        cells = n * n
        by_max: dict[int, int] = {}
        for (_, m), boards in hist.items():
            by_max[m] = by_max.get(m, 0) + boards
        probability = {}
        for p in PROBABILITIES:
            for (w, m), boards in hist.items():
                probability[(p, m)] = probability.get((p, m), 0) + boards * p**w * (1 - p) ** (
                    cells - w
                )
        parts.append(
            f"**All {2**cells} patterns of {n}x{n}**: by maximum, and P(max = m | p), exact, "
            "rounded for print"
        )
        body = [
            [m, by_max[m], *(f"{float(probability[(p, m)]):.6g}" for p in PROBABILITIES)]
            for m in sorted(by_max)
        ]
        body.append(
            ["E[max]", "", *(f"{float(moments(hist, cells, p)[0]):.6f}" for p in PROBABILITIES)]
        )
        parts.append(
            markdown(["max rooks", "patterns", *(f"p = {p}" for p in PROBABILITIES)], body)
        )
    text = "\n\n".join(parts)
    print(f"\n{text}")
    repeats = f"{args.repeats} for 5x5 and the program up to 7x7 (interleaved), 1 above"
    sizes = {"largest": f"{args.largest}x{args.largest}"}
    write_results(__file__, text, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
