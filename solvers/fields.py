"""The workspace kit for numba kernels: named rows of one integer block, ``ws.cell[i]``
instead of ``ws[_CELL, i]``.

A *block* is a 2-D C-contiguous integer array (int64 unless :func:`define` is told
otherwise) whose rows (or runs of rows) are fields of a workspace.  :func:`define` makes a
Python class holding such a block and teaches numba to read ``ws.name`` as a *row*: a bare
pointer to the field's first element, which ``[i]`` (or ``[d, i]`` for a field of several
rows) loads from and stores to.  The row holds no reference, so numba counts none: a field
read costs the load that indexing the block would.  (A tuple or a record of arrays, tried
first, made numba count a reference on every field read, and ran the Slant kernel several
times slower.)  A row lives no longer than the call that took it from its workspace, and
indexes are not checked, like the block's own in numba.  ``ws.width`` is the entries per row.

A workspace *owns* its block (numba counts a reference to it wherever the workspace goes,
as it would for the array) or *borrows* it (``Cls.borrow(block)``: the block's address and
shape only, so passing it on costs nothing).  Counting is an atomic add and subtract on every
call a workspace is handed to, inlined or not, which a deduction loop pays at every step.  A
borrowed workspace is only safe while its block lives: an entry point borrows its own
argument, which lives for the whole call; a block made inside numba code needs an owner.

Any kernel may define workspaces; workspaces of several kinds may share field names (Slant's
three engines do: one vocabulary).  In Python a workspace is indexed like its block
(``ws[row, i]``), which tests use.
"""

from __future__ import annotations

import operator

import numba
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


class Block:
    """A workspace: an integer block whose rows are named fields (see :func:`define`)."""

    __slots__ = ("block",)
    FIELDS: dict[str, tuple[int, int]] = {}  # name: (first row, rows)
    ROWS = 0
    DTYPE = np.int64

    def __init__(self, points: int) -> None:
        self.block = np.zeros((self.ROWS, points), dtype=self.DTYPE)

    def __getitem__(self, key):
        """Index the block: ``ws[row, i]``, ``ws[row, lo:hi]`` (Python only)."""
        return self.block[key]

    def copy(self) -> Block:
        """A workspace of the same class holding a copy of this one's block."""
        twin = object.__new__(type(self))
        twin.block = self.block.copy()
        return twin

    @property
    def width(self) -> int:
        """The entries per row (a field's length), as ``ws.width`` reads in numba too."""
        return self.block.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        """The block's shape: (rows, entries per row)."""
        return self.block.shape


class BlockType(types.Type):
    """numba's type of one :func:`define`'d workspace class: ``array`` is its block's type."""

    def __init__(self, name: str, dtype: types.Integer) -> None:
        self.array = types.Array(dtype, 2, "C")
        super().__init__(name=name)


class RowType(types.Type):
    """numba's type of one field of ``dtype`` entries: a pointer to its first element;
    ``many``: the field has several rows, indexed ``[d, i]`` (its stride, in elements,
    travels with it)."""

    def __init__(self, many: bool, dtype: types.Integer) -> None:
        self.many = many
        self.dtype = dtype
        super().__init__(name=f"FieldRows({dtype})" if many else f"FieldRow({dtype})")


class BorrowedType(types.Type):
    """numba's type of a workspace that borrows its block: the block's data pointer, bytes per
    row and entries per row, and no reference (numba counts none when it is passed on).  The
    block must outlive it: an entry point's argument does."""

    def __init__(self, owner: BlockType) -> None:
        self.owner = owner
        self.array = owner.array
        super().__init__(name=f"Borrowed{owner.name}")


@register_model(BorrowedType)
class _BorrowedModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [
            ("data", types.CPointer(fe_type.array.dtype)),
            ("stride", types.intp),
            ("width", types.intp),
        ]
        super().__init__(dmm, fe_type, members)


@register_model(BlockType)
class _BlockModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("block", fe_type.array)])


@register_model(RowType)
class _RowModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        members = [("data", types.CPointer(fe_type.dtype)), ("stride", types.intp)]
        super().__init__(dmm, fe_type, members)


@unbox(BlockType)
def _unbox(typ, obj, c):
    held = c.pyapi.object_getattr_string(obj, "block")
    block = c.unbox(typ.array, held)
    c.pyapi.decref(held)
    out = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    out.block = block.value
    return NativeValue(out._getvalue(), is_error=block.is_error)


def _parts(context, builder, ws_type, ws_value):
    """In generated code: the workspace's data pointer (void*), bytes per row, entries per row."""
    proxy = cgutils.create_struct_proxy(ws_type)(context, builder, value=ws_value)
    if isinstance(ws_type, BorrowedType):
        return builder.bitcast(proxy.data, cgutils.voidptr_t), proxy.stride, proxy.width
    block = context.make_array(ws_type.array)(context, builder, value=proxy.block)
    return (
        builder.bitcast(block.data, cgutils.voidptr_t),
        builder.extract_value(block.strides, 0),
        builder.extract_value(block.shape, 1),
    )


