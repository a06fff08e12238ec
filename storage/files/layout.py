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
import re
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from papershelf.storage.model import Entry

__all__ = [
    "ENTRY_PAPER_FIELD",
    "HOME_ENV",
    "KEYED_BY_PAPER_SCHEMA",
    "LISTING_FILE",
    "META_ID",
    "PAPERS_CACHE",
    "PAPERS_FILE",
    "RELATED_CACHE",
    "SCHEMA_VERSION",
    "SEARCH_CACHE",
    "STATE_FILE",
    "WARM_CACHE",
    "StatKey",
    "check_document_ids",
    "default_root",
    "entries_from_records",
    "meta_problem",
    "read_entries",
    "resolve_root",
    "schema_of",
    "stat_key",
]

PAPERS_FILE = "papers.json"
STATE_FILE = "state.json"
PAPERS_CACHE = "papers.cache"
"""The papers' columns, read instead of papers.json (`papershelf.storage.library.papers_cache`)."""
LISTING_FILE = "listing.cache"
"""What `papershelf list` reads instead of the Library (see `papershelf.storage.search.listing`)."""
RELATED_CACHE = "related-index.bin"
"""The saved "more like this" index (see `papershelf.storage.related.cache`)."""
SEARCH_CACHE = "search-index.bin"
"""The saved search index of the app and the CLI's full path (keyed by a hash of the papers)."""
WARM_CACHE = "warm-tables.cache"
"""The app's costly warm search tables, kept for its next start (`storage.search.warm_cache`)."""
HOME_ENV = "PAPERSHELF_HOME"
SCHEMA_VERSION = 2
"""Version of both files' layout; a file with a higher version is refused, never overwritten.

1: the `papers` and `entries` tables keyed by paper id. Not a TinyDB file: TinyDB's document
   ids are integers, so `TinyDB(path).table("papers").all()` raised ValueError.
2: TinyDB documents with integer ids `"1"`, `"2"`, ... in file order (import order for papers,
   paper id order for entries); the paper id is a field, `id` on a paper and `paper_id` on an
   entry. A schema-1 file is read as it is and rewritten as schema 2 by its next write."""
KEYED_BY_PAPER_SCHEMA = 1
"""The last schema whose tables are keyed by paper id."""
META_ID = "1"
"""The document id of the one record of each file's `meta` table."""
ENTRY_PAPER_FIELD = "paper_id"
"""The field of a state.json entry (schema 2) naming its paper."""


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


_HEAD_BYTES = 256
_SCHEMA_IN_HEAD = re.compile(rb'^\{"meta":\s*\{"1":\s*\{"schema":\s*(\d{1,6})\b')


def schema_on_disk(path: Path) -> int | None:
    """The schema papershelf wrote at the head of `path` (its `meta` table comes first), read
    from the first bytes alone: None when the file is missing, not regular, or not papershelf's
    shape (the full read then decides). A cheap check: the open of a library with papers.cache
    never parses papers.json."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        head = os.read(fd, _HEAD_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    found = _SCHEMA_IN_HEAD.match(head)
    return int(found.group(1)) if found else None


def schema_of(data: Mapping[str, Any]) -> int:
    """The schema of a file `meta_problem` accepted."""
    schema: int = data["meta"][META_ID]["schema"]
    return schema


def check_document_ids(records: Mapping[str, Any]) -> None:
    """Check that a schema-2 table's keys are what TinyDB reads as document ids (decimal
    integers); raises ValueError otherwise, since a stock TinyDB could not open the file."""
    # One pass in C over all keys joined (a Python check per key costs a millisecond per 5,000
    # entries on `list`'s fast path); isascii because isdecimal also accepts other scripts'
    # digits, which papershelf never writes.
    joined = "".join(records)
    if not records or (joined.isascii() and joined.isdecimal() and "" not in records):
        return
    bad = next((key for key in records if not (key.isascii() and key.isdecimal())), "")
    raise ValueError(f"the document id {bad[:20]!r} is not a number")


def entries_from_records(records: Mapping[str, Any], schema: int) -> dict[str, Entry]:
    """The non-default entries of state.json's `entries` table (of that `schema`), by paper id.

    Raises TypeError, ValueError or AttributeError on a record that is not an entry, or (schema
    2) a document whose paper is missing or another document's too.
    """
    if schema <= KEYED_BY_PAPER_SCHEMA:
        paper_ids = list(map(str, records))
    else:
        check_document_ids(records)
        try:
            paper_ids = [record[ENTRY_PAPER_FIELD] for record in records.values()]
        except (KeyError, TypeError):
            raise ValueError(f"an entry has no {ENTRY_PAPER_FIELD}") from None
        unique = set(paper_ids)  # TypeError for a list or an object: not an id either
        if paper_ids and (set(map(type, unique)) != {str} or "" in unique):
            raise ValueError(f"an entry's {ENTRY_PAPER_FIELD} is not a paper id")
        if len(unique) != len(paper_ids):
            raise ValueError("two entries are for the same paper")
    return {
        paper_id: entry
        for paper_id, record in zip(paper_ids, records.values(), strict=True)
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
        return entries_from_records(records, schema_of(data))
    except (TypeError, ValueError, AttributeError):
        return None
