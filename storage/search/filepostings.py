"""The postings of `search-index.bin` left in the file for `papershelf list`: read with
`os.pread` as a search asks for them, each `BLOCK` of bytes checked against its CRC-32 before
any byte of it is used.

`search.index_file` owns the file's layout (header, main section, postings section) and opens
it lazily; `search.listing` is what `list` reads; this module owns reading the postings
section safely. (Before listing.cache format 7 the listing held a copy of these postings.)
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import pairwise

from papershelf.storage.caches.frame import Opened, Section, checksum
from papershelf.storage.search.postings import Posting, bitset_words, decode_posting

BLOCK = 4096
"""The postings are checked in blocks of this many bytes: a query reads one page per posting
or run of postings it touches (a 4 KiB read costs little more than a 40-byte one) and checks
each block once; the table costs 4 bytes per block (3 KB at 10,815 papers)."""


class ListingUnusable(Exception):
    """A part of the listing read late (postings, abstracts) is damaged or the file was closed:
    nothing has been printed yet, and the caller starts again on the full path."""


class ListingFile:
    """A cache file `list` reads lazily, at absolute positions (`os.pread`: no shared offset)."""

    __slots__ = ("opened",)

    def __init__(self, opened: Opened) -> None:
        self.opened = opened

    def read(self, size: int, at: int) -> bytes:
        """Exactly `size` bytes from `at`; `ListingUnusable` when they are not there."""
        if self.opened.handle is None:
            raise ListingUnusable("the listing is closed")
        data = self.opened.read(size, at)
        if data is None:
            raise ListingUnusable("cannot read the listing whole")
        return data

    def close(self) -> None:
        self.opened.close()


class CheckedPostings:
    """The postings section, read in `BLOCK`-byte blocks that are each checked against their
    CRC-32 before any byte of them is used, and kept (a block is read and checked once)."""

    __slots__ = ("_blocks", "_crcs", "_file", "_place")

    def __init__(self, file: ListingFile, place: Section, crcs: array[int]) -> None:
        self._file = file
        self._place = place
        self._crcs = crcs
        self._blocks: dict[int, bytes] = {}

    @classmethod
    def of(cls, file: ListingFile, place: Section, table: object) -> CheckedPostings | None:
        """The postings in `place`, with `table` (packed CRC-32s, one per block), or None
        when the table does not cover the section's blocks exactly."""
        if type(table) is not bytes or len(table) != 4 * -(-place.length // BLOCK):
            return None
        crcs = array("I")
        crcs.frombytes(table)
        return cls(file, place, crcs)

    @property
    def length(self) -> int:
        return self._place.length

    def read(self, size: int, at: int) -> bytes:
        """`size` bytes from `at` in the section, from checked blocks; `ListingUnusable` when
        they lie outside it or a block they touch is damaged."""
        end = at + size
        if at < 0 or size < 0 or end > self._place.length:
            raise ListingUnusable("a posting of the listing lies outside its section")
        if not size:
            return b""
        first, last = at // BLOCK, (end - 1) // BLOCK
        blocks = self._blocks
        missing = [number for number in range(first, last + 1) if number not in blocks]
        if missing:
            self._load(missing[0], missing[-1])
        base = first * BLOCK
        if first == last:
            return blocks[first][at - base : end - base]
        joined = b"".join([blocks[number] for number in range(first, last + 1)])
        return joined[at - base : end - base]

    def _load(self, lo: int, hi: int) -> None:
        """Read blocks lo..hi in one read and keep those not kept yet, each once checked."""
        start = lo * BLOCK
        stop = min((hi + 1) * BLOCK, self._place.length)
        raw = memoryview(self._file.read(stop - start, self._place.at + start))
        for number in range(lo, hi + 1):
            if number in self._blocks:
                continue
            block = raw[(number - lo) * BLOCK : (number - lo + 1) * BLOCK]
            if checksum(block) != self._crcs[number]:
                raise ListingUnusable("the postings of the listing are damaged")
            self._blocks[number] = block.tobytes()


class FilePostings:
    """One field's `FieldPostings` left in search-index.bin: the same answers, read on demand.

    `offsets` (vocabulary size + 1 words) and `data` (4-byte words) are at positions in the
    checked postings section. An offset that points outside `data`, or backwards, or a paper
    id past the last paper raises `ListingUnusable` (damage the checksums missed by chance).
    """

    __slots__ = ("_data_at", "_data_words", "_offsets_at", "_section", "_size", "_size_words")

    def __init__(
        self, section: CheckedPostings, offsets_at: int, data_at: int, data_words: int, size: int
    ) -> None:
        self._section = section
        self._offsets_at = offsets_at
        self._data_at = data_at
        self._data_words = data_words
        self._size = size
        self._size_words = bitset_words(size)

    def _offsets(self, lo: int, hi: int) -> array[int]:
        """offsets[lo : hi + 1], checked to lie inside `data` and not to decrease."""
        offsets = array("I")
        offsets.frombytes(self._section.read(4 * (hi - lo + 1), self._offsets_at + 4 * lo))
        if offsets[-1] > self._data_words or offsets[0] > offsets[-1]:
            raise ListingUnusable("a posting of the listing lies outside its data")
        return offsets

    def _words(self, start: int, end: int) -> memoryview:
        data = self._section.read(4 * (end - start), self._data_at + 4 * start)
        return memoryview(data).cast("I")

    def _decode(self, words: memoryview) -> Posting:
        # Bits past the last paper are masked by every search; ids past it would index
        # outside the bitsets.
        if len(words) != self._size_words and max(words) >= self._size:
            raise ListingUnusable("a posting of the listing names a paper it does not hold")
        return decode_posting(words, self._size_words)

    def get(self, tid: int) -> Posting | None:
        """Token `tid`'s papers, or None when the token is not in this field."""
        start, end = self._offsets(tid, tid + 1)
        if start == end:
            return None
        return self._decode(self._words(start, end))

    def dense_tids(self) -> Iterator[int]:
        """The ids of the tokens whose postings are bitsets (the common tokens), ascending."""
        vocab_size = (self._data_at - self._offsets_at) // 4 - 1
        offsets = self._offsets(0, vocab_size) if vocab_size > 0 else array("I", [0])
        for tid, (start, end) in enumerate(pairwise(offsets)):
            if end - start == self._size_words:
                yield tid

    def many(self, tids: Iterable[int]) -> Iterator[Posting]:
        """The postings of the tokens `tids` that are in this field; a range of ids (a prefix's
        tokens) is read in two reads, its offsets and then its data."""
        if not isinstance(tids, range) or tids.step != 1 or len(tids) < 2:
            for tid in tids:
                posting = self.get(tid)
                if posting is not None:
                    yield posting
            return
        offsets = self._offsets(tids.start, tids.stop)
        base = offsets[0]
        words = self._words(base, offsets[-1])
        for start, end in pairwise(offsets):
            if start < end:
                yield self._decode(words[start - base : end - base])
            elif start > end:
                raise ListingUnusable("the postings of the listing are out of order")
