"""A fast copy of papers.json: the papers as marshalled columns, keyed by papers.json's identity.

Reading papers.json means parsing ~18 MB of JSON and building a `Paper` from each record (~250 ms
at 10,815 papers); unmarshalling plain tuples and filling the papers column by column is several
times faster. `papers.cache` sits next to papers.json and is only ever a copy of it:

- it is a `papershelf.storage.caches.frame` file: a header with a tag, `FORMAT`, the `StatKey`
  `(st_mtime_ns, st_size, st_ino)` of the papers.json it was made from as its key, and the
  payload's length and CRC-32; `load` reads the header first, so a stale cache costs one small
  read, and uses the payload only once its checksum matches;
- the payload is `(field names, one tuple of values per field)`; it is used only when the names
  are `Paper`'s fields now and every value has its field's type, so a change to `Paper` or
  damage that the checksum missed makes the cache unused, never a crash;
- `load` returns None (never raises) for anything but a whole, current, valid cache;
- `save` writes atomically (temp file + rename, no fsync: a lost cache is simply rebuilt) and
  reports failure by returning False, because a cache that cannot be written is not an error.

The checksum costs 7-10 ms of a 50-90 ms load at 10,815 papers (CRC-32 of 16.7 MB); without it
a changed character of an abstract or an id was read as the paper's (issue #10).

papers.json is always written by replacing it (a new inode and mtime), so its `StatKey` changes
with every version; a cache is trusted only while papers.json's key equals the one it records.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import attrgetter
from pathlib import Path

from papershelf.storage.caches.columns import paper_column_checks, valid_columns
from papershelf.storage.caches.frame import CacheFile, stat_key_bytes
from papershelf.storage.files.jsonstore import StatKey, stale_temp_files
from papershelf.storage.model import Paper

__all__ = ["CACHE_FILE", "FORMAT", "load", "save", "temp_files"]

CACHE_FILE = "papers.cache"
FORMAT = 2
"""Bump when the payload's layout changes (a change of `Paper`'s fields is noticed anyway).
2: the `papershelf.storage.caches.frame` frame, with a checksum."""
MAGIC = b"PSPAPERS"
_FILE = CacheFile(MAGIC, FORMAT, key_size=24)

_FIELDS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Paper))


_FIELD_CHECKS = paper_column_checks()
_SETTERS = [getattr(Paper, name).__set__ for name in _FIELDS]
"""The slots' member descriptors: setting through them skips the frozen `__setattr__`."""


def save(path: Path, key: StatKey, papers: Iterable[Paper]) -> bool:
    """Write the cache of `papers`, read from (or written as) the papers.json with `key`.

    Returns False when it could not be written (a full disk, a read-only directory): callers
    carry on without a cache.
    """
    listed = list(papers)
    columns = tuple(tuple(map(attrgetter(name), listed)) for name in _FIELDS)
    return _FILE.save_value(path, stat_key_bytes(key), (_FIELDS, columns))


def load(path: Path, key: StatKey) -> list[Paper] | None:
    """The papers cached at `path` if the cache was made from the papers.json with `key`.

    None when the cache is missing, stale, of another format or layout, cut short or grown,
    damaged (its checksum fails), or holds a value of the wrong type.
    """
    value = _FILE.load_value(path, stat_key_bytes(key))
    if type(value) is not tuple or len(value) != 2:
        return None
    fields, columns = value
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
