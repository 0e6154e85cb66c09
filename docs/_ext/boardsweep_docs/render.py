"""Docutils nodes for generated reference material: inline code, paragraphs, tables."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from docutils import nodes

# ``code``, `code`, and a Sphinx role around either (:class:`~a.B`): shown as literal text
_CODE = re.compile(r"(?::[a-z]+(?::[a-z]+)?:)?(?:``(.+?)``|`([^`]+)`)")

Cell = str | nodes.Node | Sequence[nodes.Node]


def inline(text: str) -> list[nodes.Node]:
    """``text`` as Text nodes, its backquoted parts as literals (roles dropped, ``~`` too)."""
    out: list[nodes.Node] = []
    pos = 0
    for match in _CODE.finditer(text):
        if match.start() > pos:
            out.append(nodes.Text(text[pos : match.start()]))
        code = (match.group(1) or match.group(2)).lstrip("~")
        out.append(nodes.literal(code, code))
        pos = match.end()
    if pos < len(text):
        out.append(nodes.Text(text[pos:]))
    return out


def literal(text: str) -> nodes.literal:
    """``text`` as inline code."""
    return nodes.literal(text, text)


def paragraph(text: str | Iterable[nodes.Node]) -> nodes.paragraph:
    """One paragraph of ``text`` (inline code marked as in :func:`inline`) or of nodes."""
    children = inline(text) if isinstance(text, str) else list(text)
    return nodes.paragraph("", "", *children)


def paragraphs(text: str) -> list[nodes.paragraph]:
    """A docstring-like text as paragraphs: blank lines part them; click's ``\\b`` is dropped."""
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip() != "\b"]
        if lines:
            out.append(paragraph(" ".join(lines)))
    return out


def _cell(content: Cell) -> nodes.entry:
    entry = nodes.entry()
    if isinstance(content, str):
        if content:
            entry += paragraph(content)
    elif isinstance(content, nodes.Node):
        entry += (
            content if not isinstance(content, nodes.Inline | nodes.Text) else paragraph([content])
        )
    else:
        entry += paragraph(content)
    return entry


def row(cells: Sequence[Cell]) -> nodes.row:
    """A table row of ``cells``: text, a node, or a list of inline nodes each."""
    out = nodes.row()
    for content in cells:
        out += _cell(content)
    return out


def table(headers: Sequence[str], rows: Iterable[nodes.row], widths: Sequence[int]) -> nodes.table:
    """A table with a header row of ``headers`` and the body ``rows`` (:func:`row`)."""
    out = nodes.table(classes=["boardsweep-reference"])
    group = nodes.tgroup(cols=len(headers))
    out += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    head += row(headers)
    group += head
    body = nodes.tbody()
    body.extend(rows)
    group += body
    return out


_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def number(value: float) -> str:
    """A bound as a reader reads it: ``10¹²`` and ``2⁶³ − 1`` for such large integers, others
    with thousands separators, floats as written."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not isinstance(value, int):
        return repr(value)
    if value >= 10**6:
        power = len(str(value)) - 1
        if value == 10**power:
            return "10" + str(power).translate(_SUPERSCRIPT)
        bits = value.bit_length()
        if value == 2**bits - 1:
            return "2" + str(bits).translate(_SUPERSCRIPT) + " − 1"
        if value == 2 ** (bits - 1):
            return "2" + str(bits - 1).translate(_SUPERSCRIPT)
    return f"{value:,}"


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
