"""A lying worker, for tests only: a worker plugin that makes its worker return a wrong count.

Loaded into one worker as a preload (``DASK_DISTRIBUTED__WORKER__PRELOAD='["tests.liar"]'``),
it wraps :func:`boardsweep.pipeline.work.run_bundle` on that worker: every task whose units
include a unit the lie picks (one unit in :data:`ONE_IN`, by a hash of the point and the unit)
comes back with its first exact count one too high.  The record is otherwise well made, its
checksum and digests computed afresh over the wrong rows, as a machine with bad memory would
make it: nothing but computing the unit again can tell.
"""

from __future__ import annotations

import zlib
from dataclasses import replace

import pyarrow as pa
from distributed.diagnostics.plugin import WorkerPlugin

ONE_IN = 50
NAME = "liar"


def lies_about(point_id: str, lo: int, hi: int) -> bool:
    """Whether the liar's answer for units ``lo..hi-1`` of a point is wrong."""
    return any(zlib.crc32(f"{point_id}:{unit}".encode()) % ONE_IN == 0 for unit in range(lo, hi))


def _wrong(table: pa.Table) -> pa.Table:
    """``table`` with its first exact count one higher (both halves of the count)."""
    from boardsweep.solvers.contract import count_arrays

    texts = [n for n in table.schema.names if n.endswith("_text")]
    name = texts[0][: -len("_text")]
    values = [int(t) for t in table.column(texts[0]).to_pylist()]
    values[0] += 1
    small, text = count_arrays(values)
    table = table.set_column(table.schema.get_field_index(name), table.schema.field(name), small)
    return table.set_column(
        table.schema.get_field_index(texts[0]), table.schema.field(texts[0]), text
    )


class Liar(WorkerPlugin):
    """Makes this worker's ``run_bundle`` lie about one unit in :data:`ONE_IN`."""

    name = NAME

    def setup(self, worker) -> None:
        """Wrap ``run_bundle`` in this worker process."""
        from boardsweep.pipeline import work
        from boardsweep.pipeline.content import rows_digest
        from boardsweep.pipeline.store import record_checksum
        from boardsweep.pipeline.tables import from_payload, to_payload

        honest = getattr(work.run_bundle, "honest", work.run_bundle)

        def run_bundle(problem_name, version, items, driver=None):
            outcomes = honest(problem_name, version, items, driver)
            out = []
            for item, outcome in zip(items, outcomes, strict=True):
                if outcome.error is None and lies_about(item.point_id, item.lo, item.hi):
                    table = _wrong(from_payload(outcome.payload))
                    payload = to_payload(table)
                    digest = rows_digest(table)
                    outcome = replace(
                        outcome,
                        payload=payload,
                        content=digest,
                        answer=digest,
                        checksum=record_checksum(
                            problem_name,
                            version,
                            item.point.table,
                            item.point_id,
                            item.lo,
                            item.hi,
                            payload,
                        ),
                    )
                out.append(outcome)
            return out

        run_bundle.honest = honest
        work.run_bundle = run_bundle


async def dask_setup(worker) -> None:
    """Preload entry point: install the plugin in this worker."""
    await worker.plugin_add(Liar(), name=NAME)
