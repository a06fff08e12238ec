"""What a reader of the library's files needs without the `Library`: where the library is, the file
names, their identity (`StatKey`), the schema version, the files' `meta` check, and the user's
entries from state.json.

`storage.library.library` uses these for its locked reads and `storage.search.listing` for the
lock-free fast path of `papershelf list`, so both accept exactly the same files. This module imports
nothing beyond `storage.model` (json only when a state.json is there): the fast path must not pay
for TinyDB or filelock.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from papershelf.storage.model import Entry

__all__ = [
    "HOME_ENV",
    "LISTING_FILE",
    "META_ID",
    "PAPERS_FILE",
    "RELATED_CACHE",
    "SCHEMA_VERSION",
    "SEARCH_CACHE",
    "STATE_FILE",
    "StatKey",
    "default_root",
    "entries_from_records",
    "meta_problem",
    "read_entries",
    "resolve_root",
    "stat_key",
]

PAPERS_FILE = "papers.json"
STATE_FILE = "state.json"
LISTING_FILE = "listing.cache"
"""What `papershelf list` reads instead of the Library (see `papershelf.storage.search.listing`)."""
RELATED_CACHE = "related-index.bin"
"""The saved "more like this" index (see `papershelf.storage.related.cache`)."""
SEARCH_CACHE = "search-index.bin"
"""The saved search index of the app and the CLI's full path (keyed by a hash of the papers)."""
HOME_ENV = "PAPERSHELF_HOME"
SCHEMA_VERSION = 1
"""Version of both files' layout; a file with a higher version is refused, never overwritten."""
META_ID = "1"
"""The document id of the one record of each file's `meta` table."""


StatKey = tuple[int, int, int]
"""`(st_mtime_ns, st_size, st_ino)`: a file's identity for caching purposes."""


def stat_key(st: os.stat_result) -> StatKey:
    """The part of a stat result that changes whenever the file is replaced or rewritten."""
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def default_root() -> Path:
    """The data directory: `$PAPERSHELF_HOME` if set, else the platform's user data directory.

    Raises `LibraryError` when `$PAPERSHELF_HOME` names a home directory that does not exist.
    """
    home = os.environ.get(HOME_ENV, "").strip()
    if home:
        return _expand(home, f"${HOME_ENV}")
    import platformdirs  # here: most runs name the directory, and the import is not free

    return Path(platformdirs.user_data_dir("papershelf", appauthor=False))


def resolve_root(raw: str | os.PathLike[str] | None) -> Path:
    """The library directory the user named (`--db`), or `default_root()` for None.

    Raises `LibraryError` with one line for a name that cannot be a library: an empty one
    (which would quietly mean the current directory) or `~user` of no such user.
    """
    if raw is None:
        return default_root()
    text = os.fspath(raw)
    if not text.strip():
        from papershelf.storage.errors import LibraryError

        raise LibraryError("--db needs a directory name; an empty one is not used")
    return _expand(text, "--db")


def _expand(text: str, origin: str) -> Path:
    try:
        return Path(text).expanduser()
    except RuntimeError:
        # Path.expanduser raises RuntimeError for `~nouser`: no home directory to expand to.
        from papershelf.storage.errors import LibraryError

        user = text[1:].split("/", 1)[0]
        raise LibraryError(
            f"{origin}: cannot expand ~{user}: there is no user named {user!r}"
        ) from None


def meta_problem(data: Mapping[str, Any], kind: str) -> Literal["foreign", "newer"] | None:
    """Why `data` (a parsed papers.json or state.json) is not a `kind` file this version reads:
    `foreign` (no papershelf meta record of that kind), `newer` (a higher schema), or None."""
    meta = data.get("meta")
    record = meta.get(META_ID) if isinstance(meta, dict) else None
    schema = record.get("schema") if isinstance(record, dict) else None
    if not isinstance(record, dict) or record.get("kind") != kind or type(schema) is not int:
        return "foreign"
    return "newer" if schema > SCHEMA_VERSION else None


def entries_from_records(records: Mapping[str, Any]) -> dict[str, Entry]:
    """The non-default entries of state.json's `entries` table, by paper id.

    Raises TypeError, ValueError or AttributeError on a record that is not an entry.
    """
    return {
        str(paper_id): entry
        for paper_id, record in records.items()
        if not (entry := Entry.from_dict(record)).is_default
    }


def read_entries(path: Path) -> dict[str, Entry] | None:
    """The entries of the state.json at `path` ({} when there is none), read without a lock.

    None when the file cannot be used as it is (unreadable, damaged, foreign, newer): the
    caller then opens the `Library`, which reports the problem and moves a damaged file aside.
    Every write replaces the whole file, so this sees one whole version or another.
    """
    try:
        from papershelf.storage.files.readfile import read_regular  # here: it imports this module

        _, raw = read_regular(path)
    except FileNotFoundError:
        return {}
    except OSError:
        return None
    import json  # here: a library without state.json is listed without loading it

    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or meta_problem(data, "state") is not None:
        return None
    records = data.get("entries", {})
    if not isinstance(records, dict):
        return None
    try:
        return entries_from_records(records)
    except (TypeError, ValueError, AttributeError):
        return None
