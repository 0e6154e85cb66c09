"""``boardsweep report``: each job's report hook, printed and drawn.

For every published job under a results folder, the job's problem (named in its manifest)
builds titled tables and figures from the published tables (:class:`solvers.contract.Report`).
Every hook is called the same way, ``report(job, tables, related)``: ``related`` holds the
tables of the other jobs of the same problem in the folder, ``{job: {table: load(columns=
None)}}`` (so a Monte Carlo job can draw an exhaustive job's exact curves).  Tables go to
stdout; figures are saved as PNG files
``<job>-<stem>.png`` and, with the tables, embedded in one self-contained ``report.html``
(:mod:`.report_page`), all under ``<results>/_report/``, a folder whose name Parquet readers
skip (pyarrow datasets ignore ``_``-prefixed paths; ``*/*.parquet`` globs find nothing there).
Each report replaces the previous one's PNGs, so the folder holds this report's figures alone.
"""

from __future__ import annotations

import io
import json
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from boardsweep import solvers
from boardsweep.solvers.contract import Problem, Report
from boardsweep.solvers.figures import MAX_HEIGHT, MAX_WIDTH
from boardsweep.solvers.schema import ParamError

from .progress import warn
from .report_page import Section, render, shows_index, table_html
from .tables import file_digest

__all__ = ["report", "REPORT_FOLDER", "figure_title", "table_damage"]

REPORT_FOLDER = "_report"
DPI = 100

Loaders = Mapping[str, Callable[..., pa.Table]]


def _loader(path: Path):
    def load(columns: list[str] | None = None):
        return pq.read_table(path, columns=columns)

    return load


def figure_title(figure: Any) -> str:
    """A figure's title: its suptitle, else the first axes title ('' if it has none)."""
    if figure.get_suptitle():
        return figure.get_suptitle()
    return next((ax.get_title() for ax in figure.axes if ax.get_title()), "")


def _png(job: str, stem: str, figure: Any) -> tuple[str, bytes]:
    """The figure's title and PNG bytes; one that is too large is shrunk to the caps, one
    with no title gets ``job: stem`` (each with a warning: the hook should do better)."""
    width, height = figure.get_size_inches()
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        warn(
            f"{job}: figure {stem} is {width:g} x {height:g} inches: shrunk to at most "
            f"{MAX_WIDTH:g} x {MAX_HEIGHT:g}"
        )
        figure.set_size_inches(min(width, MAX_WIDTH), min(height, MAX_HEIGHT))
    title = figure_title(figure)
    if not title:
        warn(f"{job}: figure {stem} has no title")
        title = f"{job}: {stem}"
        figure.suptitle(title)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return title, buffer.getvalue()


NOT_REPORTED = "its job is not reported"
TRUNCATED = "is truncated or damaged (its Parquet footer cannot be read)"


