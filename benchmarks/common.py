"""What the benchmark scripts share: their stated conditions, medians, Markdown tables, memory
and disk sampling of a process tree, one job run through the product's own path, and the C
baselines' build.

Every script prints its tables from numbers it measured in the same run; nothing here asserts
on a time.
"""

from __future__ import annotations

import os
import platform
import stat
import statistics
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
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
    "conditions",
    "median",
    "markdown",
    "TreeSampler",
    "disk_use",
    "local_cluster",
    "run_into",
    "solve_once",
    "make",
    "build_c",
    "SAMPLE_SECONDS",
    "MiB",
]

SAMPLE_SECONDS = 0.05  # memory (and disk) of a process tree is sampled this often
MiB = 2**20


def build_c(name: str) -> Path:
    """Compile ``benchmarks/<name>.c`` with ``cc -O3 -march=native`` into ``benchmarks/bin/<name>``
    (ignored by git), again only when the source is newer than the binary."""
    source, binary = HERE / f"{name}.c", HERE / "bin" / name
    binary.parent.mkdir(exist_ok=True)
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        subprocess.run(["cc", "-O3", "-march=native", "-o", str(binary), str(source)], check=True)
    return binary


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def conditions(**sizes) -> str:
    """The machine, its load when the script started, the versions, and the sizes measured."""
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    memory = psutil.virtual_memory().total / 2**30
    versions = ", ".join(
        f"{name} {package_version(name)}"
        for name in ("boardsweep", "dask", "distributed", "numba", "pyarrow")
    )
    lines = [
        f"machine: {platform.node()}, {_cpu_model()}, {os.cpu_count()} cores, "
        f"{memory:.1f} GiB memory, {platform.system()} {platform.release()}",
        f"load average at start (1, 5, 15 min): {load}",
        f"python {platform.python_version()}, {versions}",
    ]
    if sizes:
        lines.append("sizes: " + ", ".join(f"{k} = {v}" for k, v in sizes.items()))
    return "\n".join(lines)


def rotated(items: Sequence, r: int) -> list:
    """``items`` in repeat ``r``'s order: rotated by r, so each goes first in turn."""
    k = r % len(items)
    return list(items[k:]) + list(items[:k])


def median(values: Sequence[float]) -> float:
    """The median (of the repeats of one measurement)."""
    return float(statistics.median(values))


def markdown(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (cells already formatted as text)."""
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


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
    """Run ``job`` into ``output`` the way ``boardsweep run`` does (lock, state folder, store,
    plan, loop, merge, publication); return its manifest."""
    from boardsweep.pipeline.jobs import run_job, state_lock
    from boardsweep.pipeline.publish import prepare_state
    from boardsweep.pipeline.spec import ClusterSpec, state_folder, task_seconds
    from boardsweep.pipeline.store import Store

    output = Path(output).absolute()
    state = state_folder(output)
    if target is None:
        target = task_seconds(ClusterSpec("local"))
    with state_lock(state):
        prepare_state(output, state)
        store = Store(state / "store.sqlite")
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
