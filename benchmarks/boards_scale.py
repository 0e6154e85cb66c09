"""Generated walled boards at scale through ``boardsweep run``: memory flat, disk about once.

    python benchmarks/boards_scale.py [--counts 1000000 10000000 100000000] [--workers 2]
    python benchmarks/boards_scale.py --counts 100000 1000000          # a quick check

For each count C, a config in a fresh temporary folder holds one ``max_rooks`` job,
``boards: {generate: {n: 8, density: 0.25, count: C, seed: 1}}``, on
``cluster: {kind: local, workers: 2}`` (dashboard on a free local port), and ``boardsweep run``
runs it as a real subprocess (``python -m pipeline run``).  While it runs, the RSS of the
driver process alone and of the driver with all its descendants (nannies, workers) is sampled
every 50 ms with psutil, and so is the disk use of the state folder
(``<parent>/.boardsweep/<output name>``: the store and the generation being written) and of
the state and results folders together.  At the end: the wall time, the peaks, the disk use of
the results folder and of the state folder, and the published table's rows.  Then the same
command again with nothing to do: its wall time, its driver's peak RSS, and whether
``maxima.parquet`` was rewritten (its inode changed).

The baseline is the smallest count's row: each row's peak driver RSS is given as a ratio to it
(flat memory: about 1.0).  Disk use is allocated blocks (``st_blocks``), each inode once.
Nothing here asserts on a time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import (
    ROOT,
    SAMPLE_SECONDS,
    MiB,
    TreeSampler,
    conditions,
    disk_use,
    markdown,
    write_results,
)

TIMED = ("boardsweep.pipeline.entry", "boardsweep.pipeline.cli", "boardsweep.solvers.max_rooks")
REPEATS = "1 (one first run and one rerun per count)"

CONFIG = """\
output: results
cluster: {{kind: local, workers: {workers}, dashboard_address: "127.0.0.1:0"}}
jobs:
  - name: walled
    problem: max_rooks
    keep: {keep}
    boards: {{generate: {{n: 8, density: 0.25, count: {count}, seed: 1}}}}
