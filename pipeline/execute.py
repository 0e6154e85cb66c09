"""Run task calls on a Dask client or in this process, yielding results as they finish.

Nothing here knows what a task computes: a :class:`Call` is a key, a function and arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["Call", "Runner", "WorkerLost", "dask_runner", "local_runner"]


class WorkerLost(RuntimeError):
    """A task whose worker died every time it ran it, more often than the scheduler allows."""


@dataclass(frozen=True)
class Call:
    """One task: ``func(*args)`` known to Dask as ``name-key``."""

    name: str
    key: str
    func: Callable
    args: tuple


# a runner takes calls and yields (call, result, error) as each finishes, in any order
Runner = Callable[[Iterable[Call]], Iterator[tuple[Call, Any, BaseException | None]]]


def dask_runner(client, retries: int = 1) -> Runner:
    """A runner that submits every call to ``client`` and yields them as they complete.

    ``retries`` reruns a task that raised; a task whose worker died is rerun by the scheduler
    up to ``distributed.scheduler.allowed-failures`` times, then reported as an error here.
    """
    from distributed import KilledWorker, as_completed

    def plain(error: BaseException) -> BaseException:
        if not isinstance(error, KilledWorker):
            return error
        return WorkerLost(
            f"every worker that ran it died ({error.allowed_failures + 1} in a row, last "
            f"{error.last_worker.address}); distributed.scheduler.allowed-failures = "
            f"{error.allowed_failures}. It may exhaust memory or crash the kernel: see the "
            "worker logs"
        )

    def run(calls: Iterable[Call]) -> Iterator[tuple[Call, Any, BaseException | None]]:
        futures = {
            client.submit(c.func, *c.args, key=f"{c.name}-{c.key}", pure=False, retries=retries): c
            for c in calls
        }
        for future in as_completed(futures):
            call = futures.pop(future)
            if future.status == "error":
                yield call, None, plain(future.exception())
            else:
                yield call, future.result(), None
            future.release()

    return run


def local_runner(calls: Iterable[Call]) -> Iterator[tuple[Call, Any, BaseException | None]]:
    """Run every call here, one after another (small jobs, judge mode, tests)."""
    for call in calls:
        try:
            result = call.func(*call.args)
        except Exception as exc:  # noqa: BLE001 - reported to the caller like a Dask error
            yield call, None, exc
        else:
            yield call, result, None
