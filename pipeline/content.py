"""A table's content digest: a sha256 of its values, however they are chunked or buffered.

A record's ``checksum`` covers its payload bytes, which only the worker's serialisation makes;
rows read back from a published Parquet file are equal values in other buffers (a slice of a
larger column, a validity bitmap where there are no nulls, other chunks), so their bytes differ.
:func:`rows_digest` hashes what the rows *are*: per column its name and type, which values are
null, and the values themselves (the bytes of fixed-width values, the lengths and bytes of
strings, the lengths and flattened items of lists).  It is computed where the task ran and
stored with the record, so rows re-read from a table after the payload was compacted away are
checked against it before they are merged again, and two workers' results for one unit can be
compared without trusting either serialisation.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["rows_digest"]


def rows_digest(table: pa.Table) -> str:
    """sha256 of ``table``'s column names, types and values (equal values: equal digests)."""
    digest = hashlib.sha256(f"rows {table.num_rows}\0".encode())
    for name, column in zip(table.schema.names, table.columns, strict=True):
        digest.update(f"{name}\0{_type_name(column.type)}\0".encode())
        _feed(digest, column.combine_chunks() if column.num_chunks != 1 else column.chunk(0))
    return digest.hexdigest()


def _type_name(kind: pa.DataType) -> str:
    """A type's name without its list item's field name (``item`` in Arrow, ``element`` as
    Parquet stores it)."""
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return f"{'large_' * pa.types.is_large_list(kind)}list<{_type_name(kind.value_type)}>"
    return str(kind)


def _feed(digest, array: pa.Array) -> None:
    """Add one array's nulls and values to ``digest``."""
    kind = array.type
    digest.update(f"{len(array)}:{array.null_count}\0".encode())
    if len(array) == 0:
        return
    if array.null_count:
        digest.update(np.packbits(array.is_valid().to_numpy(zero_copy_only=False)).tobytes())
    if pa.types.is_boolean(kind):
        digest.update(array.fill_null(False).to_numpy(zero_copy_only=False).tobytes())
    elif pa.types.is_string(kind) or pa.types.is_binary(kind):
        filled = array.fill_null(pa.scalar(b"" if pa.types.is_binary(kind) else "", kind))
        offsets = np.frombuffer(filled.buffers()[1], np.int32)[
            filled.offset : filled.offset + len(filled) + 1
        ]
        digest.update(np.diff(offsets).astype("<i8").tobytes())
        data = filled.buffers()[2]
        if data is not None and offsets[-1] > offsets[0]:
            digest.update(memoryview(data)[int(offsets[0]) : int(offsets[-1])])
    elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
        lengths = pc.list_value_length(array).fill_null(0)
        digest.update(lengths.to_numpy(zero_copy_only=False).astype("<i8").tobytes())
        _feed(digest, array.flatten())
    elif pa.types.is_primitive(kind) or pa.types.is_decimal(kind):
        filled = array.fill_null(pa.scalar(0, kind)) if array.null_count else array
        width = kind.bit_width // 8
        data = filled.buffers()[1]
        digest.update(
            memoryview(data)[filled.offset * width : (filled.offset + len(filled)) * width]
        )
    else:  # any other type: its Python values (slow, but equal values hash equal)
        digest.update(repr(array.to_pylist()).encode())
