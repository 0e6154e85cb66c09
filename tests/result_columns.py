"""The columns the tests expect of the problems' result tables, in their order, written out
here rather than read from the package."""

from __future__ import annotations

# a max_rooks job's maxima table
MAXIMA_COLUMNS = [
    "board_id",
    "rows",
    "cols",
    "density",
    "walls",
    "max_rooks",
    "max_placements",
    "max_placements_text",
    "placements",
    "placements_text",
    "count_status",
    "count_memory",
    "placement",
    "nodes",
]

# a slant job's slant table
SLANT_COLUMNS = ["puzzle_id", "rows", "cols", "status", "solution", "nodes", "seconds"]
