"""The logging config a local cluster's workers get: our format, and no heartbeat error when
the driver closes the scheduler under them."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_a_worker_drops_only_the_heartbeat_error_of_a_closing_scheduler():
    # a fresh process configured exactly as a worker is (dictConfig of worker_logging()),
    # logging the record Dask logs when a heartbeat loses the race with the scheduler's close
    script = textwrap.dedent("""
        import logging, logging.config
        from boardsweep.pipeline.progress import worker_logging
        logging.config.dictConfig(worker_logging())
        log = logging.getLogger("distributed.worker")
        try:
            raise OSError("Stream is closed")
        except OSError:
            log.exception("Failed to communicate with scheduler during heartbeat.")
        log.error("Worker lost: some other error")
        logging.getLogger("distributed.nanny").warning("Failed to communicate with scheduler x")
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    lines = done.stderr.splitlines()
    assert "heartbeat" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert any("Worker lost: some other error" in line for line in lines), done.stderr
    assert any("distributed.nanny" in line for line in lines), done.stderr  # other loggers kept
