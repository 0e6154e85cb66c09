"""What the benchmark scripts share: their stated conditions, medians, Markdown tables, the
results file each writes (:func:`write_results`), memory and disk sampling of a process tree,
one job run through the product's own path, and the C baselines' build.

Every script prints its tables from numbers it measured in the same run; nothing here asserts
on a time.

Results files.  Every benchmark ends with :func:`write_results`, which writes
``benchmarks/results/<script name>.md`` (or ``--out``): its tables under a block of the
conditions they were measured in (the command, machine, load average at the start, versions,
commit and whether the tree was dirty, date, repeats and their spread, sizes), and a
machine-readable line naming the sources it timed with a digest of them
(:func:`sources_digest`).  The manual's speed page (docs/speed.md) includes those files, and
tests/docs/test_speed_pages.py recomputes the digest: a file whose sources changed since it
was written must be rerun or say ``stale: rerun``.  From the command line::

    python benchmarks/common.py check          # which results files are stale
    python benchmarks/common.py mark-stale     # add the "stale: rerun" line to those
    python benchmarks/common.py placeholders   # a "not measured yet" file for each missing one
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import os
import platform
import re
import shlex
import stat
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = [
    "HERE",
    "ROOT",
    "RESULTS",
    "conditions",
    "median",
    "spread",
    "write_results",
    "sources_digest",
    "timed_sources",
    "read_timed",
    "stale_reason",
    "markdown",
    "benchmark_parser",
    "parse_benchmark_args",
    "print_and_write",
    "progress",
    "TreeSampler",
    "disk_use",
    "local_cluster",
    "run_into",
    "solve_once",
    "make",
    "plan_output",
    "build_c",
    "SAMPLE_SECONDS",
    "MiB",
]

SAMPLE_SECONDS = 0.05  # memory (and disk) of a process tree is sampled this often
MiB = 2**20


def build_c(name: str, defines: Sequence[str] = ()) -> Path:
    """Compile ``benchmarks/<name>.c`` with ``cc -O3 -march=native`` (and ``-D`` each of
    ``defines``) into ``benchmarks/bin/<name>`` (``<name>-<define>...`` with defines; ignored
    by git), again only when the source is newer than the binary."""
    source = HERE / f"{name}.c"
    binary = HERE / "bin" / "-".join([name, *(d.lower() for d in defines)])
    binary.parent.mkdir(exist_ok=True)
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        flags = [f"-D{d}" for d in defines]
        subprocess.run(
            ["cc", "-O3", "-march=native", *flags, "-o", str(binary), str(source)], check=True
        )
    return binary


# When the script started: every benchmark imports this module before it measures anything.
_STARTED = {"time": time.time(), "load": os.getloadavg()}
_SPREADS: dict[tuple[float, ...], float] = {}  # each repeated figure's values -> its spread

RESULTS = HERE / "results"
"""Where each benchmark writes its results file, ``<script name>.md``."""
VERSIONS = ("boardsweep", "numba", "numpy", "pyarrow", "dask", "distributed")
STALE = "stale: rerun"
"""What a results file says, in a line the page shows, when its sources changed since."""
NONE_YET = "<!-- benchmark results: none yet -->"
"""The first line of a placeholder: the benchmark has not written its file yet."""
WRITES = re.compile(r"\b(?:write_results|print_and_write)\(")
"""A call that writes a results file, in a benchmark script's text."""
TIMED = re.compile(r"<!--\s*timed:\s*(?P<sources>.*?)\s+digest:\s*(?P<digest>[0-9a-f]+)\s*-->")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@cache
def _commit() -> str:
    """The commit checked out and whether the tree differs from it (results files aside)."""
    head = _git("rev-parse", "--short=12", "HEAD")
    if head is None:
        return "unknown (not a git checkout)"
    status = _git("status", "--porcelain") or ""
    changed = [
        line for line in status.splitlines() if not line[3:].startswith("benchmarks/results/")
    ]
    if not changed:
        return f"{head} (tree clean)"
    return f"{head} (tree dirty: {len(changed)} path{'s' * (len(changed) != 1)} changed or new)"


def _versions() -> str:
    found = [f"python {platform.python_version()}"]
    for name in VERSIONS:
        try:
            found.append(f"{name} {package_version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found)


def _condition_lines() -> list[str]:
    load = ", ".join(f"{v:.2f}" for v in _STARTED["load"])
    memory = psutil.virtual_memory().total / 2**30
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(_STARTED["time"]))
    return [
        f"machine: {platform.node()}, {_cpu_model()}, {os.cpu_count()} cores, "
        f"{memory:.1f} GiB memory, {platform.system()} {platform.release()}",
        f"load average at start (1, 5, 15 min): {load}",
        f"versions: {_versions()}",
        f"commit: {_commit()}",
        f"date: {started}",
    ]


