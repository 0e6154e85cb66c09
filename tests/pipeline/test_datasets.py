"""Instance sets: batches and Parquet tables convert both ways; bad sets name the file."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

import solvers
from pipeline import datasets, store
from pipeline.errors import InputError
from tests.conftest import ROOT

ROOKS = solvers.get("max_rooks")


def test_round_trip_keeps_every_cell():
    batch = ROOKS.generate(n=5, density=0.3, count=50, seed=11)
    table = datasets.batch_to_table(ROOKS, batch, {"density": 0.3})
    assert table.column_names == ["board_id", "rows", "cols", "cells", "density"]
    assert table.column("cells")[0].as_py() == "".join(".X"[c] for c in batch["cells"][:25])
    back = datasets.table_to_batch(ROOKS, table, "mem")
    for key in ("board_id", "rows", "cols", "offsets", "cells"):
        np.testing.assert_array_equal(back[key], batch[key])


def test_read_set_tells_parquet_from_text(tmp_path):
    text = ROOT / "data" / "max_rooks_sample.txt"
    from_text = datasets.read_set("max_rooks", ROOKS, text)
    path = tmp_path / "boards.parquet"
    store.write_table(datasets.batch_to_table(ROOKS, from_text), path)
    from_parquet = datasets.read_set("max_rooks", ROOKS, path)
    np.testing.assert_array_equal(from_parquet["cells"], from_text["cells"])
    assert list(from_parquet["rows"]) == [4, 2, 3, 3, 4]


def test_slice_and_digest():
    batch = ROOKS.generate(n=3, density=0.5, count=10, seed=1)
    part = datasets.slice_batch(ROOKS, batch, 2, 5)
    assert list(part["board_id"]) == [2, 3, 4] and part["offsets"][0] == 0
    np.testing.assert_array_equal(part["cells"], batch["cells"][18:45])
    assert datasets.batch_digest(part) == datasets.batch_digest(
        datasets.slice_batch(ROOKS, batch, 2, 5))
    assert datasets.batch_digest(part) != datasets.batch_digest(
        datasets.slice_batch(ROOKS, batch, 2, 6))


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (pa.table({"board_id": [0], "rows": [1], "cols": [2]}),
         "not a boards set: missing column(s) cells (expected board_id, rows, cols, cells)"),
        (pa.table({"board_id": [0, 1], "rows": [1, 1], "cols": [2, 2], "cells": [".X", ".Q"]}),
         "board_id 1: cells may hold only '.X'"),
        (pa.table({"board_id": [0], "rows": [2], "cols": [2], "cells": [".X"]}),
         "board 0: 2 cells for 2 x 2"),
    ],
)
def test_bad_parquet_sets(tmp_path, table, message):
    path = tmp_path / "bad.parquet"
    store.write_table(table, path)
    with pytest.raises(InputError) as info:
        datasets.read_set("max_rooks", ROOKS, path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_unreadable_and_binary_inputs(tmp_path):
    with pytest.raises(InputError, match="cannot read: No such file or directory"):
        datasets.read_set("max_rooks", ROOKS, tmp_path / "none.txt")
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InputError, match="not a text file"):
        datasets.read_set("max_rooks", ROOKS, binary)
