"""``boardsweep report``: each job's report hook, printed and drawn.

For every published job under a results folder, the job's problem (named in its manifest)
builds titled tables and figures from the published tables (:class:`solvers.contract.Report`).
Tables go to stdout; figures are saved as PNG files and, with the tables, embedded in one
self-contained ``report.html`` (no network needed), all under ``<results>/_report/``, where
Parquet readers do not look.
"""

from __future__ import annotations

import base64
import html
import io
import json
import time
from pathlib import Path
from typing import TextIO

import pyarrow.parquet as pq

import solvers
from solvers.schema import ParamError

from .progress import warn

__all__ = ["report", "REPORT_FOLDER"]

REPORT_FOLDER = "_report"


def _loader(path: Path):
    def load(columns: list[str] | None = None):
        return pq.read_table(path, columns=columns)

    return load


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def _jobs(results: Path):
    """``(job name, problem, {table: loader})`` for every published job under ``results``,
    then for every loose table file a one-shot command wrote (its footer names its problem)."""
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
        yield folder.name, problem, {name: _loader(folder / f"{name}.parquet")
                                     for name in manifest.get("tables", {})}
    for path in sorted(results.rglob("*.parquet")):
        if any(parent in inside for parent in path.parents) or REPORT_FOLDER in path.parts:
            continue
        try:
            schema = pq.read_schema(path)
            meta = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
            problem = solvers.get(meta["boardsweep.problem"])
        except (OSError, KeyError, ValueError, ParamError):
            continue
        names = [t.name for t in problem.tables if t.schema().names == schema.names]
        if names:
            name = str(path.relative_to(results).with_suffix("")).replace("/", "-")
            yield name, problem, {names[0]: _loader(path)}


def report(results: Path, out: TextIO) -> int:
    """Print and draw every job's report under ``results``; return how many were shown."""
    folder = results / REPORT_FOLDER
    sections: list[str] = []
    shown = 0
    for job, problem, tables in _jobs(results):
        if problem.report is None:
            continue
        built = problem.report(job, tables)
        parts = [f"<h2>{html.escape(job)} ({html.escape(problem.name)})</h2>"]
        for title, frame in built.tables:
            out.write(f"== {job}: {title}\n{frame.to_string(index=False)}\n\n")
            parts.append(f"<h3>{html.escape(title)}</h3>" + frame.to_html(index=False))
        folder.mkdir(exist_ok=True)
        for stem, figure in built.figures:
            data = _png(figure)
            (folder / f"{job}-{stem}.png").write_bytes(data)
            parts.append(f'<figure><img alt="{html.escape(stem)}" src="data:image/png;base64,'
                         f'{base64.b64encode(data).decode()}"><figcaption>{html.escape(stem)}'
                         "</figcaption></figure>")
        sections.append("\n".join(parts))
        shown += 1
    if shown:
        folder.mkdir(exist_ok=True)
        page = ("<!doctype html><html><head><meta charset='utf-8'><title>boardsweep report"
                "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:"
                "collapse}td,th{border:1px solid #ccc;padding:2px 6px}img{max-width:100%}"
                "</style></head><body><h1>boardsweep report</h1>"
                f"<p>{html.escape(str(results))}, {time.strftime('%Y-%m-%d %H:%M')}</p>"
                + "\n".join(sections) + "</body></html>\n")
        (folder / "report.html").write_text(page)
    return shown
