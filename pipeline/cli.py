"""The ``boardsweep`` command line, built from the registry: data to stdout, the rest to stderr.

``solve``, ``generate``, ``ingest`` and ``judge`` get one subcommand per registered problem
that supports them, with arguments and options read from the problem's declarations; nothing
here names a problem.  Every command that computes goes through :mod:`pipeline.jobs`.  The
exit statuses (the ``--help`` footer) come from :data:`pipeline.errors.EXIT_CODES`.

This module is long because every command's arguments, options and help are declared here, side
by side, where click reads them; the work behind them is in :mod:`.app`.
"""

from __future__ import annotations

import hashlib
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from . import errors, stopping
from .errors import BoardsweepError, InputError, Interrupted
from .progress import log, quiet_dask, setup_logging

if TYPE_CHECKING:  # the modules that compute are imported by the commands that use them, so
    # `boardsweep --help` and a mistyped option answer at once (see main)
    import pyarrow as pa

    from boardsweep.solvers.contract import InstanceProblem, Problem
    from boardsweep.solvers.schema import Field, ParamError

    from . import app
    from .spec import Job

__all__ = ["cli", "main"]


class _Group(click.Group):
    """A click group that turns :class:`BoardsweepError` into one line and its exit status."""

    def invoke(self, ctx: click.Context):
        try:
            done = super().invoke(ctx)
            stopping.check()  # a signal whose exception a library swallowed still stops
            return done
        except BoardsweepError as exc:
            log_error(str(exc))
            ctx.exit(exc.exit_code)
        except (KeyboardInterrupt, Interrupted) as exc:
            stop = exc if isinstance(exc, Interrupted) else Interrupted(signal.SIGINT)
            quiet_dask()
            stopping.report(stop)
            ctx.exit(stop.exit_code)
        except Exception:
            # a library that swallowed the signal's exception may fail for it in its own way
            # (numba, stopped inside a compile, finds no compiled object): the stop, one line
            stop = stopping.arrived()
            if stop is None:
                raise
            quiet_dask()
            stopping.report(stop)
            ctx.exit(stop.exit_code)


def log_error(message: str) -> None:
    """The one line an error prints on stderr."""
    click.echo(f"boardsweep: error: {message}", err=True)


class _FromSchema:
    """A click type whose bounds (or choices) are those of a field of the schema, read when
    click first needs them (to convert a value, or to show help): the schema's modules stay
    unimported until then, so ``boardsweep --help`` answers at once.  ``field`` gives the
    :class:`~boardsweep.solvers.schema.Field`."""

    LAZY: tuple[str, ...] = ()

    def __init__(self, field: Callable[[], Field]):
        self._field = field

    def __getattr__(self, name: str) -> Any:
        if name not in type(self).LAZY:
            raise AttributeError(name)
        for attr, value in self._read(self._field().validator).items():
            setattr(self, attr, value)
        return getattr(self, name)

    def _read(self, validator) -> dict:
        raise NotImplementedError


class _RangeField(_FromSchema):
    """The bounds of a field's ``Integer`` or ``Number``, closed (as the schema's are)."""

    LAZY = ("min", "max")
    min_open = max_open = clamp = False
    validator: str = ""

    def _read(self, validator):
        assert type(validator).__name__ == self.validator, validator
        return {"min": validator.lo, "max": validator.hi}


class _IntField(_RangeField, click.IntRange):
    """``click.IntRange`` with the bounds of a field's ``Integer``."""

    validator = "Integer"


class _FloatField(_RangeField, click.FloatRange):
    """``click.FloatRange`` with the bounds of a field's ``Number``."""

    validator = "Number"


class _ChoiceField(_FromSchema, click.Choice):
    """``click.Choice`` of a field's ``Choice``."""

    LAZY = ("choices",)
    case_sensitive = True

    def _read(self, validator):
        return {"choices": tuple(validator.values)}


def _spec_field(name: str, kind: str | None = None) -> Callable[[], Field]:
    """The field ``name`` of :mod:`.spec` (a key of the cluster kind ``kind`` when given),
    looked up when called."""

    def field() -> Field:
        from . import spec

        return spec.CLUSTER_KINDS[kind].fields[name] if kind else getattr(spec, name)

    return field


CLUSTER_FLAGS = (
    "workers",
    "scheduler",
    "scheduler_file",
    "security",
    "tls_ca_file",
    "tls_cert",
    "tls_key",
)


