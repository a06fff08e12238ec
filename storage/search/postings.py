"""Postings: which papers hold a token, as a Python-int bitset (dense) or packed uint32 ids
(sparse), whichever is smaller, and every token of a field packed in one buffer
(`FieldPostings`), so that a saved index loads as a few buffers, not a Python object per token.

A bitset's bit i is the i-th paper in library order: AND, OR and NOT over 10k papers cost about
a microsecond. Used by `search.index` (building, saving, matching) and `search.listing`.
"""

from __future__ import annotations

import re
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence, Sized
from itertools import compress, count, repeat
from operator import sub
from typing import Protocol

_ONE = re.compile("1")
_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def ids_to_bits(ids: Iterable[int], size: int) -> int:
    """A bitset of paper indices (each < size)."""
    if not isinstance(ids, Sized) or len(ids) * 16 < size:
        buf = bytearray((size + 7) >> 3)
        for i in ids:
            buf[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(buf, "little")
    # Many ids: one "0"/"1" digit per paper, set by a C-level loop (a deque draining a map),
    # then parsed by int(): 3x faster than shifting bits in one id at a time.
    digits = bytearray(b"0") * size
    deque(map(digits.__setitem__, ids, repeat(49)), maxlen=0)  # 49 is "1"
    digits.reverse()
    return int(digits, 2) if size else 0


def bits_to_ids(bits: int) -> list[int]:
    """The set bits, ascending (= library order)."""
    if not bits:
        return []
    count = bits.bit_count()
    if count <= _FEW:
        # A few papers (a group of one score on the first screen): each found by its bit
        # length and cleared, the int shrinking as its top bits go. The text of 100k digits
        # that `bin` makes took 50-300 us even for one paper.
        ids = []
        while bits:
            top = bits.bit_length() - 1
            ids.append(top)
            bits ^= 1 << top
        ids.reverse()
        return ids
    digits = bin(bits)[:1:-1]  # digit i is bit i
    if count * 16 < len(digits):
        return [m.start() for m in _ONE.finditer(digits)]
    # Dense: a C-level loop (compress) over one 0/1 byte per bit.
    flags = digits.encode("ascii").translate(_TO_FLAGS)
    return list(compress(range(len(flags)), flags))


_FEW = 128
"""Up to this many set bits, `bits_to_ids` finds them one by one (each costs a pass over the
int's words, so a few hundred cost what `bin` does)."""


def views_to_bits(views: Sequence[memoryview], size: int) -> int:
    """The papers of several sparse postings (views of packed uint32 ids; an id may be in
    more than one) as one bitset, ids >= `size` dropped (a damaged cache's).

    The views are joined into one buffer (a copy in C) and scattered by `ids_to_bits`: a
    `set` of them first took 0.4 s for `'d` at 100k papers (a million ids hashed), this 60 ms.
    """
    ids = views[0] if len(views) == 1 else memoryview(b"".join(views)).cast("I")
    try:
        return ids_to_bits(ids, size)
    except IndexError:
        # An id past the last paper: only in a damaged cache whose checksum matched by chance.
        # Dropped here (free when there is none) rather than crash a search.
        return ids_to_bits([i for i in ids if i < size], size)


_BIT_OF_BYTE = tuple(
    bytes.maketrans(bytes(range(256)), bytes(b >> k & 1 for b in range(256))) for k in range(8)
)
"""Table k maps a byte to its bit k (0 or 1), for `bits_to_flags`."""


def bits_to_flags(bits: int, size: int) -> bytes:
    """One byte a paper, 1 where its bit is set (bits >= size are dropped): eight C-level
    translations of the bitset's bytes, each filling every eighth byte."""
    length = (size + 7) >> 3
    raw = (bits & ((1 << size) - 1)).to_bytes(length, "little")
    flags = bytearray(length * 8)
    for k, table in enumerate(_BIT_OF_BYTE):
        flags[k::8] = raw.translate(table)
    return bytes(flags[:size])


Posting = int | memoryview
"""Papers of one token in one field: a bitset (dense) or a view of native uint32 ids (sparse)."""


def bitset_words(size: int) -> int:
    """The 4-byte words of a dense posting (a bitset of `size` papers, padded to whole words).

    A sparse posting is always shorter: it is kept only while 4 bytes a paper cost less than
    the bitset (`_is_dense`), so a posting's length alone tells which kind it is.
    """
    return (size + 31) >> 5


def decode_posting(words: memoryview, size_words: int) -> Posting:
    """One posting from its words (`size_words` = `bitset_words(size)`): see `FieldPostings`."""
    if len(words) == size_words:
        return int.from_bytes(words, "little")
    return words


class Postings(Protocol):
    """The postings of one field by token id: `FieldPostings`, or a file-backed equivalent."""

    def get(self, tid: int) -> Posting | None:
        """Token `tid`'s papers, or None when the token is not in this field."""
        ...

    def many(self, tids: Iterable[int]) -> Iterator[Posting]:
        """The postings of the tokens `tids` that are in this field."""
        ...

    def dense_tids(self) -> Iterator[int]:
        """The ids of the tokens whose postings are bitsets (the common tokens), ascending."""
        ...


class FieldPostings:
    """The postings of one field, packed: token id (position in the vocabulary) -> papers.

    Every posting is a slice of one buffer of 4-byte words: packed native uint32 paper ids when
    sparse, a little-endian bitset of `bitset_words(size)` words when dense (whichever is
    smaller, see `_is_dense`; the length tells them apart). `offsets[tid]:offsets[tid + 1]`
    (in words) is token `tid`'s slice, empty when the token is not in this field. Loading one
    is two buffer copies, where a dict of tens of thousands of postings took a Python object
    per token to rebuild.
    """

    __slots__ = ("_view", "_words", "data", "offsets")

    def __init__(self, offsets: array[int], data: bytes | bytearray, size: int) -> None:
        self.offsets = offsets
        self.data = data
        self._view = memoryview(data).cast("I") if data else memoryview(b"").cast("I")
        self._words = bitset_words(size)

    @classmethod
    def pack(
        cls, vocab: Sequence[str], found: Mapping[str, Sequence[int]], size: int
    ) -> FieldPostings:
        """Pack the paper ids of each vocabulary token found in this field.

        Into one buffer sized first (each posting's length follows from its count): a list of
        parts joined at the end held the field's postings twice (~40 MB at 100k papers)."""
        words = bitset_words(size)
        offsets = array("I", [0])
        position = 0
        for token in vocab:
            ids = found.get(token)
            if ids:
                position += words if _is_dense(len(ids), size) else len(ids)
            offsets.append(position)
        data = bytearray(4 * position)
        for tid, token in enumerate(vocab):
            start, end = 4 * offsets[tid], 4 * offsets[tid + 1]
            if start == end:
                continue
            ids = found[token]
            if _is_dense(len(ids), size):
                data[start:end] = ids_to_bits(ids, size).to_bytes(words * 4, "little")
            elif isinstance(ids, array) and ids.typecode == "I":
                data[start:end] = ids
            else:
                data[start:end] = array("I", ids)
        return cls(offsets, data, size)

    def get(self, tid: int) -> Posting | None:
        """Token `tid`'s papers: a bitset, a view of packed ids, or None when it is absent."""
        start, end = self.offsets[tid], self.offsets[tid + 1]
        if start == end:
            return None
        return decode_posting(self._view[start:end], self._words)

    def many(self, tids: Iterable[int]) -> Iterator[Posting]:
        """The postings of the tokens `tids` that are in this field."""
        get = self.get
        for tid in tids:
            posting = get(tid)
            if posting is not None:
                yield posting

    def dense_tids(self) -> Iterator[int]:
        """The ids of the tokens whose postings are bitsets (the common tokens), ascending."""
        lengths = map(sub, self.offsets[1:], self.offsets[:-1])
        return compress(count(), map(self._words.__eq__, lengths))

    def state(self) -> tuple[bytes, bytes | bytearray]:
        """Plain bytes for marshal (see `from_state`)."""
        return self.offsets.tobytes(), self.data

    @classmethod
    def from_state(cls, state: object, vocab_size: int, size: int) -> FieldPostings | None:
        """The postings saved by `state`, or None when they are not a consistent whole."""
        if type(state) is not tuple or len(state) != 2:
            return None
        raw_offsets, data = state
        if type(raw_offsets) is not bytes or type(data) not in (bytes, bytearray):
            return None
        if len(raw_offsets) != 4 * (vocab_size + 1) or len(data) % 4:
            return None
        offsets = array("I")
        offsets.frombytes(raw_offsets)
        # Slices are taken in whole words, so no offset can make a view that fails to cast;
        # the ends must match the buffer (a mismatch means another layout or a damaged file).
        if offsets[0] != 0 or offsets[-1] != len(data) >> 2:
            return None
        return cls(offsets, data, size)


def _is_dense(count: int, size: int) -> bool:
    # A bitset costs size/8 bytes, packed ids 4 per paper: keep the smaller.
    return count * 32 >= size
