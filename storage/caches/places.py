"""Abstracts read from papers.json itself: where each one lies, and reading them back checked.

The abstracts are most of papers.json (~130 of 170 MB at 100,000 papers). A cache that held
them again (papers.cache did, as marshalled text) doubled the library on disk and, while it
was written, in memory. Instead a cache keeps each abstract's `Places`: the byte offset and
length of its JSON string in papers.json and the CRC-32 of those bytes. `read_abstracts`
reads them back from the papers.json whose `StatKey` the cache was made from (the descriptor's
own key is compared, so a file replaced meanwhile is never read for it) and uses an abstract
only when its bytes have the checksum recorded and decode to a JSON string; anything else
makes the whole read fail (None), and the caller reads papers.json the slow way.

Places are found two ways: while papers.json is written (`PlaceFinder`, given each document's
bytes as `files.jsonstore.dump_chunks` writes them) and after papers.json is read (`locate`,
over the bytes read, for a file another program wrote: any JSON spacing, ASCII-escaped or
not). A string that cannot be found where it must be gives no places: no cache is written.
"""

from __future__ import annotations

import json
import os
import stat
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from json.encoder import encode_basestring, encode_basestring_ascii
from pathlib import Path

from papershelf.storage.caches.frame import checksum
from papershelf.storage.files.layout import StatKey, stat_key

__all__ = ["PlaceFinder", "Places", "locate", "read_abstracts"]

_KEY = b'"abstract"'
_SPACE = (b" ", b"\t", b"\r", b"\n")
READ_CHUNK = 8 * 1024 * 1024
"""papers.json is read in windows of this size: never held whole."""


@dataclass(frozen=True, slots=True)
class Places:
    """Where each paper's abstract lies in papers.json, in paper order."""

    offsets: array  # type: ignore[type-arg]  # 'Q': the byte offset of the opening quote
    lengths: array  # type: ignore[type-arg]  # 'I': the bytes of the JSON string, quotes too
    crcs: array  # type: ignore[type-arg]  # 'I': their CRC-32

    def __len__(self) -> int:
        return len(self.offsets)

    def to_bytes(self) -> bytes:
        """The three columns back to back (a cache section)."""
        return self.offsets.tobytes() + self.lengths.tobytes() + self.crcs.tobytes()

    @classmethod
    def from_bytes(cls, data: bytes | bytearray, count: int) -> Places | None:
        """The places of `count` papers from `to_bytes`' bytes; None when they do not fit."""
        offsets, lengths, crcs = array("Q"), array("I"), array("I")
        if offsets.itemsize != 8 or lengths.itemsize != 4 or len(data) != 16 * count:
            return None
        view = memoryview(data)
        offsets.frombytes(view[: 8 * count])
        lengths.frombytes(view[8 * count : 12 * count])
        crcs.frombytes(view[12 * count :])
        return cls(offsets, lengths, crcs)


def _empty() -> Places:
    return Places(array("Q"), array("I"), array("I"))


class PlaceFinder:
    """Collects the places of the papers table's documents as they are written, in order."""

    def __init__(self, table: str, abstracts: Iterable[object]) -> None:
        self._table = table
        self._abstracts = iter(abstracts)
        self.places: Places | None = _empty()

    def document(self, table: str, at: int, document: bytes) -> None:
        """Document bytes `document` written at byte `at` of table `table`."""
        if table != self._table or self.places is None:
            return
        abstract = next(self._abstracts, None)
        found = _find(document, 0, abstract) if type(abstract) is str else None
        if found is None:
            self.places = None
            return
        start, length = found
        self._add(at + start, document[start : start + length])

    def _add(self, offset: int, value: bytes) -> None:
        assert self.places is not None
        self.places.offsets.append(offset)
        self.places.lengths.append(len(value))
        self.places.crcs.append(checksum(value))

    def finished(self) -> Places | None:
        """The places, when every abstract was found and no more were expected."""
        if next(self._abstracts, None) is not None:
            return None
        return self.places


def _mine(abstract: str) -> bytes:
    """The abstract as a JSON string the way papershelf writes it (orjson: 2-4x faster than
    json's C string encoder, which gives the same bytes; a lone surrogate, which papershelf
    never stores, falls back to it)."""
    try:
        return _orjson_dumps()(abstract)
    except TypeError:
        return encode_basestring(abstract).encode()


