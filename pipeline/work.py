"""What runs on a worker: a bundle of tasks, each computed, checked and sealed into a record.

A task is one unit range of one point (``Item``).  The driver sends several short tasks in one
Dask task (a bundle), so that Dask's few milliseconds per task are paid once per bundle; each
task still comes back as its own record.  Everything a worker needs travels in the arguments:
workers never see the driver's config.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from dataclasses import dataclass
from functools import cache
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version

import pyarrow as pa

from boardsweep import solvers
from boardsweep.solvers.contract import Point

from .content import rows_digest
from .store import record_checksum
from .tables import to_payload

__all__ = ["Item", "Outcome", "run_bundle", "answer_digest", "versions", "LIBRARIES"]

LIBRARIES = ("numba", "numpy", "pyarrow")  # compared as imported, with boardsweep and Python


def versions() -> dict[str, str]:
    """The versions whose mismatch between driver and workers could change results.

    boardsweep's installed version (its problems' code is compared by hash besides: a
    problem's ``version``); numba's, numpy's and pyarrow's as imported in this process, the
    code that computes here whatever installed metadata says (a copy earlier on
    ``PYTHONPATH`` counts); Python's major.minor.
    """
    try:
        found = {"boardsweep": package_version("boardsweep")}
    except PackageNotFoundError:  # importable from a source folder, but not installed
        found = {"boardsweep": "not installed"}
    for name in LIBRARIES:
        found[name] = str(importlib.import_module(name).__version__)
    found["python"] = f"{sys.version_info.major}.{sys.version_info.minor}"
    return found


_versions_here = cache(versions)  # a process's libraries do not change while it runs


@dataclass(frozen=True)
class Item:
    """One task: units ``lo..hi-1`` of ``point`` (stored as ``point_id``), with the set's rows
    when the point is a set read from a file."""

    point: Point
    point_id: str
    lo: int
    hi: int
    rows: pa.Table | None = None


@dataclass(frozen=True)
class Outcome:
    """A task's result: the record's fields, or ``error`` (the exception, in one line)."""

    payload: bytes | None
    checksum: str
    rows: int
    cpu: float
    error: str | None = None
    detail: str | None = None
    content: str | None = None  # the rows' digest (pipeline.content.rows_digest)
    answer: str | None = None  # the digest of the rows less their measured (time) columns
    worker: str = ""  # the address of the worker that computed it ("" in the driver)
    refused: bool = False  # the worker runs other code than the driver: it computed nothing


def run_bundle(
    problem_name: str, version: str, items: list[Item], driver: dict[str, str] | None = None
) -> list[Outcome]:
    """Compute every item of a bundle in order; a failing item does not stop the others.

    Refuses (every item fails, marked ``refused``) if this worker's problem code has another
    version than the driver's, or (``driver``: the driver's :func:`versions`) it runs other
    library versions: the driver then gives it no more tasks (:func:`pipeline.run.refusal`).
    """
    problem = solvers.get(problem_name)
    here = _worker_address()
    error = _mismatch(problem_name, problem.version, version, driver)
    if error is not None:
        return [Outcome(None, "", 0, 0.0, error, worker=here, refused=True) for _ in items]
    out = []
    for item in items:
        start = time.thread_time()
        try:
            table = problem.compute(item.point, item.lo, item.hi, item.rows)
            expected = problem.table(item.point.table).compute_schema()
            if not table.schema.equals(expected):
                raise TypeError(
                    f"{problem_name}.compute returned columns {table.schema} for "
                    f"table {item.point.table}, expected {expected}"
                )
            payload = to_payload(table)
        except Exception as exc:
            out.append(
                Outcome(
                    None,
                    "",
                    0,
                    time.thread_time() - start,
                    f"{type(exc).__name__}: {exc}",
                    traceback.format_exc(),
                    worker=here,
                )
            )
            continue
        checksum = record_checksum(
            problem_name, version, item.point.table, item.point_id, item.lo, item.hi, payload
        )
        content = rows_digest(table)
        measured = problem.table(item.point.table).measured
        out.append(
            Outcome(
                payload,
                checksum,
                table.num_rows,
                time.thread_time() - start,
                content=content,
                worker=here,
                answer=answer_digest(table, measured, content),
            )
        )
    return out


def _mismatch(
    problem_name: str, mine: str, version: str, driver: dict[str, str] | None
) -> str | None:
    """Why this process must not compute the driver's tasks (None: it may)."""
    if driver is not None:
        here = _versions_here()
        names = [*driver, *(k for k in here if k not in driver)]
        differ = [k for k in names if here.get(k) != driver.get(k)]
        if differ:
            detail = ", ".join(
                f"{k} {here.get(k, 'unknown')} on this worker but "
                f"{driver.get(k, 'unknown')} on the driver"
                for k in differ
            )
            return f"version mismatch: {detail} (install the same versions everywhere)"
    if mine != version:
        return (
            f"code version mismatch: {problem_name} is version {mine} on this worker but "
            f"{version} on the driver (install the same boardsweep and problem modules "
            "everywhere)"
        )
    return None


def answer_digest(table: pa.Table, measured: tuple[str, ...], content: str | None = None) -> str:
    """The digest two computations of one unit must agree on: the rows without their
    ``measured`` columns (times); ``content`` when the table has none."""
    if not measured and content is not None:
        return content
    return rows_digest(table.drop_columns([m for m in measured if m in table.schema.names]))


def _worker_address() -> str:
    """The address of the Dask worker running this, or "" outside one."""
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return ""
    try:
        return distributed.get_worker().address
    except ValueError:
        return ""
