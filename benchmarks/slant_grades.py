"""Slant difficulty levels against Simon Tatham's own grader, on the same puzzles.

    python benchmarks/slant_grades.py /path/to/slantsolver [--count 100] [--sizes 5 8 12]
                                      [--seed 1] [--minimal]

``slantsolver`` is his standalone solver, built from ``slant.c`` of his Portable Puzzle
Collection in a folder of its own (never copied here), e.g.::

    cc -O2 -DSTANDALONE_SOLVER -o slantsolver slant.c dsf.c malloc.c misc.c random.c \\
       findloop.c nullfe.c -lm

For each size and level it generates ``--count`` puzzles with ``boardsweep``'s generator
(``solvers.slant.generate(..., difficulty=level)``), writes each as his game ID, asks his
solver for its grade (``slantsolver -g ID``) and counts what he says per level we asked
for; ``ours`` counts the puzzles our own grader (:mod:`solvers.slant.levels`) gives the same
grade as his.  ``--minimal`` adds the puzzles made without a level (minimal unique
puzzles), which he mostly grades harder than hard.  Nothing is timed.

A hard puzzle he calls "harder than Hard" is one where his solver stops before his own rules
are exhausted (his loop does not count an equivalence merged at a clue point as progress);
our engine runs the same rules to a fixed point.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections import Counter
from pathlib import Path

from common import conditions, markdown, write_results

from boardsweep.solvers import slant
from boardsweep.solvers.slant.format import game_id
from boardsweep.solvers.slant.levels import GRADES, grade_batch

TIMED = ("boardsweep.solvers.slant.generate", "boardsweep.solvers.slant.levels")
REPEATS = "1 (deterministic: grades, nothing is timed)"
SPREAD = "none: nothing is timed"

# his solver's words -> our grade names
THEIRS = {
    "Easy": "easy",
    "Hard": "hard",
    "harder than Hard, or ambiguous": "harder",
    "impossible (no solution exists)": "impossible",
}


def tatham_grade(solver: str, gid: str) -> str:
    """His grade of one game ID: easy, hard, harder or impossible (or what he printed)."""
    out = subprocess.run(
        [solver, "-g", gid], capture_output=True, text=True, check=True, timeout=600
    ).stdout.strip()
    said = out.split("Difficulty rating:", 1)[-1].strip()
    return THEIRS.get(said, said)


def grade_set(solver: str, n: int, count: int, seed: int, level: str | None) -> list:
    """One table row: his grades of ``count`` generated n x n puzzles of ``level``."""
    batch = slant.generate(n, count, seed, difficulty=level)
    ours = [GRADES[g] for g in grade_batch(batch)]
    theirs = []
    P = (n + 1) ** 2
    for j in range(count):
        clues = "".join("." if v < 0 else str(v) for v in batch["clues"][j * P : (j + 1) * P])
        theirs.append(tatham_grade(solver, game_id(n, n, clues)))
    counts = Counter(theirs)
    others = {k: v for k, v in sorted(counts.items()) if k not in ("easy", "hard")}
    other = str(sum(others.values()))
    if others:
        other += " (" + ", ".join(f"{k} {v}" for k, v in others.items()) + ")"
    agree = sum(a == b for a, b in zip(ours, theirs, strict=True))
    return [
        f"{n}x{n}",
        level or "(minimal)",
        count,
        counts["easy"],
        counts["hard"],
        other,
        f"{100 * counts[level] / count:.1f}%" if level else "-",
        f"{agree}/{count}",
    ]


def main() -> None:
    """Parse the command line, grade each set, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "solver", help="Tatham's standalone slant solver (slant.c built with -DSTANDALONE_SOLVER)"
    )
    parser.add_argument("--count", type=int, default=100, help="puzzles per size and level")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 8, 12])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--minimal", action="store_true", help="also grade puzzles generated without a level"
    )
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    if not Path(args.solver).is_file():
        sys.exit(f"no solver at {args.solver}: build Tatham's slant.c with -DSTANDALONE_SOLVER")
    sizes = {
        "sizes": " ".join(map(str, args.sizes)),
        "count": args.count,
        "seed": args.seed,
        "minimal": args.minimal,
    }
    print(conditions(**sizes), flush=True)
    levels = ["easy", "hard"] + ([None] if args.minimal else [])
    rows = [
        grade_set(args.solver, n, args.count, args.seed, level)
        for n in args.sizes
        for level in levels
    ]
    table = markdown(
        [
            "size",
            "our level",
            "puzzles",
            "Tatham: easy",
            "Tatham: hard",
            "Tatham: other",
            "agreement",
            "our grader = his",
        ],
        rows,
    )
    print(table)
    body = (
        "Grades, not times: Simon Tatham's standalone solver (built outside the project) "
        "grades puzzles of our generator at each level we asked for.\n\n" + table
    )
    write_results(
        __file__, body, timed=TIMED, repeats=REPEATS, spread=SPREAD, sizes=sizes, out=args.out
    )


if __name__ == "__main__":
    main()
