"""Helpers shared by the two column caches (`papercache`, `listing`).

Both store papers as a marshal tuple of columns (one tuple per field) in a checksummed
`storage.caches.frame` section; neither may trust what it reads until every column checks out
too, so that damage a checksum missed by chance is still never read as a paper.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from itertools import chain

from papershelf.storage.model import Paper

ColumnCheck = Callable[[tuple[object, ...]], bool]
"""Whether one column holds values of the field's type only."""


def is_str(column: tuple[object, ...]) -> bool:
    """A column of strings."""
    return set(map(type, column)) <= {str}


def is_optional_str(column: tuple[object, ...]) -> bool:
    """A column of strings or None."""
    return set(map(type, column)) <= {str, type(None)}


def is_str_tuples(column: tuple[object, ...]) -> bool:
    """A column of tuples of strings."""
    if not set(map(type, column)) <= {tuple}:
        return False
    return set(map(type, chain.from_iterable(column))) <= {str}  # type: ignore[arg-type]


def is_optional_int(column: tuple[object, ...]) -> bool:
    """A column of whole numbers (not bools) or None."""
    return set(map(type, column)) <= {int, type(None)}


def is_str_pair_tuples(column: tuple[object, ...]) -> bool:
    """A column of tuples of (text, text) pairs."""
    if not set(map(type, column)) <= {tuple}:
        return False
    pairs = tuple(chain.from_iterable(column))  # type: ignore[arg-type]
    if not set(map(type, pairs)) <= {tuple} or any(len(pair) != 2 for pair in pairs):
        return False
    return set(map(type, chain.from_iterable(pairs))) <= {str}


def valid_columns(columns: object, checks: Sequence[ColumnCheck | None]) -> bool:
    """Whether `columns` is a tuple of equally long tuples, each passing its field's check.

    A field without a check (None) makes the columns invalid: the cache does not know it.
    """
    if type(columns) is not tuple or len(columns) != len(checks):
        return False
    if any(type(column) is not tuple for column in columns):
        return False
    if len({len(column) for column in columns}) > 1:
        return False
    return all(
        check is not None and check(column) for check, column in zip(checks, columns, strict=True)
    )


_BY_ANNOTATION: dict[str, ColumnCheck] = {
    "str": is_str,
    "str | None": is_optional_str,
    "int | None": is_optional_int,
    "tuple[str, ...]": is_str_tuples,
    "tuple[tuple[str, str], ...]": is_str_pair_tuples,
}


def paper_column_checks() -> tuple[ColumnCheck | None, ...]:
    """One check per field of `Paper`, in field order, chosen by the field's annotation (a
    string: model.py defers annotations). A field of a type without a check gets None, which
    makes every column set invalid: a cache never reads a field it cannot check."""
    return tuple(_BY_ANNOTATION.get(str(field.type)) for field in fields(Paper))
