"""Queens and rooks: the whole-row kernel with its bulk tail against the same search without it.

    python benchmarks/queens_rooks_tail.py [--sizes 12 13] [--repeats 3]

For each n, the free-piece histogram of the whole row (every least border, one process, one
core) by ``kernel._histograms`` (the last five rows counted in bulk) and by
``kernel._plain_histograms`` (the search before the bulk tail: piece by piece, the last two rows
in place), run interleaved (the order alternating) ``--repeats`` times; CPU seconds of this
process (``time.process_time``), medians with their range.  Both give the same histogram and
the same node count (checked), so nodes/s compare the codes directly.  n = 14 takes ~48 s with
the tail and ~175 s without, per repeat.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from common import conditions, markdown, median, write_results

from boardsweep.solvers.queens_rooks import kernel, symmetry

TIMED = ("boardsweep.solvers.queens_rooks.kernel",)


def timed(fn, *args):
    """(CPU seconds, result) of one call."""
    start = time.process_time()
    result = fn(*args)
    return time.process_time() - start, result


def main() -> None:
    """Time both kernels per size, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[12, 13])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sizes = {"n": " ".join(map(str, args.sizes))}
    repeats = f"{args.repeats}, the two kernels interleaved (the order alternating)"
    print(conditions(n=", ".join(map(str, args.sizes)), repeats=args.repeats), flush=True)
    warm = symmetry.items(8, np.zeros((1, 0), np.int16))[0]
    kernel._histograms(8, warm, False, 8, 8), kernel._plain_histograms(8, warm)  # compile
    rows = []
    for n in args.sizes:
        fixed = symmetry.items(n, np.zeros((1, 0), np.int16))[0]
        runs: dict[str, list[float]] = {"bulk": [], "plain": []}
        seen = []
        for r in range(args.repeats):
            for name in ("bulk", "plain") if r % 2 == 0 else ("plain", "bulk"):
                if name == "bulk":
                    seconds, (hist, nodes) = timed(kernel._histograms, n, fixed, False, n, n)
                else:
                    seconds, (hist, nodes) = timed(kernel._plain_histograms, n, fixed)
                runs[name].append(seconds)
                seen.append((hist.tolist(), nodes.tolist()))
                print(f"n = {n} {name}: {seconds:.3f} s", file=sys.stderr, flush=True)
        assert all(s == seen[0] for s in seen), "the kernels disagree"
        nodes = int(np.asarray(seen[0][1]).sum())
        bulk, plain = median(runs["bulk"]), median(runs["plain"])
        rows.append(
            [
                n,
                f"{nodes:,}",
                f"{plain:.3f} ({min(runs['plain']):.3f}-{max(runs['plain']):.3f})",
                f"{bulk:.3f} ({min(runs['bulk']):.3f}-{max(runs['bulk']):.3f})",
                f"{nodes / plain / 1e6:,.0f}",
                f"{nodes / bulk / 1e6:,.0f}",
                f"{bulk / plain:.2f}x",
            ]
        )
    table = markdown(
        [
            "n",
            "nodes",
            "plain s (range)",
            "bulk tail s (range)",
            "plain M nodes/s",
            "bulk M nodes/s",
            "bulk / plain",
        ],
        rows,
    )
    body = (
        f"{table}\n\nMedians of {args.repeats} interleaved runs, CPU seconds of one process; "
        "the baseline (plain) is the same search without the bulk tail, on the same nodes."
    )
    print(f"\n{body}")
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
