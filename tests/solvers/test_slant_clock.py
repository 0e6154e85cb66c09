"""Each puzzle's time from inside the batch call (the time-stamp counter) and from Python."""

from __future__ import annotations

import time

import numpy as np
import pytest

import boardsweep.solvers.slant as slant
from boardsweep.solvers.slant import clock


def mixed_batch() -> dict[str, np.ndarray]:
    """Nine 3 x 3 puzzles with one 30 x 30 puzzle in the middle (far slower than the rest)."""
    small = slant.generate(3, 9, 5)
    large = slant.generate(30, 1, 6)
    grids = [c.reshape(4, 4) for c in np.split(small["clues"], 9)]
    grids.insert(4, large["clues"].reshape(31, 31))
    return slant.pack(grids)


def test_ticks_measure_the_same_interval_as_perf_counter():
    """Over one interval, ticks / tick_rate and time.perf_counter agree within 2 %."""
    rate = clock.tick_rate()
    if rate is None:
        pytest.skip(
            "this machine's time-stamp counter is not a clock: solve_each times "
            "from Python (test_solve_each_without_the_counter covers that path)"
        )
    start, first = time.perf_counter(), clock.ticks()
    time.sleep(0.05)
    for _ in range(100_000):
        pass
    spent_ticks, spent = clock.ticks() - first, time.perf_counter() - start
    assert spent_ticks / rate == pytest.approx(spent, rel=0.02)


def check_seconds(out: dict[str, np.ndarray], batch: dict[str, np.ndarray], wall: float):
    together = slant.solve_batch(batch)
    for key in ("status", "solution_offsets", "solution", "nodes"):
        assert out[key].tolist() == together[key].tolist(), key
    seconds = out["seconds"]
    assert seconds.shape == (10,) and np.all(seconds > 0)
    assert seconds.sum() <= wall  # each puzzle's time lies inside the call
    assert seconds[4] > 5 * np.median(seconds)  # the 30 x 30 puzzle is the slow one


def test_solve_each_times_each_puzzle_inside_one_call():
    """The timed batch: the same answers as solve_batch, times that add up within the call
    and single out the one large puzzle."""
    batch = mixed_batch()
    slant.solve_each(batch)  # load everything first
    start = time.perf_counter()
    out = slant.solve_each(batch)
    check_seconds(out, batch, time.perf_counter() - start)


def test_solve_each_without_the_counter(monkeypatch):
    """Where the counter is not trusted, each puzzle is timed from Python, with the same
    answers and the same properties."""
    monkeypatch.setattr(slant, "tick_rate", lambda: None)
    batch = mixed_batch()
    slant.solve_each(batch)
    start = time.perf_counter()
    out = slant.solve_each(batch)
    check_seconds(out, batch, time.perf_counter() - start)


def test_tick_rate_refuses_a_counter_that_does_not_tick(monkeypatch):
    """A counter reading 0 (LLVM's answer without one) gives no rate."""
    monkeypatch.setattr(clock, "ticks", lambda: 0)
    clock.tick_rate.cache_clear()
    try:
        assert clock.tick_rate() is None
    finally:
        clock.tick_rate.cache_clear()
