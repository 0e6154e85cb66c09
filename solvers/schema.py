"""The one validator vocabulary: every value a user gives (config keys, command-line values,
Parquet columns' scalars) is checked by one of these, and only here.

A validator is a small frozen object with

- ``check(value, key=(), ctx=None)``: the value as read from YAML (or built in Python) ->
  the typed value, or :class:`ParamError` carrying the *key path* to the bad value as data
  (``("jobs", 0, "n")``), so that the caller can point at the file and line of that key
  without parsing the message;
- ``parse(text, key=(), ctx=None)``: the same from a command-line string (``"4..16"``,
  ``"0.25"``); strict: ``"010"`` is ten, never eight, and ``"1e3"`` is not an integer;
- ``describe()``: what it expects, in words, for help texts and error messages.

Ranges are checked before anything is allocated: ``"1..10**21"`` is refused, and so is a
range of more values than ``IntegerSet.most`` allows.  Sets refuse a value listed twice
(``n: [8, 8]`` is almost always a typo, and counting it twice would be a wrong number).

This module is long because it is the whole validator vocabulary, in one place by design; each
validator is small.
"""

from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ParamError",
    "Context",
    "Validator",
    "Integer",
    "Number",
    "Flag",
    "Text",
    "Choice",
    "IntegerSet",
    "NumberSet",
    "ListOf",
    "Pair",
    "Field",
    "Record",
    "OneOf",
    "FilePath",
    "Either",
    "Raw",
    "key_text",
]

Key = tuple  # a path of mapping keys (str) and list indices (int)


def key_text(key: Key) -> str:
    """A key path as a user reads it: ``jobs[0].n``; '' for the root."""
    out = ""
    for part in key:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


class ParamError(ValueError):
    """A value is missing, unknown or out of range.

    ``key`` is the path to the value at fault (data, not text), ``message`` says what was
    expected; ``str()`` joins them as ``'n' = 40 is out of range ...``.
    """

    def __init__(self, message: str, key: Key = ()):
        self.message, self.key = message, tuple(key)
        super().__init__(message)

    def __str__(self) -> str:
        name = key_text(self.key)
        return f"'{name}': {self.message}" if name else self.message

    def under(self, *prefix: object) -> ParamError:
        """The same error with ``prefix`` put in front of its key path."""
        return ParamError(self.message, (*prefix, *self.key))


@dataclass(frozen=True)
class Context:
    """What checking needs besides the value: the folder relative paths are taken from."""

    base: str = "."


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_)


_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


class Validator:
    """Base class: subclasses implement :meth:`check`, and :meth:`describe` unless their
    ``what`` field says it."""

    def check(self, value: Any, key: Key = (), ctx: Context | None = None) -> Any:
        """The typed value of ``value`` (as read from YAML), or :class:`ParamError`."""
        raise NotImplementedError

    def parse(self, text: str, key: Key = (), ctx: Context | None = None) -> Any:
        """The typed value of a command-line string."""
        return self.check(text, key, ctx)

    def describe(self) -> str:
        """What this validator accepts, in words: its ``what`` where it has one."""
        what = getattr(self, "what", None)
        if what is None:
            raise NotImplementedError
        return what


def _name(key: Key) -> str:
    """The last mapping key of a key path: what a bound is written about (``n``)."""
    return next((k for k in reversed(key) if isinstance(k, str)), "value")


def _bounds(lo: float | None, hi: float | None, name: str = "value") -> str:
    if lo is not None and hi is not None:
        return f"{lo} <= {name} <= {hi}"
    if lo is not None:
        return f"{name} >= {lo}"
    if hi is not None:
        return f"{name} <= {hi}"
    return ""


def _in_range(value, lo, hi, name: str, key: Key) -> None:
    """:class:`ParamError` unless ``lo <= value <= hi`` (a None bound is open)."""
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ParamError(f"{value} is out of range: expected {_bounds(lo, hi, name)}", key)


