"""The directives: each renders what the code declares (see the package docstring).

Anchors: every generated section and table row has an id made by :func:`docutils.nodes.make_id`
from a fixed scheme, registered as a label (unless ``:no-index:``) so that a Markdown link
``[text](reference/configuration.md#config-nqueens-n)`` is checked by the build:

- ``config-<problem>``, ``config-<problem>-<key path>`` (``config-max-rooks-boards-generate-n``),
  ``config-cluster-kind``, ``config-cluster-<kind>``, ``config-cluster-<kind>-<key>``,
  ``config-top-<key>``, ``config-job-<key>``;
- ``tables-<problem>``, ``tables-<problem>-<table>``, ``tables-<problem>-<table>-<column>``,
  ``tables-pipeline-runs``, ``tables-pipeline-runs-<column>``;
- ``cli-boardsweep``, ``cli-<command path>`` (``cli-solve-nqueens``), ``cli-<command path>-<option
  or argument>`` (``cli-run-job``, ``cli-boardsweep-verbose``);
- ``exit-<code>``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import click
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from .render import inline, literal, number, paragraph, paragraphs, row, sentence, table

logger = logging.getLogger(__name__)

# modules of boardsweep.pipeline never imported to find error classes: they act on import
_ACTING_MODULES = ("__main__", "local_worker")


def code_files() -> list[Path]:
    """Every Python source of boardsweep (the package and its subpackages, which are folders
    of their own in the repository)."""
    import boardsweep
    import boardsweep.pipeline
    import boardsweep.solvers

    folders = [*boardsweep.__path__, *boardsweep.pipeline.__path__, *boardsweep.solvers.__path__]
    return sorted({path for folder in folders for path in Path(folder).rglob("*.py")})


class _Directive(SphinxDirective):
    """Shared by the directives: anchors, sections, and the problems to render."""

    option_spec = {"no-index": directives.flag}

    def run(self) -> list[nodes.Node]:
        """The generated nodes; the page is read again whenever boardsweep's code changes."""
        for path in code_files():
            self.env.note_dependency(str(path))
        return self.generate()

    def generate(self) -> list[nodes.Node]:
        """The nodes of this directive (each directive's own)."""
        raise NotImplementedError

    def anchor(self, node: nodes.Element, ident: str) -> nodes.Element:
        """Give ``node`` the id made from ``ident``, registered as a label unless no-index."""
        ident = nodes.make_id(ident)
        node["ids"].append(ident)
        if "no-index" not in self.options:
            other = self.env.get_domain("std").anonlabels.get(ident, (self.env.docname,))[0]
            if other != self.env.docname:
                logger.warning(
                    f"{self.name}: the anchor {ident} is also defined in {other}: add "
                    ":no-index: to the directive on one of the two pages",
                    location=self.get_location(),
                )
            node["names"].append(ident)
            self.state.document.note_explicit_target(node, node)
        return node

    def section(self, title: str | list[nodes.Node], ident: str) -> nodes.section:
        """A section titled ``title`` (text, its backquoted parts code) with the id ``ident``."""
        children = inline(title) if isinstance(title, str) else title
        out = nodes.section()
        out += nodes.title("", "", *children)
        return self.anchor(out, ident)

    def problems(self, name: str | None):
        """The problem called ``name``, or every registered problem (None), in name order."""
        from boardsweep import solvers
        from boardsweep.solvers.schema import ParamError

        try:
            if name is None:
                return [solvers.get(n) for n in solvers.names()]
            return [solvers.get(name)]
        except ParamError as exc:
            raise self.error(f"{self.name}: {exc}") from None


# ----------------------------------------------------------------------------- config-keys


def _shape(validator) -> tuple[str, str]:
    """A validator's type in words (its own ``describe()`` without bounds) and its range."""
    lo, hi = getattr(validator, "lo", None), getattr(validator, "hi", None)
    if lo is None and hi is None:
        return validator.describe(), ""
    words = dataclasses.replace(validator, lo=None, hi=None).describe()
    if lo is not None and hi is not None:
        return words, f"{number(lo)} to {number(hi)}"
    return words, f"≥ {number(lo)}" if lo is not None else f"≤ {number(hi)}"


def _default(field) -> str:
    """A field's default as YAML writes it, ``required``, or '' (none: optional)."""
    if field.required:
        return "required"
    value = field.default
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        value = list(value)
    return str(value)


