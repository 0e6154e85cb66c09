"""The ``boardsweep`` command line. Data goes to stdout; logs, progress and errors to stderr."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import click
from distributed import performance_report

import solvers
from solvers.interface import ParamError

from . import datasets, results, store
from . import judge as judge_mode
from . import report as reports
from .cluster import open_client
from .config import ClusterSpec, JobSpec, instance_source, load_config
from .errors import BoardsweepError, InputError, JobError
from .execute import dask_runner, local_runner
from .jobs import generate_set, run_job, solve_count, solve_set, solve_solutions
from .plan import plan_count_job
from .progress import log
from .tasks import warm_up

__all__ = ["cli", "main"]


class _Group(click.Group):
    """A click group that turns :class:`BoardsweepError` into one line and its exit status."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BoardsweepError as exc:
            click.echo(f"boardsweep: error: {exc}", err=True)
            ctx.exit(exc.exit_code)


def cluster_options(func):
    """The options that choose where tasks run, shared by ``run`` and ``solve``."""
    func = click.option("--scheduler-file", type=click.Path(dir_okay=False),
                        help="Connect to the scheduler named in this file (waits for it).")(func)
    func = click.option("--scheduler", metavar="ADDRESS",
                        help="Use an existing Dask scheduler, e.g. tcp://host:8786.")(func)
    func = click.option("--workers", type=click.IntRange(min=1),
                        help="Worker processes of the local cluster (default: one per core).")(func)
    return func


@contextmanager
def _runner(spec: ClusterSpec, workers, scheduler, scheduler_file, problems: list[str]):
    """A Dask runner on the chosen cluster, every worker's kernels warmed first."""
    with open_client(spec, workers=workers, scheduler=scheduler,
                     scheduler_file=scheduler_file) as client:
        seconds = client.run(warm_up, problems)
        log(f"{len(seconds)} workers ready (kernel warm-up "
            f"{max(seconds.values(), default=0):.2f} s)")
        yield dask_runner(client), len(seconds)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="boardsweep")
def cli() -> None:
    """boardsweep: exhaustive board searches on a Dask cluster, results in Parquet."""


@cli.command()
@click.argument("config", default="config.yaml", type=click.Path(dir_okay=False))
@click.option("--job", "job_names", multiple=True, help="Run only this job (repeatable).")
@click.option("--output", type=click.Path(file_okay=False),
              help="Results folder (default: the config's).")
@cluster_options
@click.option("--fresh", is_flag=True, help="Ignore fragments of earlier runs and start over.")
def run(config, job_names, output, workers, scheduler, scheduler_file, fresh) -> None:
    """Run every job of CONFIG (default config.yaml) into <output>/<job>/."""
    cfg = load_config(config)
    known = {job.name: job for job in cfg.jobs}
    for name in job_names:
        if name not in known:
            raise InputError(f"no job named '{name}': the jobs are {', '.join(known)}", config)
    jobs = [known[name] for name in job_names] if job_names else cfg.jobs
    _check_sets(jobs)
    out = output or cfg.output
    failures: list[JobError] = []
    with store.output_lock(out):
        if fresh:
            for job in jobs:
                store.remove_fragments(out, job.name)
        problems = sorted({job.problem for job in jobs})
        with _runner(cfg.cluster, workers, scheduler, scheduler_file, problems) as (runner, n):
            report_path = Path(out) / "dask-performance.html"
            with performance_report(filename=str(report_path)):
                for job in jobs:
                    try:
                        run_job(job, out, runner, n, config)
                    except JobError as exc:
                        log(f"error: {exc}")
                        failures.append(exc)
            log(f"Dask performance report: {report_path}")
    if failures:
        raise failures[0]


def _check_sets(jobs: list[JobSpec]) -> None:
    """Read the board or puzzle set of every job that names a file, so that bad input stops
    the run before the output folder or a cluster exists (each job reads it again)."""
    for job in jobs:
        module = solvers.get(job.problem)
        if module.KIND == "count":
            continue
        source, _ = instance_source(module, job.spec)
        for kind in ("ingest", "parquet"):
            if kind in source:
                datasets.read_set(job.problem, module, source[kind])


@cli.group(cls=_Group)
def solve() -> None:
    """Answer one problem instance and print the answer (data on stdout)."""


@contextmanager
def _param_error(problem: str):
    """Turn a solver's :class:`ParamError` into an :class:`InputError` naming the problem."""
    try:
        yield
    except ParamError as exc:
        raise InputError(f"{problem}: {exc}") from None


@contextmanager
def _maybe_cluster(local: bool, workers, scheduler, scheduler_file, problems):
    """A runner here in this process when ``local``, else on the chosen cluster."""
    if local and not (workers or scheduler or scheduler_file):
        yield local_runner, 1
        return
    with _runner(ClusterSpec(), workers, scheduler, scheduler_file, problems) as pair:
        yield pair


def _single_task(problem: str, spec: dict) -> bool:
    """Whether the whole count is one small task, cheaper here than on a fresh cluster."""
    with _param_error(problem):
        tasks = plan_count_job(JobSpec("solve", problem, spec), solvers.get(problem), 2)
    return len(tasks) == 1


@solve.command("nqueens", context_settings={"ignore_unknown_options": True})  # N may be -3
@click.argument("n", type=int)
@click.option("--solutions", "solutions_path", type=click.Path(dir_okay=False),
              help="Also write every solution to this Parquet file.")
