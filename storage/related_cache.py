"""`related-index.bin`: the built related-papers index, saved so that it is built once per set
of papers instead of on every `papershelf related` and every start of the app.

Building `RelatedIndex` takes seconds of pure-Python CPU at 10,000 papers; loading this file
takes tens of milliseconds. The file is

- a fixed header: a magic string, `FORMAT`, the `StatKey` `(st_mtime_ns, st_size, st_ino)` of
  the papers.json the papers were read from (`Library.papers_key`, the key `storage.listing`
  uses too), `related.BUILD_FINGERPRINT`, the payload's length and its CRC-32;
- a marshal payload: the paper ids in order (a cheap check that the key's papers are the papers
  given), the idf table, the terms of the inverted index, and the postings as three buffers
  (`array.tobytes()`): every term's start in the other two, the paper positions, the weights.

It is trusted only whole: `load` returns None (and the caller builds) for a missing file, a
stale one (papers.json replaced since, other ids, another format or build), one shorter or
longer than its header says, one whose checksum fails, and one holding anything but what
`save` writes (types, lengths, offsets in order, positions inside the papers). `save` writes
atomically without fsync (a lost cache is only rebuilt) and never raises. Nothing here is
locked: every write replaces the whole file, so a reader sees one version or another.
"""

from __future__ import annotations

import marshal
import os
import struct
import zlib
from array import array
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

from storage.listing_state import StatKey
from storage.model import Paper
from storage.related import BUILD_FINGERPRINT, QUERY_TERMS, Posting, RelatedIndex

__all__ = ["FORMAT", "RELATED_CACHE", "load", "load_or_build", "save"]

RELATED_CACHE = "related-index.bin"
"""The file's name in the library directory."""
FORMAT = 1
"""Bump when the layout or the build's code changes (its settings are in the fingerprint)."""
MAGIC = b"PSRELATD"
_HEADER = struct.Struct("<8sIqQQIQI")
"""magic, format, st_mtime_ns, st_size, st_ino, build fingerprint, payload length, CRC-32."""
_MARSHAL_VERSION = 4
_PARTS = 6
"""ids, idf, terms, offsets, positions, weights."""
_OFFSET, _POSITION, _WEIGHT = "q", "i", "d"
"""Array type codes of the three postings buffers."""


def _header(key: StatKey, length: int, checksum: int) -> bytes:
    mtime_ns, size, inode = key
    return _HEADER.pack(MAGIC, FORMAT, mtime_ns, size, inode, BUILD_FINGERPRINT, length, checksum)


def save(root: Path, key: StatKey | None, index: RelatedIndex) -> bool:
    """Write `index` (built from the papers of the papers.json with `key`) to `root`.

    Returns False, writing nothing, when `key` is None (the papers are not a file's) or the
    file cannot be written: a missing cache only costs the next user a build.
    """
    if key is None:
        return False
    from storage.errors import PapershelfError
    from storage.jsonstore import atomic_write

    terms = tuple(index.postings)
    offsets = array(_OFFSET, [0])
    positions = array(_POSITION)
    weights = array(_WEIGHT)
    for term in terms:
        docs, term_weights = index.postings[term]
        positions.extend(docs)
        weights.extend(term_weights)
        offsets.append(len(positions))
    ids = tuple(paper.id for paper in index.papers)
    try:
        payload = marshal.dumps(
            (
                ids,
                dict(index.idf),
                terms,
                offsets.tobytes(),
                positions.tobytes(),
                weights.tobytes(),
            ),
            _MARSHAL_VERSION,
        )
        header = _header(key, len(payload), zlib.crc32(payload))
        atomic_write(root / RELATED_CACHE, header + payload, sync=False)
    except (PapershelfError, OSError, ValueError, OverflowError, struct.error):
        return False
    return True


def load(
    root: Path, key: StatKey | None, papers: Sequence[Paper], *, query_terms: int = QUERY_TERMS
) -> RelatedIndex | None:
    """The saved index of `papers` (read from the papers.json with `key`), or None when there
    is none that can be trusted to be theirs: the caller then builds it."""
    if key is None:
        return None
    try:
        with open(root / RELATED_CACHE, "rb") as handle:
            head = handle.read(_HEADER.size)
            if len(head) != _HEADER.size:
                return None
            length, checksum = _HEADER.unpack(head)[6:]
            if head != _header(key, length, checksum):
                return None
            if os.fstat(handle.fileno()).st_size != _HEADER.size + length:
                return None  # cut short or grown: not the file this header describes
            payload = handle.read(length)
    except (OSError, struct.error, OverflowError, MemoryError):
        return None
    if len(payload) != length or zlib.crc32(payload) != checksum:
        return None
    try:
        parts = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if type(parts) is not tuple or len(parts) != _PARTS:
        return None
    ids, idf, terms, offsets, positions, weights = parts
    if type(ids) is not tuple or ids != tuple(paper.id for paper in papers):
        return None
    postings = _postings(idf, terms, offsets, positions, weights, len(ids))
    if postings is None:
        return None
    return RelatedIndex.from_parts(papers, idf, postings, query_terms=query_terms)


def _postings(
    idf: object, terms: object, offsets: object, positions: object, weights: object, size: int
) -> dict[str, Posting] | None:
    """The inverted index from the payload's parts, or None when they are not what `save`
    writes: an idf table of str -> float, distinct str terms each in it, one offset per term
    plus one (from 0, increasing, ending at the buffers' length), positions in `range(size)`."""
    if type(idf) is not dict or not set(map(type, idf)) <= {str}:
        return None
    if not set(map(type, idf.values())) <= {float}:
        return None
    if type(terms) is not tuple or not set(map(type, terms)) <= {str}:
        return None
    if type(offsets) is not bytes or type(positions) is not bytes or type(weights) is not bytes:
        return None
    starts, docs, term_weights = array(_OFFSET), array(_POSITION), array(_WEIGHT)
    try:
        starts.frombytes(offsets)
        docs.frombytes(positions)
        term_weights.frombytes(weights)
    except ValueError:  # not a whole number of items
        return None
    if len(starts) != len(terms) + 1 or starts[0] != 0 or starts[-1] != len(docs):
        return None
    if len(term_weights) != len(docs):
        return None
    postings: dict[str, Posting] = {}
    for term, (start, end) in zip(terms, pairwise(starts), strict=True):
        # A built posting is never empty and lists its papers in ascending order, so its ends
        # bound it (checking every position would cost more than the rest of the load; the
        # checksum already vouches that the bytes are the ones `save` wrote).
        if end <= start or docs[start] < 0 or docs[end - 1] >= size:
            return None
        postings[term] = (docs[start:end], term_weights[start:end])
    if len(postings) != len(terms) or not postings.keys() <= idf.keys():
        return None
    return postings


def load_or_build(
    root: Path,
    key: StatKey | None,
    papers: Sequence[Paper],
    *,
    build: Callable[[Sequence[Paper]], RelatedIndex] = RelatedIndex,
) -> tuple[RelatedIndex, bool]:
    """The related index of `papers`: loaded when saved for them, else built with `build` and
    saved for the next time. The flag says whether it was loaded."""
    index = load(root, key, papers)
    if index is not None:
        return index, True
    index = build(papers)
    save(root, key, index)
    return index, False
