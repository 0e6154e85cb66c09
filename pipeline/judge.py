"""Judge mode: a seed's input text in, the seed's exact output bytes out, for each problem."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import solvers

from .formats import max_rooks as max_rooks_format
from .formats import nqueens as nqueens_format

__all__ = ["JUDGES", "judge_nqueens", "judge_max_rooks"]


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


JUDGES: dict[str, Callable[[str, str], Iterator[bytes]]] = {
    "nqueens": judge_nqueens,
    "max_rooks": judge_max_rooks,
}
