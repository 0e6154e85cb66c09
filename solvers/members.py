"""Union-find with member lists, for numba kernels: the one kit Slant's engines join sets with.

A set of points (a component) or of cells (a class) is a circular list through ``nxt``; every
member's ``label`` is one member of the set, and ``size`` at that label counts the members.
Joining relabels the smaller set (so a label is found in one load, without path compression)
and splices the two lists into one; splitting undoes a join exactly, for the engines that
backtrack.  ``label``, ``nxt`` and ``size`` are fields of a workspace (:mod:`solvers.fields`) or
arrays; the caller picks the smaller set, as it often walks that set's members anyway.
"""

from __future__ import annotations

from numba import njit

__all__ = ["relabel", "splice", "join", "split"]


@njit(cache=True, nogil=True)
def relabel(label, nxt, start, to):
    """Give every member of the list through ``start`` the label ``to``."""
    q = start
    while True:
        label[q] = to
        q = nxt[q]
        if q == start:
            break


@njit(cache=True, nogil=True)
def splice(nxt, a, b):
    """Join the lists through members ``a`` and ``b`` into one, or, when they are one list,
    cut it in two between them (the same swap undoes itself)."""
    na = nxt[a]
    nxt[a] = nxt[b]
    nxt[b] = na


@njit(cache=True, nogil=True)
def join(label, nxt, size, a, b):
    """Join the set of member ``a`` (the smaller) into that of member ``b``."""
    la = label[a]
    lb = label[b]
    relabel(label, nxt, a, lb)
    splice(nxt, a, b)
    size[lb] += size[la]


@njit(cache=True, nogil=True)
def split(label, nxt, size, a, b, la):
    """Undo :func:`join` (``a``, ``b``): ``la`` is the label ``a``'s set had before it."""
    splice(nxt, a, b)
    size[label[b]] -= size[la]
    relabel(label, nxt, a, la)
