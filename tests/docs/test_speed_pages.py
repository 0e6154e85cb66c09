"""The manual's speed figures come only from files the benchmarks write (issue 27, part 4).

- A speed page (docs/speed.md, docs/speed/*.md) types no number: outside its ``{include}``
  directives and the code spans of commands and file names it holds no digit.
- A results file under benchmarks/results/ is not stale: the digest it records of the sources it
  timed (the benchmark script and the product modules it measures) is the digest of those
  sources now, recomputed by the function that wrote it (``benchmarks/common.py``,
  ``sources_digest``), unless the file says ``stale: rerun`` in a line the page shows.
- A results file states its conditions: the command, machine, load average at the start,
  versions, commit, date, repeats and their spread.
- Every page's includes exist, every benchmark that writes a results file is included by a
  speed page, and every results file is included by one.

A benchmark not run yet has a placeholder file (``python benchmarks/common.py placeholders``),
so the manual builds before its figures exist.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
INDEX = "README.md"  # benchmarks/results/README.md says what the folder is: not a results file

COMMANDS = ("python", ".venv/bin/python", "boardsweep", "cc", "javac", "git", "pytest")
FILE_NAME = re.compile(r"\A[\w.*/<>-]+\Z")
INCLUDE = re.compile(r"\A\{include\}\s+(\S+)")
FIELDS = (
    "benchmark",
    "machine",
    "load average at start",
    "versions",
    "commit",
    "date",
    "repeats",
    "spread",
)
PACKAGES = ("python", "boardsweep", "numba", "numpy", "pyarrow", "dask")


@cache
def common():
    """benchmarks/common.py, imported by path: the same functions that wrote the files."""
    spec = importlib.util.spec_from_file_location(
        "benchmarks_common", ROOT / "benchmarks/common.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def speed_pages(root: Path = ROOT) -> list[Path]:
    pages = [root / "docs" / "speed.md", *sorted((root / "docs" / "speed").glob("*.md"))]
    return [p for p in pages if p.is_file()]


def results_files() -> list[Path]:
    return sorted(p for p in RESULTS.glob("*.md") if p.name != INDEX)


# ------------------------------------------------------------------------ typed figures


def _allowed_code(text: str) -> bool:
    """A code span that may hold digits: a command, or a file name."""
    text = text.strip()
    first = text.split()[0] if text.split() else ""
    if first in COMMANDS:
        return True
    return bool(FILE_NAME.match(text)) and ("/" in text or "." in text)


def typed_figures(text: str) -> list[str]:
    """The digits a page types: in its text, headings, links, HTML, other code and fences,
    but not in its ``{include}`` directives or in code spans of commands and file names."""
    found: list[str] = []

    def check(where: str, content: str) -> None:
        if re.search(r"\d", content):
            found.append(f"{where}: {content.strip()[:80]!r}")

    for token in MarkdownIt("commonmark").parse(text):
        line = token.map[0] + 1 if token.map else "?"
        if token.type == "fence":
            if INCLUDE.match(token.info.strip()):
                continue
            check(f"line {line} (fence {token.info.strip()})", token.info + "\n" + token.content)
        elif token.type in ("code_block", "html_block"):
            check(f"line {line}", token.content)
        elif token.type == "inline":
            for child in token.children or []:
                if child.type == "code_inline":
                    if not _allowed_code(child.content):
                        check(f"line {line} (code)", child.content)
                elif child.type in ("text", "html_inline"):
                    check(f"line {line}", child.content)
                elif child.type in ("link_open", "image"):
                    href = str(child.attrs.get("href") or child.attrs.get("src") or "")
                    if not _allowed_code(href):
                        check(f"line {line} (link)", href)
    return found


def includes(page: Path) -> list[Path]:
    """The files a page includes (``{include}`` fences), resolved from its folder."""
    out = []
    for token in MarkdownIt("commonmark").parse(page.read_text()):
        if token.type == "fence":
            found = INCLUDE.match(token.info.strip())
            if found:
                out.append((page.parent / found.group(1)).resolve())
    return out


@pytest.mark.parametrize("page", speed_pages(), ids=lambda p: p.name)
def test_speed_page_types_no_figure(page):
    typed = typed_figures(page.read_text())
    assert not typed, (
        f"{page.relative_to(ROOT)} types numbers (figures must come from benchmarks/results/ "
        "through an {include}):\n" + "\n".join(typed)
    )


def test_speed_page_exists():
    assert (ROOT / "docs" / "speed.md").is_file()


def test_typed_figures_finds_what_it_should():
    page = (
        "# Speed\n\nIt runs 2.5x faster.\n\n"
        "Run `python benchmarks/nqueens.py --sizes 16 17` or see `benchmarks/plan_q27.py`.\n\n"
        "```{include} ../benchmarks/results/plan_q27.md\n```\n\n"
        "A span `--repeats 3` alone, [a link](results/x9.md) and <!-- 42 --> here.\n"
    )
    typed = typed_figures(page)
    assert any("2.5x" in t for t in typed)
    assert any("--repeats 3" in t for t in typed)
    assert any("42" in t for t in typed)
    assert not any("nqueens.py" in t or "plan_q27" in t for t in typed)
    assert len(typed) == 3, typed


# ------------------------------------------------------------------------ stale results


@pytest.mark.parametrize("path", results_files(), ids=lambda p: p.name)
def test_results_file_is_not_stale(path):
    reason = common().stale_reason(path)
    assert reason is None, (
        f"{path.relative_to(ROOT)} is stale: {reason}. Rerun its benchmark, or mark it with "
        "`python benchmarks/common.py mark-stale` (a 'stale: rerun' line the page shows)."
    )


def _results_text(entries: list[str], digest: str, extra: str = "") -> str:
    return (
        "<!-- results of x -->\n"
        f"<!-- timed: {' '.join(entries)} digest: {digest} -->\n{extra}\n```text\n```\n"
    )


def test_stale_check_follows_the_sources(tmp_path):
    c = common()
    module = tmp_path / "timed_module.py"
    module.write_text('"""A timed module."""\n\ndef f(x):\n    return x + 1\n')
    entries = [str(module)]
    digest = c.sources_digest(entries)
    result = tmp_path / "r.md"
    result.write_text(_results_text(entries, digest))
    assert c.stale_reason(result) is None
    # comments, docstrings and layout change nothing: what the code does is the same
    module.write_text("# a comment\ndef f(x):  # why\n    '''Doc.'''\n    return (x +\n  1)\n")
    assert c.stale_reason(result) is None
    module.write_text("def f(x):\n    return x + 2\n")
    assert "changed" in c.stale_reason(result)
    result.write_text(_results_text(entries, digest, "\n**stale: rerun**: old code.\n"))
    assert c.stale_reason(result) is None
    # the line must be one the page shows, not a comment
    result.write_text(_results_text(entries, digest, "<!-- stale: rerun -->\n"))
    assert c.stale_reason(result) is not None
    module.unlink()
    result.write_text(_results_text(entries, digest))
    assert "gone" in c.stale_reason(result)
    result.write_text("| a | b |\n")
    assert "no timed sources" in c.stale_reason(result)


def test_a_module_digest_follows_its_imports():
    c = common()
    sources = c.timed_sources(["boardsweep.solvers.nqueens"])
    assert "boardsweep.solvers.nqueens.constellations" in sources
    assert all(path.is_file() for path in sources.values())
    # a named pipeline module counts, with the kernel code it imports; the rest of the
    # pipeline counts only where a benchmark names it
    pipeline = c.timed_sources(["boardsweep.pipeline.jobs"])
    assert "boardsweep.pipeline.jobs" in pipeline
    assert "boardsweep.pipeline.run" not in pipeline
    assert any(name.startswith("boardsweep.solvers.") for name in pipeline)
    both = c.timed_sources(["boardsweep.pipeline.jobs", "boardsweep.pipeline.run"])
    assert {"boardsweep.pipeline.jobs", "boardsweep.pipeline.run"} <= set(both)
    with pytest.raises(FileNotFoundError):
        c.timed_sources(["boardsweep.solvers.no_such_module"])


# ------------------------------------------------------------------------ conditions


def conditions_missing(text: str) -> list[str]:
    """What a results file's conditions block lacks (empty for a placeholder)."""
    c = common()
    if text.startswith(c.NONE_YET):
        return []
    block = re.search(r"```text\n(.*?)```", text, re.S)
    if block is None:
        return ["the ```text block of conditions"]
    lines = {}
    for line in block.group(1).splitlines():
        for key in FIELDS:
            if line.startswith(key) and ":" in line:
                lines.setdefault(key, line.split(":", 1)[1].strip())
    stale = c.STALE in c._shown(text)
    missing = []
    for key in FIELDS:
        value = lines.get(key)
        if not value:
            missing.append(key)
        elif "not recorded" in value and not stale:
            missing.append(f"{key} (not recorded; allowed only in a file marked stale: rerun)")
    versions = lines.get("versions", "")
    if "not recorded" not in versions:
        missing += [f"versions: {name}" for name in PACKAGES if name not in versions]
    commit = lines.get("commit", "")
    if (
        commit
        and "not recorded" not in commit
        and not re.search(r"\((tree clean|tree dirty)", commit)
    ):
        missing.append("commit: whether the tree was dirty")
    return missing


