"""The frame every cache file of the library shares: a header saying what the file is a copy of,
and sections that are used only once their CRC-32 checks out.

papershelf keeps five caches beside papers.json: `papers.cache` (`storage.library.papers_cache`),
`listing.cache` (`storage.search.listing`), `search-index.bin` (`storage.search.index`),
`related-index.bin` (`storage.related.cache`) and `warm-tables.cache`
(`storage.search.warm_cache`). Each is only a copy of what papers.json and the
code make, so a cache is used only when it is provably the copy it says it is; anything else
means "not usable", and the caller builds the thing and writes the cache anew
(`load_or_build`). A cache file is

- a header: the cache's 8-byte tag, its format number (u32), its key (what it is a copy of,
  e.g. papers.json's `StatKey`; a fixed number of bytes per cache), then for every section its
  length (u64) and the CRC-32 of its bytes (u32);
- the sections, back to back; the file ends where the last one does.

A header is trusted only when it is byte for byte the one this code writes for that key, and
the file is exactly as long as it says: damage to the tag, format, key or a length makes the
file unused at once, damage to a checksum fails its section's check. A section is trusted only
once its CRC-32 matches (`load`, `Opened.section`); `storage.search.listing` checks its postings in
blocks instead, so that `papershelf list` reads only the blocks a query touches.

Why CRC-32 (`zlib.crc32`): it is in the standard library and the fastest checksum there, ~2
GB/s on the project's machine (7-10 ms for the 16.7 MB of papers.cache at 10,815 papers; on 20
MB blake2b and md5 take 4-5x as long, sha1 2x; xxhash would take a third but is a compiled
dependency); it catches every burst of up to 32 flipped bits and all but one in 2^32 other
damage. It guards against damage, not against someone who can write the
library directory anyway. Callers still validate what they read (types, offsets, ids in
range) so that damage a checksum missed by chance cannot crash a search.

Most caches hold one value: `CacheFile.save_value` writes it in marshal as the one section and
`CacheFile.load_value` gives it back once the header and checksum hold, so such a cache only says
what its value is and how to check it (`library.papers_cache`, `related.cache`, the search
index); `load_or_build` is the one "load, else build and save" every cache uses.
`storage.search.listing` alone uses sections of its own, read lazily (`CacheFile.open`).

`save` writes a temp file and renames it over the cache (a reader sees one whole version or
another), without fsync (a cache lost to a power cut is only rebuilt), and never raises: a
cache that cannot be written is not an error.
"""

from __future__ import annotations

import contextlib
import io
import marshal
import os
import stat
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from papershelf.storage.files.layout import StatKey

__all__ = [
    "MARSHAL_VERSION",
    "CacheFile",
    "Opened",
    "Section",
    "checksum",
    "load_or_build",
    "read_exactly",
    "stat_key_bytes",
    "unmarshal",
]

T = TypeVar("T")

checksum: Callable[[bytes | bytearray | memoryview], int] = zlib.crc32
"""The CRC-32 of a buffer (the checksum of every section and block)."""

MARSHAL_VERSION = 4
"""The marshal version every cache payload is written in."""
_STAT_KEY = struct.Struct("<qQQ")
TEMP_SUFFIX = ".tmp"
"""Temp files are `.<name>.<pid>.<random>.tmp`, as `files.jsonstore.stale_temp_files` expects."""


def stat_key_bytes(key: StatKey) -> bytes:
    """The 24 bytes of a `StatKey` (st_mtime_ns, st_size, st_ino) in a header."""
    return _STAT_KEY.pack(*key)


@dataclass(frozen=True, slots=True)
class Section:
    """Where one section lies in its file, and the checksum its bytes must have."""

    at: int
    length: int
    crc: int

    def holds(self, data: bytes | bytearray) -> bool:
        """Whether `data` is this section's bytes: the right length and checksum."""
        return len(data) == self.length and checksum(data) == self.crc