def _cluster_options(func):
    """The options that choose where tasks run, shared by ``run``, ``solve``, ``generate``."""
    for name, help_ in (
        ("--tls-key", "The client key (PEM) for a tls:// scheduler."),
        ("--tls-cert", "The client certificate (PEM) for a tls:// scheduler."),
        ("--tls-ca-file", "The CA certificate (PEM) of a tls:// scheduler."),
    ):
        func = click.option(name, type=click.Path(dir_okay=False), help=help_)(func)
    func = click.option(
        "--security",
        type=_ChoiceField(_spec_field("SECURITY")),
        help="none: accept plain TCP to --scheduler (anyone who reaches it "
        "can run code as you); tls is the default.",
    )(func)
    func = click.option(
        "--scheduler-file",
        type=click.Path(dir_okay=False),
        help="Connect to the scheduler named in this file (waits for it).",
    )(func)
    func = click.option(
        "--scheduler",
        metavar="ADDRESS",
        help="Use an existing Dask scheduler, e.g. tls://host:8786.",
    )(func)
    func = click.option(
        "--workers",
        type=_IntField(_spec_field("workers", "local")),
        help="Worker processes of the local cluster (default: one per core).",
    )(func)
    return func


def _tuning_options(task_seconds_help: str, verify_help: str) -> Callable:
    """The ``--task-seconds`` and ``--verify`` options of ``run`` and ``plan``, each with the
    command's own help."""

    def decorate(func):
        for name, field, help_ in (  # the last applied is listed first
            ("--verify", "VERIFY", verify_help),
            ("--task-seconds", "TASK_SECONDS", task_seconds_help),
        ):
            func = click.option(name, type=_FloatField(_spec_field(field)), help=help_)(func)
        return func

    return decorate


def _where(values: dict) -> app.Where:
    """Take the cluster flags out of a command's values, checked as a config's keys are."""
    from . import app
    from .spec import TLS_FILES, scheduler_spec

    flags = {name: values.pop(name, None) for name in CLUSTER_FLAGS}
    tls = {name: flags[name] for name, _ in TLS_FILES}
    spec = scheduler_spec(flags["scheduler"], flags["scheduler_file"], flags["security"], tls)
    if spec is None and (flags["security"] or any(tls.values())):
        raise InputError("--security and --tls-* go with --scheduler or --scheduler-file")
    return app.Where(flags["workers"], spec)


@click.group(
    cls=_Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=errors.exit_status_text(),
)
@click.version_option(package_name="boardsweep")
@click.option("-v", "--verbose", count=True, help="More detail (Dask's messages too).")
@click.option("-q", "--quiet", is_flag=True, help="Only warnings and errors.")
@click.option("--log-file", type=click.Path(dir_okay=False), help="Write the log here.")
def cli(verbose, quiet, log_file) -> None:
    """boardsweep: exhaustive board searches on a Dask cluster, results in Parquet."""
    try:
        setup_logging(-1 if quiet else min(verbose, 1), log_file)
    except OSError as exc:
        raise InputError(f"--log-file: cannot write: {exc.strerror}", log_file) from None


def _param(exc: ParamError, prefix: str) -> InputError:
    """A bad option value: ``PREFIX--name: message`` (the option, not a path inside it)."""
    name = next((k for k in exc.key if isinstance(k, str)), None)
    flag = f"--{name.replace('_', '-')}: " if name else ""
    return InputError(f"{prefix}{flag}{exc.message}")


# ----------------------------------------------------------------------------- run, plan


@cli.command()
@click.argument("config", default="config.yaml", type=click.Path(dir_okay=False))
@click.option("--job", "job_names", multiple=True, help="Run only this job (repeatable).")
@click.option(
    "--output", type=click.Path(file_okay=False), help="Results folder (default: the config's)."
)
@_cluster_options
@click.option("--fresh", is_flag=True, help="Forget stored results of these jobs first.")
@_tuning_options(
    "Target seconds per task (default: the cluster's task_seconds).",
    "Share of each job's work computed again on a second worker and compared "
    "before publication (default: the job's verify:, else 0 on a local "
    "cluster and 0.05 on others).",
)
@click.option("--dry-run", is_flag=True, help="Print the plan (as `boardsweep plan`) and stop.")
def run(config, job_names, output, fresh, task_seconds, verify, dry_run, **flags) -> None:
    """Run every job of CONFIG (default config.yaml) into <output>/<job>/."""
    from . import app

    where = _where(flags)
    if dry_run:
        _print_plan(config, job_names, output, where.workers, task_seconds, verify)
        return
    session = app.open_session(config, job_names, output)
    app.run_session(
        session,
        where,
        fresh=fresh,
        task_seconds=task_seconds,
        on_failure=lambda exc: log_error(str(exc)),
        verify=verify,
    )


