"""A problem's version follows what its code does, not how it is laid out: comments, docstrings
and a formatter's pass change no version; any change of behaviour does."""

from __future__ import annotations

import textwrap

from boardsweep.solvers import identity

SOURCE = '''
"""A module."""

def f(x):
    """Twice x."""
    return 2 * x  # doubled
'''

SAME = [
    SOURCE.replace("# doubled", "# twice"),
    SOURCE.replace('"""Twice x."""', '"""Two times x, documented at length."""'),
    SOURCE.replace("return 2 * x", "return (\n        2 * x\n    )"),
    SOURCE.replace('"""A module."""\n', ""),
]
OTHER = [
    SOURCE.replace("2 * x", "3 * x"),
    SOURCE.replace("2 * x", "x * 2"),
    SOURCE.replace("def f(x):", "def f(x, y=0):"),
]


def _digests(tmp_path, texts: list[str]) -> list[str]:
    """The code digest that versions are made of (module name plus this), of each text."""
    out = []
    for i, text in enumerate(texts):
        path = tmp_path / f"m{i}.py"
        path.write_text(textwrap.dedent(text))
        out.append(identity._facts(path)["code"])
    return out


def test_layout_comments_and_docstrings_keep_the_version(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSWEEP_CACHE", str(tmp_path / "cache"))
    assert len(set(_digests(tmp_path, [SOURCE, *SAME]))) == 1


def test_any_change_of_behaviour_changes_the_version(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSWEEP_CACHE", str(tmp_path / "cache"))
    digests = _digests(tmp_path, [SOURCE, *OTHER])
    assert len(set(digests)) == len(digests), digests