def _parsed(validator: Validator, text, pattern: re.Pattern, convert, key: Key, ctx) -> Any:
    """``validator``'s value of a command-line ``text`` that ``pattern`` matches, read by
    ``convert``; :class:`ParamError` naming what it accepts when the text does not match."""
    if not isinstance(text, str) or not pattern.fullmatch(text.strip()):
        raise ParamError(f"expected {validator.describe()}, not {_show(text)}", key)
    return validator.check(convert(text.strip()), key, ctx)


@dataclass(frozen=True)
class Integer(Validator):
    """An integer within ``lo..hi`` (either may be None); never a bool, a float or a string.

    ``name`` is what a bound is written about (``0 <= M <= 32``); by default the last mapping
    key of the value's key path.
    """

    lo: int | None = None
    hi: int | None = None
    name: str | None = None

    def check(self, value, key=(), ctx=None):
        if not _is_int(value):
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        _in_range(value, self.lo, self.hi, self.name or _name(key), key)
        return int(value)

    def parse(self, text, key=(), ctx=None):
        return _parsed(self, text, _INT_TEXT, int, key, ctx)

    def describe(self) -> str:
        bounds = _bounds(self.lo, self.hi, self.name or "value")
        return "an integer" + (f" ({bounds})" if bounds else "")


@dataclass(frozen=True)
class Number(Validator):
    """A finite number (int or float) within ``lo..hi``; returned as a float."""

    lo: float | None = None
    hi: float | None = None

    def check(self, value, key=(), ctx=None):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (isinstance(value, float) and not math.isfinite(value))
        ):
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        _in_range(value, self.lo, self.hi, _name(key), key)
        return float(value)

    def parse(self, text, key=(), ctx=None):
        return _parsed(self, text, _FLOAT_TEXT, float, key, ctx)

    def describe(self) -> str:
        bounds = _bounds(self.lo, self.hi)
        return "a number" + (f" ({bounds})" if bounds else "")


@dataclass(frozen=True)
class Flag(Validator):
    """true or false."""

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, bool):
            raise ParamError(f"expected true or false, not {_show(value)}", key)
        return value

    def parse(self, text, key=(), ctx=None):
        words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        if not isinstance(text, str) or text.strip().lower() not in words:
            raise ParamError(f"expected true or false, not {_show(text)}", key)
        return words[text.strip().lower()]

    def describe(self) -> str:
        return "true or false"


@dataclass(frozen=True)
class Text(Validator):
    """A string of 1..``most`` characters, matching ``pattern`` (whole string) if given."""

    pattern: str | None = None
    most: int = 4096
    what: str = "a string"

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, str) or not value:
            raise ParamError(f"expected {self.what}, not {_show(value)}", key)
        if len(value) > self.most:
            raise ParamError(
                f"expected {self.what}, not a string of {len(value)} characters "
                f"(at most {self.most})",
                key,
            )
        if self.pattern is not None and not re.fullmatch(self.pattern, value):
            raise ParamError(f"expected {self.what}, not {_show(value)}", key)
        return value


@dataclass(frozen=True)
class Choice(Validator):
    """One of a fixed set of strings."""

    values: tuple[str, ...]

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, str) or value not in self.values:
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        return value

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)


def _no_repeats(values: Sequence, key: Key) -> None:
    seen = set()
    for i, v in enumerate(values):
        if v in seen:
            shown = _show(list(v) if isinstance(v, tuple) else v)
            raise ParamError(f"{shown} is listed twice: each value may appear once", (*key, i))
        seen.add(v)


def _sorted_set(spec: Validator, item: Validator, value: Sequence, key: Key) -> tuple:
    """A set validator's list, each value checked by ``item``: sorted, none twice, not empty
    and at most ``spec.most`` long."""
    if not value:
        raise ParamError(f"is an empty list: expected {spec.describe()}", key)
    if len(value) > spec.most:
        raise ParamError(f"lists {len(value)} values: at most {spec.most}", key)
    values = [item.check(v, (*key, i)) for i, v in enumerate(value)]
    _no_repeats(values, key)
    return tuple(sorted(values))