@pytest.mark.parametrize("path", results_files(), ids=lambda p: p.name)
def test_results_file_states_its_conditions(path):
    missing = conditions_missing(path.read_text())
    assert not missing, f"{path.relative_to(ROOT)} lacks: {', '.join(missing)}"


def test_conditions_check_finds_a_missing_field():
    text = (
        "<!-- timed: a digest: 00 -->\n\n```text\nbenchmark: python x\nmachine: m\n"
        "load average at start (1, 5, 15 min): 0.1\nversions: python 3, boardsweep 0\n"
        "commit: abc (tree clean)\ndate: today\nrepeats: 3\n```\n"
    )
    missing = conditions_missing(text)
    assert "spread" in missing
    assert "versions: numba" in missing and "versions: numpy" in missing


# ------------------------------------------------------------------------ includes


def test_includes_exist_and_cover_every_benchmark():
    """Every results file is on a page of the manual: the speed pages, or a problem's page
    for a result that is a table rather than a time (the 9x9 distribution)."""
    c = common()
    included = {path for page in sorted((ROOT / "docs").rglob("*.md")) for path in includes(page)}
    missing = sorted(str(p) for p in included if not p.is_file())
    assert not missing, f"pages include files that do not exist: {missing}"
    for script in c.writers():
        default = (RESULTS / f"{script.stem}.md").resolve()
        assert default in included, (
            f"no manual page includes {default.relative_to(ROOT)}, which {script.name} writes"
        )
    for path in results_files():
        assert path.resolve() in included, f"{path.relative_to(ROOT)} is included by no page"


def test_every_writer_names_a_results_file_and_its_sources():
    """Every benchmark script in benchmarks/ that prints a table writes a results file."""
    c = common()
    writers = {p.name for p in c.writers()}
    tables = {
        p.name
        for p in (ROOT / "benchmarks").glob("*.py")
        if p.name != "common.py" and "markdown(" in p.read_text()
    }
    assert tables <= writers, f"print tables but write no results file: {tables - writers}"
