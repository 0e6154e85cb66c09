"""Walled-board tables made by brute force, for the report tests: every wall pattern of a
small board (``distribution``), boards with their maxima (``maxima``) and the ``summary`` of
the same boards, each built here without the package's code."""

from __future__ import annotations

import random

import pyarrow as pa

from boardsweep.solvers.contract import count_arrays

__all__ = ["brute_max", "brute_distribution", "maxima_of", "random_boards", "summary_of"]


def brute_max(walls: int, rows: int, cols: int) -> int:
    """The most rooks on a board whose wall cells are the bits of ``walls``, by trying every
    set of open cells (no two in one row or column segment)."""
    segment = {}  # cell -> (row segment, column segment)
    for i in range(rows):
        for j in range(cols):
            t = i * cols + j
            if not walls >> t & 1:
                left = next(
                    k for k in range(j, -1, -1) if k == 0 or walls >> (i * cols + k - 1) & 1
                )
                top = next(
                    k for k in range(i, -1, -1) if k == 0 or walls >> ((k - 1) * cols + j) & 1
                )
                segment[t] = (("r", i, left), ("c", top, j))
    cells = list(segment)
    best = 0
    for subset in range(1 << len(cells)):
        used = [s for k, cell in enumerate(cells) if subset >> k & 1 for s in segment[cell]]
        if len(used) == len(set(used)):
            best = max(best, len(used) // 2)
    return best


def brute_distribution(rows: int, cols: int) -> pa.Table:
    """The ``distribution`` table of a size from every wall pattern, by brute force."""
    found: dict[tuple[int, int], int] = {}
    for walls in range(1 << (rows * cols)):
        key = (bin(walls).count("1"), brute_max(walls, rows, cols))
        found[key] = found.get(key, 0) + 1
    keys = sorted(found)
    boards, text = count_arrays([found[k] for k in keys])
    return pa.table(
        {
            "rows": pa.array([rows] * len(keys), pa.int32()),
            "cols": pa.array([cols] * len(keys), pa.int32()),
            "walls": pa.array([w for w, _ in keys], pa.int32()),
            "max_rooks": pa.array([m for _, m in keys], pa.int32()),
            "boards": boards,
            "boards_text": text,
        }
    )


def maxima_of(boards: list[tuple[int, int, int, float]], counted: bool = True) -> pa.Table:
    """A ``maxima``-like table of (rows, cols, walls bits, density) boards, by brute force;
    placements are made-up exact counts around powers of two (bins are floor(log2))."""
    n = len(boards)
    maxima = [brute_max(w, r, c) for r, c, w, _ in boards]
    placements = [
        (2**64 - 1, 2**64, 2**63, 2**63 - 1, 3, 1, 2**130)[k % 7]  # bins 63, 64, ...
        for k in range(n)
    ]
    best = [1 + k % 9 for k in range(n)]
    status = [("counted", "too_wide", "too_large")[k % 11 // 9 * (1 + k % 2)] for k in range(n)]
    place, place_text = count_arrays(
        [p if s == "counted" and counted else None for p, s in zip(placements, status, strict=True)]
    )
    best_c, best_text = count_arrays(
        [b if s == "counted" and counted else None for b, s in zip(best, status, strict=True)]
    )
    return pa.table(
        {
            "board_id": pa.array(range(n), pa.int64()),
            "rows": pa.array([b[0] for b in boards], pa.int32()),
            "cols": pa.array([b[1] for b in boards], pa.int32()),
            "density": pa.array([b[3] for b in boards], pa.float64()),
            "walls": pa.array([bin(b[2]).count("1") for b in boards], pa.int32()),
            "max_rooks": pa.array(maxima, pa.int32()),
            "max_placements": best_c,
            "max_placements_text": best_text,
            "placements": place,
            "placements_text": place_text,
            "count_status": pa.array(status if counted else [None] * n, pa.string()),
        }
    )


def random_boards(sizes, densities, count, seed=1) -> list[tuple[int, int, int, float]]:
    rng = random.Random(seed)
    return [
        (r, c, sum(1 << t for t in range(r * c) if rng.random() < d), d)
        for r, c in sizes
        for d in densities
        for _ in range(count)
    ]


def summary_of(maxima: pa.Table) -> pa.Table:
    """The ``summary`` table of the same boards, built here without the report's code."""
    found: dict[tuple, int] = {}
    codes = {"counted": 0, "too_wide": 1, "too_large": 2}
    for row in maxima.to_pylist():
        group = (row["rows"], row["cols"], row["density"])
        keys = [("max_rooks", row["max_rooks"]), ("count_status", codes[row["count_status"]])]
        for name in ("placements", "max_placements"):
            if row[f"{name}_text"] is not None:
                keys.append((f"{name}_log2", int(row[f"{name}_text"]).bit_length() - 1))
        for statistic, value in keys:
            found[(*group, statistic, value)] = found.get((*group, statistic, value), 0) + 1
    keys = sorted(found)
    boards, text = count_arrays([found[k] for k in keys])
    return pa.table(
        {
            "rows": pa.array([k[0] for k in keys], pa.int32()),
            "cols": pa.array([k[1] for k in keys], pa.int32()),
            "density": pa.array([k[2] for k in keys], pa.float64()),
            "statistic": pa.array([k[3] for k in keys], pa.string()),
            "bin": pa.array([k[4] for k in keys], pa.int64()),
            "boards": boards,
            "boards_text": text,
        }
    )
