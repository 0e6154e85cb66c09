"""A user's first run and the cost of starting: this checkout against the commit before the
first-run work (:data:`BEFORE`), each built as a wheel and installed into a fresh venv of its
own, as a user installs it, and measured in the same script.

Rows:

- cold compile CPU-s per problem: one process, an empty kernel cache, ``PROBLEM.warm_up()``,
  and the compiles it made (one per function and signature: a function compiled again for a
  literal-typed argument counts twice);
- the default ``config.yaml`` run cold (empty cache) and warm: wall time, CPU-s of the whole
  process tree (driver and workers), the CPU-s the cold run spent more than the warm one (its
  compiles), the workers that compiled (as the run's log says; the old code does not say), and
  the longest silence on stderr (start to first line, between lines, last line to exit);
- whole-process wall times: ``boardsweep --help``, ``solve nqueens 8`` warm, ``solve nqueens
  12`` cold, and a run of the 5x5 exhaustive walled-board job warm.

Warm figures are medians of ``--repeats`` runs, the versions interleaved; cold ones are one run
each (a cold run fills the cache it measures).  The table goes to stdout and, with its
conditions, to ``--out`` (default ``benchmarks/results/first_run.md``, which the manual's speed
page includes).

    python benchmarks/first_run.py [--before REV] [--repeats 3] [--out PATH]
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import site
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, conditions, markdown, median, write_results

BEFORE = "bd1b134"  # the last commit before the first-run work (signals, compile once, lazy CLI)
PROBLEMS = ("nqueens", "queens_rooks", "max_rooks", "slant")
# what this script times: the whole product (the command line, every problem) on config.yaml
TIMED = (
    "boardsweep.pipeline.entry",
    "boardsweep.pipeline.cli",
    "boardsweep.pipeline.stopping",  # how the process ends is part of its time
    *(f"boardsweep.solvers.{name}" for name in PROBLEMS),
    "config.yaml",
)
SMALL = "output: results\njobs:\n  - {name: every, problem: max_rooks, boards: {all: {rows: 5}}}\n"
COMPILE = (
    "import sys, time, boardsweep.solvers as s; p = s.get({name!r}); "
    "t = time.process_time(); p.warm_up(); cpu = time.process_time() - t; "
    "mods = [m for n, m in list(sys.modules.items()) if m and n.startswith(p.modules)]; "
    "kernels = {{id(v): v for m in mods for v in vars(m).values() "
    "if hasattr(getattr(v, 'stats', None), 'cache_misses')}}; "
    "print(cpu, sum(sum(v.stats.cache_misses.values()) for v in kernels.values()))"
)


class Version:
    """One boardsweep, installed from a wheel of ``source`` into its own venv under ``base``."""

    def __init__(self, label: str, source: Path, base: Path):
        self.label, self.base = label, base
        venv = base / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        self.python = venv / "bin" / "python"
        purelib = subprocess.run(
            [str(self.python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        (Path(purelib) / "dependencies.pth").write_text(
            "\n".join(p for p in site.getsitepackages() if Path(p).is_dir()) + "\n"
        )
        subprocess.run(
            [str(self.python), "-m", "pip", "install", "--no-deps", "-q", str(source)], check=True
        )
        self.boardsweep = str(venv / "bin" / "boardsweep")
        self.caches = 0

    def env(self, cache: Path) -> dict:
        """The environment of a user of this install with kernel cache ``cache``."""
        return {
            "PATH": f"{self.python.parent}:/usr/bin:/bin",
            "HOME": str(self.base),
            "NO_COLOR": "1",
            "LANG": "C.UTF-8",
            "BOARDSWEEP_CACHE": str(cache),
        }

    def fresh_cache(self) -> Path:
        """An empty kernel cache folder."""
        self.caches += 1
        return self.base / f"cache-{self.caches}"

    def folder(self, config: str, data: bool = False) -> Path:
        """A new working folder holding ``config`` (and the seed samples it reads)."""
        folder = Path(tempfile.mkdtemp(dir=self.base, prefix="work-"))
        (folder / "config.yaml").write_text(config)
        if data:
            shutil.copytree(ROOT / "data", folder / "data")
        return folder


def timed(args: list[str], env: dict, cwd: Path) -> dict:
    """Run ``args``; wall seconds, CPU-s of its process tree, the longest stderr silence and
    stderr itself."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(
        args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    stamps, lines = [start], []

    def read() -> None:
        for line in proc.stderr:
            stamps.append(time.monotonic())
            lines.append(line)

    reader = threading.Thread(target=read)
    reader.start()
    proc.wait()
    reader.join()
    end = time.monotonic()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stamps.append(end)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n{''.join(lines)}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    return {"wall": end - start, "cpu": cpu, "silence": max(gaps), "err": "".join(lines)}


