"""Progress lines in a log file: periodic, and the final state exactly once."""

from __future__ import annotations

import io

from pipeline.progress import Progress


def test_plain_lines_end_with_the_final_state_once():
    stream = io.StringIO()
    progress = Progress("job", 3, stream=stream, interval=0.0)
    for ok in (True, False, True):
        progress.advance(ok)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines[-1].startswith("boardsweep: job: 3/3 tasks (100%, 1 failed)")
    assert len(lines) == 3


def test_quiet_interval_still_reports_the_end():
    stream = io.StringIO()
    progress = Progress("job", 2, stream=stream, interval=3600.0)
    progress.advance()
    progress.advance()
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and "2/2 tasks (100%)" in lines[0]
