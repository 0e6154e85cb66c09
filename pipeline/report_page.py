"""The self-contained ``report.html`` of a results folder: every job's tables and figures.

Figures are embedded as base64 PNG data URLs and the style sheet is inline: the page has no
script and names nothing on a network, so it opens offline, mailed or archived, exactly as it
was written.
"""

from __future__ import annotations

import base64
import html
import re
import struct
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Section", "render", "png_size", "table_html", "shows_index"]

_STYLE = (
    "body{font-family:sans-serif;margin:2em;max-width:1700px}"
    "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;"
    "padding:2px 6px;text-align:right}div.table{overflow-x:auto;max-height:40em;"
    "overflow-y:auto;margin-bottom:1em}figure{margin:1em 0}img{max-width:100%;height:auto}"
    "figcaption{color:#444;font-size:90%}nav li{margin:2px 0}"
)


@dataclass
class Section:
    """One job's part of the page: its heading, tables (title, HTML) and figures
    (title, file name, PNG bytes)."""

    job: str
    problem: str
    tables: list[tuple[str, str]] = field(default_factory=list)
    figures: list[tuple[str, str, bytes]] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        """The section's id in the page."""
        return "job-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.job)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height in pixels of a PNG, from its header."""
    return struct.unpack(">II", data[16:24])


def shows_index(frame: Any) -> bool:
    """Whether a pandas frame's index means something (named, or not the default 0, 1, ...)
    and so is printed with it."""
    import pandas as pd

    return not (isinstance(frame.index, pd.RangeIndex) and frame.index.name is None)


def table_html(frame: Any) -> str:
    """A pandas frame as an HTML table (with its index when :func:`shows_index`)."""
    return frame.to_html(index=shows_index(frame), border=0, na_rep="")


def _section(section: Section) -> str:
    esc = html.escape
    parts = [
        f'<section id="{section.anchor}"><h2>{esc(section.job)} '
        f"<small>({esc(section.problem)})</small></h2>"
    ]
    for title, table in section.tables:
        parts.append(f'<h3>{esc(title)}</h3><div class="table">{table}</div>')
    for title, name, data in section.figures:
        width, height = png_size(data)
        parts.append(
            f'<figure><img alt="{esc(title)}" width="{width}" height="{height}" '
            f'src="data:image/png;base64,{base64.b64encode(data).decode()}">'
            f"<figcaption>{esc(title)} ({esc(name)})</figcaption></figure>"
        )
    parts.append("</section>")
    return "\n".join(parts)


def _many(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def render(folder: str, stamp: str, sections: list[Section]) -> str:
    """The whole page: a heading, a contents list of the jobs and one section per job."""
    esc = html.escape
    contents = "".join(
        f'<li><a href="#{s.anchor}">{esc(s.job)}</a> ({esc(s.problem)}): '
        f"{_many(len(s.tables), 'table')}, {_many(len(s.figures), 'figure')}"
        "</li>"
        for s in sections
    )
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<title>boardsweep report</title>"
        f"<style>{_STYLE}</style></head><body><h1>boardsweep report</h1>"
        f"<p>{esc(folder)}, {esc(stamp)}</p><nav><ul>{contents}</ul></nav>\n"
        + "\n".join(_section(s) for s in sections)
        + "\n</body></html>\n"
    )
