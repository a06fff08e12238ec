"""Damage for the cache files of a library, changed in place (same file, size and mtime), at
positions found from each file's `storage.caches.frame` layout: what the cache-damage tests do
(tests/test_cache_damage.py, tests/tui/test_app_cache_damage.py)."""

from __future__ import annotations

import marshal
import os
import struct
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import papershelf.storage.library.papers_cache as papercache
import papershelf.storage.related.cache as related_cache
import papershelf.storage.search.listing as listing
from papershelf.storage.library.library import Library
from papershelf.storage.search.index import INDEXED_FIELDS

PAPERS_CACHE = papercache.CACHE_FILE
LISTING = listing.LISTING_FILE
SEARCH = listing.SEARCH_CACHE
RELATED = related_cache.RELATED_CACHE
CACHES = (PAPERS_CACHE, LISTING, SEARCH, RELATED)

KEY_SIZES = {PAPERS_CACHE: 24, LISTING: 24, SEARCH: 40, RELATED: 28}
"""Each cache's key in its `storage.caches.frame` header; the header is 8 + 4 + key + 12 per
section bytes long."""
SECTIONS = {PAPERS_CACHE: 4, LISTING: 2, SEARCH: 2, RELATED: 1}
SECTION_NAMES = {
    PAPERS_CACHE: ("listed", "others", "places", "lengths"),
    LISTING: ("main", "abstracts"),
    SEARCH: ("main", "postings"),
    RELATED: ("payload",),
}


def change_in_place(path: Path, at: int, change: Callable[[int], int]) -> None:
    """Change the byte at `at` of `path` in place: same file, same size, same mtime."""
    with open(path, "rb") as handle:
        handle.seek(at)
        old = handle.read(1)[0]
    write_in_place(path, at, bytes([change(old)]))


def write_in_place(path: Path, at: int, new: bytes) -> None:
    """Overwrite bytes of `path` from `at` with `new`, keeping the file, its size and mtime."""
    before = os.stat(path)
    with open(path, "r+b") as handle:
        handle.seek(at)
        assert handle.read(len(new)) != new, "not a change"
        handle.seek(at)
        handle.write(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        before.st_ino,
        before.st_size,
        before.st_mtime_ns,
    )


def flip_bit(bit: int) -> Callable[[int], int]:
    return lambda old: old ^ (1 << bit)


def other_byte(old: int) -> int:
    return old ^ 0x5A


def other_letter(old: int) -> int:
    """Another character of the same kind: text that still decodes, the same length."""
    if ord("a") <= old <= ord("z"):
        return ord("a") + (old - ord("a") + 1) % 26
    if ord("0") <= old <= ord("9"):
        return ord("0") + (old - ord("0") + 1) % 10
    return old ^ 0x01


def sections_of(data: bytes, cache: str) -> list[tuple[int, int]]:
    """Each section's (start, length), read from the cache's `storage.caches.frame` header.

    A file of another layout (a papershelf before the checksums: the test must fail there on
    its answers, not on its own arithmetic) is cut into as many equal parts after 40 bytes.
    """
    key_size, count = KEY_SIZES[cache], SECTIONS[cache]
    at = 12 + key_size
    found = []
    start = at + 12 * count
    for _ in range(count):
        (length,) = struct.unpack_from("<Q", data, at)
        found.append((start, length))
        start += length
        at += 12
    if start == len(data):
        return found
    part = (len(data) - 40) // count
    return [(40 + number * part, part) for number in range(count)]


Locate = Callable[[bytes, Path], int]
"""Where to damage a cache, from its whole bytes (and the library it belongs to)."""


@dataclass(frozen=True)
class Damage:
    cache: str
    where: str
    kind: str  # "bit", "byte" or "char"
    locate: Locate

    def apply(self, root: Path, data: bytes) -> None:
        """Damage `self.cache` in `root`, whose whole bytes are `data`."""
        at = self.locate(data, root)
        if self.kind == "char":
            change = other_letter
        elif self.kind == "byte":
            change = other_byte
        else:
            change = flip_bit(at % 8)
        change_in_place(root / self.cache, at, change)


def at_fixed(at: int) -> Locate:
    return lambda _data, _root: at


def in_section(cache: str, number: int, fraction: float, offset: int = 0) -> Locate:
    """`fraction` of the way into section `number` (1.0: its last byte), plus `offset`."""

    def locate(data: bytes, _root: Path) -> int:
        start, length = sections_of(data, cache)[number]
        return start + min(int(fraction * (length - 1)) + offset, length - 1)

    return locate


def in_block(cache: str, fraction: float) -> Locate:
    """A byte inside the postings block `fraction` of the way through search-index.bin's
    blocks (the ones `papershelf list` reads in place)."""

    def locate(data: bytes, _root: Path) -> int:
        start, length = sections_of(data, cache)[1]
        block = int(fraction * ((length - 1) // listing.BLOCK))
        return start + min(block * listing.BLOCK + 1234, length - 1)

    return locate


def in_text(cache: str, number: int, word: bytes) -> Locate:
    """The third character of the first `word` in section `number`: a paper's own text."""

    def locate(data: bytes, _root: Path) -> int:
        start, length = sections_of(data, cache)[number]
        at = data.find(word, start, start + length)
        assert at != -1, f"no {word!r} in {cache} section {number}"
        return at + 2

    return locate


def in_posting(cache: str, token: str, what: str) -> Locate:
    """A byte of the abstract field's posting of `token` (`what`: "data", its first word's
    second byte, or "offsets", its offset's low byte), in search-index.bin: damage that
    changes what a search for the token finds, unless a checksum stops it."""

    def locate(data: bytes, _root: Path) -> int:
        (main_start, main_length), (postings_start, _) = sections_of(data, cache)
        parts, layout, _, _ = marshal.loads(data[main_start : main_start + main_length])
        offsets_at, data_at, _ = layout[INDEXED_FIELDS.index("abstract")]
        offsets_at += postings_start
        data_at += postings_start
        tid = parts[2].index(token)
        if what == "offsets":
            return offsets_at + 4 * tid
        (first,) = struct.unpack_from("=I", data, offsets_at + 4 * tid)
        return data_at + 4 * first + 1

    return locate


def in_neighbour_weight(data: bytes, root: Path) -> int:
    """The exponent byte of the weight that ties the middle paper (the one `related` is asked
    about) to its nearest neighbour, in one of the terms it queries."""
    (start, _) = sections_of(data, RELATED)[0]
    _, _, terms, raw_offsets, raw_positions, raw_weights = marshal.loads(data[start:])
    library = Library.open(root, seed=False)
    papers = library.papers()
    index = related_cache.load(root, library.papers_key, papers)
    assert index is not None
    paper = papers[len(papers) // 2]
    neighbour = next(i for i, p in enumerate(papers) if p.id == index.related(paper.id, 1)[0][0])
    offsets, positions = array("q"), array("i")
    offsets.frombytes(raw_offsets)
    positions.frombytes(raw_positions)
    for term, _ in index._query(paper.id):
        number = terms.index(term)
        for k in range(offsets[number], offsets[number + 1]):
            if positions[k] == neighbour:
                return data.find(raw_weights) + 2 * k + 1  # uint16: its high byte
    raise AssertionError("the neighbour shares no queried term")
