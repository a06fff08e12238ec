"""Moving a damaged papers.json or state.json aside, only ever under the lock, and the
temp files killed writers leave behind.

A read-only open never moves anything: meeting a damaged file it raises `NeedsLock`, and the
caller opens again with the lock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from papershelf.storage.errors import LibraryError
from papershelf.storage.files.jsonstore import AtomicJSONStorage, CorruptFileError
from papershelf.storage.files.jsonstore import stale_temp_files as temp_files_of
from papershelf.storage.files.layout import (
    LISTING_FILE,
    PAPERS_FILE,
    RELATED_CACHE,
    SEARCH_CACHE,
    STATE_FILE,
    WARM_CACHE,
)
from papershelf.storage.library import papers_cache, state_backups
from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.model import file_stamp

__all__ = ["NeedsLock", "move_aside", "stale_temp_files"]


class NeedsLock(Exception):
    """A read-only open met a damaged file: only a locked open may move it aside."""


def move_aside(
    store: AtomicJSONStorage,
    error: CorruptFileError,
    lock: LibraryLock,
    *,
    keep_in_place: bool = False,
) -> Path | None:
    """Move the damaged file aside (under the lock), or with `keep_in_place` keep a copy
    aside and leave it until a good version replaces it; None when it was replaced
    meanwhile by another process."""
    if not lock.depth:
        raise NeedsLock  # a read-only open: the locked open moves the file aside
    if error.key is None:
        return None
    stamp = file_stamp()
    try:
        if keep_in_place:
            return store.keep_damaged(error.key, stamp)
        return store.quarantine(error.key, stamp)
    except OSError as move_error:
        raise LibraryError(
            f"{store.path} is damaged ({error.reason}) and could not be moved aside "
            f"({move_error.strerror}); move it away by hand, then start papershelf again"
        ) from None


def stale_temp_files(root: Path) -> Iterator[Path]:
    """Temp files that writers of the library's files, journal, backups and caches leave when
    they are killed. Remove them only under the lock: no live writer can own one then."""
    for name in (PAPERS_FILE, STATE_FILE):
        yield from temp_files_of(root / name)
    yield from JournalStore(root).temp_files()
    yield from papers_cache.temp_files(root / papers_cache.CACHE_FILE)
    # The CLI's caches and the app's warm tables, written without the lock: a temp file lost
    # to a concurrent `list` only costs that run its cache.
    for name in (LISTING_FILE, SEARCH_CACHE, RELATED_CACHE, WARM_CACHE):
        yield from temp_files_of(root / name)
    yield from (root / state_backups.BACKUP_DIR).glob(".*.tmp")