def _capabilities(problem) -> str:
    """The optional capabilities a problem has, in words (``solvers.contract.CAPABILITIES``)."""
    from boardsweep.solvers.contract import CAPABILITIES

    return ", ".join(words for name, words in CAPABILITIES.items() if problem.has(name))


def _keys(record, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object, str]]:
    """Every key of ``record`` and of the records and forms nested in it, depth first:
    ``(key path, field, note)``; a form of a ``OneOf`` comes as a field of its own."""
    from boardsweep.solvers.schema import Field, OneOf, Record

    for name, field in record.fields.items():
        key = (*path, name)
        yield key, field, ""
        validator = field.validator
        if isinstance(validator, Record):
            yield from _keys(validator, key)
        elif isinstance(validator, OneOf):
            for option, inner in validator.options.items():
                yield (*key, option), Field(inner), f"one form of `{name}`"
                if isinstance(inner, Record):
                    yield from _keys(inner, (*key, option))


class ConfigKeys(_Directive):
    """``config-keys [PROBLEM | cluster | top | job]``: keys with type, range, default, meaning.

    No argument: a section per registered problem with its job keys; ``PROBLEM``: that
    problem's keys (no section); ``cluster``: the ``kind`` key and a section per cluster kind;
    ``top``: the config file's top-level keys; ``job``: the keys every job takes.
    """

    optional_arguments = 1

    def generate(self) -> list[nodes.Node]:
        """The nodes for the argument given."""
        arg = self.arguments[0] if self.arguments else None
        if arg == "cluster":
            return self.cluster()
        if arg == "top":
            from boardsweep.pipeline.spec import TOP

            return [self.key_table(_keys(TOP), "config-top")]
        if arg == "job":
            return [self.key_table(self.job_keys(), "config-job")]
        problems = self.problems(arg)
        if arg is not None:
            return [self.key_table(_keys(problems[0].params), f"config-{arg}")]
        out = []
        for problem in problems:
            section = self.section(problem.name, f"config-{problem.name}")
            section += paragraph(
                sentence(f"{problem.doc} (capabilities: {_capabilities(problem)})")
            )
            section += self.key_table(_keys(problem.params), f"config-{problem.name}")
            out.append(section)
        return out

    def key_table(self, keys, prefix: str) -> nodes.table:
        """The table of ``keys`` (from :func:`_keys`), each row anchored ``prefix-<key path>``."""
        rows = []
        for path, field, note in keys:
            words, bounds = _shape(field.validator)
            default = _default(field)
            cells = [
                literal(".".join(path)),
                words,
                bounds,
                literal(default) if default and default != "required" else default,
                field.doc or note,
            ]
            rows.append(self.anchor(row(cells), f"{prefix}-{'-'.join(path)}"))
        return table(["Key", "Type", "Range", "Default", "Meaning"], rows, [14, 22, 10, 8, 36])

    def job_keys(self):
        """The keys every job takes (``spec.JOB_FIELDS``), ``problem`` typed as the choice of
        the problems registered now."""
        from boardsweep import solvers
        from boardsweep.pipeline import spec
        from boardsweep.solvers.schema import Choice

        declared = dict(spec.JOB_FIELDS)
        names = Choice(tuple(solvers.names()))
        declared["problem"] = dataclasses.replace(declared["problem"], validator=names)
        return [((key,), field, "") for key, field in declared.items()]

    def cluster(self) -> list[nodes.Node]:
        """The ``kind`` key, then a section per cluster kind with its keys."""
        from boardsweep.pipeline.spec import CLUSTER_KIND, CLUSTER_KINDS

        out: list[nodes.Node] = [self.key_table([(("kind",), CLUSTER_KIND, "")], "config-cluster")]
        for name, record in CLUSTER_KINDS.items():
            section = self.section(f"kind: {name}", f"config-cluster-{name}")
            section += paragraph(sentence(record.what))
            section += self.key_table(_keys(record), f"config-cluster-{name}")
            out.append(section)
        return out


# ----------------------------------------------------------------------------- result-tables


