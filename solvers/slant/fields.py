"""Named rows of one int64 block, for numba code: ``ws.touch[p]`` instead of ``ws[_TOUCH, p]``.

A *block* is a 2-D C-contiguous int64 array whose rows (or runs of rows) are fields of a
workspace.  :func:`define` makes a Python class holding such a block and teaches numba to
read ``ws.name`` as a *row*: a bare pointer to the field's first element, which ``[i]`` (or
``[d, i]`` for a field of several rows) loads from and stores to.  The row holds no
reference, so numba counts none: a field read costs the load that indexing the block would.
(A tuple or a record of arrays, tried first, made numba count a reference on every field
read, and ran the Slant kernel several times slower.)  A row lives no longer than the call that took
it from its workspace, and indexes are not checked, like the block's own in numba.

In Python a workspace is indexed like its block (``ws[row, i]``), which tests use.
"""

from __future__ import annotations

import operator

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import (
    NativeValue,
    intrinsic,
    models,
    overload,
    overload_attribute,
    register_model,
    typeof_impl,
    unbox,
)

__all__ = ["Block", "define"]

_BLOCK = types.Array(types.int64, 2, "C")
_PTR = types.CPointer(types.int64)


class Block:
    """A workspace: an int64 block whose rows are named fields (see :func:`define`)."""

    __slots__ = ("block",)
    FIELDS: dict[str, tuple[int, int]] = {}  # name: (first row, rows)
    ROWS = 0

    def __init__(self, points: int) -> None:
        self.block = np.zeros((self.ROWS, points), dtype=np.int64)

    def __getitem__(self, key):
        """Index the block: ``ws[row, i]``, ``ws[row, lo:hi]`` (Python only)."""
        return self.block[key]

    def copy(self) -> Block:
        """A workspace of the same class holding a copy of this one's block."""
        twin = object.__new__(type(self))
        twin.block = self.block.copy()
        return twin

    @property
    def shape(self) -> tuple[int, int]:
        """The block's shape: (rows, entries per row)."""
        return self.block.shape


class BlockType(types.Type):
    """numba's type of one :func:`define`'d workspace class."""

    def __init__(self, name: str) -> None:
        super().__init__(name=name)


class RowType(types.Type):
    """numba's type of one field: a pointer to its first element; ``many``: the field has
    several rows, indexed ``[d, i]`` (its stride, in elements, travels with it)."""

    def __init__(self, many: bool) -> None:
        self.many = many
        super().__init__(name="FieldRows" if many else "FieldRow")


ROW, ROWS = RowType(False), RowType(True)


@register_model(BlockType)
class _BlockModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("block", _BLOCK)])


@register_model(RowType)
class _RowModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("data", _PTR), ("stride", types.intp)])


@unbox(BlockType)
def _unbox(typ, obj, c):
    held = c.pyapi.object_getattr_string(obj, "block")
    block = c.unbox(_BLOCK, held)
    c.pyapi.decref(held)
    out = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    out.block = block.value
    return NativeValue(out._getvalue(), is_error=block.is_error)


def _field_codegen(row_type):
    def codegen(context, builder, sig, args):
        ws_value, first_value = args
        proxy = cgutils.create_struct_proxy(sig.args[0])(context, builder, value=ws_value)
        block = context.make_array(_BLOCK)(context, builder, value=proxy.block)
        stride = builder.extract_value(block.strides, 0)  # bytes per row
        first_value = context.cast(builder, first_value, sig.args[1], types.intp)
        start = builder.gep(
            builder.bitcast(block.data, cgutils.voidptr_t), [builder.mul(first_value, stride)]
        )
        row = cgutils.create_struct_proxy(row_type)(context, builder)
        row.data = builder.bitcast(start, context.get_value_type(_PTR))
        row.stride = builder.sdiv(stride, context.get_constant(types.intp, 8))
        return row._getvalue()

    return codegen


@intrinsic
def _field(typingctx, ws, first):
    """The one-row field of ``ws`` at row ``first``."""
    return ROW(ws, first), _field_codegen(ROW)


