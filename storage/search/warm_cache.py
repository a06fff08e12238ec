"""`warm-tables.cache`: what the search engine's warm-up makes at a cost, kept for the next start.

The app's warm-up (`SearchEngine.warm_tables`) spent 5.9 s of CPU at 100,000 papers, most of
it in two tables it makes from the abstracts: the `AbstractScan` (every abstract read from
papers.json, the ~42,000 marked-up ones converted as shown and folded: 3 s) and each letter's
and digit's papers (`_warm_letters`: 1.4 s). That CPU holds the interpreter while the first
keys are typed. Both are a function of the papers and the code alone, so the first start
that makes them saves them here and the next ones load them (0.2-0.3 s of CPU, most of it
with the interpreter released: reading, CRC-32, zlib).

The file is a `storage.caches.frame` file:

- its key: papers.json's `StatKey` (the papers the app read, `Library.papers_key`), the search
  index's fingerprint (a hash of the papers' ids, names, titles, authors and abstract
  lengths, in order) and `code_digest()`, a hash of the source of the code that makes what is
  kept (the LaTeX converter and folding, `storage/text/`; all of `storage/search/`; the model)
  with the Python and Unicode versions. Another papers.json, other papers, another index or
  other code: another key, and the file is not used.
- section 0, marshal: the number of papers, the scan's positions (`ScanParts`: the marked-up
  abstracts', those with LaTeX, the rows of the others) and row bounds as array bytes, the
  text's length, the letters' keys and their bitsets back to back (one fixed width each), and
  the names', titles' and author lists' prefix tables (`TextColumn.sorted_forms`: their sort
  is one C call that held the interpreter 0.13-0.16 s each at 100k papers);
- section 1: the marked-up abstracts' folded text as shown, compressed with zlib (level 6:
  56 MB of UTF-8 to 18 MB at 100,000 papers; papershelf's caches together must stay below
  papers.json's size, and inflating it takes 0.2 s with the interpreter released).

A file is used only when its header, both checksums, zlib's own check and every shape hold
(`load`): positions ascending and in range, bounds in order and ending at the text's length,
the letters' bitsets within the papers. Anything else gives None and the caller makes the
tables and saves them again. `save` writes atomically (`frame.write_atomically`) and never
raises; nothing in the library is ever written from this cache.
"""

from __future__ import annotations

import hashlib
import marshal
import sys
import unicodedata
import zlib
from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import islice
from operator import le, lt
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from papershelf.storage.caches.frame import MARSHAL_VERSION, CacheFile, stat_key_bytes, unmarshal
from papershelf.storage.files.layout import WARM_CACHE, StatKey
from papershelf.storage.search.abstract_scan import ScanParts

__all__ = ["FORMAT", "WARM_CACHE", "WarmParts", "cache_key", "code_digest", "load", "save"]

FORMAT = 1
"""Bump when the layout changes (the code that makes the content is in `code_digest`)."""
_DIGEST_SIZE = 20
_FILE = CacheFile(b"PSWARMTB", FORMAT, key_size=24 + 2 * _DIGEST_SIZE, sections=2)
_LEVEL = 6
"""zlib's level: 6 made 18 MB of the 56 MB at 100k papers in 2.8 s (in the worker, without the
interpreter), level 1 23 MB in 0.6 s; both inflate in ~0.2 s."""
_CHUNK = 4 << 20
"""Bytes compressed between two calls of the save's `pause`."""
_IN_CHUNK = 1 << 20
"""Compressed bytes inflated between two calls of the load's `pause`."""
_UINT32, _UINT64 = "I", "Q"
_SOURCES = ("storage/text", "storage/search", "storage/model.py")
"""The code whose answers the file keeps, under the package's directory (`code_digest`): the
converter and folding, and all of search (the scan and the letters read the index), so that
any change there makes the tables once more rather than trust them."""

Pause = Callable[[], None]


@dataclass(frozen=True, slots=True)
class WarmParts:
    """The costly tables of an engine's warm-up, as compact buffers and bitsets."""

    size: int
    """The number of papers."""
    scan: ScanParts
    letters: Mapping[tuple[str, str], int]
    """(field, letter or digit) -> its papers, a bitset (`SearchEngine._letters`)."""
    orders: Mapping[str, array[int]]
    """Field -> its folded forms in sorted order (`TextColumn.sorted_forms`, uint32): the
    prefix tables, whose sort held the interpreter for 0.1-0.15 s a field at 100k papers."""


