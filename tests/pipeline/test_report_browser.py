"""``report.html`` in a real headless browser: a real ``boardsweep run`` of small jobs of every
problem, ``boardsweep report``, then chromium (driven by playwright through its executable
path: playwright's own browser download needs a network) loads the page and every figure.

Without chromium or playwright the test skips, unless ``BOARDSWEEP_REQUIRE_BROWSER=1`` (CI
sets it, and ``.ci/run`` installs Debian's chromium), where it fails instead.
``BOARDSWEEP_CHROMIUM`` names another browser executable.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import duckdb
import pyarrow.dataset as ds
import pytest

from boardsweep.pipeline.report_page import png_size
from tests.conftest import boardsweep

REQUIRED = os.environ.get("BOARDSWEEP_REQUIRE_BROWSER") == "1"


def _missing(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why}, and BOARDSWEEP_REQUIRE_BROWSER=1")
    pytest.skip(why)


def chromium_path() -> str | None:
    """The system's chromium (or ``$BOARDSWEEP_CHROMIUM``), None if there is none."""
    for name in (
        os.environ.get("BOARDSWEEP_CHROMIUM"),
        "chromium",
        "chromium-browser",
        "google-chrome",
    ):
        found = name and shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser():
    """A headless chromium through playwright (skipped or failed when missing, see above)."""
    executable = chromium_path()
    if executable is None:
        _missing("no chromium on PATH (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, headless=True)
        yield launched
        launched.close()


CONFIG = """\
output: results
cluster: {kind: local, workers: 1}
jobs:
  - {name: queens, problem: nqueens, n: "1..9"}
  - {name: mixed, problem: queens_rooks, total: "1..6"}
  - name: walled
    problem: max_rooks
    counts: true
    boards: {generate: {n: [3, 4], density: [0.2, 0.5], count: 30, seed: 7}}
  - {name: all3, problem: max_rooks, boards: {all: {rows: 3}}}
  - name: summed
    problem: max_rooks
    keep: summary
    counts: true
    boards: {generate: {n: 3, density: [0.2, 0.5], count: 40, seed: 7}}
  - {name: slants, problem: slant, puzzles: {generate: {n: [3, 4], count: 6, seed: 3}}}
"""


def test_every_figure_of_a_real_report_loads_in_a_browser(tmp_path, browser):
    config = tmp_path / "config.yaml"
    config.write_text(CONFIG)
    done = boardsweep("run", str(config))
    assert done.returncode == 0, done.stderr
    results = tmp_path / "results"
    shown = boardsweep("report", str(results))
    assert shown.returncode == 0, shown.stderr
    folder = results / "_report"
    pngs = {p.name: png_size(p.read_bytes()) for p in folder.glob("*.png")}
    assert sorted(pngs) == [
        "all3-exact.png",
        "mixed-triangle.png",
        "queens-queens.png",
        "slants-slant_nodes.png",
        "slants-slant_status.png",
        "slants-slant_times.png",
        "summed-expected_max.png",
        "summed-placements.png",
        "walled-expected_max.png",
        "walled-placements.png",
    ]

    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(Path(folder / "report.html").as_uri(), wait_until="load")
    images = page.evaluate("""() => Array.from(document.images, i => ({
        alt: i.alt, complete: i.complete, width: i.naturalWidth, height: i.naturalHeight,
        caption: i.closest('figure').querySelector('figcaption').textContent}))""")
    assert len(images) == len(pngs)
    for image in images:
        assert image["complete"] and image["width"] > 0, image["caption"]
        name = image["caption"].rsplit("(", 1)[1].rstrip(")")
        assert (image["width"], image["height"]) == pngs[name]
        assert image["alt"] and not image["alt"].endswith(name)  # the figure's own title
    assert page.locator("table").count() >= 4  # a table per job at least
    assert all(url.startswith(("file:", "data:")) for url in requests), requests
    page.close()

    # the report sits where Parquet readers do not look
    files = [Path(f).relative_to(results) for f in ds.dataset(results, format="parquet").files]
    assert files and all(f.suffix == ".parquet" and not f.parts[0].startswith("_") for f in files)
    rows = duckdb.sql(
        f"SELECT count(*) FROM read_parquet('{results}/*/*.parquet', union_by_name=true)"
    ).fetchall()[0][0]
    assert rows > 0
