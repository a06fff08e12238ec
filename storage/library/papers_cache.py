"""A fast copy of papers.json: the papers as marshalled columns, keyed by papers.json's identity,
with the abstracts left in papers.json and read from it when asked for.

Reading papers.json means parsing its JSON and building a `Paper` from each record (~250 ms
at 10,815 papers); unmarshalling plain tuples and filling the papers column by column is several
times faster. `papers.cache` sits next to papers.json and is only ever a copy of it:

- it is a `papershelf.storage.caches.frame` file: a header with a tag, `FORMAT`, the `StatKey`
  `(st_mtime_ns, st_size, st_ino)` of the papers.json it was made from as its key, and each
  section's length and CRC-32; `load` reads the header first, so a stale cache costs one small
  read, and uses a section only once its checksum matches;
- its first two sections are `(field names, one tuple of values per field)`: the first for
  the fields `papershelf list` prints and searches (`LISTED_FIELDS`: it reads that section
  alone, see `storage.search.listing`, which before format 5 kept a copy of these columns),
  the second for every other field but the abstract; a section is used only when its names are
  the fields this code expects and every value has its field's type, so a change to `Paper`
  or damage that the checksum missed makes the cache unused, never a crash. Equal values
  (a venue, a source, an import time, a page) are written once (marshal's references), so a
  load makes one object of each, not one per paper;
- its third section is where each abstract lies in papers.json (`caches.places`), its fourth
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

import json
import marshal
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from itertools import repeat
from operator import attrgetter
from pathlib import Path
from typing import Any

from papershelf.storage.caches.abstracts import AbstractFile, Fallback
from papershelf.storage.caches.frame import MARSHAL_VERSION, stat_key_bytes
from papershelf.storage.caches.papers_layout import (
    FILE,
    FORMAT,
    LENGTHS,
    LISTED,
    LISTED_CHECKS,
    LISTED_FIELDS,
    MAGIC,
    OTHER_CHECKS,
    OTHER_FIELDS,
    OTHERS,
    PLACES,
    columns_of,
    listed,
)
from papershelf.storage.caches.places import Places
from papershelf.storage.files.jsonstore import StatKey, stale_temp_files
from papershelf.storage.files.layout import PAPERS_CACHE
from papershelf.storage.files.readfile import read_regular
from papershelf.storage.model import Paper, abstract_length, set_abstracts

__all__ = [
    "CACHE_FILE",
    "FILE",
    "FORMAT",
    "LISTED_FIELDS",
    "MAGIC",
    "current_abstract",
    "listed",
    "load",
    "save",
    "temp_files",
]

CACHE_FILE = PAPERS_CACHE
_FIELDS = LISTED_FIELDS + OTHER_FIELDS
"""The fields the cache holds (all but the abstract), in the order its sections hold them."""
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
    # Equal values as one object (ids are unique): marshal then writes a repeat (a venue, an
    # empty tuple, a name, a page) as a reference, and a load makes one object of each.
    # Any: marshal takes these values (str, tuples of str, int, None) as they are.
    shared: dict[Any, Any] = {}
    columns = [_column(listed, name, None if name == "id" else shared) for name in _FIELDS]
    first = len(LISTED_FIELDS)
    try:
        main = marshal.dumps((LISTED_FIELDS, tuple(columns[:first])), MARSHAL_VERSION)
        others = marshal.dumps((OTHER_FIELDS, tuple(columns[first:])), MARSHAL_VERSION)
        lengths = array("I", map(abstract_length, listed))
    except (TypeError, ValueError, MemoryError, OverflowError):
        return False
    sections = [main, others, places.to_bytes(), lengths.tobytes()]
    return FILE.save(path, stat_key_bytes(key), sections)


def _column(papers: list[Paper], name: str, shared: dict[Any, Any] | None) -> tuple[Any, ...]:
    """One field's values; with `shared`, each equal to one seen before as that object."""
    values = list(map(attrgetter(name), papers))
    if shared is None:
        return tuple(values)
    # map() keeps the loop in C: a generator here was a tenth of an import's save.
    return tuple(map(shared.setdefault, values, values))


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
    sections = FILE.load(path, stat_key_bytes(key))
    if sections is None:
        return None
    listed_columns = columns_of(sections[LISTED], LISTED_FIELDS, LISTED_CHECKS)
    other_columns = columns_of(sections[OTHERS], OTHER_FIELDS, OTHER_CHECKS)
    if listed_columns is None or other_columns is None:
        return None
    columns = listed_columns + other_columns
    count = len(columns[0])
    if any(len(column) != count for column in columns):
        return None
    places = Places.from_bytes(sections[PLACES], count)
    lengths = array("I")
    if places is None or lengths.itemsize != 4 or len(sections[LENGTHS]) != 4 * count:
        return None
    lengths.frombytes(sections[LENGTHS])
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