@cache
def code_digest() -> bytes | None:
    """A hash of the source of the code whose answers the file keeps, and of the Python and
    Unicode versions (folding and the converter use `unicodedata`); None when a source cannot
    be read (no cache then). Read once a process (~1 ms), by the index worker: the code that
    runs is the code of the process's start."""
    package = Path(__file__).resolve().parent.parent.parent
    digest = hashlib.sha1(usedforsecurity=False)
    digest.update(f"{FORMAT} {sys.version} {unicodedata.unidata_version}\n".encode())
    try:
        for name in _SOURCES:
            place = package / name
            files = sorted(place.glob("*.py")) if place.is_dir() else [place]
            for path in files:
                digest.update(f"{path.relative_to(package)}\n".encode())
                digest.update(path.read_bytes())
    except (OSError, ValueError):
        return None
    return digest.digest()


def cache_key(papers_key: StatKey | None, fingerprint: str) -> bytes | None:
    """The file's key for the papers read from the papers.json of `papers_key` and indexed
    with `fingerprint` (`SearchIndex.fingerprint`); None when there is none (papers not saved
    to any file, or code that cannot be read)."""
    if papers_key is None:
        return None
    try:
        index = bytes.fromhex(fingerprint)
    except ValueError:
        return None
    code = code_digest()
    if len(index) != _DIGEST_SIZE or code is None:
        return None
    return stat_key_bytes(papers_key) + index + code


def save(path: Path, key: bytes, parts: WarmParts, pause: Pause | None = None) -> bool:
    """Replace the cache at `path` by `parts` keyed by `key`; False when it could not be
    written. `pause()` is called between steps (the text is compressed in 4 MB pieces)."""
    scan = parts.scan
    width = _width(parts.size)
    keys = [f"{field}\x00{value}" for field, value in parts.letters]
    bitsets = bytearray()
    for bits in parts.letters.values():
        bitsets += bits.to_bytes(width, "little")
    meta = (
        parts.size,
        _packed(scan.marked, _UINT32),
        _packed(scan.latex, _UINT32),
        _packed(scan.other_rows, _UINT32),
        _packed(scan.bounds, _UINT64),
        len(scan.text),
        keys,
        bytes(bitsets),
        {field: _packed(order, _UINT32) for field, order in parts.orders.items()},
    )
    compressor = zlib.compressobj(_LEVEL)
    text = memoryview(scan.text)
    packed = bytearray()  # grown in place: never the pieces and their join at once
    for start in range(0, len(text), _CHUNK):
        if pause is not None:
            pause()
        # zlib lets go of the interpreter while it compresses: the UI thread runs meanwhile.
        packed += compressor.compress(text[start : start + _CHUNK])
    packed += compressor.flush()
    if pause is not None:
        pause()
    return _FILE.save(path, key, [marshal.dumps(meta, MARSHAL_VERSION), packed])


def load(path: Path, key: bytes, size: int, pause: Pause | None = None) -> WarmParts | None:
    """What `save` wrote at `path` for `key` and `size` papers, once every check holds (see the
    module); None for anything else. `pause()` is called between steps (the text is inflated
    a piece at a time): keys typed meanwhile go first, as in the warm-up itself."""
    opened = _FILE.open(path, key)
    if opened is None:
        return None
    with opened:
        meta_bytes = opened.section(0)
        if meta_bytes is None:
            return None
        meta = _meta(meta_bytes, size, pause)
        if meta is None:
            return None
        if pause is not None:
            pause()
        # One read into a new buffer, then its CRC-32, both without the interpreter (not
        # `section`: zeroing its 21 MB buffer first held the interpreter 25-35 ms).
        place = opened.sections[1]
        packed = opened.read(place.length, place.at)
    if packed is None or not place.holds(packed):
        return None
    marked, latex, other_rows, bounds, length, letters, orders = meta
    text = _inflated(packed, length, pause)
    if text is None:
        return None
    return WarmParts(size, ScanParts(marked, latex, other_rows, text, bounds), letters, orders)