def _sizes(sizes: dict) -> str:
    return "sizes: " + ", ".join(f"{k} = {v}" for k, v in sizes.items())


def conditions(**sizes) -> str:
    """The machine, its load when the script started, the versions, the commit, the date, and
    the sizes measured (what a script prints first; its results file holds the same)."""
    lines = _condition_lines()
    if sizes:
        lines.append(_sizes(sizes))
    return "\n".join(lines)


def rotated(items: Sequence, r: int) -> list:
    """``items`` in repeat ``r``'s order: rotated by r, so each goes first in turn."""
    k = r % len(items)
    return list(items[k:]) + list(items[:k])


def spread(values: Sequence[float]) -> float:
    """(max - min) / median of the repeats of one figure, recorded for the results file's
    ``spread:`` line (:func:`median` records it too; call this where a script keeps the
    fastest of its repeats instead)."""
    values = tuple(float(v) for v in values)
    mid = statistics.median(values) if values else 0.0
    out = (max(values) - min(values)) / mid if len(values) > 1 and mid > 0 else 0.0
    if out > 0:  # zero: a count, not a time
        _SPREADS[values] = out
    return out


def median(values: Sequence[float]) -> float:
    """The median (of the repeats of one measurement); their spread is recorded."""
    spread(values)
    return float(statistics.median(values))


def _spread_text() -> str:
    if not _SPREADS:
        return "none measured (no figure was repeated)"
    values = sorted(_SPREADS.values())
    return (
        f"(max - min) / median of each repeated figure's runs, over {len(values)} figures: "
        f"at most {values[-1]:.1%}, median {statistics.median(values):.1%}"
    )


# ------------------------------------------------------------------------ sources and digest


def _is_path(entry: str) -> bool:
    return "/" in entry or Path(entry).suffix in (".py", ".c", ".h", ".txt", ".json", ".yaml")


