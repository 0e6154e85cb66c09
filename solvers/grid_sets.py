"""The grid-set kit: what the instance problems over grids (walled boards, Slant puzzles) share.

Such a problem's set is a table of instances, each an id, a shape (``rows`` x ``cols`` cells)
and one grid string (:mod:`solvers.gridtext`): one character per cell, or per cell corner
(``pad`` 1: ``(rows + 1) x (cols + 1)`` points).  Its kernels take the same instances as a
batch of columns: the ids, ``rows``, ``cols``, ``offsets`` (``k + 1`` entries) and the grid's
codes, flat.  A :class:`GridSet` describes one problem's grids (names, alphabet, the words of
its messages) and does for it what both problems do alike: the id column, the conversions
between set tables and batches, the set checks with their messages, the generator's batch,
and the seed-format tails (a set table from what a reader found, its grids back as rows of
text).  The helpers below it parse what the seed formats share: size lines
(``n`` for a square, or ``rows cols``), the generated shapes and their parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from . import gridtext
from .contract import Column, InstanceSet, Table
from .schema import Field, Integer, IntegerSet, ParamError

__all__ = [
    "GridSet",
    "ints",
    "size_numbers",
    "shape",
    "fits",
    "first_outside",
    "shapes",
    "side_fields",
    "count_seed_fields",
]


@dataclass(frozen=True)
class GridSet:
    """One problem's grids: how its set table and its batches name and spell them.

    ``noun`` names an instance in messages (``board``) and its id column (``board_id``);
    ``grid_name`` is the column of its grid; ``chars`` spells code ``i + base`` as
    ``chars[i]``, the codes held as ``dtype``; ``alphabet`` says which characters a grid may
    hold (for messages); ``pad`` is 0 for a character per cell, 1 per point; ``size_rule``
    says what a shape needs, ``length_rule`` (a format string of ``n`` found, ``r``, ``c`` and
    ``e`` expected) what a grid of the wrong length is.  The ``extra`` columns a set table is
    built with stand between ``cols`` and the grid.
    """

    noun: str
    grid_name: str
    chars: str
    alphabet: str
    size_rule: str
    length_rule: str
    base: int = 0
    dtype: type = np.uint8
    pad: int = 0

    @property
    def id_name(self) -> str:
        """The id column's name: the noun's, as ``board_id``."""
        return f"{self.noun}_id"

    def id_column(self) -> Column:
        """The id column of the set and result tables."""
        return Column(
            self.id_name,
            pa.int64(),
            f"the {self.noun}'s id: its index within its generated group, "
            "or as given (0, 1, ... in seed-file order)",
        )

    def key_columns(self, rows_doc: str, cols_doc: str) -> tuple[Column, Column, Column]:
        """The id, ``rows`` and ``cols`` columns a set table starts with (shapes in cells)."""
        return (
            self.id_column(),
            Column("rows", pa.int32(), rows_doc, "cells"),
            Column("cols", pa.int32(), cols_doc, "cells"),
        )

    def instances(
        self,
        key: str,
        table: Table,
        costs: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray],
        memory: Callable[[Mapping[str, np.ndarray], Mapping], np.ndarray],
        check: Callable[[pa.Table], None] | None = None,
        groups: tuple[str, ...] = (),
    ) -> InstanceSet:
        """The problem's instance set under job key ``key``: costs and memory estimated from
        the shape (``rows``, ``cols``), generated groups told apart by shape and ``groups``;
        ``check`` defaults to :meth:`check`."""
        return InstanceSet(
            key=key,
            table=table,
            id_column=self.id_name,
            cost_columns=("rows", "cols"),
            costs=costs,
            memory=memory,
            check=self.check if check is None else check,
            group_columns=("rows", "cols", *groups),
        )

    def codes(self, column: pa.Array | pa.ChunkedArray) -> gridtext.Codes:
        """The codes of a grid column (:func:`solvers.gridtext.codes`)."""
        return gridtext.codes(column, self.chars, self.base, self.dtype)

    def _bad_char(self, where: str, char: str) -> ParamError:
        """The error of a grid holding ``char``, outside the alphabet."""
        return ParamError(f"{where}: {self.grid_name} may hold only {self.alphabet}, not {char!r}")

    def to_batch(self, table: pa.Table) -> dict[str, np.ndarray]:
        """The kernels' batch of a set table (ParamError names an instance with a bad code)."""
        grid = self.codes(table.column(self.grid_name))
        ids = ints(table, self.id_name, np.int64)
        if grid.bad_row >= 0:
            raise self._bad_char(f"{self.noun} {ids[grid.bad_row]}", grid.bad_char)
        return {
            self.id_name: ids,
            "rows": ints(table, "rows", np.int32),
            "cols": ints(table, "cols", np.int32),
            "offsets": grid.offsets,
            self.grid_name: grid.values,
        }

    def from_batch(self, batch: Mapping[str, np.ndarray], schema: pa.Schema, **extra) -> pa.Table:
        """The set table of a batch; ``extra`` columns stand between ``cols`` and the grid."""
        return pa.table(
            {
                self.id_name: pa.array(np.asarray(batch[self.id_name], dtype=np.int64)),
                "rows": pa.array(np.asarray(batch["rows"], dtype=np.int32)),
                "cols": pa.array(np.asarray(batch["cols"], dtype=np.int32)),
                **extra,
                self.grid_name: gridtext.strings(
                    batch[self.grid_name], batch["offsets"], self.chars, self.base
                ),
            },
            schema=schema,
        )

    def echo(self, table: pa.Table) -> dict[str, pa.ChunkedArray]:
        """A set's id, rows and cols as the first columns of its result rows."""
        return {
            self.id_name: table.column(self.id_name).cast(pa.int64()),
            "rows": table.column("rows").cast(pa.int32()),
            "cols": table.column("cols").cast(pa.int32()),
        }

    def check(self, table: pa.Table) -> None:
        """ParamError naming the first instance of a set with a bad size or a bad grid."""
        ids = table.column(self.id_name).to_numpy()
        rows = np.asarray(table.column("rows").to_numpy(), dtype=np.int64)
        cols = np.asarray(table.column("cols").to_numpy(), dtype=np.int64)
        grid = self.codes(table.column(self.grid_name))
        lengths = np.diff(grid.offsets)
        expected = (rows + self.pad) * (cols + self.pad)
        bad = gridtext.first_bad_grid(rows, cols, lengths, expected, grid.bad_row)
        if bad is None:
            return
        i, reason = bad
        where, r, c = f"{self.noun} {ids[i]}", int(rows[i]), int(cols[i])
        if reason == gridtext.SIZE:
            raise ParamError(f"{where}: {r} x {c} cells: {self.size_rule}")
        if reason == gridtext.LARGE:
            raise ParamError(f"{where}: {r} x {c} has {r * c} cells: at most 2**31 - 1")
        if reason == gridtext.LENGTH:
            rule = self.length_rule.format(n=int(lengths[i]), r=r, c=c, e=int(expected[i]))
            raise ParamError(f"{where}: {rule}")
        raise self._bad_char(where, grid.bad_char)

    def generated(
        self, start: int, count: int, rows: int, cols: int, values: np.ndarray
    ) -> dict[str, np.ndarray]:
        """The batch of generated instances ``start..start+count-1``, their codes flat."""
        size = (rows + self.pad) * (cols + self.pad)
        return {
            self.id_name: np.arange(start, start + count, dtype=np.int64),
            "rows": np.full(count, rows, dtype=np.int32),
            "cols": np.full(count, cols, dtype=np.int32),
            "offsets": np.arange(count + 1, dtype=np.int64) * size,
            self.grid_name: values,
        }

    def read_table(
        self, sizes: Sequence[tuple[int, int]], grids: list[str], schema: pa.Schema, **extra
    ) -> pa.Table:
        """The set table of a seed-format file's shapes and grids, ids 0, 1, ... in order."""
        k = len(sizes)
        size = np.array(sizes, dtype=np.int32).reshape(k, 2)
        return pa.table(
            {
                self.id_name: pa.array(np.arange(k, dtype=np.int64)),
                "rows": pa.array(size[:, 0]),
                "cols": pa.array(size[:, 1]),
                **extra,
                self.grid_name: pa.array(grids, pa.string()),
            },
            schema=schema,
        )

    def text_lines(self, table: pa.Table) -> Iterator[str]:
        """A set's instances as seed-format lines: a size line, then the grid's rows."""
        for r, c, grid in zip(
            table.column("rows").to_pylist(),
            table.column("cols").to_pylist(),
            table.column(self.grid_name).to_pylist(),
            strict=True,
        ):
            yield f"{r}\n" if r == c else f"{r} {c}\n"
            width = c + self.pad
            yield from (grid[i * width : (i + 1) * width] + "\n" for i in range(r + self.pad))