@cluster_options
def solve_nqueens(n, solutions_path, workers, scheduler, scheduler_file) -> None:
    """Print Q(N), the number of ways to place N non-attacking queens on an N x N board."""
    spec = {"n": n}
    local = _single_task("nqueens", spec) and not solutions_path
    with _maybe_cluster(local, workers, scheduler, scheduler_file, ["nqueens"]) as (runner, nw):
        table = solve_count("nqueens", spec, runner, nw)
        if solutions_path:
            rows = solve_solutions("nqueens", spec, runner, solutions_path)
            log(f"{rows} solutions written to {solutions_path}")
    click.echo(results.count_values(table)[0])


@solve.command("queens_rooks", context_settings={"ignore_unknown_options": True})
@click.argument("m", type=int)
@click.argument("n", type=int)
@cluster_options
def solve_queens_rooks(m, n, workers, scheduler, scheduler_file) -> None:
    """Print the placements of M queens and N rooks on an (M+N) x (M+N) board, none attacked."""
    if m == n == 0:  # the empty board: one placement, as the seed prints
        click.echo(1)
        return
    spec = {"pairs": [[m, n]]}
    local = _single_task("queens_rooks", spec)
    with _maybe_cluster(local, workers, scheduler, scheduler_file, ["queens_rooks"]) as (runner,
                                                                                          nw):
        table = solve_count("queens_rooks", spec, runner, nw)
    click.echo(results.count_values(table)[0])


@solve.command("max_rooks")
@click.argument("boards", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="Parquet file for the maxima table.")
@click.option("--counts", is_flag=True, help="Also count the maximum and all legal placements.")
@cluster_options
def solve_max_rooks(boards, out, counts, workers, scheduler, scheduler_file) -> None:
    """Maximum non-attacking rooks on every walled board of BOARDS (seed text or Parquet)."""
    _solve_set("max_rooks", boards, out, {"counts": counts}, workers, scheduler, scheduler_file)


@solve.command("slant")
@click.argument("puzzles", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="Parquet file for the slant table.")
@cluster_options
def solve_slant(puzzles, out, workers, scheduler, scheduler_file) -> None:
    """Solve every Slant puzzle of PUZZLES (seed text or Parquet): unique, multiple or none."""
    _solve_set("slant", puzzles, out, {}, workers, scheduler, scheduler_file)


def _solve_set(problem, source, out, options, workers, scheduler, scheduler_file) -> None:
    """Solve an instance set here when it is small, else on a cluster, into ``out``."""
    module = solvers.get(problem)
    batch = datasets.read_set(problem, module, source)  # fails early on bad input
    small = float(module.instance_cost(batch["rows"], batch["cols"], options).sum()) < 2.0
    with _maybe_cluster(small, workers, scheduler, scheduler_file, [problem]) as (runner, n):
        rows = solve_set(problem, source, options, runner, n, out)
    log(f"{rows} {module.INPUT_KEY} solved -> {out}")


@cli.command()
@click.argument("problem", type=click.Choice(solvers.names("instances")), metavar="PROBLEM")
@click.argument("source", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="Parquet file for the board or puzzle set.")
def ingest(problem, source, out) -> None:
    """Turn a seed-format text file of PROBLEM into a Parquet board or puzzle set."""
    module = solvers.get(problem)
    batch = datasets.ingest_text(problem, module, source)
    store.write_table(datasets.batch_to_table(module, batch), out)
    log(f"{len(batch['rows'])} {module.INPUT_KEY} -> {out}")


@cli.command()
@click.argument("problem", type=click.Choice(solvers.names("instances")), metavar="PROBLEM")
@click.option("--n", "n", type=int, required=True, help="Board side (cells).")
@click.option("--density", type=float, help="Wall probability per cell (max_rooks).")
@click.option("--count", type=int, required=True, help="How many instances.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("-o", "--output", "out", required=True, type=click.Path(dir_okay=False),
              help="Parquet file for the set.")
@cluster_options
def generate(problem, n, density, count, seed, out, workers, scheduler, scheduler_file) -> None:
    """Random instances of PROBLEM, reproducible from --seed whatever the number of workers."""
    module = solvers.get(problem)
    spec = {"n": n, "count": count, "seed": seed}
    if density is not None:
        spec["density"] = density
    with _param_error(problem):
        points = module.generate_points(spec)
    small = sum(p["count"] for p in points) < 100_000
    with _maybe_cluster(small, workers, scheduler, scheduler_file, [problem]) as (runner, nw):
        rows = generate_set(problem, spec, runner, nw, out)
    log(f"{rows} {module.INPUT_KEY} -> {out}")


@cli.command()
@click.argument("problem", type=click.Choice(sorted(judge_mode.JUDGES)), metavar="PROBLEM")
def judge(problem) -> None:
    """Read PROBLEM's seed input on stdin, write the seed's exact output on stdout."""
    out = sys.stdout.buffer
    for chunk in judge_mode.JUDGES[problem](sys.stdin.read(), "<stdin>"):
        out.write(chunk)
    out.flush()


@cli.command()
@click.argument("results_dir", type=click.Path(exists=True, file_okay=False))
def report(results_dir) -> None:
    """Print summary tables of RESULTS_DIR's jobs and draw PNG plots beside them."""
    shown = reports.report(Path(results_dir), sys.stdout)
    if not shown:
        raise InputError("no job results found (expected <job>/counts.parquet)", results_dir)


def main() -> None:
    """Entry point of the ``boardsweep`` console script."""
    cli(prog_name="boardsweep")
