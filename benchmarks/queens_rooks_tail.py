"""Queens and rooks: the whole-row kernel with its seven-row tail, its five-row tail, and none.

    python benchmarks/queens_rooks_tail.py [--sizes 12 13] [--repeats 3]

For each n, the free-piece histogram of the whole row (every least border, one process, one
core) by ``kernel._capped_histograms`` with the bulk tail capped at 7 rows (what
``kernel._histograms`` runs), at 5 (the kernel before the seven-row tail) and at 0 (the search
before any bulk tail: piece by piece, the last two rows in place), run interleaved (the order
rotating) ``--repeats`` times; CPU seconds of this process (``time.process_time``), medians with
their range.  All three give the same histogram and the same node count (checked), so nodes/s
compare the codes directly.  n = 14 takes roughly a minute per repeat, most of it without a
tail.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from common import conditions, markdown, median, rotated, write_results

from boardsweep.solvers.queens_rooks import kernel, symmetry

TIMED = (
    "boardsweep.solvers.queens_rooks.kernel",
    "boardsweep.solvers.queens_rooks.free",
    "boardsweep.solvers.queens_rooks.tail_seven",
)
KERNELS = {"none": 0, "five rows": 5, "seven rows": 7}  # name: the widest bulk tail allowed


def timed(fn, *args):
    """(CPU seconds, result) of one call."""
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def spread(runs: list[float]) -> str:
    """Median with its range, in seconds."""
    return f"{median(runs):.3f} ({min(runs):.3f}-{max(runs):.3f})"


def main() -> None:
    """Time the three kernels per size, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 13])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sizes = {"n": " ".join(map(str, args.sizes))}
    repeats = f"{args.repeats}, the three kernels interleaved (the order rotating)"
    print(conditions(n=", ".join(map(str, args.sizes)), repeats=args.repeats), flush=True)
    warm = symmetry.items(8, np.zeros((1, 0), np.int16))[0]
    for widest in KERNELS.values():  # compile
        kernel._capped_histograms(8, warm, widest)
    names = list(KERNELS)
    rows = []
    for n in args.sizes:
        fixed = symmetry.items(n, np.zeros((1, 0), np.int16))[0]
        runs: dict[str, list[float]] = {name: [] for name in names}
        seen = []
        for r in range(args.repeats):
            for name in rotated(names, r):
                seconds, (hist, nodes) = timed(kernel._capped_histograms, n, fixed, KERNELS[name])
                runs[name].append(seconds)
                seen.append((hist.tolist(), nodes.tolist()))
                print(f"n = {n} {name}: {seconds:.3f} s", file=sys.stderr, flush=True)
        assert all(s == seen[0] for s in seen), "the kernels disagree"
        nodes = int(np.asarray(seen[0][1]).sum())
        plain, five, seven = (median(runs[name]) for name in names)
        rows.append(
            [
                n,
                f"{nodes:,}",
                *(spread(runs[name]) for name in names),
                *(f"{nodes / median(runs[name]) / 1e6:,.0f}" for name in names),
                f"{five / plain:.2f}x",
                f"{seven / plain:.2f}x",
                f"{seven / five:.2f}x",
            ]
        )
    table = markdown(
        [
            "n",
            "nodes",
            *(f"{name} s (range)" for name in names),
            *(f"{name} M nodes/s" for name in names),
            "five / none",
            "seven / none",
            "seven / five",
        ],
        rows,
    )
    body = (
        f"{table}\n\nMedians of {args.repeats} interleaved runs, CPU seconds of one process; "
        "the baselines are the same search with the five-row tail and with no bulk tail, on the "
        "same nodes."
    )
    print(f"\n{body}")
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