@cache
def _orjson_dumps() -> Callable[[object], bytes]:
    # Imported on first use (a write of papers.json, or a read of one another program wrote),
    # then bound: an import statement per abstract cost ~1.5 us.
    import orjson

    return orjson.dumps


def _find(data: bytes, start: int, abstract: str) -> tuple[int, int] | None:
    """The offset and length of the value of the first `"abstract": <abstract>` pair in `data`
    from `start` (the key, optional white space, a colon, the string encoded one way or the
    other); None when there is none."""
    # As papershelf writes it (UTF-8: orjson's bytes, which are json's, `files.jsonstore`);
    # escaped as other writers may (every non-ASCII character as `\uXXXX`) only when that is
    # not found.
    mine = _mine(abstract)
    escaped: bytes | None = None
    at = data.find(_KEY, start)
    while at >= 0:
        value = at + len(_KEY)
        while data[value : value + 1] in _SPACE:
            value += 1
        if data[value : value + 1] == b":":
            value += 1
            while data[value : value + 1] in _SPACE:
                value += 1
            if data.startswith(mine, value):
                return value, len(mine)
            if not abstract.isascii():
                escaped = escaped or encode_basestring_ascii(abstract).encode()
                if data.startswith(escaped, value):
                    return value, len(escaped)
        at = data.find(_KEY, at + 1)
    return None


def locate(raw: bytes, abstracts: Iterable[object]) -> Places | None:
    """The places of `abstracts` (the papers table's records' values, in file order) in
    papers.json's bytes `raw`; None when one is not a string or is not found in order."""
    finder = PlaceFinder("papers", ())
    position = 0
    for abstract in abstracts:
        if type(abstract) is not str:
            return None
        found = _find(raw, position, abstract)
        if found is None:
            return None
        start, length = found
        finder._add(start, raw[start : start + length])
        position = start + length
    return finder.places


def open_version(path: Path, key: StatKey) -> tuple[int, int] | None:
    """papers.json at `path` opened for reading, with its size, when it is a regular file and
    still the version `key` (a cache's places describe that version only); else None, with
    nothing left open (never raises). Non-blocking, so a FIFO put in its place cannot hang us."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and stat_key(info) == key:
            return fd, info.st_size
    except OSError:
        pass
    os.close(fd)
    return None


def read_abstracts(path: Path, key: StatKey, places: Places) -> list[str] | None:
    """The abstracts at `places` in the papers.json at `path`, when it is still the version
    `key` and every one has its checksum and is a JSON string; else None (never raises)."""
    opened = open_version(path, key)
    if opened is None:
        return None
    fd, size = opened
    try:
        return _read_all(fd, places, size)
    except (OSError, ValueError, OverflowError, MemoryError):
        return None
    finally:
        os.close(fd)


def _read_all(fd: int, places: Places, size: int) -> list[str] | None:
    """Every abstract, read a window at a time; each window's strings decoded by one
    `json.loads` of them as an array (a call per abstract cost 3x as much)."""
    abstracts: list[str] = []
    offsets, lengths, crcs = places.offsets, places.lengths, places.crcs
    count = len(offsets)
    first = 0
    while first < count:
        window_at = offsets[first]
        if window_at + lengths[first] > size:
            return None
        # Never more than the file holds: pread allocates all it is asked for first.
        window = os.pread(fd, min(max(READ_CHUNK, lengths[first]), size - window_at), window_at)
        window_end = window_at + len(window)
        values: list[bytes] = []
        last = first
        while last < count:
            offset, length = offsets[last], lengths[last]
            if offset < window_at or offset + length > window_end:
                break
            value = window[offset - window_at : offset - window_at + length]
            # One JSON string each: its checksum, and quotes at both ends (a value holding
            # two strings would give the array one element too many, refused below).
            if length < 2 or checksum(value) != crcs[last] or value[0] != 0x22 or value[-1] != 0x22:
                return None
            values.append(value)
            last += 1
        if last == first:
            return None
        texts = json.loads(b"[" + b",".join(values) + b"]")
        if type(texts) is not list or len(texts) != len(values) or not _all_str(texts):
            return None
        abstracts += texts
        first = last
    return abstracts


def _all_str(values: list[object]) -> bool:
    return set(map(type, values)) <= {str}
