"""Preloaded into each worker process of a local cluster (``distributed.worker.preload``).

A terminal's Ctrl-C reaches every process of its foreground group, the local workers too; the
driver alone answers it (it closes the cluster, see :mod:`.stopping`).  So a local worker
ignores SIGINT from the moment Dask starts it: a worker that took the KeyboardInterrupt would
print a traceback and die mid-task.  The cluster spawns its workers with SIGINT already ignored
(``cluster._workers_start_ignoring_sigint``), which covers their imports; this preload is what
holds where that could not be arranged.  (Blocking SIGINT while the cluster starts is no help:
multiprocessing's spawn clears the mask it hands the new process.)
"""

from __future__ import annotations

import signal
import threading

if threading.current_thread() is threading.main_thread():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_setup(worker) -> None:
    """Dask's preload hook (the work is done at import, in the process's main thread)."""