def _field_codegen(row_type):
    def codegen(context, builder, sig, args):
        ws_value, first_value = args
        data, stride, _ = _parts(context, builder, sig.args[0], ws_value)
        first_value = context.cast(builder, first_value, sig.args[1], types.intp)
        start = builder.gep(data, [builder.mul(first_value, stride)])
        row = cgutils.create_struct_proxy(row_type)(context, builder)
        row.data = builder.bitcast(start, context.get_value_type(types.CPointer(row_type.dtype)))
        itemsize = context.get_constant(types.intp, row_type.dtype.bitwidth // 8)
        row.stride = builder.sdiv(stride, itemsize)
        return row._getvalue()

    return codegen


@intrinsic
def _field(typingctx, ws, first):
    """The one-row field of ``ws`` at row ``first``."""
    row = RowType(False, ws.array.dtype)
    return row(ws, first), _field_codegen(row)


@intrinsic
def _fields(typingctx, ws, first):
    """The field of ``ws`` with several rows, from row ``first`` on."""
    rows = RowType(True, ws.array.dtype)
    return rows(ws, first), _field_codegen(rows)


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

    return row.dtype(row, index), codegen


@intrinsic
def _store(typingctx, row, index, value):
    def codegen(context, builder, sig, args):
        where = _address(context, builder, sig.args[0], args[0], sig.args[1], args[1])
        builder.store(context.cast(builder, args[2], sig.args[2], sig.args[0].dtype), where)
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


# name: {workspace type: (first row, several rows)}, for every define()'d workspace type
_PLACES: dict[str, dict[BlockType, tuple[int, bool]]] = {}


def _attribute(numba_type: BlockType, name: str, first: int, many: bool) -> None:
    """Teach numba ``ws.name`` for workspaces of ``numba_type``: one overload per name serves
    every type that has the field (a second overload of one name on BlockType made numba
    refuse both)."""
    places = _PLACES.get(name)
    if places is not None:
        places[numba_type] = (first, many)
        return
    places = _PLACES[name] = {numba_type: (first, many)}

    # (no inline="always": numba 0.68 then drops a store to the field, ws.f[i] = v)
    def _get(ws):
        if ws not in places:
            return None
        row, several = places[ws]
        if several:
            return lambda ws: _fields(ws, row)
        return lambda ws: _field(ws, row)

    overload_attribute(BlockType, name)(_get)
    overload_attribute(BorrowedType, name)(_get)


@intrinsic
def _width(typingctx, ws):
    """The entries per row of ``ws``'s block."""

    def codegen(context, builder, sig, args):
        return _parts(context, builder, sig.args[0], args[0])[2]

    return types.intp(ws), codegen


@overload_attribute(BlockType, "width")
def _get_width(ws):
    """``ws.width`` in numba: the entries per row (a field's length)."""
    return lambda ws: _width(ws)


@overload_attribute(BorrowedType, "width")
def _get_borrowed_width(ws):
    """``ws.width`` in numba: the entries per row (a field's length)."""
    return lambda ws: _width(ws)


def _wrapper(numba_type: BlockType):
    @intrinsic
    def wrap(typingctx, block):
        """The workspace whose block is ``block`` (a 2-D C-contiguous array of its type)."""
        if block != numba_type.array:
            return None

        def codegen(context, builder, sig, args):
            out = cgutils.create_struct_proxy(numba_type)(context, builder)
            out.block = args[0]
            context.nrt.incref(builder, sig.args[0], args[0])  # the workspace holds it too
            return out._getvalue()

        return numba_type(block), codegen

    return wrap


def _borrower(numba_type: BlockType, borrowed: BorrowedType):
    @intrinsic
    def borrow(typingctx, block):
        """The workspace borrowing ``block`` (a 2-D C-contiguous array of its type), which
        must outlive it: numba counts no reference to it when the workspace is passed on."""
        if block != numba_type.array:
            return None

        def codegen(context, builder, sig, args):
            array = context.make_array(sig.args[0])(context, builder, value=args[0])
            out = cgutils.create_struct_proxy(borrowed)(context, builder)
            out.data = array.data
            out.stride = builder.extract_value(array.strides, 0)
            out.width = builder.extract_value(array.shape, 1)
            return out._getvalue()

        return borrowed(block), codegen

    return borrow


def define(
    name: str, fields: dict[str, tuple[int, int]], dtype: type[np.integer] = np.int64
) -> type[Block]:
    """A :class:`Block` subclass ``name`` whose ``fields`` (name: (first row, rows)) numba
    code reads as ``ws.name[i]`` (one row) or ``ws.name[d, i]`` (several); ``Cls(points)``
    makes a zeroed workspace of ``points`` entries per row, of ``dtype`` (an integer type:
    a field read gives one, as indexing a numpy array of it would).

    ``Cls.wrap(block)``, bound to a module-level name, makes in numba code the workspace of
    a bare block, owning it: an entry point called often from Python takes ``ws.block``,
    which numba's dispatcher types at C speed (a workspace object goes through a Python
    lookup on every call).  ``Cls.borrow(block)`` makes one that borrows it (see the module's
    notes): an entry point's hot loops take that."""
    rows = max(first + count for first, count in fields.values())
    numba_type = BlockType(name, numba.from_dtype(np.dtype(dtype)))
    borrowed = BorrowedType(numba_type)
    cls = type(
        name,
        (Block,),
        {
            "__slots__": (),
            "FIELDS": dict(fields),
            "ROWS": rows,
            "DTYPE": np.dtype(dtype).type,
            "wrap": staticmethod(_wrapper(numba_type)),
            "borrow": staticmethod(_borrower(numba_type, borrowed)),
        },
    )
    typeof_impl.register(cls)(lambda val, c: numba_type)
    for field, (first, count) in fields.items():
        _attribute(numba_type, field, first, count > 1)
        _attribute(borrowed, field, first, count > 1)
    return cls