def _print_plan(config, job_names, output, workers, task_seconds, verify=None) -> None:
    from . import app

    session = app.open_session(config, job_names, output)
    threads, task_seconds, rows = app.plan_session(session, workers, task_seconds, verify)
    click.echo(f"plan for {threads} workers, target task length {task_seconds:g} s")
    click.echo(
        f"{'job':<16}{'table':<12}{'points':>8}{'units':>16}{'done':>16}{'tasks':>12}"
        f"{'task s':>10}{'CPU h':>12}{'wall h':>12}{'verify':>8}{'+CPU h':>10}"
    )
    for r in rows:
        click.echo(
            f"{r.job:<16}{r.table:<12}{r.points:>8}{r.units:>16,}{r.done:>16,}"
            f"{r.tasks:>12,}{r.task_seconds:>10.3g}{r.cpu_hours:>12.4g}"
            f"{r.wall_hours:>12.4g}{r.verify:>8.3g}{r.verify_cpu_hours:>10.4g}"
        )


@cli.command("plan")
@click.argument("config", default="config.yaml", type=click.Path(dir_okay=False))
@click.option("--job", "job_names", multiple=True, help="Plan only this job (repeatable).")
@click.option("--output", type=click.Path(file_okay=False), help="Results folder.")
@click.option(
    "--workers",
    type=_IntField(_spec_field("workers", "slurm")),  # the widest range of any cluster kind
    help="Workers to plan for.",
)
@_tuning_options(
    "Target seconds per task.",
    "Plan verifying this share on a second worker (as run --verify).",
)
def plan_command(config, job_names, output, workers, task_seconds, verify) -> None:
    """Print each job's units, tasks, estimated CPU hours and wall time, and the CPU that
    verification adds (nothing runs)."""
    _print_plan(config, job_names, output, workers, task_seconds, verify)


# ----------------------------------------------------------------------------- one-shot


def _write_table(pieces, schema: pa.Schema, path: str, job: Job | None = None) -> int:
    """Stream ``pieces`` into the Parquet file ``path`` (whole or not at all); a job's
    problem, version and params go in its footer, so ``report`` recognises the file."""
    from .publish import table_metadata
    from .tables import atomic_file, write_parquet

    with atomic_file(path) as temp:
        return write_parquet(temp, pieces, schema, None if job is None else table_metadata(job))


def _job(problem: Problem, raw: dict, prefix: str, only=None) -> Job:
    from boardsweep.solvers.schema import Context, ParamError

    from .spec import make_job

    try:
        job = make_job(problem, "solve", raw, Context(str(Path.cwd())))
    except ParamError as exc:
        raise _param(exc, prefix) from None
    job.only = only
    return job


