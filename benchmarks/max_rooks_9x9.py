"""The exact distribution of the maximum over all 2**81 wall patterns of the 9x9 board, made
the way a user makes it: ``boardsweep run`` on a local cluster of 2 workers.

    python benchmarks/max_rooks_9x9.py [--work FOLDER]

Runs ``boardsweep run`` as a new process on a config holding one ``{all: {rows: 9}}`` job
(``--work``: the folder it runs in, kept, so that a second call reuses the published table;
default: a temporary folder), timing the whole process and sampling the memory of it and its
workers.  Then it writes, from the published ``distribution`` table:

- ``benchmarks/results/max_rooks_9x9.md`` (the manual includes it on the max_rooks page): the
  run's conditions, its time, CPU and peak memory; how many patterns have each maximum; the
  patterns per wall count and maximum; E[max] at p = 1/2 as a fraction; and the coefficients
  of the polynomials ``P(max = m | p)``;
- ``benchmarks/results/max_rooks_9x9.csv``: the table as ``walls,max_rooks,boards`` (exact
  integers), which ``tests/solvers/test_max_rooks_9x9.py`` checks by methods that share no
  code with the program.

It fails when the table does not hold exactly ``C(81, w)`` patterns with ``w`` walls.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from math import comb
from pathlib import Path

import pyarrow.parquet as pq
from common import RESULTS, MiB, TreeSampler, conditions, markdown, progress, write_results

from boardsweep.solvers.max_rooks.exact import histograms, moments, polynomials

TIMED = (
    "boardsweep.pipeline.entry",
    "boardsweep.pipeline.cli",
    "boardsweep.solvers.max_rooks",
)
SIDE = 9
CELLS = SIDE * SIDE
PROBABILITIES = (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))
CSV = RESULTS / "max_rooks_9x9.csv"


def run(folder: Path) -> tuple[float, float, Path]:
    """Wall seconds and peak memory (MiB, the process with its workers) of ``boardsweep run``
    on the 9x9 job in ``folder``, and the published table's path."""
    config = folder / "all.yaml"
    config.write_text(
        "output: results\njobs:\n"
        f"  - {{name: all9, problem: max_rooks, boards: {{all: {{rows: {SIDE}}}}}}}\n"
    )
    start = time.perf_counter()
    command = [sys.executable, "-m", "boardsweep", "run", config.name, "--workers", "2"]
    with subprocess.Popen(command, cwd=folder) as process, TreeSampler(process.pid) as sampler:
        if process.wait() != 0:
            raise SystemExit(f"boardsweep run failed (exit {process.returncode})")
    return (
        time.perf_counter() - start,
        sampler.peak_tree / MiB,
        folder / "results" / "all9" / "distribution.parquet",
    )


def write_csv(hist: dict[tuple[int, int], int]) -> None:
    """The table as ``walls,max_rooks,boards``, sorted."""
    lines = ["walls,max_rooks,boards"] + [f"{w},{m},{n}" for (w, m), n in sorted(hist.items())]
    CSV.write_text("\n".join(lines) + "\n")
    progress(f"table written to {CSV}")


def main() -> None:
    """Run the job, check the table's wall counts and write both files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="folder to run in (kept)")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    print(conditions(board=f"{SIDE}x{SIDE}", workers=2))
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.work or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        seconds, peak, path = run(folder)
        table = pq.read_table(path)
        hist = histograms(table)[(SIDE, SIDE)]
        runs = pq.read_table(path.with_name("runs.parquet")).to_pylist()
    for w in range(CELLS + 1):
        held = sum(n for (ww, _), n in hist.items() if ww == w)
        if held != comb(CELLS, w):
            raise SystemExit(f"{w} walls: the table holds {held} patterns, not C(81, {w})")
    write_csv(hist)
    maxima = sorted({m for _, m in hist})
    by_max = {m: sum(n for (_, mm), n in hist.items() if mm == m) for m in maxima}
    last = runs[-1]
    mean, variance = moments(hist, CELLS, Fraction(1, 2))
    parts = [
        "**The run**: `boardsweep run` as a new process, local cluster of 2 workers (the whole "
        "size is one task), wall seconds of the process, CPU seconds its workers recorded "
        "(`runs.parquet`), and the peak memory of the process with its workers",
        markdown(
            ["board", "wall s", "CPU s", "units run", "units reused", "peak MiB"],
            [
                [
                    f"{SIDE}x{SIDE}",
                    f"{seconds:.0f}",
                    f"{last['cpu_seconds']:.0f}",
                    last["units_run"],
                    last["units_reused"],
                    f"{peak:.0f}",
                ]
            ],
        ),
        f"**E[max] at p = 1/2** (every pattern equally likely), exact: {mean.numerator}/"
        f"{mean.denominator} = {float(mean):.9f}; its variance {float(variance):.9f}",
        "**Patterns by maximum**, and P(max = m | p), exact, rounded for print",
        markdown(
            ["max rooks", "patterns", *(f"p = {p}" for p in PROBABILITIES)],
            [
                [
                    m,
                    by_max[m],
                    *(f"{float(_probability(hist, m, p)):.6g}" for p in PROBABILITIES),
                ]
                for m in maxima
            ],
        ),
        f"**Patterns per wall count and maximum** (a row per wall count w; each row adds up "
        f"to C(81, w); the table as CSV: `benchmarks/results/{CSV.name}`)",
        markdown(
            ["walls", *(f"max {m}" for m in maxima)],
            [[w, *(hist.get((w, m), 0) for m in maxima)] for w in range(CELLS + 1)],
        ),
        "**P(max = m | p) = sum over k of a_k p^k**: the integer coefficients a_k, a row per "
        "power k, a column per maximum m",
        _coefficients(hist, maxima),
    ]
    text = "\n\n".join(parts)
    print(f"\n{text}")
    write_results(__file__, text, timed=TIMED, repeats="1", sizes={"board": "9x9"}, out=args.out)


def _probability(hist: dict[tuple[int, int], int], m: int, p: Fraction) -> Fraction:
    """P(max = m | p), exact."""
    return sum(n * p**w * (1 - p) ** (CELLS - w) for (w, mm), n in hist.items() if mm == m)


def _coefficients(hist: dict[tuple[int, int], int], maxima: list[int]) -> str:
    """The polynomials' coefficients as a Markdown table."""
    polys = polynomials(hist, CELLS)
    return markdown(
        ["k", *(f"m = {m}" for m in maxima)],
        [[k, *(polys[m][k] for m in maxima)] for k in range(CELLS + 1)],
    )


if __name__ == "__main__":
    main()
