"""Every example of README.md and the manual runs and prints what the page shows.

One test per page (README.md, docs/**/*.md less docs/_build, generated files and pages that
another page includes): its console, python, pycon and yaml blocks run in page order in a
scratch folder of its own that starts with copies of config.yaml and data/. The conventions
are in docs/examples.md; the machinery in tests/docs/mdexamples.py, tested on small pages of
its own in tests/docs/test_examples_collector.py.
"""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.docs import mdexamples

PAGES = mdexamples.pages(ROOT)

pytestmark = pytest.mark.slow  # real commands, pages shared out one by one (tests/conftest.py)


def test_the_readme_and_the_manual_are_found():
    """The glob finds README.md and this page on the conventions (docs/examples.md)."""
    assert "README.md" in PAGES
    assert "docs/examples.md" in PAGES


@pytest.mark.parametrize("page", PAGES, ids=PAGES)
def test_page(page, tmp_path):
    """Run one page's blocks in order; fail with the block's line, command and a diff."""
    folder = tmp_path / "page"
    mdexamples.prepare(ROOT, folder)
    try:
        mdexamples.run_page(ROOT, page, folder)
        failure = None
    except mdexamples.ExampleError as exc:
        failure = str(exc)
    if failure:
        pytest.fail(failure, pytrace=False)