@dataclass(frozen=True)
class IntegerSet(Validator):
    """Integers given as one integer, a ``"lo..hi"`` string or a list; a sorted tuple.

    A value listed twice is refused; so is an empty range or list, and a range of more than
    ``most`` values (checked before it is built).
    """

    lo: int | None = None
    hi: int | None = None
    most: int = 100_000

    def check(self, value, key=(), ctx=None):
        item = Integer(self.lo, self.hi)
        if _is_int(value):
            return (item.check(value, key),)
        if isinstance(value, str):
            return self._range(value, key)
        if isinstance(value, list | tuple):
            return _sorted_set(self, item, value, key)
        raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)

    def _range(self, text: str, key: Key) -> tuple[int, ...]:
        parts = text.split("..")
        if len(parts) != 2 or not all(_INT_TEXT.fullmatch(p.strip()) for p in parts):
            if _INT_TEXT.fullmatch(text.strip()):
                return (Integer(self.lo, self.hi).check(int(text), key),)
            raise ParamError(f"expected {self.describe()}, not {_show(text)}", key)
        a, b = (int(p) for p in parts)
        if a > b:
            raise ParamError(f"range {text!r} is empty (lo > hi)", key)
        for end in (a, b):
            Integer(self.lo, self.hi).check(end, key)
        if b - a + 1 > self.most:
            raise ParamError(f"range {text!r} has {b - a + 1} values: at most {self.most}", key)
        return tuple(range(a, b + 1))

    def parse(self, text, key=(), ctx=None):
        if isinstance(text, str) and "," in text:
            items = [t.strip() for t in text.split(",")]
            values = [Integer(self.lo, self.hi).parse(t, (*key, i)) for i, t in enumerate(items)]
            return self.check(values, key, ctx)
        if isinstance(text, str) and ".." not in text:
            return (Integer(self.lo, self.hi).parse(text, key, ctx),)
        return self.check(text, key, ctx)

    def describe(self) -> str:
        bounds = _bounds(self.lo, self.hi, "each")
        return 'an integer, a "lo..hi" range or a list of integers' + (
            f" ({bounds})" if bounds else ""
        )


@dataclass(frozen=True)
class NumberSet(Validator):
    """Numbers given as one number or a list; a sorted tuple of floats, no value twice."""

    lo: float | None = None
    hi: float | None = None
    most: int = 10_000

    def check(self, value, key=(), ctx=None):
        item = Number(self.lo, self.hi)
        if isinstance(value, list | tuple):
            return _sorted_set(self, item, value, key)
        return (item.check(value, key),)

    def parse(self, text, key=(), ctx=None):
        items = [t.strip() for t in str(text).split(",")]
        if len(items) == 1:
            return self.check(Number(self.lo, self.hi).parse(items[0], key, ctx), key, ctx)
        values = [Number(self.lo, self.hi).parse(t, (*key, i)) for i, t in enumerate(items)]
        return self.check(values, key, ctx)

    def describe(self) -> str:
        bounds = _bounds(self.lo, self.hi, "each")
        return "a number or a list of numbers" + (f" ({bounds})" if bounds else "")


@dataclass(frozen=True)
class ListOf(Validator):
    """A list of ``least..most`` items, each checked by ``item``; a tuple."""

    item: Validator
    least: int = 1
    most: int = 100_000
    unique: bool = True
    what: str = ""

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, list | tuple):
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        if not self.least <= len(value) <= self.most:
            raise ParamError(f"expected {self.describe()}, got {len(value)} items", key)
        values = tuple(self.item.check(v, (*key, i), ctx) for i, v in enumerate(value))
        if self.unique:
            _no_repeats(values, key)
        return values

    def describe(self) -> str:
        if self.what:
            return self.what
        count = f"{self.least} or more" if self.most >= 100_000 else f"{self.least}..{self.most}"
        return f"a list of {count} items, each {self.item.describe()}"