"""


def run_once(folder: Path, log_name: str) -> dict:
    """``boardsweep run`` in ``folder``, sampled; wall seconds, peaks (bytes), exit status."""
    results = folder / "results"
    state = folder / ".boardsweep" / "results"
    log = folder / log_name
    with open(log, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "boardsweep", "run", "config.yaml"],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=err,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        with TreeSampler(
            proc.pid,
            lambda: {"state": disk_use(state), "both": disk_use(state) + disk_use(results)},
        ) as sampler:
            code = proc.wait()
        wall = time.perf_counter() - start
    if code != 0:
        tail = log.read_text(errors="replace").splitlines()[-20:]
        raise RuntimeError(f"boardsweep run exited {code} in {folder}:\n" + "\n".join(tail))
    return {
        "wall": wall,
        "driver": sampler.peak_root,
        "tree": sampler.peak_tree,
        "state_peak": sampler.peak_extra.get("state", 0.0),
        "both_peak": sampler.peak_extra.get("both", 0.0),
        "samples": sampler.samples,
    }


def measure(count: int, workers: int, scratch: Path) -> dict:
    """The first run of ``count`` boards, then a rerun with nothing to do."""
    import pyarrow.parquet as pq

    folder = Path(tempfile.mkdtemp(prefix=f"boards-{count}-", dir=scratch))
    (folder / "config.yaml").write_text(CONFIG.format(workers=workers, count=count, keep="boards"))
    first = run_once(folder, "run1.log")
    table = folder / "results" / "walled" / "maxima.parquet"
    state = folder / ".boardsweep" / "results"
    rows = pq.ParquetFile(table).metadata.num_rows
    inode = table.stat().st_ino
    at_rest = {
        "results": disk_use(folder / "results"),
        "state": disk_use(state),
        "store": sum(disk_use(state / f"store.sqlite{s}") for s in ("", "-wal", "-shm")),
        "table": disk_use(table),
    }
    again = run_once(folder, "run2.log")
    rewritten = table.stat().st_ino != inode
    return {
        "count": count,
        "first": first,
        "again": again,
        "rows": rows,
        "rest": at_rest,
        "rewritten": rewritten,
        "folder": folder,
        "state_after_rerun": disk_use(state),
    }


def mib(value: float) -> str:
    return f"{value / MiB:,.1f}"


def main() -> None:
    """Measure each count and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--counts", type=int, nargs="+", default=[1_000_000, 10_000_000, 100_000_000]
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--scratch",
        type=Path,
        default=None,
        help="folder for the runs' temporary folders (default: the system's "
        "temp folder); each is removed after its count",
    )
    parser.add_argument("--keep", action="store_true", help="keep the runs' folders")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    counts = sorted(args.counts)
    sizes = {
        "counts": ", ".join(f"{c:,}" for c in counts),
        "boards": "8 x 8 at wall density 0.25 (generated by the tasks), no counts",
        "cluster": f"local, {args.workers} worker processes",
        "sampling": f"RSS and disk every {SAMPLE_SECONDS * 1e3:.0f} ms",
    }
    print(conditions(**sizes), flush=True)
    import shutil

    if args.scratch is not None:
        args.scratch.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="boards-scale-", dir=args.scratch))
    measured = []
    try:
        for count in counts:
            result = measure(count, args.workers, scratch)
            measured.append(result)
            print(
                f"{count:,} boards: {result['first']['wall']:.1f} s, rerun "
                f"{result['again']['wall']:.1f} s",
                file=sys.stderr,
                flush=True,
            )
            if not args.keep:
                shutil.rmtree(result["folder"], ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    base = measured[0]["first"]["driver"]
    rows = []
    for m in measured:
        first, rest = m["first"], m["rest"]
        rows.append(
            [
                f"{m['count']:,}",
                f"{m['rows']:,}",
                f"{first['wall']:.1f}",
                f"{m['count'] / first['wall']:,.0f}",
                mib(first["driver"]),
                f"{first['driver'] / base:.2f}",
                mib(first["tree"]),
                mib(rest["results"]),
                mib(rest["state"]),
                mib(first["state_peak"]),
                f"{first['both_peak'] / max(1, rest['results']):.2f}",
            ]
        )
    first_table = markdown(
        [
            "boards",
            "published rows",
            "wall s",
            "boards/s",
            "driver peak RSS MiB",
            "driver peak / smallest count's",
            "all processes peak RSS MiB",
            "results folder MiB (at rest)",
            "state folder MiB (at rest)",
            "state folder peak MiB (working)",
            "peak (results + state) / results at rest",
        ],
        rows,
    )
    rows = []
    for m in measured:
        again = m["again"]
        rows.append(
            [
                f"{m['count']:,}",
                f"{again['wall']:.1f}",
                mib(again["driver"]),
                f"{again['driver'] / base:.2f}",
                mib(again["tree"]),
                "yes" if m["rewritten"] else "no (same inode)",
                mib(m["state_after_rerun"]),
            ]
        )
    again_table = markdown(
        [
            "boards",
            "wall s",
            "driver peak RSS MiB",
            "driver peak / smallest count's first run",
            "all processes peak RSS MiB",
            "maxima.parquet rewritten",
            "state folder MiB after",
        ],
        rows,
    )
    note = (
        f"Baseline: the {measured[0]['count']:,}-board row (ratios of driver peak RSS). "
        "Disk at rest: results folder = the published generation (maxima.parquet "
        f"{', '.join(mib(m['rest']['table']) for m in measured)} MiB; store.sqlite with its "
        f"WAL {', '.join(mib(m['rest']['store']) for m in measured)} MiB). The working peak is "
        "sampled, so a peak shorter than the sampling interval can be missed."
    )
    body = (
        f"**First run** (one `boardsweep run` per count, into a fresh folder):\n\n{first_table}\n\n"
        "**Rerun with nothing to do** (same command, same folder):\n\n"
        f"{again_table}\n\n{note}"
    )
    print(f"\n{body}")
    write_results(__file__, body, timed=TIMED, repeats=REPEATS, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
