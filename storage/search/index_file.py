"""`search-index.bin`: the search index saved for the next process, laid out so that
`papershelf list` can leave its postings in the file.

A `storage.caches.frame` file keyed by the papers' `search.index.fingerprint` (40 hex digits),
in two sections:

- main: `(parts, layout, block checksums, prefix groups)` in marshal. `parts` are
  `SearchIndex.parts()` (the vocabulary, the name and title tokens, the abstracts' lengths);
  `layout` says, per indexed field, where its offsets and its data start in the postings section
  and how many 4-byte words the data holds; the block checksums are the CRC-32 of every `BLOCK`
  bytes of the postings section; the prefix groups are `SearchIndex.state()`'s.
- postings: each field's `FieldPostings` buffers back to back (offsets, then data).

The app (`load`) reads both sections whole, each checked against its CRC-32, and the index is
the one `SearchIndex.from_state` makes of them. `papershelf list` (`open_lazy`) reads the main
section only and leaves the postings in the file, read with `os.pread` as a query asks for
them, each block checked before any byte of it is used (`search.filepostings`): a query touches
a few hundred postings of tens of thousands. Before format 13 the listing kept a second copy of
these postings and of the vocabulary (~45 MB of listing.cache at 100,000 papers).
"""

from __future__ import annotations

import marshal
from array import array
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from papershelf.storage.caches.frame import MARSHAL_VERSION, CacheFile, checksum
from papershelf.storage.search.filepostings import (
    BLOCK,
    CheckedPostings,
    FilePostings,
    ListingFile,
)
from papershelf.storage.search.index import (
    _FILE_FORMAT,
    INDEXED_FIELDS,
    SearchIndex,
    saved_size_and_vocabulary,
)
from papershelf.storage.search.postings import Postings

__all__ = ["FILE_FORMAT", "LazyIndex", "load", "open_lazy", "save"]

FILE_FORMAT = _FILE_FORMAT
"""search-index.bin's format number (`search.index._FILE_FORMAT` says what each changed)."""
_FILE = CacheFile(b"PSSEARCH", FILE_FORMAT, key_size=40, sections=2)


def _key(fingerprint: str) -> bytes:
    return fingerprint.encode("ascii", "replace")


def save(path: Path, index: SearchIndex) -> bool:
    """Write `index` to `path` (atomically); False when it cannot be written or is not an
    index held in memory: a missing cache only costs a build."""
    try:
        index.prefix_groups()  # what the first keys need, saved for the next process
        # Any: plain values (str, int, bytes, tuples and lists of them) that marshal takes.
        state: Any = index.state()
    except TypeError:
        return False  # postings read from a file, not held in memory
    parts, columns, groups = state
    buffers: list[bytes] = []
    layout: list[tuple[int, int, int]] = []
    position = 0
    for offsets, data in columns:
        layout.append((position, position + len(offsets), len(data) >> 2))
        buffers += [offsets, data]
        position += len(offsets) + len(data)
    postings = b"".join(buffers)
    view = memoryview(postings)
    table = array("I", [checksum(view[at : at + BLOCK]) for at in range(0, position, BLOCK)])
    try:
        main = marshal.dumps((parts, tuple(layout), table.tobytes(), groups), MARSHAL_VERSION)
    except (ValueError, MemoryError):
        return False
    return _FILE.save(path, _key(index.fingerprint), [main, postings])


def _main(raw: bytes | bytearray) -> tuple[object, list[tuple[int, int, int]], object, object]:
    """The main section's `(parts, layout, table, groups)`; ValueError when it is not one."""
    try:
        value = marshal.loads(raw)
    except (EOFError, TypeError) as error:
        raise ValueError("not marshal") from error
    if type(value) is not tuple or len(value) != 4:
        raise ValueError("not a main section")
    parts, layout, table, groups = value
    if type(layout) is not tuple or len(layout) != len(INDEXED_FIELDS):
        raise ValueError("not a layout")
    places: list[tuple[int, int, int]] = []
    for place in layout:
        if type(place) is not tuple or len(place) != 3 or {type(n) for n in place} != {int}:
            raise ValueError("not a place")
        if min(place) < 0 or place[0] > place[1]:
            raise ValueError("a place out of order")
        places.append(place)
    return parts, places, table, groups


def load(path: Path, fingerprint: str) -> SearchIndex | None:
    """The index saved at `path` for the papers of `fingerprint`, both sections whole and
    checked; None for anything else (never raises)."""
    sections = _FILE.load(path, _key(fingerprint))
    if sections is None:
        return None
    main, postings = sections
    try:
        parts, layout, _table, groups = _main(main)
    except ValueError:
        return None
    view = memoryview(postings)
    columns = []
    for offsets_at, data_at, words in layout:
        end = data_at + 4 * words
        if end > len(postings):
            return None
        columns.append((bytes(view[offsets_at:data_at]), bytes(view[data_at:end])))
    return SearchIndex.from_state((parts, tuple(columns), groups), fingerprint)


class LazyIndex:
    """An index whose postings stay in search-index.bin (held open until `close`)."""

    def __init__(self, index: SearchIndex, file: ListingFile) -> None:
        self.index = index
        self.file = file

    def close(self) -> None:
        self.file.close()


def open_lazy(path: Path, fingerprint: str) -> LazyIndex | None:
    """The index saved at `path` for `fingerprint`, its main section read and checked and its
    postings left in the file (read and checked block by block as searches ask:
    `search.filepostings.ListingUnusable` when one is damaged); None when the header or the
    main section is not this code's for `fingerprint`."""
    opened = _FILE.open(path, _key(fingerprint))
    if opened is None:
        return None
    file = ListingFile(opened)
    found = None
    try:
        found = _lazy(file, fingerprint)
    except (ValueError, MemoryError):
        found = None
    finally:
        if found is None:
            file.close()
    return found


def _lazy(file: ListingFile, fingerprint: str) -> LazyIndex | None:
    raw = file.opened.section(0)
    if raw is None:
        return None
    parts, layout, table, groups = _main(raw)
    section = CheckedPostings.of(file, file.opened.sections[1], table)
    if section is None:
        return None
    sized = saved_size_and_vocabulary(parts)
    if sized is None:
        return None
    size, vocab = sized
    postings = _postings(section, layout, len(vocab), size)
    if postings is None:
        return None
    index = SearchIndex.from_saved(parts, postings, groups, fingerprint)
    return None if index is None else LazyIndex(index, file)


def _postings(
    section: CheckedPostings, layout: Sequence[tuple[int, int, int]], vocab_size: int, size: int
) -> dict[str, Postings] | None:
    """The fields' `FilePostings` from `layout`, or None when it does not fit the section."""
    postings: dict[str, Postings] = {}
    for field, (offsets_at, data_at, data_words) in zip(INDEXED_FIELDS, layout, strict=True):
        if offsets_at + 4 * (vocab_size + 1) != data_at:
            return None
        if data_at + 4 * data_words > section.length:
            return None
        postings[field] = FilePostings(section, offsets_at, data_at, data_words, size)
    return postings
