"""Placement counts per board size: time per board and how many boards each memory cap counts.

    python benchmarks/max_rooks_counts.py [--sizes 8 12 16 20 24] [--density 0.2 0.3]
                                          [--caps 128 1024]

For each n x n size and density, a fixed generated set (seed 5; 200 boards up to 16 x 16, 50 at
20 x 20, 20 above) is solved one board at a time, in one process on one core, warm, by
``solve_batch`` without counts (the baseline: the maximum alone) and with counts under each
memory cap (``count_mib``).  Printed per row: median and p99 milliseconds per board, the ratio
of the median to the baseline's, the share of boards counted (the others are ``too_large``
or ``too_wide``, with their counts null), and the most memory a ``too_large`` board asked
for when it stopped.
"""

from __future__ import annotations

import time

import common
import numpy as np
from common import conditions, markdown, write_results

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.max_rooks.count import LAYER_WORDS

TIMED = ("boardsweep.solvers.max_rooks",)
REPEATS = "1 (each board solved once; the median and p99 are over the boards)"
SPREAD = "not repeated: the p99 column is the spread over the boards"


def boards_for(n: int) -> int:
    """How many boards a size is measured on."""
    return 200 if n <= 16 else 50 if n <= 20 else 20


def per_board(batch: dict, counts: bool, words: int) -> tuple[np.ndarray, list, list]:
    """Seconds per board (one call each), each board's count status and count memory."""
    seconds, status, memory = [], [], []
    for b in range(len(batch["rows"])):
        one = mr.make_batch([mr.board_at(batch, b)])
        start = time.perf_counter()
        result = mr.solve_batch(one, counts=counts, count_words=words)
        seconds.append(time.perf_counter() - start)
        status.append(result["count_status"][0] if counts else None)
        memory.append(result["count_memory"][0] if counts else None)
    return np.array(seconds), status, memory


def ms_cells(seconds: np.ndarray) -> list[str]:
    """The median and the 99th percentile of per-board seconds, as milliseconds (table cells)."""
    return [f"{np.median(seconds) * 1e3:.3f}", f"{np.quantile(seconds, 0.99) * 1e3:.3f}"]


def main() -> None:
    """Measure every size, density and cap; print the table."""
    parser = common.benchmark_parser(__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12, 16, 20, 24])
    parser.add_argument("--density", type=float, nargs="+", default=[0.2, 0.3])
    parser.add_argument("--caps", type=int, nargs="+", default=[128, 1024])
    args = common.parse_benchmark_args(parser)
    sizes = {
        "sizes": " ".join(map(str, args.sizes)),
        "density": " ".join(map(str, args.density)),
        "caps MiB": " ".join(map(str, args.caps)),
        "boards": "200 up to 16x16, 50 at 20x20, 20 above (seed 5)",
    }
    print(conditions(**sizes))
    mr.solve_batch(mr.generate(6, 0.3, 4, seed=0), counts=True)  # compile or load first
    rows = []
    for n in args.sizes:
        for density in args.density:
            batch = mr.generate(n, density, boards_for(n), seed=5)
            base, _, _ = per_board(batch, False, LAYER_WORDS)
            rows.append(
                [
                    f"{n}x{n}",
                    density,
                    "maximum only",
                    *ms_cells(base),
                    "1.00",
                    "-",
                    "-",
                ]
            )
            for cap in args.caps:
                words = cap * (1 << 20) // 16
                seconds, status, asked = per_board(batch, True, words)
                counted = [s == "counted" for s in status]
                memory = [int(m) for m in asked if m is not None]
                rows.append(
                    [
                        f"{n}x{n}",
                        density,
                        f"counts, cap {cap} MiB",
                        *ms_cells(seconds),
                        f"{np.median(seconds) / np.median(base):.1f}",
                        f"{sum(counted)}/{len(counted)}",
                        f"{max(memory) / 2**20:.0f}" if memory else "-",
                    ]
                )
            common.progress(f"{n}x{n} @ {density} done")
    table = markdown(
        [
            "board",
            "density",
            "run",
            "median ms",
            "p99 ms",
            "median / maximum only",
            "counted",
            "largest too_large ask MiB",
        ],
        rows,
    )
    print(table)
    body = (
        "One board per `solve_batch` call, one core, warm; the maximum alone is the "
        f"baseline.\n\n{table}"
    )
    write_results(
        __file__, body, timed=TIMED, repeats=REPEATS, spread=SPREAD, sizes=sizes, out=args.out
    )


if __name__ == "__main__":
    main()