def _schema(path: Path) -> tuple[pa.Schema | None, str | None]:
    """A Parquet file's schema, read from its footer, or None and what is wrong (a truncated
    file has no footer)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would hang the read
            return None, "is not a regular file (a FIFO, a device or a socket)"
        with pq.ParquetFile(path) as parquet:
            return parquet.schema_arrow, None
    except (OSError, ValueError, pa.ArrowException) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            return None, f"cannot be read ({os.strerror(exc.errno)})"
        return None, TRUNCATED


def table_damage(path: Path, entry: Any) -> str | None:
    """What is wrong with a published table, as the end of its warning line, or None: the
    file must be there, readable, and hold the bytes its manifest entry's sha256 names (a
    manifest entry with no sha256 is checked for a readable footer alone)."""
    expected = entry.get("sha256") if isinstance(entry, dict) else None
    if not path.exists():
        return "is missing (its manifest lists it)"
    if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would hang the read
        return "is not a regular file (a FIFO, a device or a socket)"
    if expected is not None:
        try:
            if file_digest(path) == expected:
                return None
        except OSError as exc:
            return f"cannot be read ({exc.strerror or exc})"
    _, wrong = _schema(path)
    if wrong is not None:
        return wrong
    if expected is not None:
        return "does not match its manifest (sha256 differs: edited or damaged)"
    return None


def _jobs(results: Path, damaged: list[str] | None = None):
    """``(job name, problem, {table: loader})`` for every published job under ``results``,
    then for every loose table file a one-shot command wrote (its footer names its problem).

    A published job with a table that is missing, unreadable, truncated or not the file its
    manifest's sha256 names is left out, and a loose table whose footer cannot be read is
    skipped, each damaged file with a warning line; their paths are added to ``damaged``."""
    damaged = [] if damaged is None else damaged
    inside = set()
    for manifest_path in sorted(results.glob("*/_boardsweep/manifest.json")):
        folder = manifest_path.parent.parent
        inside.add(folder)
        try:
            manifest = json.loads(manifest_path.read_text())
            problem = solvers.get(manifest["problem"])
        except (OSError, ValueError, KeyError, ParamError) as exc:
            warn(f"{manifest_path}: skipped ({exc})")
            continue
        tables = manifest.get("tables", {})
        bad = False
        for name in tables:
            path = folder / f"{name}.parquet"
            wrong = table_damage(path, tables[name])
            if wrong is not None:
                warn(f"{path}: {wrong}; {NOT_REPORTED}")
                damaged.append(str(path))
                bad = True
        if bad:
            continue
        yield folder.name, problem, {name: _loader(folder / f"{name}.parquet") for name in tables}
    for path in sorted(results.rglob("*.parquet")):
        if any(parent in inside for parent in path.parents) or REPORT_FOLDER in path.parts:
            continue
        schema, wrong = _schema(path)
        if schema is None:
            warn(f"{path}: {wrong}; skipped")
            damaged.append(str(path))
            continue
        try:
            meta = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
            problem = solvers.get(meta["boardsweep.problem"])
        except (KeyError, ValueError, ParamError):
            continue
        names = [t.name for t in problem.tables if t.schema().names == schema.names]
        if names:
            name = str(path.relative_to(results).with_suffix("")).replace("/", "-")
            yield name, problem, {names[0]: _loader(path)}


def _built(jobs: list[tuple[str, Problem, Loaders]]) -> Iterator[tuple[str, Problem, Report]]:
    """Each job's report, its hook given the job's tables and the related jobs' tables."""
    by_problem: dict[str, dict[str, Loaders]] = {}
    for job, problem, tables in jobs:
        by_problem.setdefault(problem.name, {})[job] = tables
    for job, problem, tables in jobs:
        if problem.report is None:
            continue
        related = {
            other: loaders for other, loaders in by_problem[problem.name].items() if other != job
        }
        yield job, problem, problem.report(job, tables, related)


def _write(folder: Path, pngs: dict[str, bytes], page: str) -> None:
    """Replace the report folder's PNGs and page with these."""
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.png"):
        if old.name not in pngs:
            old.unlink()
    for name, data in pngs.items():
        (folder / name).write_bytes(data)
    temporary = folder / ".report.html.tmp"
    temporary.write_text(page, encoding="utf-8")
    os.replace(temporary, folder / "report.html")


def report(
    results: Path,
    out: TextIO,
    damaged: list[str] | None = None,
    unreported: list[str] | None = None,
) -> int:
    """Print and draw every job's report under ``results``; return how many were shown.

    Jobs with a damaged table are left out with a warning (see :func:`_jobs`); the damaged
    files' paths are added to ``damaged`` when it is given, and the jobs whose problem has no
    report to ``unreported`` as ``job (problem)``."""
    sections: list[Section] = []
    pngs: dict[str, bytes] = {}
    printed: list[str] = []  # after the files, so a reader that stops early (| head) loses none
    jobs = list(_jobs(results, damaged))
    if unreported is not None:
        unreported += [f"{job} ({problem.name})" for job, problem, _ in jobs if not problem.report]
    for job, problem, built in _built(jobs):
        section = Section(job, problem.name)
        for title, frame in built.tables:
            printed.append(f"== {job}: {title}\n{frame.to_string(index=shows_index(frame))}\n\n")
            section.tables.append((title, table_html(frame)))
        for stem, figure in built.figures:
            name = f"{job}-{stem}.png"
            title, pngs[name] = _png(job, stem, figure)
            section.figures.append((title, name, pngs[name]))
        sections.append(section)
    if sections:
        folder = results / REPORT_FOLDER
        try:
            _write(folder, pngs, render(str(results), time.strftime("%Y-%m-%d %H:%M"), sections))
        except OSError as exc:  # a read-only archive, or _report taken by a file
            warn(
                f"{folder}: cannot write the figures and report.html "
                f"({exc.strerror or exc}); the tables are on stdout"
            )
    for text in printed:
        out.write(text)
    return len(sections)