class CacheFile:
    """The layout of one kind of cache file: its tag, format, key size and section count."""

    __slots__ = ("format", "header", "key_size", "sections", "tag")

    def __init__(self, tag: bytes, format: int, key_size: int, sections: int = 1) -> None:
        if len(tag) != 8 or sections < 1:
            raise ValueError("a cache file has an 8-byte tag and at least one section")
        self.tag = tag
        self.format = format
        self.key_size = key_size
        self.sections = sections
        self.header = struct.Struct(f"<8sI{key_size}s" + "QI" * sections)

    def pack_header(self, key: bytes, sections: Sequence[bytes | bytearray]) -> bytes:
        """The header of a file holding `sections` as the copy keyed by `key`."""
        if len(key) != self.key_size or len(sections) != self.sections:
            raise ValueError("a key or a section count this cache file does not have")
        fields: list[int] = []
        for data in sections:
            fields += [len(data), checksum(data)]
        return self.header.pack(self.tag, self.format, key, *fields)

    def save(self, path: Path, key: bytes, sections: Sequence[bytes | bytearray]) -> bool:
        """Replace the cache at `path` by `sections` keyed by `key`; False when it could not be
        written (a full disk, a read-only directory): callers carry on without a cache."""
        try:
            header = self.pack_header(key, sections)
        except (ValueError, OverflowError, struct.error):
            return False
        return write_atomically(path, [header, *sections])

    def save_value(self, path: Path, key: bytes, value: Any) -> bool:
        """Replace the one-section cache at `path` by `value` in marshal, keyed by `key`; False
        when it cannot be marshalled or written."""
        try:
            payload = marshal.dumps(value, MARSHAL_VERSION)
        except (TypeError, ValueError, MemoryError):
            return False
        return self.save(path, key, [payload])

    def load_value(self, path: Path, key: bytes) -> object | None:
        """The value `save_value` wrote at `path` for `key`, once its header and checksum hold;
        None for anything else. The caller still checks the value's types and shape."""
        sections = self.load(path, key)
        if sections is None or len(sections) != 1:
            return None
        return unmarshal(sections[0])

    def open(self, path: Path, key: bytes) -> Opened | None:
        """The cache at `path`, open, when its header is this layout's for `key` and the file
        is as long as the header says; else None (never raises)."""
        if len(key) != self.key_size:
            return None
        try:
            # Non-blocking: a FIFO put where a cache belongs must not hang the reader; only a
            # regular file is read at all (not a device, whose reads never end).
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, ValueError):
            return None
        try:
            regular = stat.S_ISREG(os.fstat(fd).st_mode)
        except OSError:
            regular = False
        if not regular:
            os.close(fd)
            return None
        handle: io.RawIOBase = io.FileIO(fd, "rb")  # unbuffered: sections are read on demand
        opened = None
        try:
            opened = self._check_header(handle, key)
        except (OSError, ValueError, OverflowError, struct.error):
            opened = None
        finally:
            if opened is None:
                handle.close()
        return opened

    def _check_header(self, handle: io.RawIOBase, key: bytes) -> Opened | None:
        head = read_exactly(handle, self.header.size)
        if head is None:
            return None
        fields = self.header.unpack(head)[3:]
        lengths, checksums = fields[0::2], fields[1::2]
        # Packing what was read again must give the same bytes: the tag, format and key are
        # this cache's and every field is within its range.
        expected = self.header.pack(self.tag, self.format, key, *fields)
        if bytes(head) != expected:
            return None
        sections: list[Section] = []
        at = self.header.size
        for length, crc in zip(lengths, checksums, strict=True):
            sections.append(Section(at, length, crc))
            at += length
        if os.fstat(handle.fileno()).st_size != at:
            return None  # cut short or grown: not the file this header describes
        return Opened(handle, tuple(sections))

    def load(self, path: Path, key: bytes) -> list[bytearray] | None:
        """Every section of the cache at `path`, each checked against its checksum; None when
        the file is missing, of another layout or key, cut short or grown, or damaged."""
        opened = self.open(path, key)
        if opened is None:
            return None
        with opened:
            found: list[bytearray] = []
            for number in range(len(opened.sections)):
                data = opened.section(number)
                if data is None:
                    return None
                found.append(data)
        return found


class Opened:
    """An open cache file whose header checked out; its sections are read on demand."""

    __slots__ = ("handle", "sections")

    def __init__(self, handle: io.RawIOBase, sections: tuple[Section, ...]) -> None:
        self.handle: io.RawIOBase | None = handle
        self.sections = sections

    def read(self, size: int, at: int) -> bytes | None:
        """Exactly `size` bytes from `at` (unchecked), or None when they cannot be read."""
        if self.handle is None or size < 0 or at < 0:
            return None
        try:
            data = os.pread(self.handle.fileno(), size, at)
        except (OSError, ValueError, OverflowError):
            return None
        return data if len(data) == size else None

    def section(self, number: int) -> bytearray | None:
        """Section `number` whole, read and checked; None when it is not all there or its
        checksum fails."""
        place = self.sections[number]
        if self.handle is None:
            return None
        try:
            # Unbuffered, into one preallocated buffer: half the time of a buffered read() of
            # ~17 MB (no second copy). Not mmap: a file cut short under a mapping kills the
            # process with SIGBUS.
            self.handle.seek(place.at)
            data = read_exactly(self.handle, place.length)
        except (OSError, ValueError, OverflowError, MemoryError):
            return None
        if data is None or not place.holds(data):
            return None
        return data

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None

    def __enter__(self) -> Opened:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def unmarshal(data: bytes | bytearray) -> object | None:
    """The value marshal wrote in `data`, or None when it is not one (a section that passed
    its checksum can still be of another layout: every caller checks the value's shape)."""
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None


def read_exactly(handle: io.RawIOBase, size: int) -> bytearray | None:
    """`size` bytes from an unbuffered file, or None when it ends sooner."""
    buffer = bytearray(size)
    view = memoryview(buffer)
    done = 0
    while done < size:
        count = handle.readinto(view[done:])
        if not count:
            return None
        done += count
    return buffer


def write_atomically(path: Path, parts: Sequence[bytes | bytearray]) -> bool:
    """Replace `path` by the concatenation of `parts` (temp file + rename, no fsync); False,
    leaving `path` as it was and no temp file behind, when that fails."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except (OSError, ValueError):
        return False
    try:
        try:
            for part in parts:
                view = memoryview(part)
                while view:
                    view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        return False
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def load_or_build(
    load: Callable[[], T | None], build: Callable[[], T], save: Callable[[T], object]
) -> tuple[T, bool]:
    """What `load` finds in a cache, else what `build` makes, then given to `save` so the next
    process finds it. The flag says whether it was loaded."""
    found = load()
    if found is not None:
        return found, True
    made = build()
    save(made)
    return made, False
