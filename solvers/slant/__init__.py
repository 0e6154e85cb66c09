"""Slant (Gokigen Naname, UVa 11694): a ``/`` or ``\\`` in every cell, clues hold, no loop.

Notation (as in Simon Tatham's ``slant.c``; the engine is :mod:`solvers.slant.kernel`):

- *Cells*: a puzzle has ``rows x cols`` cells; cell ``(r, c)`` is number ``r * cols + c``.
- *Points*: the ``(rows + 1) x (cols + 1)`` cell corners; point ``(y, x)`` is number
  ``y * (cols + 1) + x``.  Cell ``(r, c)`` has corners ``(r, c)``, ``(r, c + 1)``,
  ``(r + 1, c)``, ``(r + 1, c + 1)``.
- *Clue*: ``clue[p]`` in 0..4 is how many slashes touch point ``p``; -1 is no clue.
- *Slash*: ``0`` is ``/`` (joins the cell's top-right and bottom-left corners), ``1`` is ``\\``
  (joins top-left and bottom-right).  A solution gives every cell a slash so that every clue
  holds and the slashes, as edges between points, contain no cycle.

Puzzle batch (columns, one entry per puzzle, variable-size data flat with offsets as in
Arrow's list layout): ``puzzle_id`` int64[k], ``rows`` int32[k] and ``cols`` int32[k] (cells),
``offsets`` int64[k+1], ``clues`` int8[sum (rows+1)*(cols+1)], puzzle j's clues being
``clues[offsets[j]:offsets[j+1]]`` row-major over its points.

Results (:func:`solve_batch`): ``status`` uint8[k] (``STATUS_NAMES[status]``: 0 ``none``,
1 ``unique``, 2 ``multiple``), ``solution_offsets`` int64[k+1] and ``solution`` uint8 flat
(puzzle j's slashes, row-major over its cells; empty when the status is ``none``, the first
solution found when it is ``multiple``), ``nodes`` int64[k] (search nodes: 1 for the root
plus one per check or branch tried; 1 means the puzzle fell to deduction and probing
alone).  The search stops at the second solution.  :func:`to_text` spells a solution out.

The problem (:data:`PROBLEM`, an :class:`solvers.contract.InstanceProblem`): a job's puzzles
come from a seed-format file (:mod:`.format`), a Parquet ``puzzles`` set or ``{generate: {n,
rows, count, seed, difficulty}}`` (:mod:`.generate`: unique puzzles, one group of ``count``
per size; ``difficulty`` easy or hard grades them by Simon Tatham's levels, :mod:`.levels`);
each puzzle gets a row of ``slant`` (:mod:`.tables`) with its verdict, a solution, its nodes
and the wall time it took.  ``report`` is in :mod:`.report`.

This module is long because it holds the puzzle's notation, shared by every engine, beside the
problem's declaration and its second method.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pyarrow as pa

from .. import grid_sets
from ..borrowed import Addresses
from ..contract import (
    Crosscheck,
    Generator,
    InstanceProblem,
    Point,
    SeedFormat,
)
from ..schema import Choice, Field, ParamError, Record
from . import format as text_format
from .clock import tick_rate
from .generate import MIN_HARD_SIDE, generate
from .kernel import CHECK, frame_views, make_frame, make_workspace, solve_at, solve_range
from .levels import LEVELS
from .report import report
from .state import Workspace
from .tables import (
    GRID,
    PUZZLES,
    SLANT,
    STATUS_NAMES,
    batch_to_table,
    result_table,
    table_to_batch,
)

__all__ = [
    "PROBLEM",
    "STATUS_NAMES",
    "NONE",
    "UNIQUE",
    "MULTIPLE",
    "solve_batch",
    "solve_each",
    "pack",
    "to_text",
    "generate",
    "batch_to_table",
    "table_to_batch",
    "PUZZLES",
    "SLANT",
    "MAX_SIDE",
    "crosscheck",
]

NONE, UNIQUE, MULTIPLE = 0, 1, 2
MAX_SIDE = 46339  # (46339 + 1)**2 < 2**31: a generated puzzle's clue string fits an Arrow string


def pack(
    grids: Sequence[np.ndarray], puzzle_ids: Sequence[int] | None = None
) -> dict[str, np.ndarray]:
    """Build a puzzle batch from 2-D clue grids of shape (rows+1, cols+1), -1 for no clue."""
    arrays = [np.asarray(g, dtype=np.int8) for g in grids]
    for g in arrays:
        if g.ndim != 2 or g.shape[0] < 2 or g.shape[1] < 2:
            raise ValueError(f"a clue grid must be 2-D with at least 2x2 points, not {g.shape}")
    sizes = np.array([g.size for g in arrays], dtype=np.int64)
    offsets = np.zeros(len(arrays) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    ids = np.arange(len(arrays)) if puzzle_ids is None else puzzle_ids
    return {
        "puzzle_id": np.asarray(ids, dtype=np.int64),
        "rows": np.array([g.shape[0] - 1 for g in arrays], dtype=np.int32),
        "cols": np.array([g.shape[1] - 1 for g in arrays], dtype=np.int32),
        "offsets": offsets,
        "clues": np.concatenate([g.ravel() for g in arrays]) if arrays else np.zeros(0, np.int8),
    }


def to_text(solution: np.ndarray) -> str:
    """A solution's slashes as text, row-major: ``/`` for 0 and ``\\`` for 1."""
    return "".join("\\" if v else "/" for v in np.asarray(solution).tolist())


