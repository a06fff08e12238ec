"""Abstracts read from papers.json when asked for, instead of held as Python strings.

At 100,000 papers the abstracts are ~130 MB of text: held as strings they were the largest part
of the app's memory, and reading them all at start most of its start time. A paper that comes
from papers.cache instead holds a `StoredAbstract` (`model.StoredText`): the paper's position
in an `AbstractFile`, which keeps papers.json open and knows each abstract's `Places` (byte
offset, length and CRC-32 of its JSON string) and its length in characters.

- The file is opened once, and only when its `StatKey` is the one the places were found in:
  papershelf always replaces papers.json (a new inode), so the open descriptor keeps reading
  the version the places describe however often papers.json is replaced meanwhile.
- Every read is checked: the bytes must have their CRC-32, be one JSON string, and decode to
  text of the recorded length. A read that fails (papers.json rewritten in place by another
  program, a damaged disk) never returns those bytes: the file is marked `stale`, the cache the
  places came from is removed (so no later open trusts it), and the abstract is taken from
  papers.json itself, by the paper's id (`fallback`: the slow path, a full parse). The library
  reloads a stale file's papers from papers.json at its next refresh.
"""

from __future__ import annotations

import json
import os
import weakref
from array import array
from collections.abc import Callable, Sequence
from contextlib import suppress
from itertools import repeat
from pathlib import Path

from papershelf.storage.caches.frame import checksum
from papershelf.storage.caches.places import Places, open_version
from papershelf.storage.errors import LibraryError
from papershelf.storage.files.layout import StatKey

__all__ = ["AbstractFile", "StoredAbstract"]

Fallback = Callable[[str], "str | None"]
"""The abstract of the paper with this id, read from papers.json as it is now; None if absent."""


class AbstractFile:
    """papers.json held open for reading the abstracts at `places`, checked one by one."""

    def __init__(
        self,
        fd: int,
        places: Places,
        lengths: array,  # type: ignore[type-arg]  # 'I': each abstract's length in characters
        ids: Sequence[str],
        fallback: Fallback,
        cache: Path | None,
    ) -> None:
        self._fd = fd
        self.places = places
        self.lengths = lengths
        self._ids = ids
        self._fallback = fallback
        self._cache = cache
        self.stale = False
        """Whether a read failed its checks: papers.json is not what the places describe."""
        # The descriptor is closed with the last paper that can read through it.
        self._closer = weakref.finalize(self, os.close, fd)

    @classmethod
    def open(
        cls,
        path: Path,
        key: StatKey,
        places: Places,
        lengths: array,  # type: ignore[type-arg]
        ids: Sequence[str],
        fallback: Fallback,
        cache: Path | None = None,
    ) -> AbstractFile | None:
        """papers.json at `path` opened for the abstracts at `places`, when it is still the
        version `key` and every place lies inside it; else None (never raises)."""
        if len(lengths) != len(places) or len(ids) != len(places):
            return None
        opened = open_version(path, key)
        if opened is None:
            return None
        fd, size = opened
        if not _inside(places, size):
            os.close(fd)
            return None
        return cls(fd, places, lengths, ids, fallback, cache)

    def close(self) -> None:
        """Close papers.json now (a read after this takes the slow path)."""
        self._closer()

    def abstracts(self) -> list[StoredAbstract]:
        """The stored abstract of every paper, in order."""
        return list(map(StoredAbstract, zip(repeat(self), range(len(self.lengths)))))

    def read(self, position: int) -> str:
        """The abstract of paper `position`, checked; from papers.json itself when the checks
        fail (raises `LibraryError` when it holds that paper no more)."""
        if not self.stale and self._closer.alive:
            text = self._read_checked(position)
            if text is not None:
                return text
            self._went_stale()
        paper_id = self._ids[position]
        text = self._fallback(paper_id)
        if text is None:
            raise LibraryError(
                f"papers.json changed behind papershelf's back and no longer holds paper "
                f"{paper_id}: reopen the library"
            )
        return text

    def _read_checked(self, position: int) -> str | None:
        places = self.places
        offset, length = places.offsets[position], places.lengths[position]
        try:
            raw = os.pread(self._fd, length, offset)
        except (OSError, ValueError, OverflowError):
            return None
        if len(raw) != length or length < 2 or raw[0] != 0x22 or raw[-1] != 0x22:
            return None
        if checksum(raw) != places.crcs[position]:
            return None
        try:
            text = json.loads(raw)
        except ValueError:
            return None
        if type(text) is not str or len(text) != self.lengths[position]:
            return None
        return text

    def _went_stale(self) -> None:
        self.stale = True
        if self._cache is not None:
            # The cache's places no longer fit the file its key names: never trust it again.
            with suppress(OSError):
                self._cache.unlink()


class StoredAbstract(tuple):  # type: ignore[type-arg]
    """One paper's abstract in an `AbstractFile` (what `Paper.abstract` reads through): the
    pair `(file, position)`. A tuple, so that 100,000 of them are made by one C-level `map`
    (`AbstractFile.abstracts`) instead of 100,000 calls of an `__init__`."""

    __slots__ = ()

    @property
    def length(self) -> int:
        """The abstract's length in characters."""
        return self[0].lengths[self[1]]

    @property
    def file(self) -> AbstractFile:
        """The file it is read from."""
        return self[0]

    def text(self) -> str:
        """The abstract, read now."""
        return self[0].read(self[1])


def _inside(places: Places, size: int) -> bool:
    """Whether every place lies inside a file of `size` bytes (damage the section's checksum
    missed, or a foreign file, must never make a read run past it)."""
    if not len(places):
        return True
    ends = map(int.__add__, places.offsets, places.lengths)
    return max(ends) <= size and min(places.lengths) >= 2
