"""Queens and rooks: the typed search (a queen or a rook per row) against the whole-row pass.

    python benchmarks/queens_rooks_typed.py [--points 13:5 14:3] [--repeats 3]

The planner picks, per point, the typed search when few rooks are wanted and the whole-row pass
otherwise (``solvers.queens_rooks.strategy``), and estimates either's CPU time
(``solvers.queens_rooks.cost``).  Both rest on constants fitted to this measurement: for each
``n:J`` of ``--points``, the whole row of n (every least border, one process) by the whole-row
pass, and by the typed search with at most j rooks for j = 0..J, run interleaved (the order
rotating) ``--repeats`` times; CPU seconds of this process, medians.  The table sets the
measured typed / whole-row ratio beside the model's, the strategy's choice beside the faster
method, and the measured least-border permutations per second beside the model's.
"""

from __future__ import annotations

import math
import time

import numpy as np
from common import (
    benchmark_parser,
    conditions,
    markdown,
    median,
    parse_benchmark_args,
    print_and_write,
    progress,
    rotated,
)

from boardsweep.solvers import queens_rooks as qr
from boardsweep.solvers.queens_rooks import kernel, symmetry

TIMED = (
    "boardsweep.solvers.queens_rooks",
    "boardsweep.solvers.queens_rooks.kernel",
    "boardsweep.solvers.queens_rooks.free",
    "boardsweep.solvers.queens_rooks.tail_seven",
    "boardsweep.solvers.queens_rooks.typed",
)


def model_ratio(n: int, j: int) -> float:
    """The planner's typed / whole-row time ratio for j rooks at side n."""
    ratios = qr._TYPED_RATIO_13
    ratio = ratios[j] if j < len(ratios) else ratios[-1] * qr._TYPED_PER_ROOK ** (j - 5)
    return ratio * qr._TYPED_PER_SIDE ** (n - 13)


def seconds(n: int, fixed: np.ndarray, rooks: int | None) -> float:
    """CPU seconds of the whole row of n: the whole-row pass (``rooks`` None) or typed."""
    start = time.process_time()
    if rooks is None:
        kernel._histograms(n, fixed, False, n, n)
    else:
        kernel._histograms(n, fixed, True, rooks, n)
    return time.process_time() - start


def main() -> None:
    """Time both searches per point, print the table."""
    parser = benchmark_parser(__doc__, repeats=3)
    parser.add_argument("--points", nargs="+", default=["13:5", "14:3"], help="n:most rooks")
    args = parse_benchmark_args(parser)
    points = [tuple(int(x) for x in p.split(":")) for p in args.points]
    print(conditions(points=" ".join(args.points), repeats=args.repeats), flush=True)
    warm = symmetry.items(8, np.zeros((1, 0), np.int16))[0]
    seconds(8, warm, None), seconds(8, warm, 2)  # compile
    rows = []
    for n, most in points:
        fixed = symmetry.items(n, np.zeros((1, 0), np.int16))[0]
        runs: dict[int | None, list[float]] = {j: [] for j in [None, *range(most + 1)]}
        for r in range(args.repeats):
            for j in rotated(list(runs), r):
                runs[j].append(seconds(n, fixed, j))
                progress(f"n = {n}, rooks {'any' if j is None else j}: {runs[j][-1]:.3f} s")
        whole = median(runs[None])
        perms = math.factorial(n) / 8 / whole
        for j in range(most + 1):
            ratio = median(runs[j]) / whole
            chosen = qr.strategy({"n": n, "queens": list(range(n - j, n + 1))})
            rows.append(
                [
                    n,
                    j,
                    f"{whole:.3f}",
                    f"{median(runs[j]):.3f}",
                    f"{ratio:.3f}",
                    f"{model_ratio(n, j):.3f}",
                    "typed" if ratio < 1 else "free",
                    chosen,
                    f"{perms:.2e}",
                    f"{qr._PERMS_PER_SECOND:.2e}",
                ]
            )
    table = markdown(
        [
            "n",
            "rooks j",
            "whole-row s",
            "typed s",
            "typed / whole",
            "model's ratio",
            "faster",
            "strategy picks",
            "perms/s measured",
            "perms/s model",
        ],
        rows,
    )
    body = (
        f"{table}\n\nMedians of {args.repeats} interleaved runs, CPU seconds of one process; "
        "typed with at most j rooks answers M = n - j..n, the whole-row pass every M. "
        "perms/s: least-border permutations (n!/8) per CPU second of the whole-row pass."
    )
    print_and_write(
        __file__,
        body,
        timed=TIMED,
        repeats=f"{args.repeats}, interleaved (the order rotating)",
        sizes={"points": " ".join(args.points)},
        out=args.out,
    )


if __name__ == "__main__":
    main()