class ResultTables(_Directive):
    """``result-tables [PROBLEM | pipeline]``: every output table, its columns and types.

    No argument: a section per registered problem, a subsection per table; ``PROBLEM``: that
    problem's tables, a section each; ``pipeline``: the tables the pipeline adds to every job
    folder (``runs.parquet``).
    """

    optional_arguments = 1

    def generate(self) -> list[nodes.Node]:
        """The nodes for the argument given."""
        arg = self.arguments[0] if self.arguments else None
        if arg == "pipeline":
            return [self.runs()]
        problems = self.problems(arg)
        if arg is not None:
            return [self.table_section(problems[0], t) for t in problems[0].tables]
        out = []
        for problem in problems:
            section = self.section(problem.name, f"tables-{problem.name}")
            section += paragraph(sentence(problem.doc))
            section.extend(self.table_section(problem, t) for t in problem.tables)
            out.append(section)
        return out

    def table_section(self, problem, declared) -> nodes.section:
        """One table: its doc, how it merges, and its columns."""
        prefix = f"tables-{problem.name}-{declared.name}"
        section = self.section(f"{declared.name}.parquet", prefix)
        section += paragraph(sentence(declared.doc))
        if declared.merge == "sum":
            keys = [literal(k) for k in declared.keys]
            merged = [nodes.Text("One row per distinct ")]
            for i, key in enumerate(keys):
                merged += [nodes.Text(", " if i else "")] + [key]
            merged.append(nodes.Text(": rows with equal keys are added column by column."))
            section += paragraph(merged)
        rows = []
        for column in declared.all_columns:
            kind = str(column.type) + (", nullable" if column.nullable else "")
            cells = [literal(column.name), literal(kind), column.unit, column.doc]
            rows.append(self.anchor(row(cells), f"{prefix}-{column.name}"))
        section += table(["Column", "Arrow type", "Unit", "Meaning"], rows, [16, 20, 6, 48])
        return section

    def runs(self) -> nodes.section:
        """``runs.parquet``: ``RUNS_SCHEMA``, a field's doc from its metadata where it has one."""
        from boardsweep.pipeline.publish import RUNS_SCHEMA

        prefix = "tables-pipeline-runs"
        section = self.section("runs.parquet", prefix)
        rows = []
        for field in RUNS_SCHEMA:
            doc = (field.metadata or {}).get(b"doc", b"").decode()
            kind = str(field.type) + (", nullable" if field.nullable else "")
            cells = [literal(field.name), literal(kind), doc]
            rows.append(self.anchor(row(cells), f"{prefix}-{field.name}"))
        section += table(["Column", "Arrow type", "Meaning"], rows, [18, 30, 40])
        return section


# ----------------------------------------------------------------------------- cli


def _help_text(command: click.Command) -> str:
    """A command's help as click shows it: its docstring, cleaned, up to a ``\\f``."""
    return inspect.cleandoc(command.help or "").partition("\f")[0]


def _extra_help(command: click.Command, ctx: click.Context) -> str:
    """What a command class adds to its help text beyond the docstring (a section of its own),
    as click's formatter writes it; '' for a plain command."""
    if type(command).format_help_text is click.Command.format_help_text:
        return ""
    base, full = click.HelpFormatter(width=100), click.HelpFormatter(width=100)
    click.Command.format_help_text(command, ctx, base)
    command.format_help_text(ctx, full)
    plain, extended = base.getvalue(), full.getvalue()
    return extended[len(plain) :].strip("\n") if extended.startswith(plain) else extended


def _shown_default(param: click.Parameter) -> str:
    """A parameter's default as text, '' when it has none worth showing (unset, off, empty)."""
    value = param.to_info_dict()["default"]  # click's public view: None when unset
    if callable(value) or value is None or value is False or value in ((), []):
        return ""
    if getattr(param, "count", False) and value == 0:
        return ""
    return str(value)


class Cli(_Directive):
    """``cli``: a section per command of ``boardsweep`` (subcommands nested), each with its
    usage, help, arguments and options, walked from the click objects."""

    def generate(self) -> list[nodes.Node]:
        """The section of the root command, holding every other."""
        from boardsweep.pipeline.cli import cli

        return [self.command(cli, click.Context(cli, info_name="boardsweep"))]

    def command(self, command: click.Command, ctx: click.Context) -> nodes.section:
        """The section of ``command`` and, for a group, of its subcommands."""
        path = ctx.command_path.split()
        ident = "cli-" + ("-".join(path[1:]) or path[0])
        section = self.section(ctx.command_path, ident)
        usage = f"{ctx.command_path} {' '.join(command.collect_usage_pieces(ctx))}"
        section += nodes.literal_block(usage, usage)
        section.extend(paragraphs(_help_text(command)))
        extra = _extra_help(command, ctx)
        if extra:
            section += nodes.literal_block(extra, extra)
        params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
        arguments = [p for p in params if isinstance(p, click.Argument)]
        if arguments:
            rows = []
            for p in arguments:
                default = _shown_default(p)
                cells = [
                    literal(p.make_metavar(ctx)),
                    p.type.name,
                    literal(default) if default else "",
                    "yes" if p.required else "no",
                ]
                rows.append(self.anchor(row(cells), f"{ident}-{p.name}"))
            section += table(["Argument", "Type", "Default", "Required"], rows, [20, 20, 20, 10])
        rows = []
        for p in params:
            record = p.get_help_record(ctx) if isinstance(p, click.Option) else None
            if record is None:
                continue
            names, help_ = record
            default = _shown_default(p)
            meaning = inline(help_) + (
                [nodes.Text(" Default: "), literal(default)] if default else []
            )
            longest = max(p.opts + p.secondary_opts, key=len).lstrip("-")
            rows.append(self.anchor(row([literal(names), meaning]), f"{ident}-{longest}"))
        if rows:
            section += table(["Option", "Meaning"], rows, [30, 70])
        if command.epilog:
            section.extend(paragraphs(command.epilog))
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    section += self.command(sub, click.Context(sub, info_name=name, parent=ctx))
        return section


