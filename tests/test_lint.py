"""The tree is lint-clean and formatted as ruff (its settings in pyproject.toml) would leave it,
so that CI's one test command checks style too."""

from __future__ import annotations

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
