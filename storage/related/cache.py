"""`related-index.bin`: the built related-papers index, saved so that it is built once per set
of papers instead of on every `papershelf related` and every start of the app.

Building `RelatedIndex` takes seconds of pure-Python CPU at 10,000 papers; loading this file
takes tens of milliseconds. The file is

- a `storage.caches.frame` header: a tag, `FORMAT`, a key made of the `StatKey` `(st_mtime_ns,
  st_size, st_ino)` of the papers.json the papers were read from (`Library.papers_key`, the key
  `search.listing` uses too) and `related.BUILD_FINGERPRINT`, the payload's length and CRC-32;
- a marshal payload: the paper ids in order (a cheap check that the key's papers are the papers
  given), the idf table, the terms of the inverted index, and the postings as three buffers
  (`array.tobytes()`): every term's start in the other two, the paper positions (int32), the
  weights (uint16, quantised: `related.index.WEIGHT_SCALE`).

It is trusted only whole: `load` returns None (and the caller builds) for a missing file, a
stale one (papers.json replaced since, other ids, another format or build), one shorter or
longer than its header says, one whose checksum fails, and one holding anything but what
`save` writes (types, lengths, offsets in order, positions inside the papers). `save` writes
atomically without fsync (a lost cache is only rebuilt) and never raises. Nothing here is
locked: every write replaces the whole file, so a reader sees one version or another.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

from papershelf.storage.caches import frame
from papershelf.storage.caches.frame import CacheFile, stat_key_bytes
from papershelf.storage.files.layout import RELATED_CACHE, StatKey
from papershelf.storage.model import Paper
from papershelf.storage.related.index import BUILD_FINGERPRINT, QUERY_TERMS, RelatedIndex

__all__ = ["FORMAT", "RELATED_CACHE", "load", "load_or_build", "save"]

FORMAT = 4
"""Bump when the layout or the build's code changes (its settings are in the fingerprint).
2: the `papershelf.storage.caches.frame` frame.
3: weights as 32-bit floats (`array("f")`, in memory too): a third less on disk and in the app,
   ranks as before to within float32's seven digits.
4: weights quantised to 16 bits (`array("H")`, `related.index.WEIGHT_SCALE`, in memory too):
   65 MB to 50 MB at 100,000 papers."""
MAGIC = b"PSRELATD"
_FILE = CacheFile(MAGIC, FORMAT, key_size=28)
"""Keyed by papers.json's `StatKey` and the build fingerprint; one marshal section."""
_FINGERPRINT = struct.Struct("<I")
_PARTS = 6
"""ids, idf, terms, offsets, positions, weights."""
_OFFSET, _POSITION, _WEIGHT = "q", "i", "H"
"""Array type codes of the three postings buffers."""


def _key(key: StatKey) -> bytes:
    return stat_key_bytes(key) + _FINGERPRINT.pack(BUILD_FINGERPRINT)


def save(root: Path, key: StatKey | None, index: RelatedIndex) -> bool:
    """Write `index` (built from the papers of the papers.json with `key`) to `root`.

    Returns False, writing nothing, when `key` is None (the papers are not a file's) or the
    file cannot be written: a missing cache only costs the next user a build.
    """
    if key is None:
        return False
    starts, positions, weights = index.parts
    # Memoryviews: marshal writes a buffer as the bytes it holds, without a copy of ~50 MB.
    buffers = (memoryview(array(_OFFSET, starts)), memoryview(positions), memoryview(weights))
    ids = tuple(paper.id for paper in index.papers)
    parts = (ids, dict(index.idf), tuple(index.terms), *buffers)
    return _FILE.save_value(root / RELATED_CACHE, _key(key), parts)


def load(
    root: Path, key: StatKey | None, papers: Sequence[Paper], *, query_terms: int = QUERY_TERMS
) -> RelatedIndex | None:
    """The saved index of `papers` (read from the papers.json with `key`), or None when there
    is none that can be trusted to be theirs: the caller then builds it."""
    if key is None:
        return None
    parts = _FILE.load_value(root / RELATED_CACHE, _key(key))
    if type(parts) is not tuple or len(parts) != _PARTS:
        return None
    ids, idf, terms, offsets, positions, weights = parts
    if type(ids) is not tuple or ids != tuple(paper.id for paper in papers):
        return None
    buffers = _postings(idf, terms, offsets, positions, weights, len(ids))
    if buffers is None:
        return None
    assert type(idf) is dict and type(terms) is tuple  # checked by _postings
    return RelatedIndex.from_parts(papers, idf, terms, buffers, query_terms=query_terms)


def _postings(
    idf: object, terms: object, offsets: object, positions: object, weights: object, size: int
) -> tuple[memoryview, memoryview, memoryview] | None:
    """The postings' buffers from the payload's parts, or None when they are not what `save`
    writes: an idf table of str -> float, distinct str terms each in it, one offset per term
    plus one (from 0, increasing, ending at the buffers' length), positions in `range(size)`.

    The buffers are memoryviews of the payload's bytes, cast to their items: nothing is copied
    (the bytes live as long as the index)."""
    if type(idf) is not dict or not set(map(type, idf)) <= {str}:
        return None
    if not set(map(type, idf.values())) <= {float}:
        return None
    if type(terms) is not tuple or not set(map(type, terms)) <= {str}:
        return None
    if type(offsets) is not bytes or type(positions) is not bytes or type(weights) is not bytes:
        return None
    try:
        starts = memoryview(offsets).cast(_OFFSET)
        docs = memoryview(positions).cast(_POSITION)
        term_weights = memoryview(weights).cast(_WEIGHT)
    except TypeError:  # not a whole number of items
        return None
    if len(starts) != len(terms) + 1 or starts[0] != 0 or starts[-1] != len(docs):
        return None
    if len(term_weights) != len(docs):
        return None
    for start, end in pairwise(starts):
        # A built posting is never empty and lists its papers in ascending order, so its ends
        # bound it (checking every position costs ~75 ms, as much as the rest of the load; the
        # checksum already vouches that the bytes are the ones `save` wrote, and
        # `RelatedIndex.related` skips a position outside the papers, should one get past it).
        if end <= start or docs[start] < 0 or docs[end - 1] >= size:
            return None
    if len(set(terms)) != len(terms) or not idf.keys() >= set(terms):
        return None
    return starts, docs, term_weights


def load_or_build(
    root: Path,
    key: StatKey | None,
    papers: Sequence[Paper],
    *,
    build: Callable[[Sequence[Paper]], RelatedIndex] = RelatedIndex,
) -> tuple[RelatedIndex, bool]:
    """The related index of `papers`: loaded when saved for them, else built with `build` and
    saved for the next time. The flag says whether it was loaded."""
    return frame.load_or_build(
        lambda: load(root, key, papers), lambda: build(papers), lambda made: save(root, key, made)
    )
