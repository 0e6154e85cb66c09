"""The workspace kits for numba kernels: named fields of a block (solvers.fields), as numba code
reads them, and union-find with member lists (solvers.members)."""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest
from numba import njit

from boardsweep.solvers import fields, members
from boardsweep.solvers.slant import state

Pair = fields.define("TestPairBlock", {"a": (0, 1), "b": (1, 2), "c": (3, 1)})
pair_of = Pair.wrap  # numba code calls it by a module-level name


@njit(cache=False)
def _write(ws, p, v):
    ws.a[p] = v  # an index from an argument (numba once dropped such a store when inlined)
    ws.b[1, p] += v
    row = ws.c
    row[p] = ws.a[p] * 10 + ws.b[1, p]
    ws.b[0, p + 1] = ws.b[1, p] > 2  # a bool stores as 0 / 1
    return ws.c[p]


def test_fields_read_and_write_their_rows_of_the_block():
    ws = Pair(5)
    assert ws.shape == (4, 5) and Pair.ROWS == 4
    ws.block[2] = np.arange(5)
    assert _write(ws, 3, 4) == 4 * 10 + 3 + 4
    expected = np.zeros((4, 5), np.int64)
    expected[0, 3] = 4
    expected[2] = np.arange(5)
    expected[2, 3] = 7
    expected[3, 3] = 47
    expected[1, 4] = 1
    assert np.array_equal(ws.block, expected)
    assert ws[2, 3] == 7  # Python indexes a workspace like its block


@njit(cache=False)
def _write_bare(block, p, v):
    return _write(pair_of(block), p, v)


def test_a_bare_block_becomes_its_workspace_inside_numba():
    ws = Pair(5)
    ws.block[2] = np.arange(5)
    block = ws.block
    _write_bare(block, 3, 0)
    before = sys.getrefcount(block)
    for _ in range(1000):  # the workspace made inside holds the block without leaking it
        _write_bare(block, 3, 0)
    after = sys.getrefcount(block)
    assert after == before
    assert _write_bare(ws.block, 3, 4) == 4 * 10 + 3 + 4 and ws[0, 3] == 4


pair_borrowed = Pair.borrow


@njit(cache=False)
def _write_borrowed(block, p, v):
    ws = pair_borrowed(block)
    return _write(ws, p, v), ws.width


def test_a_borrowed_workspace_reads_and_writes_the_rows_an_owned_one_does():
    owned, lent = Pair(5), Pair(5)
    owned.block[2] = lent.block[2] = np.arange(5)
    for p, v in ((3, 4), (0, 2), (3, 1)):
        assert _write(owned, p, v) == _write_borrowed(lent.block, p, v)[0]
    assert np.array_equal(owned.block, lent.block)
    block = lent.block
    assert _write_borrowed(block, 1, 0)[1] == 5  # ws.width
    before = sys.getrefcount(block)
    for _ in range(1000):  # nothing holds the block after the call
        _write_borrowed(block, 1, 0)
    after = sys.getrefcount(block)
    assert after == before


def test_borrow_takes_only_a_block_of_its_type():
    with pytest.raises(numba.TypingError):
        _write_borrowed(np.zeros((4, 5), np.int32), 0, 1)
    with pytest.raises(numba.TypingError):
        _write_borrowed(np.zeros(5, np.int64), 0, 1)


Narrow = fields.define("TestNarrowBlock", {"a": (0, 1), "b": (1, 2)}, dtype=np.int32)
narrow_of = Narrow.wrap


@njit(cache=False)
def _narrow(block, p, v):
    ws = narrow_of(block)
    ws.a[p] = v  # stored as an int32, as numpy stores into an int32 array
    ws.b[1, p] = ws.a[p] + 1
    return ws.a[p], ws.b[1, p]


def test_a_block_of_another_integer_type_reads_and_stores_entries_of_that_type():
    ws = Narrow(4)
    assert ws.block.dtype == np.int32 and Narrow.DTYPE is np.int32 and ws.shape == (3, 4)
    assert _narrow(ws.block, 2, 2**31 - 1) == (2**31 - 1, -(2**31))  # int32 arithmetic wraps
    assert _narrow(ws.block, 1, -5) == (-5, -4)
    expected = np.zeros((3, 4), np.int32)
    expected[0, 2], expected[2, 2] = 2**31 - 1, -(2**31)
    expected[0, 1], expected[2, 1] = -5, -4
    assert np.array_equal(ws.block, expected)