def _checked(batch: Mapping[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The batch's rows, cols, offsets and clues, validated and in the kernel's dtypes."""
    for key in ("rows", "cols", "offsets", "clues"):
        if key not in batch:
            raise ValueError(f"puzzle batch lacks column '{key}'")
    rows = np.ascontiguousarray(batch["rows"], dtype=np.int64)
    cols = np.ascontiguousarray(batch["cols"], dtype=np.int64)
    offsets = np.ascontiguousarray(batch["offsets"], dtype=np.int64)
    clues = np.ascontiguousarray(batch["clues"], dtype=np.int8)
    k = rows.shape[0]
    if cols.shape[0] != k or offsets.shape[0] != k + 1:
        raise ValueError(f"rows, cols and offsets must have k, k and k+1 entries (k = {k})")
    if k and (rows.min() < 1 or cols.min() < 1):
        raise ValueError("every puzzle needs at least one row and one column of cells")
    if (
        offsets[0] != 0
        or offsets[-1] != clues.shape[0]
        or np.any(np.diff(offsets) != (rows + 1) * (cols + 1))
    ):
        raise ValueError("offsets must step by (rows+1)*(cols+1) from 0 to len(clues)")
    if clues.size and (clues.min() < -1 or clues.max() > 4):
        raise ValueError("clues must lie in -1..4 (-1 = no clue)")
    return rows, cols, offsets, clues


_HELD = threading.local()  # this thread's workspace, kept from batch to batch


def _workspace(points: int) -> tuple[Workspace, np.ndarray]:
    """This thread's workspace, made anew only when it is missing or too small for
    ``points`` points.

    The batches a thread solves one after another (a worker's) share it: a fresh one costs
    its page faults on first touch, more than a small batch's search.
    :func:`~solvers.slant.kernel.reset` loads every puzzle whole, so what a batch leaves behind
    never reaches the next; the thread keeps the largest it needed.
    """
    held = getattr(_HELD, "workspace", None)
    if held is None or held[0].shape[1] < points + 1:
        held = make_workspace(points)
        _HELD.workspace = held
    return held


class _Run:
    """A validated batch in one frame, its answers and one workspace, for
    :func:`solve_range` (a range in one call) and :func:`solve_at` (one puzzle a call)."""

    def __init__(self, batch: Mapping[str, np.ndarray], check: int, timed: bool = False) -> None:
        rows, cols, offsets, clues = _checked(batch)
        self.count = k = rows.shape[0]
        most = int(((rows + 1) * (cols + 1)).max()) if k else 1
        self.block = _workspace(most)[0].block  # one workspace for the whole batch
        self.frame = make_frame(rows, cols, offsets, clues, check, timed)
        # the cells before each puzzle; verdict, nodes and ticks per puzzle; the solutions
        layout, self.out, self.solution = frame_views(self.frame)
        self.cells = layout[3]

    def solve(self, lo: int, hi: int) -> None:
        """Solve puzzles ``lo..hi-1`` in one call into the answers."""
        solve_range(self.frame, self.block, lo, hi)

    def each(self) -> Callable[[int], None]:
        """``solve(j)``: puzzle ``j`` alone into the answers, one call per puzzle.

        numba's dispatcher types every argument of every call, and unboxes every array,
        which costs more than a small puzzle's reset; here :func:`solve_at` takes its arrays
        as one table's address (:class:`solvers.borrowed.Addresses`), straight from a
        partial that holds them alive."""
        width = self.block.shape[1]
        solution = np.empty(width, dtype=np.int64)
        first = np.full(width, -1, dtype=np.int64)  # no preferred values: it guesses
        return Addresses(self.frame, self.block, solution, first).bind(solve_at)

    def result(self) -> dict[str, np.ndarray]:
        """The result columns; a puzzle with no solution keeps none."""
        status = self.out[0].astype(np.uint8)
        found = status > 0
        sizes = np.zeros_like(self.cells)
        np.cumsum(np.where(found, np.diff(self.cells), 0), out=sizes[1:])
        keep = np.repeat(found, np.diff(self.cells))
        return {
            "status": status,
            "solution_offsets": sizes,
            "solution": self.solution[keep].astype(np.uint8),
            "nodes": self.out[1].copy(),
        }


def _options(check: int, options: Mapping) -> None:
    if options:
        raise ParamError(f"unknown option '{next(iter(options))}': slant takes only check")
    if check < 1:
        raise ParamError(f"check must be >= 1, not {check}")


def solve_batch(
    batch: Mapping[str, np.ndarray], *, check: int = CHECK, **options
) -> dict[str, np.ndarray]:
    """Solve every puzzle of ``batch``: status (none/unique/multiple), a solution, nodes.

    The whole batch is one call into numba (:func:`solvers.slant.kernel.solve_range`), with
    one workspace.  ``check`` tunes the search (the first node budget of a check, see
    :func:`solvers.slant.kernel.search`); the answers never depend on it, only the nodes and
    the time.
    """
    _options(check, options)
    run = _Run(batch, check)
    run.solve(0, run.count)
    return run.result()


def solve_each(
    batch: Mapping[str, np.ndarray], *, check: int = CHECK, **options
) -> dict[str, np.ndarray]:
    """:func:`solve_batch` adding ``seconds``: each puzzle's wall time, loaded kernels.

    The batch is still one numba call: it reads the CPU's time-stamp counter around each
    puzzle (:mod:`solvers.slant.clock`), so timing costs no call from Python.  Where that
    counter cannot serve as a clock, each puzzle is one call timed by ``time.perf_counter``.
    """
    _options(check, options)
    _warm()
    rate = tick_rate()
    run = _Run(batch, check, timed=rate is not None)
    k = run.count
    if rate is not None:
        run.solve(0, k)
        return {**run.result(), "seconds": run.out[2] / rate}
    seconds = np.zeros(k, dtype=np.float64)
    clock = time.perf_counter
    solve = run.each()
    for j in range(k):
        start = clock()
        solve(j)
        seconds[j] = clock() - start
    return {**run.result(), "seconds": seconds}


# ----------------------------------------------------------------------------- the problem


def instance_seconds(rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Rough seconds to solve one puzzle: deduction is about linear in the cells."""
    return 1e-4 + 4e-6 * np.asarray(rows, dtype=np.float64) * np.asarray(cols, np.float64)


def generate_seconds(rows: int, cols: int, difficulty: str | None = None) -> float:
    """Rough seconds to generate one puzzle (fit to the generation times recorded in
    benchmarks/data/slant.json).  A graded puzzle runs the deductions once per clue it tries
    to drop, so its cost grows as the square of the cells (fit to graded puzzles timed at a
    few sizes, hard ones costing more than easy ones)."""
    if difficulty is None:
        return 1e-4 + 2e-6 * float(rows * cols) ** 1.6
    per = 4.5e-7 if difficulty == "easy" else 1.2e-6
    return 1e-4 + per * float(rows * cols) ** 2


def _costs(columns: Mapping[str, np.ndarray], options: Mapping) -> np.ndarray:
    return instance_seconds(columns["rows"], columns["cols"])


# per point: the workspace's 48 rows of int64 (384 bytes), the batch's layout, solution and
# clues (about 40), and clause learning's tables when every cell is open (about 1,010: see
# solvers.slant.learning.solve_by_learning; the clauses it learns come on top, a few thousand
# of a few dozen literals on a 100 x 100 puzzle)
BYTES_PER_POINT = 1450


def _memory(columns: Mapping[str, np.ndarray], options: Mapping) -> np.ndarray:
    """Peak bytes to generate and solve each puzzle (a bound, not a measurement)."""
    points = (np.asarray(columns["rows"], np.float64) + 1) * (
        np.asarray(columns["cols"], np.float64) + 1
    )
    return BYTES_PER_POINT * points


def _groups(params: Mapping) -> list[Point]:
    """One point of the ``puzzles`` table per (rows, cols), sorted."""
    seed, count = params["seed"], params["count"]
    level = params.get("difficulty")
    graded = {} if level is None else {"difficulty": level}  # absent: the points as before
    return [
        Point(
            PUZZLES.name,
            {"seed": seed, "rows": r, "cols": c, **graded},
            count,
            count * generate_seconds(r, c, level),
            f"{r}x{c}" if level is None else f"{r}x{c} {level}",
        )
        for r, c in grid_sets.shapes(params)
    ]


def _generate(point: Point, lo: int, hi: int) -> pa.Table:
    """Puzzles ``lo..hi-1`` of a generated group, as ``puzzles`` rows."""
    p = point.params
    return batch_to_table(
        generate(
            p["cols"], hi - lo, p["seed"], start=lo, rows=p["rows"], difficulty=p.get("difficulty")
        )
    )


def _check_generate(params: dict, key: tuple) -> dict:
    """Refuse hard puzzles narrower than :data:`MIN_HARD_SIDE` (none exist)."""
    if params.get("difficulty") == "hard":
        for name in ("n", "rows"):
            small = [v for v in params.get(name, ()) if v < MIN_HARD_SIDE]
            if small:
                raise ParamError(
                    f"hard puzzles need at least {MIN_HARD_SIDE} rows and "
                    f"columns (a single row or column is always easy), not "
                    f"{small[0]}",
                    (*key, name),
                )
    return params


def _solve_rows(puzzles: pa.Table, options: Mapping) -> pa.Table:
    """The ``slant`` rows of a slice of a ``puzzles`` set, each puzzle timed alone."""
    return result_table(puzzles, solve_each(table_to_batch(puzzles)))


def _judge_write(tables, params, note):
    """The seed's output: each solved case's rows of slashes; an unsolvable case is noted."""
    case = 0
    for batch in tables[SLANT.name]:
        for rows, cols, status, solution in zip(
            batch.column("rows").to_pylist(),
            batch.column("cols").to_pylist(),
            batch.column("status").to_pylist(),
            batch.column("solution").to_pylist(),
            strict=True,
        ):
            case += 1
            if status == STATUS_NAMES[NONE]:
                note(f"case {case} has no solution")
                continue
            yield text_format.render(rows, cols, solution).encode()


# the second methods of `boardsweep verify` (:func:`crosscheck`)
CROSSCHECK_MAX_CELLS = 900  # the depth-first search alone on a 30 x 30 puzzle: milliseconds


def _valid(rows: int, cols: int, clues: np.ndarray, text: str | None) -> bool:
    """Whether ``text`` (``/`` and ``\\`` per cell, row-major) is a solution: every clue
    holds and no loop closes (a union-find over the points; plain Python, no kernel code)."""
    if text is None or len(text) != rows * cols or set(text) - {"/", "\\"}:
        return False
    width = cols + 1
    parent = list(range((rows + 1) * width))
    touch = [0] * len(parent)

    def root(p: int) -> int:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for k, ch in enumerate(text):
        r, c = divmod(k, cols)
        a, b = (
            (r * width + c + 1, (r + 1) * width + c)
            if ch == "/"
            else (r * width + c, (r + 1) * width + c + 1)
        )
        touch[a] += 1
        touch[b] += 1
        ra, rb = root(a), root(b)
        if ra == rb:
            return False  # a loop
        parent[ra] = rb
    return all(clue < 0 or clue == t for clue, t in zip(clues.tolist(), touch, strict=True))


def _verdict(rows: int, cols: int, clues: np.ndarray, learn: int) -> tuple[int, np.ndarray]:
    """(solutions up to 2, the first found) of one puzzle by the depth-first search alone
    (``learn`` -1) or by clause learning wherever the root leaves a cell open (``learn`` 0)."""
    from . import kernel

    ws, _ = kernel.make_workspace((rows + 1) * (cols + 1))
    sol = np.empty(rows * cols, np.int64)
    clues = np.ascontiguousarray(clues, np.int8)
    found = kernel.verdict(ws.block, np.int64(rows), np.int64(cols), clues, np.int64(learn), sol)
    return int(found), sol


def crosscheck(point: Point, lo: int, hi: int, published: pa.Table) -> Crosscheck | None:
    """Second method: the depth-first search against clause learning, on generated puzzles
    of at most 900 cells.

    Puzzles ``lo..hi-1`` of a generated point by two methods against each other (the
    contract's ``crosscheck``): the depth-first search alone and clause learning from the
    root on (the batch solver picks one of them by the open cells the root leaves).  The
    verdict is theirs where they agree, else says both; the published solution is echoed
    where it is valid (clues hold, no loop, checked in plain Python), else the depth-first
    search's.  None for puzzles read from a file (not at hand) or of more than
    :data:`CROSSCHECK_MAX_CELLS` cells."""
    if "generate" not in point.params or point.table != SLANT.name:
        return None
    group = Point(PUZZLES.name, point.params["generate"], point.units, 0.0, point.label)
    puzzles = _generate(group, lo, hi)
    batch = table_to_batch(puzzles)
    sizes = batch["rows"].astype(np.int64) * batch["cols"]
    if sizes.size and int(sizes.max()) > CROSSCHECK_MAX_CELLS:
        return None
    shown = published.column("solution").to_pylist()[: puzzles.num_rows]
    shown += [None] * (puzzles.num_rows - len(shown))
    status, solution = [], []
    for j in range(puzzles.num_rows):
        r, c = int(batch["rows"][j]), int(batch["cols"][j])
        clues = batch["clues"][batch["offsets"][j] : batch["offsets"][j + 1]]
        dfs, sol = _verdict(r, c, clues, -1)
        learned, _ = _verdict(r, c, clues, 0)
        status.append(
            STATUS_NAMES[dfs]
            if dfs == learned
            else f"depth-first {STATUS_NAMES[dfs]}, clause learning {STATUS_NAMES[learned]}"
        )
        solution.append(
            "" if dfs == 0 else shown[j] if _valid(r, c, clues, shown[j]) else to_text(sol[: r * c])
        )
    return Crosscheck(
        "depth-first search and clause learning; solutions checked valid",
        pa.table(
            {
                "puzzle_id": puzzles.column("puzzle_id"),
                "rows": puzzles.column("rows"),
                "cols": puzzles.column("cols"),
                "status": pa.array(status, pa.string()),
                "solution": pa.array(solution, pa.string()),
            }
        ),
    )


def _warm() -> None:
    """Load (or compile) the solver by solving a tiny puzzle."""
    solve_batch(pack([np.array([[1, -1], [-1, 1]], dtype=np.int8)]))


PROBLEM = InstanceProblem(
    name="slant",
    doc="Slant (Gokigen Naname, UVa 11694): a slash in every cell, clues hold, no loop; "
    "each puzzle's verdict (unique, multiple, none) and a solution",
    modules=(__name__,),
    instances=GRID.instances("puzzles", PUZZLES, _costs, _memory),
    result=SLANT,
    solve_rows=_solve_rows,
    generator=Generator(
        params=Record(
            {
                **grid_sets.side_fields("puzzle", MAX_SIDE),
                **grid_sets.count_seed_fields(
                    "puzzle", "(rows, n) size", "seed, rows, n, difficulty, index"
                ),
                "difficulty": Field(
                    Choice(LEVELS),
                    doc="easy or hard, Simon Tatham's levels: easy puzzles fall to his "
                    "easy deductions alone, hard ones need his harder ones (never "
                    "a guess); absent: minimal unique puzzles",
                ),
            },
            "a mapping with n, count, seed (and rows, difficulty)",
            check_all=_check_generate,
        ),
        groups=_groups,
        generate=_generate,
    ),
    seed_format=SeedFormat(text_format.read, _judge_write, text_format.write),
    report=report,
    warm=_warm,
    crosscheck=crosscheck,
)
