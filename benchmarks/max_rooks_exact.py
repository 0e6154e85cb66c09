"""Exact distributions over every wall pattern: the whole process against a plain C brute force.

    python benchmarks/max_rooks_exact.py [--repeats 3] [--largest 7]

Prints three tables, every number measured in this run:

1. Times.  ``boardsweep run`` as a new process on a config holding one ``{all: {rows: n}}``
   job (local cluster of 2 workers: start, plan, search, merge, publication), against
   ``benchmarks/max_rooks_brute.c`` (every pattern, no symmetry, Kuhn's matching per pattern,
   one core, ``-O3 -march=native``) where it is feasible (5x5), as a ratio; also the dynamic
   program alone in this process.  5x5 is repeated ``--repeats`` times, interleaved; larger
   sizes up to ``--largest`` run once (8x8 takes minutes and about 2.5 GiB; its program alone
   and its state count are not repeated in this process).  The brute
   force's 5x5 histogram must equal the pipeline's (a second method sharing no code).
2. States: the most states one program holds at once, per size (memory), and the planner's
   estimate for the next sizes.
3. Results: per maximum m, the patterns whose maximum is m and P(max = m | p) at p = 0.1,
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

from boardsweep.solvers.max_rooks.exact import exhaustive_seconds, histograms, moments
from boardsweep.solvers.max_rooks.exhaustive import distribution_units, first_rows

TIMED = (
    "boardsweep.pipeline.entry",
    "boardsweep.pipeline.cli",
    "boardsweep.solvers.max_rooks",
    "benchmarks/max_rooks_brute.c",
)
BIN = HERE / "bin"
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


def in_process(n: int) -> tuple[float, int]:
    """Seconds of the dynamic program alone (warm) and its widest layer."""
    distribution_units(3, 3, 0, 1)  # compiled or loaded before timing
    start = time.perf_counter()
    _, widest = distribution_units(n, n, 0, len(first_rows(n)[0]))
    return time.perf_counter() - start, widest


def main() -> None:
    """Measure and print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--largest", type=int, default=7, choices=range(5, 9))
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
            f"{in_process(5)[0]:.3f}",
        ]
    ]
    tables = {5: reference}
    states = {}
    for n in range(3, 6):
        states[n] = in_process(n)[1]
    for n in range(6, args.largest + 1):
        seconds, tables[n] = pipeline(n)
        alone = "-"
        if n <= 7:  # 8x8 alone would take minutes more: its pipeline time says it
            took, states[n] = in_process(n)
            alone = f"{took:.3f}"
        rows.append([f"{n}x{n}", f"{seconds:.2f}", "-", "-", alone])
    parts = [
        f"**Times** (s): the whole `boardsweep run` process on 2 workers (5x5: median of "
        f"{args.repeats} interleaved runs; larger sizes once), the C brute force on one core, "
        "the dynamic program alone in this process",
        markdown(
            ["board", "boardsweep run s", "C brute force s", "ratio", "program alone s"], rows
        ),
        "**States**: the most one program holds at once (memory); the planner's estimated seconds",
        markdown(
            ["board", "states", "planner estimate s"],
            [
                [f"{n}x{n}", states.get(n, "-"), f"{exhaustive_seconds(n, n):.3g}"]
                for n in range(3, 10)
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
    repeats = f"{args.repeats} for 5x5 (interleaved), 1 for larger boards"
    sizes = {"largest": f"{args.largest}x{args.largest}"}
    write_results(__file__, text, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
