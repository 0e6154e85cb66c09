"""Instance sets (walled boards, Slant puzzles) as Arrow tables, and the solver's batches.

A set's table has the problem's id column (``board_id``), ``rows``, ``cols`` and one string
column of row-major cell characters (``cells``: ``.``/``X``; Slant's ``clues``: ``.``/``0``-``4``
over grid points), plus the generator parameters that made it (``density``) where there were
any. The string column's buffers are exactly the batch's flat ``cells`` + ``offsets`` arrays, so
converting costs one table lookup per cell.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import numpy as np
import pyarrow as pa

from solvers.interface import ParamError

from . import store
from .errors import InputError

__all__ = ["batch_to_table", "table_to_batch", "read_set", "ingest_text", "generated_batch",
           "slice_batch", "batch_digest"]


def batch_to_table(module: ModuleType, batch: Mapping[str, np.ndarray],
                   extra: Mapping[str, object] | None = None) -> pa.Table:
    """The instance-set table of ``batch``; ``extra`` adds constant columns (e.g. density)."""
    chars = np.frombuffer(module.CELL_CHARS.encode(), dtype=np.uint8)
    codes = np.asarray(batch[module.CELLS_COLUMN]).astype(np.int16) - module.CELL_BASE
    text = chars[codes]
    offsets = np.asarray(batch["offsets"], dtype=np.int64)
    k = offsets.shape[0] - 1
    cells = pa.LargeStringArray.from_buffers(k, pa.py_buffer(offsets), pa.py_buffer(text))
    columns = {
        module.ID_COLUMN: pa.array(batch[module.ID_COLUMN], pa.int64()),
        "rows": pa.array(batch["rows"], pa.int32()),
        "cols": pa.array(batch["cols"], pa.int32()),
        module.CELLS_COLUMN: cells.cast(pa.string()),
    }
    for name, value in (extra or {}).items():
        columns[name] = pa.array([value] * k)
    return pa.table(columns)


def table_to_batch(module: ModuleType, table: pa.Table, source: str) -> dict[str, np.ndarray]:
    """The solver batch of an instance-set table; :class:`InputError` names ``source``."""
    needed = [module.ID_COLUMN, "rows", "cols", module.CELLS_COLUMN]
    missing = [c for c in needed if c not in table.column_names]
    if missing:
        raise InputError(f"not a {module.INPUT_KEY} set: missing column(s) {', '.join(missing)}"
                         f" (expected {', '.join(needed)})", source)
    text = table.column(module.CELLS_COLUMN).combine_chunks().cast(pa.large_string())
    if text.null_count:
        raise InputError(f"column {module.CELLS_COLUMN} has nulls", source)
    _, offsets_buf, data_buf = text.buffers()
    k = len(text)
    offsets = np.frombuffer(offsets_buf, dtype=np.int64)[text.offset:text.offset + k + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8)[offsets[0]:offsets[-1]] if k else np.zeros(
        0, np.uint8)
    lookup = np.full(256, -128, dtype=np.int16)
    for code, char in enumerate(module.CELL_CHARS):
        lookup[ord(char)] = code + module.CELL_BASE
    codes = lookup[data]
    ids = table.column(module.ID_COLUMN).to_numpy()
    if (codes == -128).any():
        at = int(np.searchsorted(offsets - offsets[0], int(np.argmax(codes == -128)), "right")) - 1
        raise InputError(f"{module.ID_COLUMN} {ids[at]}: {module.CELLS_COLUMN} may hold only "
                         f"{module.CELL_CHARS!r}", source)
    batch = {
        module.ID_COLUMN: ids.astype(np.int64),
        "rows": table.column("rows").to_numpy().astype(np.int32),
        "cols": table.column("cols").to_numpy().astype(np.int32),
        "offsets": (offsets - offsets[0]).astype(np.int64),
        module.CELLS_COLUMN: codes.astype(_code_dtype(module)),
    }
    batch = _checked(module, batch, source)
    for name in getattr(module, "GENERATE_COLUMNS", ()):  # per-instance generator parameters
        if name in table.column_names:
            batch[name] = table.column(name).to_numpy(zero_copy_only=False).astype(np.float64)
    return batch


def _code_dtype(module: ModuleType) -> type:
    return np.int8 if module.CELL_BASE < 0 else np.uint8


def _checked(module: ModuleType, batch: dict, source: str) -> dict:
    check = getattr(module, "check_batch", None)
    if check is None:
        return batch
    try:
        return check(batch)
    except ParamError as exc:
        raise InputError(str(exc), source) from None


def _format(problem: str) -> ModuleType:
    return importlib.import_module(f"pipeline.formats.{problem}")


def ingest_text(problem: str, module: ModuleType, path: str | Path) -> dict[str, np.ndarray]:
    """Parse a seed-format text file into a batch (errors name the file and line)."""
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", str(path)) from None
    except UnicodeDecodeError:
        raise InputError("not a text file", str(path)) from None
    return _checked(module, _format(problem).parse(text, str(path)), str(path))


def read_set(problem: str, module: ModuleType, path: str | Path) -> dict[str, np.ndarray]:
    """Read an instance set: Parquet by its magic bytes, else the seed's text format."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", str(path)) from None
    if magic == b"PAR1":
        return table_to_batch(module, store.read_table(path), str(path))
    return ingest_text(problem, module, path)


def generated_batch(module: ModuleType, kwargs: Mapping) -> tuple[dict, dict]:
    """Generate the instances of one ``generate_points`` entry: (batch, extra columns)."""
    batch = module.generate(**kwargs)
    extra = {name: kwargs[name] for name in getattr(module, "GENERATE_COLUMNS", ())}
    return batch, extra


def slice_batch(module: ModuleType, batch: Mapping[str, np.ndarray], lo: int, hi: int) -> dict:
    """Instances ``lo..hi-1`` of a batch, offsets rebased to 0."""
    offsets = batch["offsets"]
    a, b = int(offsets[lo]), int(offsets[hi])
    part = {name: batch[name][lo:hi].copy()
            for name in (module.ID_COLUMN, "rows", "cols", *getattr(module, "GENERATE_COLUMNS", ()))
            if name in batch}
    part["offsets"] = offsets[lo:hi + 1] - a
    part[module.CELLS_COLUMN] = batch[module.CELLS_COLUMN][a:b].copy()
    return part


def batch_digest(batch: Mapping[str, np.ndarray]) -> str:
    """A hash of a batch's contents: task keys change when the instances do."""
    digest = hashlib.sha256()
    for name in sorted(batch):
        array = np.ascontiguousarray(batch[name])
        digest.update(name.encode() + str(array.dtype).encode() + array.tobytes())
    return digest.hexdigest()[:20]
