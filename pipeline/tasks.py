"""The functions Dask runs on workers: call a solver, time it, return plain Python results.

They take everything they need as arguments (workers never see the driver's config) and return
exact Python ints, so the driver can write the fragment and nothing is lost in transit.
"""

from __future__ import annotations

import time

import numpy as np

import solvers

from . import datasets, results

__all__ = ["run_count_task", "run_solutions_task", "run_instance_task", "run_generate_task",
           "warm_up"]


def run_count_task(problem: str, params: dict, depth: int, stride: int, offset: int) -> dict:
    """Count prefixes ``offset::stride`` at ``depth``: exact weighted totals per output row."""
    module = solvers.get(problem)
    start = time.thread_time()
    prefixes = module.prefixes(params, depth).take(slice(offset, None, stride))
    result = module.count(params, prefixes)
    weights = [int(w) for w in prefixes.weight.tolist()]
    totals = [
        sum(w * int(c) for w, c in zip(weights, column.tolist(), strict=True))
        for column in np.asarray(result.counts).T
    ]
    return {
        "counts": totals,
        "nodes": int(np.asarray(result.nodes, dtype=np.int64).sum()),
        "prefixes": len(prefixes),
        "cpu_seconds": time.thread_time() - start,
    }


def run_solutions_task(problem: str, params: dict, prefix: tuple[int, ...]) -> dict:
    """Every solution below ``prefix``, in order, as a solutions table."""
    module = solvers.get(problem)
    start = time.thread_time()
    table = results.solutions_table(params["n"], module.solutions(params["n"], prefix))
    return {"table": table, "cpu_seconds": time.thread_time() - start}


def warm_up(problems: list[str]) -> float:
    """Import each problem's module and run its smallest case: loads the numba cache. Seconds."""
    start = time.perf_counter()
    for name in problems:
        module = solvers.get(name)
        warm = getattr(module, "warm_up", None)
        if warm is not None:
            warm()
    return time.perf_counter() - start


def run_instance_task(problem: str, options: dict, generate: dict | None,
                      batch: dict | None) -> dict:
    """Solve a generated or given batch of instances: the result rows as an Arrow table."""
    module = solvers.get(problem)
    start = time.thread_time()
    extra: dict = {}
    if generate is not None:
        batch, extra = datasets.generated_batch(module, generate)
    if getattr(module, "TIME_EACH", False):
        result = _solve_each(module, batch, options)
    else:
        result = module.solve_batch(batch, **options)
    table = results.instance_table(module, batch, result, extra)
    return {"table": table, "cpu_seconds": time.thread_time() - start}


def run_generate_task(problem: str, generate: dict) -> dict:
    """Generate one run of instances: the instance-set rows as an Arrow table."""
    module = solvers.get(problem)
    start = time.thread_time()
    batch, extra = datasets.generated_batch(module, generate)
    return {"table": datasets.batch_to_table(module, batch, extra),
            "cpu_seconds": time.thread_time() - start}


def _solve_each(module, batch: dict, options: dict) -> dict:
    """Solve instance by instance and add ``seconds`` (each one's wall time) to the result."""
    warm = getattr(module, "warm_up", None)
    if warm is not None:  # so the first instance's time is not the kernel's loading
        warm()
    parts, seconds = [], []
    for i in range(len(batch["rows"])):
        one = datasets.slice_batch(module, batch, i, i + 1)
        start = time.perf_counter()
        parts.append(module.solve_batch(one, **options))
        seconds.append(time.perf_counter() - start)
    result = results.concat_results(parts)
    result["seconds"] = np.array(seconds)
    return result
