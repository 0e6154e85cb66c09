"""Speed of the walled-board kernels (solvers.max_rooks), in one process on one core.

    python benchmarks/max_rooks_kernel.py [--boards 100000] [--scipy-timeout 60] [--repeats 3]

1. Maximum on one big board: our Hopcroft-Karp (graph build included, warm JIT) against
   scipy.sparse.csgraph.maximum_bipartite_matching on the same segment graph, run in a child
   process and abandoned after --scipy-timeout seconds ("n/a").
2. solve_batch per board on random 8 x 8 boards at wall density 0.25, without and with counts.
3. The seeds' exhaustive backtracking (max_rooks_dfs, one call per board) against solve_batch
   with counts, per board, on the sizes it finishes quickly.
All timings in one process, one core, wall time, the fastest of ``--repeats`` runs (scipy's
once); compare ratios rather than absolute seconds.  The tables go to stdout and to
``benchmarks/results/max_rooks_kernel.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from pathlib import Path

import numpy as np
from common import conditions, markdown, spread, write_results

from boardsweep.solvers import max_rooks as mr
from boardsweep.solvers.max_rooks.match import build_graph

TIMED = ("boardsweep.solvers.max_rooks",)


def segment_graph(batch: dict) -> tuple[np.ndarray, np.ndarray, int, int]:
    """CSR (ptr, adj) of board 0's segment graph and its (row, column) segment counts."""
    r, c = int(batch["rows"][0]), int(batch["cols"][0])
    n = r * c
    ptr, adj = np.empty(n + 1, np.int32), np.empty(n, np.int32)
    scratch = [np.empty(c, np.int32), np.empty(n, np.int32), np.empty(n, np.int32)]
    nleft, nright, edges = build_graph(
        batch["cells"], 0, r, c, scratch[0], ptr, adj, scratch[1], scratch[2]
    )
    return ptr[: nleft + 1].copy(), adj[:edges].copy(), nleft, nright


def _scipy_child(ptr, adj, nleft, nright, pipe) -> None:
    """Run scipy's matching and send back (size, seconds)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    graph = csr_matrix((np.ones(adj.shape[0], np.int8), adj, ptr), shape=(nleft, nright))
    start = time.perf_counter()
    match = maximum_bipartite_matching(graph, perm_type="column")
    pipe.send((int((match >= 0).sum()), time.perf_counter() - start))


def scipy_matching(batch: dict, timeout: float) -> tuple[int, float] | None:
    """scipy's (size, seconds) on board 0, or None when it runs past ``timeout``."""
    ptr, adj, nleft, nright = segment_graph(batch)
    ctx = mp.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_scipy_child, args=(ptr, adj, nleft, nright, send))
    child.start()
    answer = receive.recv() if receive.poll(timeout) else None
    child.terminate()
    child.join()
    return answer


def per_board(fn, repeat: int = 1) -> float:
    """Best wall time of ``fn()`` over ``repeat`` runs (their spread recorded)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    spread(times)
    return min(times)


def main() -> None:
    """Print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100_000, help="8 x 8 boards to solve")
    parser.add_argument("--scipy-timeout", type=float, default=60.0, help="seconds for scipy")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each (fastest kept)")
    parser.add_argument("--out", type=Path, help="results file (default benchmarks/results/)")
    args = parser.parse_args()
    sizes = {"boards": args.boards, "scipy timeout s": args.scipy_timeout}
    print(conditions(repeats=args.repeats, **sizes), flush=True)
    mr.solve_batch(mr.generate(6, 0.3, 4, seed=0), counts=True)  # compile or load the kernels
    mr.max_rooks_dfs(np.zeros((2, 2), np.uint8))

    big = []
    for n, density in [(1000, 0.1), (2000, 0.3)]:
        batch = mr.generate(n, density, 1, seed=1)
        out: dict = {}
        ours = per_board(lambda b=batch, o=out: o.update(mr.solve_batch(b)), repeat=args.repeats)
        theirs = scipy_matching(batch, args.scipy_timeout)
        if theirs is not None and theirs[0] != out["max_rooks"][0]:
            raise SystemExit(f"scipy disagrees: {theirs[0]} != {out['max_rooks'][0]}")
        big.append(
            [
                f"{n} x {n} @ {density}",
                f"{ours:.3f}",
                f"{theirs[1]:.2f}"
                if theirs is not None
                else f"n/a (over {args.scipy_timeout:g} s)",
                f"{out['max_rooks'][0]:,}",
                f"{out['nodes'][0]:,}",
            ]
        )

    k = args.boards
    batch = mr.generate(8, 0.25, k, seed=2)
    plain = per_board(lambda: mr.solve_batch(batch), repeat=args.repeats) / k
    counted = per_board(lambda: mr.solve_batch(batch, counts=True), repeat=args.repeats) / k

    seed = []
    for n, count in [(4, 2000), (5, 1000), (6, 300)]:
        batch = mr.generate(n, 0.25, count, seed=n)
        boards = [mr.board_at(batch, b) for b in range(count)]
        dfs = per_board(lambda bs=boards: [mr.max_rooks_dfs(b) for b in bs], args.repeats) / count
        ours = per_board(lambda b=batch: mr.solve_batch(b, counts=True), args.repeats) / count
        seed.append(
            [
                f"{n} x {n} @ 0.25",
                count,
                f"{dfs * 1e6:.1f}",
                f"{ours * 1e6:.2f}",
                f"{dfs / ours:.1f}x",
            ]
        )
    body = "\n\n".join(
        [
            "**Maximum on one board**: ours (Hopcroft-Karp, graph build included) against "
            "scipy's `maximum_bipartite_matching` on the same segment graph (run once, in a "
            "child process)",
            markdown(["board", "ours s", "scipy s", "max rooks", "edges seen"], big),
            f"**{k:,} random boards 8 x 8 @ 0.25**, one `solve_batch` call",
            markdown(
                ["run", "us per board"],
                [
                    ["solve_batch", f"{plain * 1e6:.2f}"],
                    ["solve_batch, counts=True", f"{counted * 1e6:.2f}"],
                ],
            ),
            "**The seeds' exhaustive backtracking** (`max_rooks_dfs`, one call per board) "
            "against `solve_batch` with counts, on the same boards",
            markdown(["boards", "count", "DFS us/board", "ours us/board (counts)", "ratio"], seed),
        ]
    )
    print(f"\n{body}")
    repeats = f"{args.repeats}, the fastest kept (scipy once)"
    write_results(__file__, body, timed=TIMED, repeats=repeats, sizes=sizes, out=args.out)


if __name__ == "__main__":
    main()
