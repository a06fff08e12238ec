"""A fast copy of papers.json: the papers as marshalled columns, keyed by papers.json's identity.

Reading papers.json means parsing ~18 MB of JSON and building a `Paper` from each record (~250 ms
at 10,815 papers); unmarshalling plain tuples and filling the papers column by column is several
times faster. `papers.cache` sits next to papers.json and is only ever a copy of it:

- it starts with a fixed header: a magic string, `FORMAT`, the `StatKey` `(st_mtime_ns, st_size,
  st_ino)` of the papers.json it was made from, and the payload's length; `load` reads the header
  first, so a stale cache costs one small read;
- the payload is `(field names, one tuple of values per field)`; it is used only when the names
  are `Paper`'s fields now and every value has its field's type, so a change to `Paper` or a
  damaged file makes the cache unused, never wrong;
- `load` returns None (never raises) for anything but a whole, current, valid cache;
- `save` writes atomically (temp file + rename, no fsync: a lost cache is simply rebuilt) and
  reports failure by returning False, because a cache that cannot be written is not an error.

papers.json is always written by replacing it (a new inode and mtime), so its `StatKey` changes
with every version; a cache is trusted only while papers.json's key equals the one it records.
"""

from __future__ import annotations

import dataclasses
import marshal
import struct
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import repeat
from operator import attrgetter
from pathlib import Path

from storage.columnfile import (
    is_optional_str,
    is_str,
    is_str_tuples,
    read_exactly,
    valid_columns,
)
from storage.errors import PapershelfError
from storage.jsonstore import StatKey, atomic_write, stale_temp_files
from storage.model import Paper

__all__ = ["CACHE_FILE", "FORMAT", "load", "save", "temp_files"]

CACHE_FILE = "papers.cache"
FORMAT = 1
"""Bump when the payload's layout changes (a change of `Paper`'s fields is noticed anyway)."""
MAGIC = b"PSPAPERS"
_HEADER = struct.Struct("<8sIqQQQ")
"""magic, format, st_mtime_ns, st_size, st_ino, payload length."""
_MARSHAL_VERSION = 4

_FIELDS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Paper))


_CHECKS: dict[str, Callable[[tuple[object, ...]], bool]] = {
    "str": is_str,
    "str | None": is_optional_str,
    "tuple[str, ...]": is_str_tuples,
}
"""How to check a column, by the field's annotation (a string: model.py defers annotations)."""
_FIELD_CHECKS = [_CHECKS.get(str(field.type)) for field in dataclasses.fields(Paper)]
_SETTERS = [getattr(Paper, name).__set__ for name in _FIELDS]
"""The slots' member descriptors: setting through them skips the frozen `__setattr__`."""


def _header(key: StatKey, length: int) -> bytes:
    mtime_ns, size, inode = key
    return _HEADER.pack(MAGIC, FORMAT, mtime_ns, size, inode, length)


def save(path: Path, key: StatKey, papers: Iterable[Paper]) -> bool:
    """Write the cache of `papers`, read from (or written as) the papers.json with `key`.

    Returns False when it could not be written (a full disk, a read-only directory): callers
    carry on without a cache.
    """
    listed = list(papers)
    columns = tuple(tuple(map(attrgetter(name), listed)) for name in _FIELDS)
    try:
        payload = marshal.dumps((_FIELDS, columns), _MARSHAL_VERSION)
        atomic_write(path, _header(key, len(payload)) + payload, sync=False)
    except (PapershelfError, OSError, ValueError, OverflowError, struct.error):
        return False
    return True


def load(path: Path, key: StatKey) -> list[Paper] | None:
    """The papers cached at `path` if the cache was made from the papers.json with `key`.

    None when the cache is missing, stale, of another format or layout, truncated, or holds a
    value of the wrong type.
    """
    try:
        # Unbuffered, into one preallocated buffer: half the time of a buffered read() of
        # ~17 MB (no second copy). Not mmap: a file truncated under a mapping kills with SIGBUS.
        with open(path, "rb", buffering=0) as handle:
            head = read_exactly(handle, _HEADER.size)
            if head is None:
                return None
            length = _HEADER.unpack(head)[5]
            if bytes(head) != _header(key, length):
                return None
            payload = read_exactly(handle, length)
            if payload is None or handle.read(1):
                return None
    except (OSError, struct.error, OverflowError, MemoryError):
        return None
    try:
        fields, columns = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if fields != _FIELDS or not valid_columns(columns, _FIELD_CHECKS):
        return None
    return _build(columns)


def _build(columns: Sequence[tuple[object, ...]]) -> list[Paper]:
    """Papers from validated columns, one per row.

    `Paper.__init__` (frozen, slots) sets each field with a Python-level `object.__setattr__`
    call: ~2 µs a paper. Filling each slot column-wise through its member descriptor keeps the
    loops in C and halves the cost; every slot is set, because the fields were checked.
    """
    count = len(columns[0]) if columns else 0
    papers: list[Paper] = list(map(object.__new__, repeat(Paper, count)))
    for setter, column in zip(_SETTERS, columns, strict=True):
        deque(map(setter, papers, column), maxlen=0)
    return papers


def temp_files(path: Path) -> Iterator[Path]:
    """Temp files a writer of the cache at `path` may have left behind when it was killed."""
    return stale_temp_files(path)