# ----------------------------------------------------------------------------- exit-codes


def error_classes() -> list[type]:
    """Every subclass of ``BoardsweepError`` in ``boardsweep.pipeline`` (its modules imported,
    but for those that act on import), in definition order."""
    import boardsweep.pipeline
    from boardsweep.pipeline.errors import BoardsweepError

    for module in pkgutil.iter_modules(boardsweep.pipeline.__path__):
        if module.name not in _ACTING_MODULES:
            importlib.import_module(f"boardsweep.pipeline.{module.name}")
    out: list[type] = []
    todo = [BoardsweepError]
    while todo:
        cls = todo.pop(0)
        out.append(cls)
        todo.extend(cls.__subclasses__())
    return out


class ExitCodes(_Directive):
    """``exit-codes``: the table of ``EXIT_CODES``, each code with the classes that exit so."""

    def generate(self) -> list[nodes.Node]:
        """The table."""
        from boardsweep.pipeline.errors import EXIT_CODES, STOP_SIGNALS, Interrupted

        raised: dict[int, list[type]] = {code: [] for code in EXIT_CODES}
        for cls in error_classes():
            if cls.exit_code not in raised:
                raise self.error(f"{cls.__name__}.exit_code {cls.exit_code} is not in EXIT_CODES")
            raised[cls.exit_code].append(cls)
        for signum in STOP_SIGNALS:
            raised[128 + signum].append(Interrupted)
        rows = []
        for code, status in EXIT_CODES.items():
            classes: list[nodes.Node] = []
            for i, cls in enumerate(raised[code]):
                classes += [nodes.Text(", ")] if i else []
                classes.append(literal(cls.__name__))
            cells = [literal(str(code)), status.words, status.meaning, classes]
            rows.append(self.anchor(row(cells), f"exit-{code}"))
        return [table(["Status", "In short", "Meaning", "Raised as"], rows, [8, 18, 50, 20])]


# ----------------------------------------------------------------------------- api


class Api(_Directive):
    """``api MODULE``: autodoc entries (class, exception, function, data) for every name in
    ``MODULE.__all__`` but dunder names, in that order."""

    required_arguments = 1

    def generate(self) -> list[nodes.Node]:
        """The autodoc directives, parsed as reStructuredText here."""
        name = self.arguments[0]
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            raise self.error(f"api: cannot import {name}: {exc}") from None
        lines: list[str] = []
        extra = ["   :no-index:"] if "no-index" in self.options else []
        for attr in getattr(module, "__all__", ()):
            if attr.startswith("__"):
                continue
            obj = getattr(module, attr)
            if isinstance(obj, type) and issubclass(obj, BaseException):
                lines += [f".. autoexception:: {name}.{attr}", "   :members:", *extra, ""]
            elif isinstance(obj, type):
                lines += [f".. autoclass:: {name}.{attr}", "   :members:", *extra, ""]
            elif callable(obj):
                lines += [f".. autofunction:: {name}.{attr}", *extra, ""]
            else:
                lines += [f".. autodata:: {name}.{attr}", "   :no-value:", *extra, ""]
        container = nodes.container()
        if type(self.state).__module__.startswith("myst_parser"):  # a Markdown page
            text = ["```{eval-rst}", *lines, "```"]
            self.state.nested_parse(StringList(text, self.get_source_info()[0]), 0, container)
        else:
            nested_parse_with_titles(self.state, StringList(lines), container)
        return container.children