def compiled_workers(err: str) -> str:
    """How many workers compiled, as the run's log says (the old code does not say)."""
    found = re.search(r"(\d+) workers ready \(.*?(?:, (\d+) of them compiled kernels)?\)", err)
    if not found or "compiled kernels" not in err:
        return "not reported"
    return f"{found.group(2)} of {found.group(1)}"


def measure(versions: list[Version], repeats: int) -> list[list[str]]:
    """Every row of the table, one column per version."""
    rows: dict[str, dict[str, str]] = {}

    def put(row: str, version: Version, text: str) -> None:
        rows.setdefault(row, {})[version.label] = text

    config = (ROOT / "config.yaml").read_text()
    for version in versions:
        for name in PROBLEMS:
            done = subprocess.run(
                [str(version.python), "-c", COMPILE.format(name=name)],
                env=version.env(version.fresh_cache()),
                check=True,
                capture_output=True,
                text=True,
                cwd=version.base,
            )
            cpu, compiles = done.stdout.split()[-2:]
            put(f"cold compile of {name}, CPU-s (1 process)", version, f"{float(cpu):.1f}")
            # numba counts each compile (a function for one signature) as a cache miss
            put(f"cold compile of {name}: functions compiled (signatures)", version, compiles)
        version.warm = version.fresh_cache()
        cold = timed(
            [version.boardsweep, "run"],
            version.env(version.warm),
            version.folder(config, data=True),
        )
        version.cold = cold
        put("default config, cold: wall s", version, f"{cold['wall']:.1f}")
        put("default config, cold: CPU-s of all processes", version, f"{cold['cpu']:.1f}")
        put("default config, cold: workers that compiled", version, compiled_workers(cold["err"]))
        put("default config, cold: longest stderr silence, s", version, f"{cold['silence']:.1f}")
        solve = timed(
            [version.boardsweep, "solve", "nqueens", "12"],
            version.env(version.fresh_cache()),
            version.base,
        )
        put("solve nqueens 12, cold: wall s", version, f"{solve['wall']:.1f}")
    warm: dict[tuple[str, str], list[dict]] = {}
    for r in range(repeats):
        for version in versions if r % 2 == 0 else versions[::-1]:
            env = version.env(version.warm)
            for key, args, folder in (
                ("run", [version.boardsweep, "run"], version.folder(config, data=True)),
                ("help", [version.boardsweep, "--help"], version.base),
                ("solve8", [version.boardsweep, "solve", "nqueens", "8"], version.base),
                ("small", [version.boardsweep, "run"], version.folder(SMALL)),
            ):
                warm.setdefault((version.label, key), []).append(timed(args, env, folder))
    for version in versions:
        runs = warm[(version.label, "run")]
        put("default config, warm: wall s", version, f"{median([x['wall'] for x in runs]):.1f}")
        put(
            "default config, warm: CPU-s of all processes",
            version,
            f"{median([x['cpu'] for x in runs]):.1f}",
        )
        put(
            "default config: compile CPU-s (cold minus warm)",
            version,
            f"{version.cold['cpu'] - median([x['cpu'] for x in runs]):.1f}",
        )
        put(
            "default config, warm: longest stderr silence, s",
            version,
            f"{median([x['silence'] for x in runs]):.1f}",
        )
        for key, row in (
            ("help", "boardsweep --help, warm: wall s"),
            ("solve8", "solve nqueens 8, warm: wall s"),
            ("small", "5x5 exhaustive job run, warm: wall s"),
        ):
            put(row, version, f"{median([x['wall'] for x in warm[(version.label, key)]]):.2f}")
    labels = [v.label for v in versions]
    table = []
    for row, cells in rows.items():
        a, b = cells.get(labels[0], ""), cells.get(labels[1], "")
        try:
            ratio = f"{float(b) / float(a):.2f}" if float(a) else ""
        except ValueError:
            ratio = ""
        table.append([row, a, b, ratio])
    return table


def main() -> None:
    """Build both versions, measure them, print and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, help="the commit to compare against")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="boardsweep-first-run-"))
    head = conditions(repeats=args.repeats, before=args.before, config="config.yaml")
    try:
        worktree = base / "before-src"
        subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "worktree",
                "add",
                "--detach",
                "-q",
                str(worktree),
                args.before,
            ],
            check=True,
        )
        try:
            versions = [
                Version(f"before ({args.before})", worktree, base / "before"),
                Version("this checkout", ROOT, base / "this"),
            ]
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)],
                check=False,
            )
        table = measure(versions, args.repeats)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    table = markdown(
        ["measure", versions[0].label, versions[1].label, "ratio (this / before)"], table
    )
    print(f"{head}\n\n{table}")
    write_results(
        __file__,
        f"Warm figures: medians of {args.repeats} runs, the versions interleaved; cold figures: "
        "one run each (a cold run fills the cache it measures).\n\n" + table,
        timed=TIMED,
        repeats=f"{args.repeats} for warm figures (versions interleaved), 1 for cold ones",
        sizes={"before": args.before, "config": "config.yaml"},
        out=args.out,
    )


if __name__ == "__main__":
    main()