@cache
def _package_dir(package: str) -> Path | None:
    """The folder of ``package``, found without importing it (only its parents)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _module_path(name: str) -> Path | None:
    """The source file of module ``name``, without importing it (only the packages above it):
    its path joined onto the folder of ``boardsweep.pipeline`` / ``boardsweep.solvers``
    (mapped apart from ``boardsweep``'s own folder), of ``boardsweep``, or of its top-level
    package."""
    parts = name.split(".")
    if len(parts) == 1:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        found = Path(spec.origin) if spec is not None and spec.origin else None
        return found if found is not None and found.is_file() else None
    for anchor in (2, 1) if parts[0] == "boardsweep" else (1,):
        base = _package_dir(".".join(parts[:anchor]))
        if base is None:
            continue
        path = base.joinpath(*parts[anchor:])
        for candidate in (path / "__init__.py", path.with_suffix(".py")):
            if candidate.is_file():
                return candidate
    return None


KERNELS = "boardsweep.solvers"  # the package whose imports a digest follows


def timed_sources(entries: Sequence[str]) -> dict[str, Path]:
    """``{name: file}`` of every source ``entries`` stand for: a path (from the repository
    root, e.g. ``benchmarks/nqueens.py`` or a C baseline) is itself; a module (e.g.
    ``boardsweep.solvers.nqueens``) is its file and every module it imports, at any depth,
    inside the kernel code (``boardsweep.solvers``) or its own top-level package outside
    ``boardsweep`` (presentation modules left out, as :mod:`boardsweep.solvers.identity` leaves
    them out of a problem's version).  A pipeline module counts where a benchmark names it, and
    not because a timed module imports it: the figures follow the kernels and the modules a
    benchmark is about, and an edit to the plumbing elsewhere does not make every pipeline
    benchmark stale.  Raises :class:`FileNotFoundError` for an entry that names nothing."""
    from boardsweep.solvers import identity

    found: dict[str, Path] = {}
    todo: list[str] = []
    for entry in entries:
        if _is_path(entry):
            path = ROOT / entry
            if not path.is_file():
                raise FileNotFoundError(f"{entry}: no such file under {ROOT}")
            found[entry] = path
        elif _module_path(entry) is None:
            raise FileNotFoundError(f"{entry}: no such module")
        else:
            todo.append(entry)
    named = set(todo)
    tops = {entry.split(".")[0] for entry in todo} - {"boardsweep"}

    def followed(name: str) -> bool:
        return (
            name in named
            or name.split(".")[0] in tops
            or name == KERNELS
            or name.startswith(f"{KERNELS}.")
        )

    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or not followed(name):
            continue
        seen.add(name)
        path = _module_path(name)
        if path is None or identity.is_presentation(path):
            continue
        found[name] = path
        todo.extend(identity._imports(name, path))
    return dict(sorted(found.items()))


def sources_digest(entries: Sequence[str]) -> str:
    """16 hex digits of a sha256 over the sources :func:`timed_sources` finds for ``entries``:
    each Python file by what it does (``identity._facts(path)["code"]``: its syntax tree,
    docstrings and comments left out, so reformatting changes nothing), any other file by its
    bytes."""
    from boardsweep.solvers import identity

    digest = hashlib.sha256()
    for name, path in timed_sources(entries).items():
        if path.suffix == ".py":
            code = identity._facts(path)["code"]
        else:
            code = hashlib.sha256(path.read_bytes()).hexdigest()
        digest.update(f"{name}\0{code}\0".encode())
    return digest.hexdigest()[:16]


def read_timed(text: str) -> tuple[list[str], str] | None:
    """The sources and digest a results file's ``<!-- timed: ... digest: ... -->`` line
    records (None if it has none)."""
    found = TIMED.search(text)
    if found is None:
        return None
    return found["sources"].split(), found["digest"]


def _shown(text: str) -> str:
    """``text`` less its HTML comments: what a page that includes it shows."""
    return re.sub(r"<!--.*?-->", "", text, flags=re.S)


def stale_reason(path: Path) -> str | None:
    """Why the results file at ``path`` no longer describes the sources it names (None if it
    still does, if it is a placeholder, or if it says :data:`STALE` in a line shown)."""
    text = Path(path).read_text()
    if text.startswith(NONE_YET) or STALE in _shown(text):
        return None
    timed = read_timed(text)
    if timed is None:
        return "it records no timed sources and digest (no <!-- timed: ... --> line)"
    sources, recorded = timed
    try:
        now = sources_digest(sources)
    except FileNotFoundError as exc:
        return f"a source it timed is gone: {exc}"
    if now != recorded:
        return f"the sources it timed changed: digest {recorded} recorded, {now} now"
    return None


# ---------------------------------------------------------------------------- results files


def write_results(
    script: str | Path,
    body: str,
    *,
    timed: Sequence[str] = (),
    repeats: int | str,
    spread: str | None = None,
    sizes: dict | None = None,
    out: str | Path | None = None,
) -> Path:
    """Write a benchmark's results file and return its path: ``out``, by default
    ``benchmarks/results/<script name>.md``.

    ``script``: the benchmark's ``__file__``.  ``body``: its tables and notes (Markdown, no
    headings: the page that includes it has them).  ``timed``: what it measured besides the
    script itself: module names (their boardsweep imports follow) and files from the
    repository root (a C baseline, a data set).  ``repeats``: how often each figure was
    measured, e.g. ``"3, interleaved"``.  ``spread``: the spread of the repeats in words;
    by default what :func:`median` and :func:`spread` recorded in this run.  ``sizes``: the
    settings measured.

    The file::

        <!-- results of benchmarks/NAME.py, written by it (benchmarks/common.py write_results) -->
        <!-- timed: benchmarks/NAME.py MODULE-OR-PATH ... digest: 16 HEX DIGITS -->

        ```text
        benchmark: python benchmarks/NAME.py ARGUMENTS
        machine: ...
        load average at start (1, 5, 15 min): ...
        versions: python ..., boardsweep ..., numba ..., numpy ..., pyarrow ..., dask ..., ...
        commit: HASH (tree clean | tree dirty: N paths changed or new)
        date: YYYY-MM-DD HH:MM UTC
        repeats: ...
        spread: ...
        sizes: ...
        ```

        BODY
    """
    script = Path(script).resolve()
    name = script.relative_to(ROOT).as_posix()
    entries = [name, *timed]
    digest = sources_digest(entries)
    head = [
        "benchmark: python " + shlex.join([name, *sys.argv[1:]]),
        *_condition_lines(),
        f"repeats: {repeats}",
        f"spread: {spread if spread is not None else _spread_text()}",
    ]
    if sizes:
        head.append(_sizes(sizes))
    text = (
        f"<!-- results of {name}, written by it (benchmarks/common.py write_results) -->\n"
        f"<!-- timed: {' '.join(entries)} digest: {digest} -->\n\n"
        "```text\n" + "\n".join(head) + "\n```\n\n" + body.strip() + "\n"
    )
    out = Path(out) if out is not None else RESULTS / f"{script.stem}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    temporary.write_text(text)
    os.replace(temporary, out)
    print(f"results written to {out}", file=sys.stderr, flush=True)
    return out


def writers() -> list[Path]:
    """The benchmark scripts that write a results file (they call :func:`write_results` or
    :func:`print_and_write`)."""
    return sorted(
        path
        for path in HERE.glob("*.py")
        if path.name != "common.py" and WRITES.search(path.read_text())
    )


def _wanted() -> set[Path]:
    """The results files the speed pages include, and each writer's default file."""
    found = {RESULTS / f"{script.stem}.md" for script in writers()}
    pages = [ROOT / "docs" / "speed.md", *sorted((ROOT / "docs" / "speed").glob("*.md"))]
    for page in pages:
        if not page.is_file():
            continue
        for target in re.findall(r"^\s*[`~]{3,}\{include\}\s+(\S+)", page.read_text(), re.M):
            path = (page.parent / target).resolve()
            if path.parent == RESULTS.resolve():
                found.add(RESULTS / path.name)
    return found


def _script_of(path: Path) -> Path:
    """The benchmark that writes the results file ``path``: the script whose name is the
    longest start of the file's (``slant_sets.md``: ``slant.py``)."""
    scripts = sorted(writers(), key=lambda p: -len(p.stem))
    for script in scripts:
        if path.stem == script.stem or path.stem.startswith(script.stem + "_"):
            return script
    raise SystemExit(f"{path}: no benchmark script's name starts its name")


def placeholder(script: Path) -> str:
    """What stands in a missing results file, so the page that includes it still builds."""
    name = script.relative_to(ROOT).as_posix()
    return f"{NONE_YET}\n\n*Not measured yet:* `python {name}` writes this file.\n"


def markdown(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (cells already formatted as text)."""
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def benchmark_parser(doc: str, **int_options: int) -> argparse.ArgumentParser:
    """A benchmark's argument parser: described by the first line of ``doc`` (its module
    docstring), with an integer option ``--NAME`` for each keyword (underscores written as
    dashes), its value the default, in the order given."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, default in int_options.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=default)
    return parser


def parse_benchmark_args(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The command line parsed by ``parser`` after adding, last, the ``--out`` option every
    benchmark takes (its results file, by default :func:`write_results`'s)."""
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    return parser.parse_args()


def progress(message: str) -> None:
    """Print ``message`` to stderr at once: how far a benchmark has got, not a result."""
    print(message, file=sys.stderr, flush=True)


def print_and_write(script: str | Path, body: str, **results) -> Path:
    """Print ``body`` after a blank line, then :func:`write_results` it (``results``: that
    function's keywords) and return the file's path."""
    print(f"\n{body}")
    return write_results(script, body, **results)


def disk_use(path: Path) -> int:
    """Bytes a folder (or file) takes on disk: allocated blocks, each inode counted once."""
    path = Path(path)
    if not path.exists():
        return 0
    seen: set[tuple[int, int]] = set()
    total = 0
    stack = [path]
    while stack:
        top = stack.pop()
        try:
            info = top.lstat()
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode):
            try:
                stack.extend(top.iterdir())
            except OSError:
                pass
            continue
        key = (info.st_dev, info.st_ino)
        if key not in seen:
            seen.add(key)
            total += info.st_blocks * 512
    return total


class TreeSampler:
    """Peak RSS of one process alone and of it with all its descendants, sampled every
    :data:`SAMPLE_SECONDS` in a thread (as ``nqueens.py``'s enumeration does); ``extra``
    (e.g. the sizes of folders, by name) is sampled alongside and each value's peak kept in
    ``peak_extra``."""

    def __init__(self, pid: int, extra: Callable[[], dict[str, float]] | None = None):
        self.root = psutil.Process(pid)
        self.extra = extra
        self.peak_root = self.peak_tree = 0
        self.peak_extra: dict[str, float] = {}
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _sample(self) -> None:
        try:
            root = self.root.memory_info().rss
        except psutil.Error:
            return
        tree = root
        try:
            children = self.root.children(recursive=True)
        except psutil.Error:
            children = []
        for child in children:
            try:
                tree += child.memory_info().rss
            except psutil.Error:
                pass
        self.peak_root = max(self.peak_root, root)
        self.peak_tree = max(self.peak_tree, tree)
        if self.extra is not None:
            for name, value in self.extra().items():
                self.peak_extra[name] = max(self.peak_extra.get(name, 0.0), float(value))
        self.samples += 1

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(SAMPLE_SECONDS)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


@contextmanager
def local_cluster(workers: int, problems: list[str]) -> Iterator[tuple]:
    """``(runner, threads, client)`` on the local cluster ``boardsweep run`` makes
    (``pipeline.jobs.open_runner``: its scheduler settings, workers warmed up)."""
    from distributed import default_client

    from boardsweep.pipeline.jobs import open_runner
    from boardsweep.pipeline.spec import ClusterSpec

    spec = ClusterSpec("local", {"workers": workers, "dashboard_address": "127.0.0.1:0"})
    with open_runner(spec, problems) as (runner, threads):
        yield runner, threads, default_client()


def run_into(
    job, output: Path, runner, threads: int, target: float | None = None, command: str = "benchmark"
) -> dict:
    """Run ``job`` into ``output`` the way ``boardsweep run`` does (``pipeline.app``: the
    output and state claimed and locked, state folder, store, plan, loop, merge,
    publication); return its manifest."""
    from boardsweep.pipeline.claim import claim_output
    from boardsweep.pipeline.jobs import run_job
    from boardsweep.pipeline.publish import prepare_state
    from boardsweep.pipeline.spec import ClusterSpec, state_folder, task_seconds
    from boardsweep.pipeline.store import Store

    output = Path(output).absolute()
    state = state_folder(output)
    if target is None:
        target = task_seconds(ClusterSpec("local"))
    with claim_output(output, state) as ident:
        prepare_state(output, state)
        store = Store(state / "store.sqlite", owner=ident)
        try:
            return run_job(job, output, state, store, runner, threads, target, command)
        finally:
            store.close()


def solve_once(job, runner, threads: int, target: float = 60.0) -> dict:
    """``{table: pyarrow.Table}`` of ``job`` computed as ``boardsweep solve`` does
    (``pipeline.jobs.run_once``: a temporary store, the same plan, loop and merge, target task
    length 60 s) on the given runner, e.g. a warm cluster's."""
    import pyarrow as pa

    from boardsweep.pipeline.jobs import run_once

    @contextmanager
    def given(seconds: float):
        yield runner, threads

    with run_once(job, given, target) as tables:
        out = {}
        for name, pieces in tables.items():
            parts = list(pieces)
            out[name] = (
                pa.concat_tables(parts) if parts else job.problem.table(name).schema().empty_table()
            )
        return out


def make(problem: str, name: str, params: dict):
    """A job of ``problem`` from raw params, paths relative to the repository root."""
    from boardsweep.pipeline.spec import make_job
    from boardsweep.solvers.schema import Context

    return make_job(problem, name, params, Context(str(ROOT)))


def plan_output(config: str | Path, workers: int, task_seconds: float, cwd: str | Path) -> str:
    """What ``boardsweep plan CONFIG --workers W --task-seconds T`` prints (stdout, then
    stderr) under the command as typed (the config by its file name): ``python -m boardsweep``
    run in ``cwd`` with this checkout on ``PYTHONPATH``, failing if the command fails."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardsweep",
            "plan",
            str(config),
            "--workers",
            str(workers),
            "--task-seconds",
            str(task_seconds),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return (
        f"$ boardsweep plan {Path(config).name} --workers {workers} "
        f"--task-seconds {task_seconds:g}\n{out.stdout}{out.stderr}"
    )


def _shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv: Sequence[str] | None = None) -> int:
    """``check``: list the stale results files (exit 1 if any); ``mark-stale``: add the
    :data:`STALE` line to them; ``placeholders``: write a placeholder for every benchmark
    without a results file."""
    parser = argparse.ArgumentParser(description="The benchmarks' results files.")
    parser.add_argument("action", choices=["check", "mark-stale", "placeholders"])
    args = parser.parse_args(argv)
    if args.action == "placeholders":
        for path in sorted(_wanted()):
            if path.exists():
                continue
            script = _script_of(path)
            RESULTS.mkdir(parents=True, exist_ok=True)
            path.write_text(placeholder(script))
            print(f"{_shown_path(path)}: placeholder written (for {script.name})")
        return 0
    found = 0
    for path in sorted(RESULTS.glob("*.md")):
        reason = stale_reason(path)
        if reason is None:
            continue
        found += 1
        print(f"{_shown_path(path)}: {reason}")
        if args.action == "mark-stale":
            lines = path.read_text().splitlines(keepends=True)
            at = 0
            while at < len(lines) and lines[at].startswith("<!--"):
                at += 1
            lines[at:at] = [
                f"\n**{STALE}**: {reason}; these figures were measured on the code before.\n"
            ]
            path.write_text("".join(lines))
    return 1 if found and args.action == "check" else 0


if __name__ == "__main__":
    sys.exit(main())
