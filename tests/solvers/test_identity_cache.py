"""Old numba cache folders are pruned, but never one that was used lately (another process
may be loading kernels from it right now)."""

from __future__ import annotations

import os
import time

from boardsweep.solvers import identity


def test_only_folders_beyond_the_kept_ones_and_unused_for_a_day_are_pruned(tmp_path):
    now = time.time()
    ages = {f"recent{i}": 60.0 * i for i in range(identity.KEEP_CACHES + 3)}
    ages |= {f"stale{i}": identity.PRUNE_AFTER + 3600.0 * (i + 1) for i in range(4)}
    for name, age in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - age, now - age))
    keep = tmp_path / "recent0"
    identity._prune(tmp_path, keep)
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {name for name in ages if name.startswith("recent")}