@dataclass(frozen=True)
class Pair(Validator):
    """A two-item list ``[a, b]``, each checked by its own validator; a tuple."""

    first: Validator
    second: Validator
    what: str = "a pair [a, b]"

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise ParamError(f"expected {self.what}, not {_show(value)}", key)
        return (
            self.first.check(value[0], (*key, 0), ctx),
            self.second.check(value[1], (*key, 1), ctx),
        )


@dataclass(frozen=True)
class FilePath(Validator):
    """A path to a file; a relative path is taken from ``ctx.base`` (the config's folder)."""

    what: str = "a file path"

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, str) or not value or "\0" in value:
            raise ParamError(f"expected {self.what}, not {_show(value)}", key)
        path = os.path.expanduser(value)
        base = ctx.base if ctx is not None else "."
        return os.path.normpath(os.path.join(base, path))


@dataclass(frozen=True)
class Either(Validator):
    """The first of ``options`` that accepts the value (by its Python type)."""

    options: tuple[tuple[type | tuple[type, ...], Validator], ...]
    what: str

    def check(self, value, key=(), ctx=None):
        for types, validator in self.options:
            if isinstance(value, types) and not (
                isinstance(value, bool)
                and bool not in (types if isinstance(types, tuple) else (types,))
            ):
                return validator.check(value, key, ctx)
        raise ParamError(f"expected {self.what}, not {_show(value)}", key)


@dataclass(frozen=True)
class Raw(Validator):
    """Any value, passed through unchecked: for a key whose value another step checks."""

    what: str = "a value"

    def check(self, value, key=(), ctx=None):
        return value


@dataclass(frozen=True)
class Field:
    """One key of a :class:`Record`: its validator, default (``REQUIRED`` if it has none), doc."""

    validator: Validator
    default: Any = None
    doc: str = ""
    required: bool = False


@dataclass(frozen=True)
class Record(Validator):
    """A mapping with known keys: unknown keys and missing required ones are refused.

    Returns a plain dict holding every field (defaults filled in; a field without a default
    that was not given is left out).  ``check_all`` may check the fields together.
    """

    fields: Mapping[str, Field]
    what: str = "a mapping"
    check_all: Callable[[dict, Key], dict] | None = field(default=None, compare=False)

    def check(self, value, key=(), ctx=None):
        if not isinstance(value, Mapping):
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        for name in value:
            if name not in self.fields:
                known = ", ".join(sorted(self.fields))
                if not isinstance(name, str):  # a key path holds names and list indices only
                    raise ParamError(f"unknown key {_show(name)}: expected one of {known}", key)
                raise ParamError(f"unknown key: expected one of {known}", (*key, name))
        out: dict = {}
        for name, spec in self.fields.items():
            if name in value:
                out[name] = spec.validator.check(value[name], (*key, name), ctx)
            elif spec.required:
                raise ParamError(f"missing key '{name}': expected {spec.validator.describe()}", key)
            elif spec.default is not None:
                out[name] = spec.default
        if self.check_all is not None:
            out = self.check_all(out, key)
        return out

    def describe(self) -> str:
        if self.what in ("", "a mapping"):
            return f"a mapping with keys {', '.join(self.fields)}"
        return self.what


@dataclass(frozen=True)
class OneOf(Validator):
    """A mapping with exactly one key, one of ``options``: ``{generate: {...}}``; returns
    ``(chosen key, checked value)``."""

    options: Mapping[str, Validator]
    what: str = ""

    def check(self, value, key=(), ctx=None):
        if (
            not isinstance(value, Mapping)
            or len(value) != 1
            or next(iter(value)) not in self.options
        ):
            raise ParamError(f"expected {self.describe()}, not {_show(value)}", key)
        name, inner = next(iter(value.items()))
        return name, self.options[name].check(inner, (*key, name), ctx)

    def describe(self) -> str:
        return self.what or "one of " + ", ".join(f"{{{k}: ...}}" for k in self.options)
