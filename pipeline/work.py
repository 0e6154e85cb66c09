"""What runs on a worker: a bundle of tasks, each computed, checked and sealed into a record.

A task is one unit range of one point (``Item``).  The driver sends several short tasks in one
Dask task (a bundle), so that Dask's few milliseconds per task are paid once per bundle; each
task still comes back as its own record.  Everything a worker needs travels in the arguments:
workers never see the driver's config.
"""

from __future__ import annotations

import sys
import time
import traceback
from dataclasses import dataclass

import pyarrow as pa

from boardsweep import solvers
from boardsweep.solvers.contract import Point

from .content import rows_digest
from .store import record_checksum
from .tables import to_payload

__all__ = ["Item", "Outcome", "run_bundle", "answer_digest"]


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


def run_bundle(problem_name: str, version: str, items: list[Item]) -> list[Outcome]:
    """Compute every item of a bundle in order; a failing item does not stop the others.

    Refuses (every item fails) if this worker's code has another version than the driver's.
    """
    problem = solvers.get(problem_name)
    here = _worker_address()
    if problem.version != version:
        error = (
            f"code version mismatch: {problem_name} is version {problem.version} on this "
            f"worker but {version} on the driver (install the same boardsweep everywhere)"
        )
        return [Outcome(None, "", 0, 0.0, error, worker=here) for _ in items]
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
