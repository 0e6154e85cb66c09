"""The manual builds with warnings as errors, and its generated reference pages hold what the
code declares: every key of every schema, every column of every table, every command and
option, every exit code and every public API name.

The build command is read from the manual's page on building it ("building.md"), the block
after its ``run elsewhere`` comment, and run as written but for its output folder (a temporary
one). The expected keys, columns, options and codes are read here from the code, not from a
list: each generated row carries an anchor from a fixed scheme (docs/_ext/boardsweep_docs/
directives.py), which is how a row is found in the HTML.
"""

from __future__ import annotations

import html
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from docutils.nodes import make_id

from tests.conftest import ROOT

PAGE = ROOT / "docs" / "building.md"
MARKER = "<!-- run elsewhere: tests/docs/test_manual.py -->"


def build_command() -> list[str]:
    """The ``sphinx-build`` line of the block after :data:`MARKER` in docs/building.md."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(re.escape(MARKER) + r"\s*```bash\n(.*?)```", text, re.S)
    assert found, f"{PAGE}: no bash block after {MARKER}"
    lines = [line for line in found.group(1).splitlines() if line.startswith("sphinx-build ")]
    assert len(lines) == 1, f"{PAGE}: expected one sphinx-build line, found {lines}"
    return shlex.split(lines[0])


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The manual built into a temporary folder by the page's own command; the test fails
    with the build's warnings if there are any."""
    args = build_command()
    assert args[-2:] == ["docs", "docs/_build/html"], args
    out = tmp_path_factory.mktemp("manual") / "html"
    command = [sys.executable, "-m", "sphinx", *args[1:-1], str(out)]
    env = {k: v for k, v in os.environ.items() if k != "BOARDSWEEP_PROBLEMS"}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    if done.returncode:
        warnings = [
            line for line in done.stderr.splitlines() if "WARNING" in line or "ERROR" in line
        ]
        shown = "\n".join(warnings) or done.stderr[-4000:]
        pytest.fail(f"{shlex.join(command)} exited {done.returncode}:\n{shown}", pytrace=False)
    return out


def rows(built: Path, page: str) -> dict[str, str]:
    """The generated table rows of ``reference/<page>.html`` by anchor: their text."""
    text = (built / "reference" / f"{page}.html").read_text(encoding="utf-8")
    out = {}
    for ident, body in re.findall(r'<tr[^>]*\bid="([^"]+)"[^>]*>(.*?)</tr>', text, re.S):
        out[ident] = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
    return out


def _bare(text: str) -> str:
    """``text`` without whitespace or backquotes: what is compared (the page shows
    backquoted text as code, and wraps and spaces it as HTML does)."""
    return re.sub(r"[\s`]", "", text)


def assert_rows(found: dict[str, str], expected: dict[str, list[str]], page: str) -> None:
    """Every anchor of ``expected`` is a row of ``found`` whose text holds each of its words."""
    missing = sorted(set(expected) - set(found))
    assert not missing, f"reference/{page}.md lacks rows for {missing}"
    for ident, words in expected.items():
        for word in words:
            assert _bare(word) in _bare(found[ident]), (page, ident, word, found[ident])


def problems():
    """Every registered problem, in name order."""
    from boardsweep import solvers

    return [solvers.get(name) for name in solvers.names()]


def key_paths(record, path=()):
    """``(key path, doc)`` of every key of a schema record, nested records and ``OneOf``
    forms included (a form has no doc of its own)."""
    from boardsweep.solvers.schema import OneOf, Record

    for name, field in record.fields.items():
        yield (*path, name), field.doc
        inner = field.validator
        if isinstance(inner, Record):
            yield from key_paths(inner, (*path, name))
        for form, validator in (inner.options if isinstance(inner, OneOf) else {}).items():
            yield (*path, name, form), ""
            if isinstance(validator, Record):
                yield from key_paths(validator, (*path, name, form))


def error_classes() -> list[type]:
    """``BoardsweepError`` and its subclasses, once every module of boardsweep.pipeline is
    imported (but ``__main__`` and ``local_worker``, which act on import)."""
    import importlib
    import pkgutil

    import boardsweep.pipeline
    from boardsweep.pipeline.errors import BoardsweepError

    for module in pkgutil.iter_modules(boardsweep.pipeline.__path__):
        if module.name not in ("__main__", "local_worker"):
            importlib.import_module(f"boardsweep.pipeline.{module.name}")
    found, todo = [], [BoardsweepError]
    while todo:
        found.append(todo.pop())
        todo.extend(found[-1].__subclasses__())
    return found


def test_the_manual_builds_without_a_warning(built):
    """The page's build command passes (-W: a warning fails it) and writes every page."""
    assert (built / "index.html").is_file()
    for page in ("configuration", "tables", "cli", "exit-codes", "api"):
        assert (built / "reference" / f"{page}.html").is_file(), page