def test_a_copy_is_a_workspace_of_its_own():
    ws = Pair(3)
    twin = ws.copy()
    _write(twin, 0, 5)
    assert type(twin) is Pair and twin[0, 0] == 5 and not ws.block.any()


def test_the_slant_fields_cover_every_row_once():
    rows = []
    for first, count in state.Workspace.FIELDS.values():
        rows.extend(range(first, first + count))
    assert sorted(rows) == list(range(state.Workspace.ROWS))
    for name, (first, _) in state.Workspace.FIELDS.items():  # each field at its constant's row
        assert getattr(state, "_" + name.upper()) == first, name
    assert state.Workspace.FIELDS["around"] == (state._AROUND, 4)
    assert state.Workspace.FIELDS["imp"] == (state._IMP, 2)
    ws, st = state.make_workspace(10)
    assert isinstance(ws, state.Workspace) and ws.shape == (state.Workspace.ROWS, 11)
    # the size tables' geometry is kept in the block with them, not in st: a fresh st serves
    # a kept block
    ws, st = state.make_workspace(12)
    state.reset(ws, st, 2, 3, np.full(12, -1, np.int8))
    assert ws[state._GEOM, 0] == 2 and ws[state._GEOM, 1] == 3
    assert ws[state._TL, 5] == 6 and ws.block[state._AROUND + 3, 0] == 0
    ws.block[state._TL, 5] = -9  # a kept table is not refilled for the same size
    state.reset(ws, np.zeros_like(st), 2, 3, np.full(12, -1, np.int8))
    assert ws[state._TL, 5] == -9
    state.reset(ws, np.zeros_like(st), 3, 2, np.full(12, -1, np.int8))
    assert ws[state._GEOM, 0] == 3 and ws[state._TL, 5] == 7


Sets = fields.define("TestSetsBlock", {"label": (0, 1), "next": (1, 1), "size": (2, 1)})


@njit(cache=False)
def _join(ws, a, b):
    members.join(ws.label, ws.next, ws.size, a, b)


@njit(cache=False)
def _split(ws, a, b, la):
    members.split(ws.label, ws.next, ws.size, a, b, la)


def _partition(ws: fields.Block, n: int) -> set[frozenset[int]]:
    """The sets the labels say, each checked against its list and its size."""
    sets: dict[int, set[int]] = {}
    for x in range(n):
        sets.setdefault(int(ws[0, x]), set()).add(x)
    for label, group in sets.items():
        walked, x = [label], int(ws[1, label])
        while x != label:
            walked.append(x)
            x = int(ws[1, x])
        assert label in group and set(walked) == group and len(walked) == len(group)
        assert ws[2, label] == len(group)
    return {frozenset(g) for g in sets.values()}


def test_joins_and_their_undos_keep_sets_lists_and_sizes_exact():
    # random joins of the smaller set into the larger, undone in reverse order now and then,
    # against a plain list of sets
    rng = np.random.default_rng(5)
    n = 40
    ws = Sets(n)
    ws.block[0] = ws.block[1] = np.arange(n)
    ws.block[2] = 1
    naive = [frozenset([x]) for x in range(n)]
    undo: list[tuple[int, int, int, list[frozenset[int]]]] = []
    splits = 0
    for _ in range(300):
        if undo and rng.random() < 0.35:
            a, b, la, before = undo.pop()
            _split(ws, a, b, la)
            naive = before
            splits += 1
        else:
            a, b = (int(x) for x in rng.choice(n, 2, replace=False))
            la, lb = int(ws[0, a]), int(ws[0, b])
            if la == lb:
                continue
            if ws[2, la] > ws[2, lb]:
                a, b, la = b, a, lb
            _join(ws, a, b)
            undo.append((a, b, la, naive))
            set_a = next(s for s in naive if a in s)
            set_b = next(s for s in naive if b in s)
            naive = [s for s in naive if s not in (set_a, set_b)] + [set_a | set_b]
        assert _partition(ws, n) == set(naive)
    assert splits > 50 and max(len(s) for s in naive) > 5
    while undo:
        a, b, la, naive = undo.pop()
        _split(ws, a, b, la)
    assert _partition(ws, n) == {frozenset([x]) for x in range(n)}
