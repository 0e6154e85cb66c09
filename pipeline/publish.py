"""Publication: a job's merged tables, ``runs.parquet`` and manifest switch together.

Layout::

    <output>/<job>/<table>.parquet         the published tables (the only Parquet files there)
    <output>/<job>/runs.parquet            one row per run of the job: history across nights
    <output>/<job>/_boardsweep/manifest.json   generation, tables (rows, sha256), the run
    <state>/                               not published: store.sqlite, lock, tmp/

A new generation is written whole under ``<state>/tmp/``, its placements are recorded in the
store, and then it trades places with ``<output>/<job>`` in one ``renameat2(RENAME_EXCHANGE)``
(where the file system lacks it: a rename away and a rename in, with the new generation parked
under ``<state>/ready/`` so that the next start completes a switch a kill interrupted).  A kill
at any instant leaves the old generation or the new one, never a mix.  A table whose records
did not change is hard-linked from the old generation, not rewritten.  Then the store drops
the payloads the published ``rows`` tables now hold.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import platform
import shutil
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib.metadata import version as package_version
from pathlib import Path

import pyarrow as pa

from .audit import manifest_points
from .errors import InputError
from .merge import Bad, Published, TableMerge, chain, fingerprint
from .plan import JobPlan
from .progress import log, warn
from .run import RunStats
from .spec import Job
from .store import Placement, Store
from .tables import file_digest, no_space, read_parquet, write_parquet

__all__ = [
    "publish",
    "Recompute",
    "RunInfo",
    "prepare_state",
    "check_job_folder",
    "table_metadata",
    "RUNS_SCHEMA",
]


def _column(name: str, kind: pa.DataType, doc: str) -> pa.Field:
    """A column of ``runs.parquet``, its meaning in its metadata (``doc``) as the problems'
    tables carry theirs (the manual's table of ``runs.parquet`` is read from it)."""
    return pa.field(name, kind, metadata={"doc": doc})


#: The columns of ``runs.parquet``: one row per run that published the job.
RUNS_SCHEMA = pa.schema(
    [
        _column(
            "run",
            pa.int64(),
            "the run's number in the job's history: 1 for the first run that published, one "
            "more for each run after it",
        ),
        _column("started", pa.timestamp("ms", "UTC"), "when the run started"),
        _column(
            "finished",
            pa.timestamp("ms", "UTC"),
            "when the run had merged the job's tables, just before it published them",
        ),
        _column(
            "generation",
            pa.int64(),
            "the generation of the job's folder the run published (the manifest's `generation`)",
        ),
        _column("tasks_run", pa.int64(), "records the run computed (one per task)"),
        _column(
            "tasks_reused",
            pa.int64(),
            "records of the published tables the run did not compute: computed by earlier runs",
        ),
        _column("units_run", pa.int64(), "work units the run computed"),
        _column(
            "units_reused",
            pa.int64(),
            "work units of the job the run did not compute: computed by earlier runs",
        ),
        _column("units", pa.int64(), "the job's work units in all: `units_run` + `units_reused`"),
        _column("workers", pa.int32(), "the worker threads the run computed on"),
        _column(
            "cpu_seconds",
            pa.float64(),
            "CPU seconds of the records the run computed, summed over its workers",
        ),
        _column("wall_seconds", pa.float64(), "seconds from the run's start to `finished`"),
        _column("boardsweep_version", pa.string(), "the version of boardsweep that published"),
        _column(
            "problem_version",
            pa.string(),
            "the problem's version: a hash of the source its results depend on (the records "
            "are keyed by it, so a change recomputes them)",
        ),
        _column("host", pa.string(), "the host the run's driver (the `boardsweep` process) ran on"),
        _column(
            "command",
            pa.string(),
            "what ran it: the command line (`boardsweep run ...`) or the Python call",
        ),
        _column(
            "verify",
            pa.float64(),
            "the share of the job's records computed again on another worker before "
            "publication (the job's `verify:`)",
        ),
        _column(
            "records_verified",
            pa.int64(),
            "records the run computed again on another worker, the two answers compared "
            "(records verified by an earlier run are not checked again)",
        ),
        _column(
            "disagreements",
            pa.int64(),
            "records whose answer lost a check (the answer two other workers agree on "
            "stands), summed over `disagreeing_workers`",
        ),
        _column(
            "disagreeing_workers",
            pa.list_(
                pa.struct(
                    [("address", pa.string()), ("host", pa.string()), ("disagreements", pa.int64())]
                )
            ),
            "each worker whose answer lost a check: its `address`, its `host` and how many "
            "records it lost (`disagreements`); empty when none lost",
        ),
    ]
)


class Recompute(Exception):
    """Records failed verification during the merge (now dropped): compute them again."""

    def __init__(self, bad: list[Bad]):
        self.bad = bad
        super().__init__(f"{len(bad)} records failed verification")


@dataclass(frozen=True)
class RunInfo:
    """The run being published: when it started, on how many workers, what it ran."""

    started: float
    workers: int
    command: str
    verify: float = 0.0  # the share of records verified on a second worker


def _exchange(new: Path, old: Path) -> bool:
    """Swap two folders atomically (renameat2 RENAME_EXCHANGE); False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    if renameat2(-100, os.fsencode(new), -100, os.fsencode(old), 2) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(old))


def _switch(new: Path, folder: Path, state: Path) -> None:
    """Make ``new`` the published ``folder``; the old generation ends up under state/tmp."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    if not folder.exists():
        os.rename(new, folder)
        return
    if _exchange(new, folder):
        shutil.rmtree(new, ignore_errors=True)  # now holds the old generation
        return
    ready = state / "ready" / folder.name
    ready.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(ready, ignore_errors=True)
    os.rename(new, ready)
    away = Path(tempfile.mkdtemp(dir=state / "tmp", prefix=f"{folder.name}.old."))
    os.rename(folder, away / "gen")
    os.rename(ready, folder)
    shutil.rmtree(away, ignore_errors=True)


def prepare_state(output: Path, state: Path) -> None:
    """At the start of a run (lock held): finish a switch a kill interrupted, sweep temps."""
    ready = state / "ready"
    if ready.is_dir():
        for parked in ready.iterdir():
            target = output / parked.name
            if not target.exists():
                log(f"completing the publication of {target} that an earlier run was killed in")
                os.rename(parked, target)
            else:
                shutil.rmtree(parked, ignore_errors=True)
    tmp = state / "tmp"
    if tmp.is_dir():
        for leftover in tmp.iterdir():
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
    tmp.mkdir(parents=True, exist_ok=True, mode=0o700)


def check_job_folder(folder: Path) -> None:
    """Before a job runs: its folder must be a boardsweep generation or absent; anything else
    is refused."""
    if not folder.exists() or Published.find(folder) is not None:
        return
    raise InputError(
        "exists but is not a boardsweep job folder (no _boardsweep/manifest.json):"
        " move it away or choose another --output",
        str(folder),
    )


def _umask() -> int:
    """This process's umask (read by setting it, and setting it back)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _versions() -> dict[str, str]:
    out = {
        name: package_version(name)
        for name in ("boardsweep", "numba", "numpy", "dask", "distributed", "pyarrow")
    }
    out["python"] = platform.python_version()
    return out


def _plain(value):
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def table_metadata(job: Job) -> dict[str, str]:
    """Key-value metadata for a table's footer: who made it, from what, with which code."""
    params = {k: v for k, v in job.params.items()}
    if job.source is not None:
        params[job.problem.instances.key] = {"file": job.source.path, "sha256": job.source.digest}
    return {
        "boardsweep.version": package_version("boardsweep"),
        "boardsweep.problem": job.problem.name,
        "boardsweep.problem_version": job.problem.version,
        "boardsweep.job": job.name,
        "boardsweep.params": json.dumps(_plain(params), default=str),
    }


def _runs(old: Published | None, row: dict) -> pa.Table:
    """The job's run history: the old generation's rows and this run's."""
    rows = []
    if old is not None and (old.folder / "runs.parquet").is_file():
        try:
            rows = _history(read_parquet(old.folder / "runs.parquet")).to_pylist()
        except (InputError, ValueError, pa.ArrowInvalid) as exc:
            warn(
                f"{old.folder / 'runs.parquet'}: the run history cannot be read ({exc}); "
                "it starts again"
            )
    row["run"] = (max((r["run"] for r in rows), default=0)) + 1
    rows.append(row)
    return pa.Table.from_pylist(rows, schema=RUNS_SCHEMA)


def _history(runs: pa.Table) -> pa.Table:
    """An old ``runs.parquet`` in today's schema: columns added since are null in it."""
    for spec in RUNS_SCHEMA:
        if spec.name not in runs.schema.names:
            runs = runs.append_column(spec, pa.nulls(runs.num_rows, spec.type))
    return runs.select(RUNS_SCHEMA.names).cast(RUNS_SCHEMA)


def _stored(plan: JobPlan, table: str, store: Store) -> tuple[str, list[Placement]]:
    """The fingerprint the merge of ``table`` would have, from the store's keys alone: the
    checksums of exactly the records the plan uses (not every record a point has, which may
    reach past a sweep that shrank); and where each record's rows sit in the table."""
    sums, placements, row = [], [], 0
    for point in plan.points:
        if point.table == table:
            records, _ = chain(store, plan.job.name, table, point)
            for record in records:
                sums.append(record.checksum)
                placements.append(Placement(table, point.point_id, record.lo, row))
                row += record.rows
    return fingerprint(sums), placements


def publish(
    plan: JobPlan, store: Store, output: Path, state: Path, info: RunInfo, stats: RunStats
) -> dict:
    """Merge and publish the job's tables as a new generation; return its manifest.

    Raises :class:`Recompute` (nothing published) if records failed verification, and
    :class:`InputError` (nothing published, the half-written generation left for the next
    start to sweep) if the disk is full.
    """
    try:
        return _publish(plan, store, output, state, info, stats)
    except OSError as exc:
        if not no_space(exc):
            raise
        raise InputError(
            f"cannot write: {os.strerror(exc.errno)}; nothing was published",
            exc.filename or str(state / "tmp"),
        ) from None


def _publish(
    plan: JobPlan, store: Store, output: Path, state: Path, info: RunInfo, stats: RunStats
) -> dict:
    job = plan.job
    folder = output / job.name
    old = Published.find(folder)
    gen = old.gen + 1 if old else 1
    log(f"{job.name}: merging and publishing generation {gen}")
    new = Path(tempfile.mkdtemp(dir=state / "tmp", prefix=f"{job.name}.{gen}."))
    os.chmod(new, 0o777 & ~_umask())  # as a plain mkdir makes it: others may read the results
    (new / "_boardsweep").mkdir()
    problem = job.problem
    meta = {**table_metadata(job), "boardsweep.generation": str(gen)}
    tables: dict[str, dict] = {}
    placements: list[Placement] = []
    contents: list[tuple[str, str, int, str]] = []
    bad: list[Bad] = []
    records = 0
    ours = old is not None and old.manifest.get("store") == store.id  # published from here
    for name in job.outputs():
        spec = problem.table(name)
        path = new / f"{name}.parquet"
        before = old.table_info(name) if old else None
        finger, placed = _stored(plan, name, store)
        if before and before.get("fingerprint") == finger and ours and old.verified(name):
            os.link(old.folder / f"{name}.parquet", path)  # unchanged: not rewritten
            placements += placed if spec.merge == "rows" else []  # as the merge places
            tables[name] = dict(before, linked=True)
            records += before.get("records", 0)
            continue
        merge = TableMerge(plan, name, store, old)
        rows = write_parquet(path, merge, spec.schema(), {**meta, "boardsweep.table": spec.doc})
        if merge.bad:
            bad += merge.bad
            continue
        placements += merge.placements
        contents += merge.contents
        records += merge.records
        tables[name] = {
            "rows": rows,
            "sha256": file_digest(path),
            "fingerprint": finger,
            "records": merge.records,
            "merge": spec.merge,
        }
    if bad:
        shutil.rmtree(new, ignore_errors=True)
        raise Recompute(bad)
    finished = time.time()
    run_row = {
        "started": int(info.started * 1000),
        "finished": int(finished * 1000),
        "generation": gen,
        "tasks_run": stats.tasks,
        "tasks_reused": records - stats.tasks,
        "units_run": stats.units,
        "units_reused": plan.units - stats.units,
        "units": plan.units,
        "workers": info.workers,
        "cpu_seconds": stats.cpu_seconds,
        "wall_seconds": finished - info.started,
        "boardsweep_version": package_version("boardsweep"),
        "problem_version": plan.version,
        "host": socket.gethostname(),
        "command": info.command,
        "verify": info.verify,
        "records_verified": stats.verified,
        "disagreements": sum(stats.disagreements.values()),
        "disagreeing_workers": [
            {"address": w, "host": stats.hosts.get(w, ""), "disagreements": n}
            for w, n in sorted(stats.disagreements.items())
        ],
    }
    runs = _runs(old, dict(run_row))
    write_parquet(new / "runs.parquet", [runs], RUNS_SCHEMA, meta)
    manifest = {
        "job": job.name,
        "problem": problem.name,
        "params": _plain(job.params),
        "problem_version": plan.version,
        "generation": gen,
        "tables": tables,
        "run": run_row,
        "versions": _versions(),
        "argv": sys.argv,
        "state": str(state),
        "store": store.id,
        "points": manifest_points(plan, store),  # what `boardsweep verify` recomputes
        "note": "written by boardsweep; see README 'Results'",
    }
    manifest_path = new / "_boardsweep" / "manifest.json"
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str) + "\n")
    for path in new.rglob("*"):
        if path.is_file():
            with open(path, "rb") as handle:
                os.fsync(handle.fileno())
    store.place(job.name, gen, placements, contents)
    _switch(new, folder, state)
    store.compact(job.name, gen, [n for n in job.outputs() if problem.table(n).merge == "rows"])
    store.forget_stale(job.name, {(p.table, p.point_id) for p in plan.points})
    return manifest
