"""Sphinx configuration of boardsweep's manual (see building.md: how it is built, and why).

Build it with warnings as errors and every internal reference checked::

    sphinx-build -W --keep-going -n -b html docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

import boardsweep  # the package the manual documents, installed in the venv

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "boardsweep"
author = "the boardsweep authors"
copyright = "the boardsweep authors"
release = version = boardsweep.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "boardsweep_docs",  # docs/_ext: the reference pages generated from the code
]

source_suffix = {".md": "markdown"}
root_doc = "index"
# Not pages: build output, the extension, and Markdown files that pages include (a figure's
# table, docs/figures/*.md).  Files outside docs/ (benchmarks/results/*.md, which the speed
# page includes with {include}) are never read as pages.
exclude_patterns = ["_build", "_ext", "figures", "Thumbs.db", ".DS_Store"]

# Every reference must resolve: a missing page, heading anchor, label or Python object is a
# warning, and the build runs with -W.
nitpicky = True
# Types from other packages and the standard library, which the manual does not document
# (no intersphinx: the build needs no network).
_OUTSIDE = (
    r"pandas|pyarrow|numpy|dask|distributed|matplotlib|pathlib|collections\.abc|typing|signal"
)
nitpick_ignore_regex = [(r"py:class", rf"({_OUTSIDE})\..+")]

myst_heading_anchors = 4  # [text](page.md#a-heading) links are resolved, and checked
myst_enable_extensions = ["colon_fence", "deflist"]

# Text as written: no curly quotes, and `--option` in prose stays two hyphens, not a dash.
smartquotes = False

autodoc_typehints = "signature"
autodoc_member_order = "bysource"

html_theme = "pydata_sphinx_theme"
html_title = f"boardsweep {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False
