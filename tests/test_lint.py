"""The tree is lint-clean and formatted as ruff (its settings in pyproject.toml) would leave it,
so that CI's one test command checks style too."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

from tests.conftest import ROOT

RUFF = [sys.executable, "-m", "ruff"]


def test_ruff_check_finds_nothing():
    done = subprocess.run([*RUFF, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_would_change_nothing():
    done = subprocess.run(
        [*RUFF, "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


LONG_LINES = 500  # a product module over this says in its docstring why it is long
WHY_LONG = re.compile(r"\blong(er)?\b[^.]*\bbecause\b", re.DOTALL)


def test_every_long_product_module_says_why_it_is_long():
    """Issue 28's rule: no product module over 500 lines without a sentence saying why."""
    silent = []
    for path in sorted([*(ROOT / "pipeline").rglob("*.py"), *(ROOT / "solvers").rglob("*.py")]):
        source = path.read_text(encoding="utf-8")
        if source.count("\n") <= LONG_LINES:
            continue
        doc = ast.get_docstring(ast.parse(source)) or ""
        if not WHY_LONG.search(doc):
            silent.append(f"{path.relative_to(ROOT)} ({source.count(chr(10))} lines)")
    assert not silent, f"long modules whose docstring does not say why: {silent}"
