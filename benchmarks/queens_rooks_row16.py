"""Row 16 of the queens+rooks triangle, made the way a user makes it (``boardsweep run`` on 2
local workers, resumed across a kill), and its cells checked by methods that share no code
with the kernel.

    python benchmarks/queens_rooks_row16.py [--work FOLDER] [--kill-after SECONDS | --no-run]

Runs ``boardsweep run`` as a new process on ``benchmarks/queens_rooks_row16.yaml`` in
``--work`` (kept, so that a second call reuses or resumes the row; default: a temporary
folder).  With ``--kill-after S`` the first run's whole process group is killed (SIGKILL, as a
crash or a lost node would) after S seconds and the command is run again: that run must
resume, reusing the units stored before the kill.  ``--no-run`` reads the row that runs in
``--work`` published before, as they left it (a run after an edit of the kernel would compute
the row again: the problem's version changed).  Each run's CPU and wall time, units run and
reused, the records verified and the problem version come from the job's ``runs.parquet``.

Then every cell the other methods reach is recomputed and compared with the published row:

- M = 0: n!, by arithmetic;
- M = 1 and 2: the permanent method (:mod:`solvers.queens_rooks.permanent`: queens by plain
  loops, rooks as Ryser's permanent of the free cells);
- M = n - 2 (two rooks): a plain search that places a queen or a rook per row
  (``tests/solvers/queens_rooks_rows.py``);
- M = n - 1 and M = n: n Q(n) and Q(n), with Q(16) from OEIS A000170 (with one rook every
  piece must be diagonal-free).

It exits 1 on any disagreement, and when ``data/queens_rooks_triangle.txt`` holds another row
16.  The run keeps both cores busy for as long as the row's plan says
(``plan_queens_rooks.py``), and the plain search of M = n - 2 for minutes after it.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq
from common import HERE, ROOT, conditions, markdown, progress, write_results

from boardsweep.solvers.queens_rooks.permanent import cell
from tests.solvers.queens_rooks_rows import few_rooks, published_triangle

# what this script times itself: the other methods (the runs' figures are a record of the code
# that made them, whose problem version the runs table gives)
TIMED = (
    "boardsweep.solvers.queens_rooks.permanent",
    "benchmarks/queens_rooks_row16.yaml",
    "tests/solvers/queens_rooks_rows.py",
)
N = 16
Q16 = 14772512  # OEIS A000170: solutions of the 16-queens problem
CONFIG = HERE / "queens_rooks_row16.yaml"
JOB = "queens_rooks_16"
TRIANGLE = ROOT / "data" / "queens_rooks_triangle.txt"


def run(folder: Path, kill_after: float | None) -> None:
    """``boardsweep run`` on the row's config in ``folder``; killed once after ``kill_after``
    seconds (then run again to its end)."""
    shutil.copyfile(CONFIG, folder / CONFIG.name)
    command = [sys.executable, "-m", "boardsweep", "run", CONFIG.name]
    if kill_after is not None:
        process = subprocess.Popen(command, cwd=folder, start_new_session=True)
        try:
            process.wait(timeout=kill_after)
            raise SystemExit("the run ended before --kill-after: nothing was resumed")
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            progress(f"killed the run after {kill_after:g} s; running it again")
    if subprocess.run(command, cwd=folder).returncode != 0:
        raise SystemExit("boardsweep run failed")


def published_row(folder: Path) -> list[int]:
    """placements(M, 16 - M), M = 0..16, from the job's counts table (exact, from its text)."""
    table = pq.read_table(folder / "results" / JOB / "counts.parquet").to_pylist()
    row = {r["queens"]: int(r["count_text"]) for r in table if r["n"] == N}
    if sorted(row) != list(range(N + 1)):
        raise SystemExit(f"the published table lacks cells of row {N}: {sorted(row)}")
    return [row[m] for m in range(N + 1)]


def checks(row: list[int]) -> tuple[list[list[object]], bool]:
    """Each other method's cells against the row: table rows and whether all agree."""
    methods = [
        (0, "n!", lambda: math.factorial(N)),
        (1, "permanent (Ryser, modulo two primes)", lambda: cell(N, 1)),
        (2, "permanent (Ryser, int64)", lambda: cell(N, 2)),
        (N - 2, "plain search, a queen or a rook per row", lambda: few_rooks(N, 2)),
        (N - 1, "n Q(n), Q(16) of OEIS A000170", lambda: N * Q16),
        (N, "Q(n), OEIS A000170", lambda: Q16),
    ]
    lines, right = [], True
    for m, how, compute in methods:
        progress(f"M = {m}: {how}")
        start = time.process_time()
        value = compute()
        seconds = time.process_time() - start
        same = value == row[m]
        right &= same
        lines.append([m, N - m, f"{row[m]:,}", how, f"{value:,}", f"{seconds:.1f}", same])
    return lines, right


def triangle_line(row: list[int]) -> str:
    """The row as a line of ``data/queens_rooks_triangle.txt``."""
    return f"{N:>3}: " + " ".join(map(str, row))


def in_triangle() -> list[int] | None:
    """Row 16 of the triangle file, if it holds one."""
    return published_triangle(TRIANGLE).get(N)


def main() -> None:
    """Run (or resume) the row, check its cells, print and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, help="folder to run in (kept)")
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--kill-after", type=float, help="kill the first run after S seconds")
    given.add_argument(
        "--no-run", action="store_true", help="only read what runs in --work published"
    )
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    if args.no_run and args.work is None:
        parser.error("--no-run reads a folder: give --work")
    print(conditions(row=N, workers=2), flush=True)
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.work or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        if not args.no_run:
            run(folder, args.kill_after)
        row = published_row(folder)
        runs = pq.read_table(folder / "results" / JOB / "runs.parquet").to_pylist()
    lines, right = checks(row)
    kept = in_triangle()
    parts = [
        "**The runs** of the job, from its `runs.parquet`, as they were made (the code that "
        "made them is the problem version; a run killed before it published leaves no line: "
        "the next one reuses what it stored)",
        markdown(
            [
                "run started",
                "wall h",
                "CPU h",
                "CPU h of the whole row at this rate",
                "units run",
                "units reused",
                "workers",
                "records verified",
                "disagreements",
                "problem version",
            ],
            [
                [
                    str(r["started"])[:16],
                    f"{r['wall_seconds'] / 3600:.2f}",
                    f"{r['cpu_seconds'] / 3600:.2f}",
                    f"{r['cpu_seconds'] * r['units'] / r['units_run'] / 3600:.2f}"
                    if r["units_run"]
                    else "-",
                    f"{r['units_run']:,}",
                    f"{r['units_reused']:,}",
                    r["workers"],
                    r["records_verified"],
                    r["disagreements"],
                    r["problem_version"][:12],
                ]
                for r in runs
            ],
        ),
        f"**Row {N}**, placements(M, {N} - M) for M = 0..{N}:",
        f"```text\n{triangle_line(row)}\n```",
        "**Cells recomputed by methods that share no code with the kernel** (CPU seconds of "
        "this process)",
        markdown(["M", "rooks", "published", "method", "method's count", "CPU s", "agree"], lines),
    ]
    body = "\n\n".join(parts)
    print(f"\n{body}")
    if not right:
        raise SystemExit("a method disagrees with the published row")
    if kept is not None and kept != row:
        raise SystemExit(f"{TRIANGLE} holds another row {N}")
    if kept is None:
        progress(f"row {N} is not in {TRIANGLE} yet: add the line above")
    write_results(__file__, body, timed=TIMED, repeats="1", sizes={"row": N}, out=args.out)


if __name__ == "__main__":
    main()
