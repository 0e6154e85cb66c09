"""Judge mode: a seed's input text in, the seed's exact output bytes out, for each problem."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import solvers

from .execute import local_runner
from .formats import max_rooks as max_rooks_format
from .formats import nqueens as nqueens_format
from .formats import queens_rooks as queens_rooks_format
from .formats import slant as slant_format
from .jobs import solve_count
from .progress import log
from .results import count_values

__all__ = ["JUDGES", "judge_nqueens", "judge_max_rooks", "judge_queens_rooks",
           "judge_slant"]


def judge_nqueens(text: str, path: str) -> Iterator[bytes]:
    """Every solution for the n read from ``text``, boards in lexicographic order."""
    n = nqueens_format.parse(text, path)
    module = solvers.get("nqueens")
    # one first-row column at a time keeps memory to one slice of the solutions
    for prefix in [()] if n < 8 else [(c,) for c in range(n)]:
        yield nqueens_format.render(n, module.solutions(n, prefix))


def judge_max_rooks(text: str, path: str) -> Iterator[bytes]:
    """The maximum number of rooks for every board of the seed input, one per line."""
    batch = max_rooks_format.parse(text, path)
    yield max_rooks_format.render_maxima(solvers.get("max_rooks").solve_batch(batch)[
        "max_rooks"]).encode()


def judge_queens_rooks(text: str, path: str) -> Iterator[bytes]:
    """One count per input line ``M N``, each board size searched once for all its lines."""
    pairs = queens_rooks_format.parse(text, path)
    wanted = [list(p) for p in pairs if p != (0, 0)]
    found = {(0, 0): 1}
    if wanted:
        table = solve_count("queens_rooks", {"pairs": wanted}, local_runner, 1)
        keys = zip(table.column("queens").to_pylist(), table.column("rooks").to_pylist(),
                   strict=True)
        found.update(zip(keys, count_values(table), strict=True))
    yield queens_rooks_format.render([found[p] for p in pairs]).encode()


def judge_slant(text: str, path: str) -> Iterator[bytes]:
    """Each case's solution as rows of ``/`` and ``\\``; an unsolvable case is logged."""
    batch = slant_format.parse(text, path)
    result = solvers.get("slant").solve_batch(batch)
    offsets = result["solution_offsets"]
    for j, (rows, cols) in enumerate(zip(batch["rows"], batch["cols"], strict=True)):
        if offsets[j] == offsets[j + 1]:
            log(f"{path}: case {j + 1} has no solution")
            continue
        yield slant_format.render(int(rows), int(cols),
                                  result["solution"][offsets[j]:offsets[j + 1]]).encode()


JUDGES: dict[str, Callable[[str, str], Iterator[bytes]]] = {
    "nqueens": judge_nqueens,
    "max_rooks": judge_max_rooks,
    "queens_rooks": judge_queens_rooks,
    "slant": judge_slant,
}