class _Problems(_Group):
    """A group with one subcommand per registered problem that ``make`` can build one for."""

    def __init__(self, *args, make=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.make = make

    def _commands(self) -> dict[str, click.Command]:
        from boardsweep import solvers
        from boardsweep.solvers.schema import ParamError

        try:
            found = solvers.problems()
        except ParamError as exc:
            raise InputError(exc.message) from None
        commands = {}
        for name, problem in sorted(found.items()):
            command = self.make(problem)
            if command is not None:
                commands[name] = command
        return commands

    def list_commands(self, ctx):
        return list(self._commands())

    def get_command(self, ctx, name):
        from boardsweep import solvers
        from boardsweep.solvers.schema import ParamError

        try:  # one problem's command: a built-in one imports its own module alone
            problem = solvers.get(name)
        except ParamError:
            return self._commands().get(name)  # unknown, or a registry that fails: say so
        return self.make(problem)


def _solve_command(problem: Problem) -> click.Command | None:
    """``solve NAME``: a set file's, for a problem with an instance set; the arguments of
    its solve command otherwise; none for a problem with neither."""
    if problem.instances is not None:
        return _instance_solve(problem)
    if problem.solve is not None:
        return _count_solve(problem)
    return None


def _generate_command(problem: Problem) -> click.Command | None:
    """``generate NAME`` for a problem with a generator."""
    return _generate(problem) if getattr(problem, "generator", None) is not None else None


@cli.group(cls=_Problems, make=_solve_command)
def solve() -> None:
    """Answer one problem instance and print the answer (data on stdout)."""


def _solve_flags(problem: Problem) -> tuple[list[str], list[str]]:
    """The flags of a problem's params that ``solve`` takes as options: (those named after
    one of its tables, which take the file to write it to; the others)."""
    from boardsweep.solvers.schema import Flag

    arguments = {name for name, _, _ in problem.solve.arguments}
    flags = [
        name
        for name, field in problem.params.fields.items()
        if isinstance(field.validator, Flag) and name not in arguments
    ]
    tables = {t.name for t in problem.tables}
    return [f for f in flags if f in tables], [f for f in flags if f not in tables]


def _count_solve(problem: Problem) -> click.Command:
    import pyarrow as pa

    from boardsweep.solvers.schema import ParamError

    from . import app
    from .tables import writable_folder

    command = problem.solve
    extra, flags = _solve_flags(problem)

    def callback(**values):
        where = _where(values)
        args = {}
        for name, validator, _ in command.arguments:
            try:
                args[name] = validator.parse(values[name], (name.upper(),))
            except ParamError as exc:
                raise InputError(f"solve {problem.name}: {name.upper()}: {exc.message}") from None
        try:
            params = dict(command.job(args))
        except ParamError as exc:
            raise InputError(f"solve {problem.name}: {exc.message}") from None
        for flag in flags:
            if values.get(flag):
                params[flag] = True
        outputs = {}
        for table in extra:
            if values.get(table):
                writable_folder(values[table])
                params[table] = True
                outputs[table] = values[table]
        job = _job(problem, params, f"solve {problem.name}: ")
        with app.one_shot(job, where) as tables:
            main_name = job.outputs()[0]
            main = pa.concat_tables(list(tables[main_name]))
            for table, path in outputs.items():
                rows = _write_table(tables[table], problem.table(table).schema(), path, job)
                log(f"{rows} rows of {table} written to {path}")
        click.echo(command.answer(main, {**args, **{f: True for f in flags if values.get(f)}}))

    params = [
        click.Argument([name], type=str, metavar=name.upper()) for name, _, _ in command.arguments
    ]
    params += [
        click.Option(
            [f"--{table}"],
            type=click.Path(dir_okay=False),
            help=f"Also write the {table} table to this Parquet file.",
        )
        for table in extra
    ]
    params += [
        click.Option([f"--{flag}"], is_flag=True, help=_sentence(problem.params.fields[flag].doc))
        for flag in flags
    ]
    cmd = click.Command(
        problem.name,
        callback=callback,
        params=params,
        help=f"{problem.doc}. " + " ".join(f"{n.upper()}: {h}." for n, _, h in command.arguments),
        context_settings={"ignore_unknown_options": True},
    )
    return _cluster_options(cmd)


def _sentence(text: str) -> str:
    """A field's doc as a help sentence: capitalised, with a full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _output_for(out: str, source: str) -> None:
    """InputError unless ``out`` can be written and is not the input file ``source``."""
    from .tables import writable_folder

    if Path(out).resolve() == Path(source).resolve():
        raise InputError("is the input file too: choose another output file", out)
    writable_folder(out)


def _option_params(record, values: dict, prefix: str) -> dict:
    """Command-line option strings -> raw params, each parsed by its field's validator."""
    from boardsweep.solvers.schema import Flag, ParamError

    out = {}
    for name, field in record.fields.items():
        value = values.get(name)
        if value is None or value is False:
            continue
        if isinstance(field.validator, Flag):
            out[name] = True
            continue
        try:
            out[name] = field.validator.parse(value, (name,))
        except ParamError as exc:
            raise _param(exc, prefix) from None
    return out


def _record_options(record) -> list[click.Option]:
    from boardsweep.solvers.schema import Flag

    options = []
    for name, field in record.fields.items():
        text = field.doc or field.validator.describe()
        flag = f"--{name.replace('_', '-')}"  # a key count_mib is the option --count-mib
        if isinstance(field.validator, Flag):
            options.append(click.Option([flag, name], is_flag=True, help=text))
        else:
            options.append(click.Option([flag, name], type=str, required=field.required, help=text))
    return options


def _instance_solve(problem: InstanceProblem) -> click.Command:
    from . import app

    key = problem.instances.key

    def callback(source, out, **values):
        where = _where(values)
        _output_for(out, source)
        raw = {
            key: app.set_source(source),
            **_option_params(problem.options, values, f"solve {problem.name}: "),
        }
        job = _job(problem, raw, f"solve {problem.name}: ")
        with app.one_shot(job, where) as tables:
            main = problem.table(job.outputs()[0])  # the result, or its summary
            rows = _write_table(tables[main.name], main.schema(), out, job)
        log(f"{rows} {key} solved -> {out}")

    params = [
        click.Argument(["source"], type=click.Path(dir_okay=False), metavar=key.upper()),
        click.Option(
            ["-o", "--output", "out"],
            required=True,
            type=click.Path(dir_okay=False),
            help=f"Parquet file for the {problem.result.name} table"
            + (
                f" (the {problem.summary.table.name} table with --keep summary)."
                if problem.summary is not None
                else "."
            ),
        ),
        *_record_options(problem.options),
    ]
    cmd = click.Command(
        problem.name,
        callback=callback,
        params=params,
        help=f"{problem.doc}: every instance of {key.upper()} "
        + ("(seed-format text or Parquet)." if problem.seed_format is not None else "(Parquet)."),
    )
    return _cluster_options(cmd)


@cli.group(cls=_Problems, make=_generate_command)
def generate() -> None:
    """Random instance sets, each instance a function of (seed, shape, index) alone."""


def _generate(problem: InstanceProblem) -> click.Command:
    from . import app
    from .tables import writable_folder

    key, table = problem.instances.key, problem.instances.table
    fields = problem.generator.params

    def callback(out, **values):
        from boardsweep.solvers.contract import GENERATE

        where = _where(values)
        writable_folder(out)
        spec = _option_params(fields, values, f"generate {problem.name}: ")
        job = _job(
            problem, {key: {GENERATE: spec}}, f"generate {problem.name}: ", only=(table.name,)
        )
        with app.one_shot(job, where) as tables:
            rows = _write_table(tables[table.name], table.schema(), out, job)
        log(f"{rows} {key} -> {out}")

    params = [
        *_record_options(fields),
        click.Option(
            ["-o", "--output", "out"],
            required=True,
            type=click.Path(dir_okay=False),
            help="Parquet file for the set.",
        ),
    ]
    return _cluster_options(
        click.Command(
            problem.name,
            callback=callback,
            params=params,
            help=f"Random {key} of {problem.name}.",
        )
    )


@cli.command()
@click.argument("problem", metavar="PROBLEM")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(dir_okay=False),
    help="Parquet file for the set.",
)
def ingest(problem, source, out) -> None:
    """Turn a seed-format text file of PROBLEM into a Parquet board or puzzle set."""
    from . import app
    from .sets import set_from_text

    found = app.problem(problem, "instances")
    if found.seed_format is None:
        raise InputError(f"{problem} has no seed format: its sets are Parquet files already")
    _output_for(out, source)
    loaded = set_from_text(found, source, found.options.check({}, ()))  # default options
    _write_table([loaded.table], found.instances.table.schema(), out)
    log(f"{loaded.rows} {found.instances.key} -> {out}")


