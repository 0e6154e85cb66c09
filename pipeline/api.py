"""The Python API: ``boardsweep.count``, ``solve``, ``run``, ``load`` and ``plan``.

The same engine as the command line, through the same application layer
(:mod:`boardsweep.pipeline.app`): a count is computed here when it is small and on a local
cluster when it is not, a run claims its output and publishes generations exactly as
``boardsweep run`` does.  Bad input raises :class:`boardsweep.pipeline.errors.InputError`
(its text is the line the command line prints: file, line, key path); a failed job raises
:class:`~boardsweep.pipeline.errors.JobError`.  Nothing here prints or exits.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from boardsweep.solvers.contract import InstanceProblem
from boardsweep.solvers.schema import Context, ParamError

from . import app
from .content import rows_digest
from .errors import InputError
from .spec import given_job, make_job, scheduler_spec
from .tables import file_digest, read_parquet

__all__ = ["count", "solve", "run", "load", "plan", "Results"]


def _where(workers: int | None, scheduler: str | None, client: Any) -> app.Where:
    return app.Where(workers, scheduler_spec(scheduler, None) if scheduler else None, client)


def _tables(pieces: Iterator[pa.Table], schema: pa.Schema) -> pa.Table:
    parts = list(pieces)
    return pa.concat_tables(parts) if parts else schema.empty_table()


def count(
    problem: str,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    **params: Any,
) -> int:
    """The count a count problem's ``boardsweep solve`` prints, as an exact ``int``
    (the manual's Python API page, docs/python-api.md, has examples).

    ``params`` are the solve command's arguments by name; small work runs in this process,
    other work on a local cluster (``workers``), an existing one (``scheduler``) or ``client``.
    """
    found = app.problem(problem, "solve")
    command = found.solve
    names = [name for name, _, _ in command.arguments]
    if set(params) != set(names):
        raise InputError(
            f"count {problem}: expected the arguments {', '.join(names)}, got "
            f"{', '.join(sorted(params)) or 'none'}"
        )
    try:
        args = {
            name: validator.check(params[name], (name,)) for name, validator, _ in command.arguments
        }
        raw = dict(command.job(args))
        job = make_job(found, "count", raw, Context(str(Path.cwd())))
    except ParamError as exc:
        raise InputError(f"count {problem}: {exc}") from None
    main = job.outputs()[0]
    with app.one_shot(job, _where(workers, scheduler, client)) as tables:
        table = _tables(tables[main], found.table(main).schema())
    return int(command.answer(table, args))


def solve(
    problem: str,
    instances: pd.DataFrame | pa.Table | str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    **options: Any,
) -> pd.DataFrame:
    """Solve every instance of an instance problem; its result table as a DataFrame.

    ``instances``: a DataFrame or pyarrow Table with the columns of the problem's set table,
    or the path of a seed-format text file or Parquet set; ``options`` as the solve
    command's options (``counts=True``, say).
    """
    found: InstanceProblem = app.problem(problem, "instances")  # type: ignore[assignment]
    try:
        if isinstance(instances, str | Path):
            source = app.set_source(Path(instances).expanduser())
            job = make_job(
                found, "solve", {**options, found.instances.key: source}, Context(str(Path.cwd()))
            )
        else:
            table = (
                pa.Table.from_pandas(instances, preserve_index=False)
                if isinstance(instances, pd.DataFrame)
                else instances
            )
            job = given_job(found, "solve", table, "<instances>", rows_digest(table), options)
    except ParamError as exc:
        raise InputError(f"solve {problem}: {exc}") from None
    main = found.table(job.outputs()[0])
    with app.one_shot(job, _where(workers, scheduler, client)) as tables:
        return _tables(tables[main.name], main.schema()).to_pandas()


class Results(Mapping):
    """A results folder: ``results[job][table]`` is that published table as a DataFrame
    (read when first asked for, each file checked against its manifest's sha256)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder).expanduser().absolute()
        self._jobs = {}
        for manifest in sorted(self.folder.glob("*/_boardsweep/manifest.json")):
            try:
                tables = json.loads(manifest.read_text())["tables"]
            except (OSError, ValueError, KeyError) as exc:
                raise InputError(f"cannot read the manifest: {exc}", str(manifest)) from None
            self._jobs[manifest.parent.parent.name] = _Job(manifest.parent.parent, tables)

    def __getitem__(self, job: str) -> Mapping[str, pd.DataFrame]:
        return self._jobs[job]

    def __iter__(self):
        return iter(self._jobs)

    def __len__(self) -> int:
        return len(self._jobs)

    def __repr__(self) -> str:
        return f"Results({str(self.folder)!r}: {', '.join(self._jobs) or 'no jobs'})"


class _Job(Mapping):
    """One published job's tables by name (DataFrames, read lazily, checked)."""

    def __init__(self, folder: Path, tables: dict):
        self.folder, self.tables, self._read = folder, tables, {}

    def __getitem__(self, table: str) -> pd.DataFrame:
        if table not in self._read:
            info = self.tables[table]
            path = self.folder / f"{table}.parquet"
            if info.get("sha256") and file_digest(path) != info["sha256"]:
                raise InputError(
                    "does not match its manifest (sha256 differs: edited or damaged)", str(path)
                )
            self._read[table] = read_parquet(path).to_pandas()
        return self._read[table]

    def __iter__(self):
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)


def load(folder: str | Path) -> Results:
    """The published results under ``folder`` (``results[job][table]``, DataFrames)."""
    if not Path(folder).expanduser().is_dir():
        raise InputError("no such results folder", str(folder))
    return Results(folder)


def run(
    config: str | Path | Mapping = "config.yaml",
    *,
    jobs: tuple[str, ...] = (),
    output: str | Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    fresh: bool = False,
    task_seconds: float | None = None,
    verify: float | None = None,
) -> Results:
    """Run a config's jobs as ``boardsweep run`` does and return its results folder.

    ``config``: a file, or a mapping of the YAML's shape (relative paths are relative to the
    working folder, as a config file there would have them); ``client``: a
    ``distributed.Client`` to run on (it stays open); ``verify``: as ``run --verify``.
    """
    session = app.open_session(config, tuple(jobs), output)
    app.run_session(
        session,
        _where(workers, scheduler, client),
        fresh=fresh,
        task_seconds=task_seconds,
        command="boardsweep.run()",
        verify=verify,
    )
    return Results(session.output)


def plan(
    config: str | Path | Mapping = "config.yaml",
    *,
    jobs: tuple[str, ...] = (),
    output: str | Path | None = None,
    workers: int | None = None,
    task_seconds: float | None = None,
    verify: float | None = None,
) -> pd.DataFrame:
    """What ``boardsweep plan`` prints, one row per job and table: points, units, units done,
    tasks, mean task seconds, CPU hours and wall hours on ``workers``, and the share verified
    on a second worker with the CPU hours that adds (``verify``: as ``plan --verify``)."""
    session = app.open_session(config, tuple(jobs), output)
    _, _, rows = app.plan_session(session, workers, task_seconds, verify)
    return pd.DataFrame(
        [vars(r) for r in rows], columns=[f for f in app.PlanRow.__dataclass_fields__]
    )
