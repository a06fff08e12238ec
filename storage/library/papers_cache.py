"""A fast copy of papers.json: the papers as marshalled columns, keyed by papers.json's identity,
with the abstracts left in papers.json and read from it when asked for.

Reading papers.json means parsing its JSON and building a `Paper` from each record (~250 ms
at 10,815 papers); unmarshalling plain tuples and filling the papers column by column is several
times faster. `papers.cache` sits next to papers.json and is only ever a copy of it:

- it is a `papershelf.storage.caches.frame` file: a header with a tag, `FORMAT`, the `StatKey`
  `(st_mtime_ns, st_size, st_ino)` of the papers.json it was made from as its key, and each
  section's length and CRC-32; `load` reads the header first, so a stale cache costs one small
  read, and uses a section only once its checksum matches;
- its first section is `(field names, one tuple of values per field)` for every field but the
  abstract; it is used only when the names are `Paper`'s fields now and every value has its
  field's type, so a change to `Paper` or damage that the checksum missed makes the cache
  unused, never a crash;
- its second section is where each abstract lies in papers.json (`caches.places`), its third
  each abstract's length in characters: the abstracts, most of the corpus, are neither copied
  (format 2 held them all again: 154 MB beside a 169 MB papers.json at 100,000 papers) nor read
  at load (format 3 read and decoded them all: 1.7-2.0 s CPU and ~140 MB of strings at
  100,000). A loaded paper's abstract is a `caches.abstracts.StoredAbstract`, read from the
  papers.json version the cache is keyed by (held open) each time it is asked for, and checked
  against its CRC-32 and length; a failed check removes the cache and takes papers.json's own;
- `load` returns None (never raises) for anything but a whole, current, valid cache;
- `save` writes atomically (temp file + rename, no fsync: a lost cache is simply rebuilt) and
  reports failure by returning False, because a cache that cannot be written is not an error.

papers.json is always written by replacing it (a new inode and mtime), so its `StatKey` changes
with every version; a cache is trusted only while papers.json's key equals the one it records.
"""

from __future__ import annotations

import dataclasses
import json
import marshal
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import repeat
from operator import attrgetter
from pathlib import Path

from papershelf.storage.caches.abstracts import AbstractFile, Fallback
from papershelf.storage.caches.columns import paper_column_checks, valid_columns
from papershelf.storage.caches.frame import MARSHAL_VERSION, CacheFile, stat_key_bytes
from papershelf.storage.caches.places import Places
from papershelf.storage.files.jsonstore import StatKey, stale_temp_files
from papershelf.storage.files.readfile import read_regular
from papershelf.storage.model import Paper, abstract_length, set_abstracts

__all__ = ["CACHE_FILE", "FORMAT", "current_abstract", "load", "save", "temp_files"]

CACHE_FILE = "papers.cache"
FORMAT = 4
"""Bump when the payload's layout changes (a change of `Paper`'s fields is noticed anyway).
2: the `papershelf.storage.caches.frame` frame, with a checksum.
3: the abstracts' places in papers.json instead of the abstracts.
4: the abstracts' lengths in characters (a third section): abstracts read on demand."""
MAGIC = b"PSPAPERS"
_FILE = CacheFile(MAGIC, FORMAT, key_size=24, sections=3)

_ALL_FIELDS: tuple[str, ...] = tuple(field.name for field in dataclasses.fields(Paper))
_ABSTRACT = _ALL_FIELDS.index("abstract")
_FIELDS = _ALL_FIELDS[:_ABSTRACT] + _ALL_FIELDS[_ABSTRACT + 1 :]
"""The fields the cache holds: all but the abstract."""

_FIELD_CHECKS = tuple(
    check
    for name, check in zip(_ALL_FIELDS, paper_column_checks(), strict=True)
    if name != "abstract"
)
_SETTERS = [getattr(Paper, name).__set__ for name in _FIELDS]
"""The slots' member descriptors: setting through them skips the frozen `__setattr__` (the
abstract's is set by `model.set_abstracts`)."""


def save(path: Path, key: StatKey, papers: Iterable[Paper], places: Places | None) -> bool:
    """Write the cache of `papers`, read from (or written as) the papers.json with `key`, whose
    abstracts lie at `places` in it.

    Returns False when it could not be written (a full disk, a read-only directory) or the
    places are unknown or not one per paper: callers carry on without a cache.
    """
    listed = list(papers)
    if places is None or len(places) != len(listed):
        return False
    columns = tuple(tuple(map(attrgetter(name), listed)) for name in _FIELDS)
    try:
        main = marshal.dumps((_FIELDS, columns), MARSHAL_VERSION)
        lengths = array("I", map(abstract_length, listed))
    except (TypeError, ValueError, MemoryError, OverflowError):
        return False
    return _FILE.save(path, stat_key_bytes(key), [main, places.to_bytes(), lengths.tobytes()])


def load(
    path: Path, key: StatKey, papers_json: Path, fallback: Fallback | None = None
) -> tuple[list[Paper], Places, AbstractFile] | None:
    """The papers cached at `path`, where their abstracts lie in papers.json, and the open
    papers.json their abstracts are read from, if the cache was made from the papers.json with
    `key`, which must still be the file at `papers_json`. `fallback(id)` gives a paper's
    abstract from papers.json as it is now, for a read whose checks fail (by default
    `current_abstract` of `papers_json`).

    None when the cache is missing, stale, of another format or layout, cut short or grown,
    damaged (a checksum fails), holds a value of the wrong type, or places an abstract outside
    papers.json. (Each abstract's own checksum is checked when it is read.)
    """
    sections = _FILE.load(path, stat_key_bytes(key))
    if sections is None:
        return None
    try:
        value = marshal.loads(sections[0])
    except (ValueError, EOFError, TypeError):
        return None
    if type(value) is not tuple or len(value) != 2:
        return None
    fields, columns = value
    if fields != _FIELDS or not valid_columns(columns, _FIELD_CHECKS):
        return None
    count = len(columns[0]) if columns else 0
    places = Places.from_bytes(sections[1], count)
    lengths = array("I")
    if places is None or lengths.itemsize != 4 or len(sections[2]) != 4 * count:
        return None
    lengths.frombytes(sections[2])
    ids: tuple[str, ...] = columns[_FIELDS.index("id")]
    if fallback is None:
        fallback = partial(current_abstract, papers_json)
    file = AbstractFile.open(papers_json, key, places, lengths, ids, fallback, path)
    if file is None:
        return None
    papers = _build(columns)
    set_abstracts(papers, file.abstracts())
    return papers, places, file


def current_abstract(papers_json: Path, paper_id: str) -> str | None:
    """The abstract of paper `paper_id` in papers.json as it is now (None when it holds no such
    paper, or cannot be read): the slow path of an abstract whose checks failed."""
    try:
        _, raw = read_regular(papers_json)
        data = json.loads(raw)
    except (OSError, ValueError, MemoryError, RecursionError):
        return None
    records = data.get("papers") if isinstance(data, dict) else None
    for record in records.values() if isinstance(records, dict) else ():
        if isinstance(record, dict) and record.get("id") == paper_id:
            abstract = record.get("abstract", "")
            return abstract if type(abstract) is str else None
    return None


def _build(columns: Sequence[tuple[object, ...]]) -> list[Paper]:
    """Papers from validated columns (all fields but the abstract), one per row.

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