def _inflated(packed: bytes, length: int, pause: Pause | None) -> bytearray | None:
    """`packed` inflated into one buffer of `length` bytes, 1 MB of input at a time (~3 MB of
    text, 15-20 ms at 100k papers, zlib without the interpreter) with `pause()` between; None
    when it is not zlib's, or inflates to another length. The buffer grows piece by piece
    (a 56 MB one made at once was zeroed, and its pages touched, holding the interpreter)."""
    text = bytearray()
    inflater = zlib.decompressobj()
    source = memoryview(packed)
    at = 0
    try:
        for start in range(0, len(source), _IN_CHUNK):
            if pause is not None:
                pause()
            # At most one byte past the length: damage never inflates to more than that.
            piece = inflater.decompress(source[start : start + _IN_CHUNK], length - at + 1)
            if at + len(piece) > length:
                return None
            text += piece
            at += len(piece)
        piece = inflater.flush()
    except (zlib.error, ValueError, MemoryError):
        return None
    if piece or not inflater.eof or inflater.unused_data or at != length:
        return None
    return text


if TYPE_CHECKING:
    _Meta: TypeAlias = tuple[
        array[int],
        array[int],
        array[int],
        array[int],
        int,
        dict[tuple[str, str], int],
        dict[str, array[int]],
    ]
"""Section 0's checked values: marked, latex, other rows, bounds, text length, letters, orders."""


def _meta(data: bytes | bytearray, size: int, pause: Pause | None = None) -> _Meta | None:
    """Section 0's values, checked against each other and `size` (see the module)."""
    meta = unmarshal(data)
    if type(meta) is not tuple or len(meta) != 9:
        return None
    saved_size, raw_marked, raw_latex, raw_other, raw_bounds, length, keys, bitsets = meta[:8]
    if type(saved_size) is not int or saved_size != size or type(length) is not int or length < 0:
        return None
    marked = _array(raw_marked, _UINT32)
    latex = _array(raw_latex, _UINT32)
    other_rows = _array(raw_other, _UINT32)
    bounds = _array(raw_bounds, _UINT64)
    if marked is None or latex is None or other_rows is None or bounds is None:
        return None
    if not (_ascending(marked, size) and _ascending(latex, size)):
        return None
    if not _ascending(other_rows, len(marked)) or len(bounds) != len(marked) + 1:
        return None
    if bounds[0] != 0 or bounds[-1] != length or not all(map(le, bounds, islice(bounds, 1, None))):
        return None
    # Every LaTeX abstract is marked up, and the other rows are the marked-up ones without it.
    if not set(latex) <= set(marked) or len(latex) + len(other_rows) != len(marked):
        return None
    if set(latex) & set(map(marked.__getitem__, other_rows)):
        return None
    if pause is not None:
        pause()
    letters = _letters(keys, bitsets, size)
    orders = _orders(meta[8], pause)
    if letters is None or orders is None:
        return None
    return marked, latex, other_rows, bounds, length, letters, orders


def _orders(raw: object, pause: Pause | None) -> dict[str, array[int]] | None:
    """The prefix tables, each a permutation of its forms; None when one is not. (A set of
    130k numbers is ~10 ms: `pause()` between tables.)"""
    if type(raw) is not dict:
        return None
    orders: dict[str, array[int]] = {}
    for field, packed in raw.items():
        if pause is not None:
            pause()
        order = _array(packed, _UINT32)
        if type(field) is not str or order is None:
            return None
        if order and (max(order) >= len(order) or len(set(order)) != len(order)):
            return None
        orders[field] = order
    return orders


def _letters(keys: object, bitsets: object, size: int) -> dict[tuple[str, str], int] | None:
    """The letters' bitsets, each within the papers; None when they do not fit."""
    if type(keys) is not list or type(bitsets) is not bytes:
        return None
    width = _width(size)
    if len(bitsets) != width * len(keys) or len(set(keys)) != len(keys):
        return None
    letters: dict[tuple[str, str], int] = {}
    for number, name in enumerate(keys):
        if type(name) is not str or name.count("\x00") != 1:
            return None
        field, value = name.split("\x00")
        bits = int.from_bytes(bitsets[number * width : (number + 1) * width], "little")
        if bits >> size:
            return None  # a paper past the last
        letters[field, value] = bits
    return letters


def _width(size: int) -> int:
    """Bytes of one bitset over `size` papers."""
    return (size + 7) >> 3


def _packed(values: Iterable[int], code: str) -> bytes:
    return array(code, values).tobytes()


def _array(raw: object, code: str) -> array[int] | None:
    """An array of `code` from its bytes; None when they are not such an array's."""
    found = array(code)
    if type(raw) is not bytes or len(raw) % found.itemsize:
        return None
    found.frombytes(raw)
    return found


def _ascending(values: array[int], end: int) -> bool:
    """Whether `values` go strictly up and stay below `end`."""
    return not values or (values[-1] < end and all(map(lt, values, islice(values, 1, None))))