@intrinsic
def _fields(typingctx, ws, first):
    """The field of ``ws`` with several rows, from row ``first`` on."""
    return ROWS(ws, first), _field_codegen(ROWS)


def _address(context, builder, row_type, row_value, index_type, index_value):
    row = cgutils.create_struct_proxy(row_type)(context, builder, value=row_value)
    if row_type.many:
        d, i = cgutils.unpack_tuple(builder, index_value, 2)
        d = context.cast(builder, d, index_type[0], types.intp)
        i = context.cast(builder, i, index_type[1], types.intp)
        return builder.gep(row.data, [builder.add(builder.mul(d, row.stride), i)])
    i = context.cast(builder, index_value, index_type, types.intp)
    return builder.gep(row.data, [i])


@intrinsic
def _load(typingctx, row, index):
    def codegen(context, builder, sig, args):
        return builder.load(_address(context, builder, sig.args[0], args[0], sig.args[1], args[1]))

    return types.int64(row, index), codegen


@intrinsic
def _store(typingctx, row, index, value):
    def codegen(context, builder, sig, args):
        where = _address(context, builder, sig.args[0], args[0], sig.args[1], args[1])
        builder.store(context.cast(builder, args[2], sig.args[2], types.int64), where)
        return context.get_dummy_value()

    return types.void(row, index, value), codegen


def _index_fits(row, index) -> bool:
    if not isinstance(row, RowType):
        return False
    if row.many:
        return (
            isinstance(index, types.BaseTuple)
            and len(index) == 2
            and all(isinstance(t, types.Integer) for t in index)
        )
    return isinstance(index, types.Integer)


@overload(operator.getitem)
def _getitem(row, index):
    if _index_fits(row, index):
        return lambda row, index: _load(row, index)
    return None


@overload(operator.setitem)
def _setitem(row, index, value):
    if _index_fits(row, index) and isinstance(value, (types.Integer, types.Boolean)):
        return lambda row, index, value: _store(row, index, value)
    return None


def _attribute(numba_type: BlockType, name: str, first: int, many: bool) -> None:
    # (no inline="always": numba 0.68 then drops a store to the field, ws.f[i] = v)
    @overload_attribute(BlockType, name)
    def _get(ws):
        if ws is not numba_type:
            return None
        if many:
            return lambda ws: _fields(ws, first)
        return lambda ws: _field(ws, first)


def _wrapper(numba_type: BlockType):
    @intrinsic
    def wrap(typingctx, block):
        """The workspace whose block is ``block`` (a 2-D C-contiguous int64 array)."""
        if block != _BLOCK:
            return None

        def codegen(context, builder, sig, args):
            out = cgutils.create_struct_proxy(numba_type)(context, builder)
            out.block = args[0]
            context.nrt.incref(builder, sig.args[0], args[0])  # the workspace holds it too
            return out._getvalue()

        return numba_type(block), codegen

    return wrap


def define(name: str, fields: dict[str, tuple[int, int]]) -> type[Block]:
    """A :class:`Block` subclass ``name`` whose ``fields`` (name: (first row, rows)) numba
    code reads as ``ws.name[i]`` (one row) or ``ws.name[d, i]`` (several); ``Cls(points)``
    makes a zeroed workspace of ``points`` entries per row.

    ``Cls.wrap(block)``, bound to a module-level name, makes in numba code the workspace of
    a bare block: an entry point called often from Python takes ``ws.block``, which numba's
    dispatcher types at C speed (a workspace object goes through a Python lookup on every
    call)."""
    rows = max(first + count for first, count in fields.values())
    numba_type = BlockType(name)
    cls = type(
        name,
        (Block,),
        {
            "__slots__": (),
            "FIELDS": dict(fields),
            "ROWS": rows,
            "wrap": staticmethod(_wrapper(numba_type)),
        },
    )
    typeof_impl.register(cls)(lambda val, c: numba_type)
    for field, (first, count) in fields.items():
        _attribute(numba_type, field, first, count > 1)
    return cls