def ints(table: pa.Table, name: str, dtype: type) -> np.ndarray:
    """An integer column of ``table`` as a numpy array of ``dtype``, nulls read as 0."""
    column = table.column(name)
    if column.null_count:
        column = column.fill_null(0)
    return np.asarray(column.to_numpy(), dtype=dtype)


def size_numbers(line: str) -> list[int] | None:
    """The one or two integers of a size line, or None when it holds anything else."""
    parts = line.split()
    try:
        values = [int(p) for p in parts]
    except ValueError:
        return None
    return values if len(values) in (1, 2) else None


def shape(values: Sequence[int]) -> tuple[int, int]:
    """``(rows, cols)`` of a size line's integers: ``n`` (a square) or ``rows cols``."""
    return (values[0], values[0]) if len(values) == 1 else (values[0], values[1])


def fits(rows: int, cols: int) -> bool:
    """Whether a ``rows`` x ``cols`` grid has at most :data:`gridtext.MOST_CELLS` cells."""
    return rows * cols <= gridtext.MOST_CELLS


def first_outside(row: str, chars: str) -> tuple[int, str] | None:
    """The first (0-based column, character) of ``row`` not in ``chars``, or None."""
    if sum(row.count(ch) for ch in chars) == len(row):
        return None
    return next((j, ch) for j, ch in enumerate(row) if ch not in chars)


def shapes(params: Mapping) -> list[tuple[int, int]]:
    """The (rows, cols) of generate params: every (rows, n) pair, sorted, else (n, n)."""
    if "rows" in params:
        return sorted((r, c) for r in params["rows"] for c in params["n"])
    return [(n, n) for n in params["n"]]


def side_fields(noun: str, most: int) -> dict[str, Field]:
    """The ``n`` and ``rows`` keys of generate params, sides 1..``most``."""
    sides = IntegerSet(1, most)
    return {
        "n": Field(sides, required=True, doc=f"{noun} sides (columns; rows too unless given)"),
        "rows": Field(sides, doc=f"{noun} rows: every (rows, n) pair when given"),
    }


def count_seed_fields(noun: str, per: str, depends: str) -> dict[str, Field]:
    """The ``count`` and ``seed`` keys of generate params."""
    return {
        "count": Field(Integer(1, 10**12), required=True, doc=f"{noun}s per {per}"),
        "seed": Field(
            Integer(0, 2**63 - 1),
            required=True,
            doc=f"random seed: a {noun} depends on ({depends})",
        ),
    }