@cli.command()
@click.argument("problem", metavar="PROBLEM")
def judge(problem) -> None:
    """Read PROBLEM's seed input on stdin, write the seed's exact output on stdout."""
    import pyarrow as pa

    from boardsweep.solvers.contract import FormatError

    from . import app
    from .sets import decode_text
    from .spec import given_job

    found = app.problem(problem, "seed_format")  # the judge reads and writes the seed's text
    if sys.stdin is None or sys.stdin.closed:
        raise InputError("standard input is closed: pipe the seed's input in", "<stdin>")
    try:
        data = sys.stdin.buffer.read()
    except OSError as exc:  # e.g. stdin closed at the descriptor (<&-)
        raise InputError(f"cannot read standard input: {exc.strerror}", "<stdin>") from None
    text = decode_text(data, "<stdin>", f"{problem} seed-format text")
    try:
        read = found.seed_format.read(text)
    except FormatError as exc:
        raise InputError(exc.message, "<stdin>", exc.line) from None
    if isinstance(read, pa.Table) and read.num_rows == 0:
        return  # the seed's input with no cases ("0"): the seed's answer is no output
    if isinstance(read, pa.Table):
        job = given_job(found, "judge", read, "<stdin>", hashlib.sha256(data).hexdigest(), {})
        params: dict = {}
    else:
        job = _job(found, read, "<stdin>: ")
        params = job.params
    out = sys.stdout.buffer

    with app.one_shot(job, app.Where(here=True), JUDGE_TASK_SECONDS) as tables:
        batches = {
            name: (b for piece in pieces for b in piece.to_batches())
            for name, pieces in tables.items()
        }
        answer = found.seed_format.answer
        for chunk in answer(batches, params, lambda line: log(f"<stdin>: {line}")):
            out.write(chunk)
    out.flush()