def test_every_config_key_is_in_the_manual(built):
    """Every key of every problem's params, every cluster kind, the top level and the keys
    every job takes has its row, which shows its key path and its field's doc."""
    from boardsweep.pipeline.spec import CLUSTER_KINDS, JOB_KEYS, TOP

    expected: dict[str, list[str]] = {}
    for problem in problems():
        for path, doc in key_paths(problem.params):
            ident = make_id(f"config-{problem.name}-{'-'.join(path)}")
            expected[ident] = [".".join(path)] + ([doc] if doc else [])
    for kind, record in CLUSTER_KINDS.items():
        for path, doc in key_paths(record):
            ident = make_id(f"config-cluster-{kind}-{'-'.join(path)}")
            expected[ident] = [".".join(path)] + ([doc] if doc else [])
    expected["config-cluster-kind"] = ["kind", *CLUSTER_KINDS]
    for name in TOP.fields:
        expected[make_id(f"config-top-{name}")] = [name]
    for name in JOB_KEYS:
        expected[make_id(f"config-job-{name}")] = [name]
    assert_rows(rows(built, "configuration"), expected, "configuration")


def test_every_column_is_in_the_manual(built):
    """Every column of every table of every problem, and of runs.parquet, has its row with
    its Arrow type and its doc."""
    from boardsweep.pipeline.publish import RUNS_SCHEMA

    expected: dict[str, list[str]] = {}
    for problem in problems():
        for table in problem.tables:
            for column in table.all_columns:
                ident = make_id(f"tables-{problem.name}-{table.name}-{column.name}")
                expected[ident] = [column.name, str(column.type), column.doc]
    for field in RUNS_SCHEMA:
        expected[make_id(f"tables-pipeline-runs-{field.name}")] = [field.name, str(field.type)]
    assert_rows(rows(built, "tables"), expected, "tables")


def commands():
    """Every command of the ``boardsweep`` group with its click context, subcommands too."""
    from boardsweep.pipeline.cli import cli

    todo = [(cli, click.Context(cli, info_name="boardsweep"))]
    while todo:
        command, ctx = todo.pop()
        yield command, ctx
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                todo.append((sub, click.Context(sub, info_name=name, parent=ctx)))


def test_every_command_and_option_is_in_the_manual(built):
    """Every command has its section; each of its options and arguments has its row, which
    shows every spelling of the option and its help."""
    text = (built / "reference" / "cli.html").read_text(encoding="utf-8")
    expected: dict[str, list[str]] = {}
    seen = 0
    for command, ctx in commands():
        seen += 1
        words = ctx.command_path.split()
        prefix = "cli-" + ("-".join(words[1:]) or words[0])
        assert f'id="{make_id(prefix)}"' in text, f"reference/cli.md lacks {ctx.command_path}"
        for param in command.get_params(ctx):
            if isinstance(param, click.Argument):
                expected[make_id(f"{prefix}-{param.name}")] = [param.make_metavar(ctx)]
            elif isinstance(param, click.Option) and not param.hidden:
                longest = max(param.opts + param.secondary_opts, key=len).lstrip("-")
                spelled = [*param.opts, *param.secondary_opts]
                expected[make_id(f"{prefix}-{longest}")] = spelled + [param.help or ""]
    assert seen > 10  # the root, its commands, and a solve/generate command per problem
    assert_rows(rows(built, "cli"), expected, "cli")


def test_every_exit_code_is_in_the_manual(built):
    """Every exit status of EXIT_CODES has its row with its meaning, and the table is the
    one the code exits with: each error class's status is in it, and so is 128 + each
    signal that stops a command."""
    from boardsweep.pipeline import stopping
    from boardsweep.pipeline.errors import EXIT_CODES, STOP_SIGNALS, BoardsweepError

    classes = error_classes()  # every module of boardsweep.pipeline imported first
    assert BoardsweepError in classes and len(classes) > 3
    for cls in classes:
        assert cls.exit_code in EXIT_CODES, cls
    assert set(STOP_SIGNALS) == set(stopping.SIGNALS)
    for signum in stopping.SIGNALS:
        assert 128 + signum in EXIT_CODES, signal.Signals(signum).name
    expected = {f"exit-{code}": [str(code), s.words, s.meaning] for code, s in EXIT_CODES.items()}
    assert_rows(rows(built, "exit-codes"), expected, "exit-codes")


def test_every_public_name_is_in_the_api_page(built):
    """Every name of ``boardsweep.__all__`` (and of the errors module's) is documented."""
    import boardsweep
    from boardsweep.pipeline import errors

    text = (built / "reference" / "api.html").read_text(encoding="utf-8")
    for module in (boardsweep, errors):
        for name in module.__all__:
            if not name.startswith("__"):
                assert f'id="{module.__name__}.{name}"' in text, f"{module.__name__}.{name}"