@cli.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
def report(results_dir) -> None:
    """Summary tables of RESULTS_DIR's jobs on stdout; figures and report.html beside them."""
    from . import report as reports

    damaged: list[str] = []
    unreported: list[str] = []
    shown = reports.report(Path(results_dir), sys.stdout, damaged, unreported)
    if unreported:
        log(f"no report for {', '.join(unreported)}: the problem has none")
    if not shown and unreported and not damaged:
        return
    if not shown and damaged:
        raise InputError(
            f"no job could be reported: damaged table(s): {', '.join(damaged)} "
            "(see the warnings above)",
            results_dir,
        )
    if not shown:
        raise InputError(
            "no job results found (expected <job>/_boardsweep/manifest.json)", results_dir
        )


class _VerifyCommand(click.Command):
    """``verify``, whose help lists each registered problem's second method (the first
    paragraph of its ``crosscheck``'s docstring)."""

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        from boardsweep import solvers
        from boardsweep.solvers.schema import ParamError

        try:
            found = solvers.problems()
        except ParamError:
            return
        methods = []
        for name, problem in sorted(found.items()):
            check = getattr(problem, "crosscheck", None)
            doc = " ".join((check.__doc__ or "").split("\n\n")[0].split()) if check else ""
            methods.append(
                (
                    name,
                    doc.removeprefix("Second method: ")
                    or "none: recomputed by the pipeline's own method",
                )
            )
        with formatter.section("Second methods"):
            formatter.write_dl(methods)


@cli.command("verify", cls=_VerifyCommand)
@click.argument("results", type=click.Path(exists=True, file_okay=False))
@click.option(
    "--sample",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    metavar="F",
    help="Fraction of each point's work units to recompute (default "
    "0.05, at least one unit per point); the cheap points of count tables are "
    "recomputed whole.",
)
@click.option(
    "--job", "job_names", multiple=True, metavar="NAME", help="Verify only this job (repeatable)."
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=None,
    help="Seed of the random sample (printed by every run, to repeat one).",
)
def verify_command(results, sample, job_names, seed) -> None:
    """Re-check the published results folder RESULTS (or one job folder), from its files
    alone, so a copy on another machine verifies too.

    \b
    For every table: its sha256 against the job's manifest, then a random sample of its
    work units recomputed in this process and compared with the published rows, by the
    problem's second, independent method where it has one for them (listed below), else
    by the pipeline's own method; the output says which, and what it did not recompute.
    A count table publishes one sum per point: its points that are cheap (a few seconds)
    are recomputed whole; of a larger point, sampled records are recomputed and compared
    with the digests the manifest keeps.  Instances read from a file (ingest, parquet)
    are not in the folder: those points are reported as not recomputed.

    \b
    Exit status: 0 every table intact and every recomputed value agrees; 1 a table is
    damaged or a value disagrees (each printed with its point and both values); 2 bad
    input (not a results folder, an unknown job)."""
    from . import app

    outcome = app.verify_results(results, sys.stdout, sample, tuple(job_names), seed)
    if not outcome.ok:
        raise VerifyFailed(
            f"verify: {len(outcome.disagreements)} disagreement(s) or damaged "
            f"table(s) in {results}: {outcome.disagreements[0]}"
        )


class VerifyFailed(BoardsweepError):
    """``verify`` found a damaged table or a disagreement: exit 1."""

    exit_code = errors.FAILED


JUDGE_TASK_SECONDS = 5.0  # judge solves in this process: short tasks cost nothing, and
# show progress (and answer Ctrl-C) every few seconds


def main() -> None:
    """The console script's entry point (:func:`boardsweep.pipeline.entry.main`, which routes
    the signals before it imports this module)."""
    from .entry import main as run

    run()
