"""Backup and restore of the whole user state (tags, status, stars, notes) as one JSON file.

The file (`papershelf backup FILE`)::

    {"format": "papershelf-state", "version": 1, "exported_at": "2025-06-01T10:00:00Z",
     "count": 2,
     "entries": {"<paper id>": {"tags": [...], "status": "read", "starred": false, "note": "",
                                "updated_at": "...", "name": "RelGNN", "title": null}, ...}}

`name` and `title` are there for people reading the file and are ignored on the way back.
Restoring (`papershelf restore FILE`) makes the user state exactly the backup's: papers with no
entry in the file go back to the default state, `updated_at` is kept as saved, and entries of
papers the library does not hold are kept in state.json, so they come back when the paper is
imported again. A restore is one undoable step. Anything that is not such a file, or holds an
invalid entry, is refused with a one-line message and changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papershelf.storage.errors import PapershelfError
from papershelf.storage.files.readfile import NotRegularFile, read_regular
from papershelf.storage.model import STATUSES, Entry, normalise_tag, utc_now
from papershelf.storage.text.clean import clean_text

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

__all__ = [
    "FORMAT",
    "VERSION",
    "BackupError",
    "RestoreReport",
    "dump_state",
    "load_state",
    "read_backup",
    "restore_backup",
    "write_backup",
]

FORMAT = "papershelf-state"
VERSION = 1
MAX_BACKUP_BYTES = 64 * 1024 * 1024
NOTE_MAX_CHARS = 20_000
_ID = re.compile(r"[0-9A-Za-z_.-]{1,64}")
_FIELDS = frozenset({"tags", "status", "starred", "note", "updated_at", "name", "title"})


class BackupError(PapershelfError):
    """A backup file cannot be written, read or restored."""


def dump_state(library: Library) -> dict[str, Any]:
    """The user's whole state as a JSON-safe backup document (entries sorted by id)."""
    entries: dict[str, Any] = {}
    for paper_id, entry in sorted(library.entries().items()):
        record: dict[str, Any] = entry.to_dict()
        try:
            paper = library.get(paper_id)
            record["name"], record["title"] = paper.name, paper.title
        except PapershelfError:  # an entry kept for a paper not imported (yet)
            record["name"], record["title"] = None, None
        entries[paper_id] = record
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": utc_now(),
        "count": len(entries),
        "entries": entries,
    }


def _entry(paper_id: str, record: Any) -> Entry:
    """One validated entry; BackupError names the paper and the field."""
    where = f"entry {paper_id}"
    if not isinstance(record, dict):
        raise BackupError(f"{where} is not an object")
    unknown = sorted(set(record) - _FIELDS)
    if unknown:
        raise BackupError(f"{where} has an unknown field {unknown[0]!r}")
    tags = record.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise BackupError(f"{where}: tags must be a list of strings")
    try:
        normal = frozenset(normalise_tag(tag) for tag in tags)
    except ValueError as error:
        raise BackupError(f"{where}: {error}") from None
    status = record.get("status", "unread")
    if status not in STATUSES:
        raise BackupError(f"{where}: status {status!r} is not one of {', '.join(STATUSES)}")
    starred = record.get("starred", False)
    if not isinstance(starred, bool):
        raise BackupError(f"{where}: starred must be true or false")
    note = record.get("note", "")
    if not isinstance(note, str) or len(note) > NOTE_MAX_CHARS:
        raise BackupError(f"{where}: note must be text of at most {NOTE_MAX_CHARS} characters")
    updated_at = record.get("updated_at")
    if updated_at is not None and not isinstance(updated_at, str):
        raise BackupError(f"{where}: updated_at must be a date-time string or null")
    # Tags and notes as the Library would store them: control characters never get in.
    return Entry(normal, status, starred, clean_text(note).strip(), updated_at)


def load_state(data: Any) -> dict[str, Entry]:
    """Validate a backup document and return its entries by paper id (default ones dropped).

    Raises BackupError, naming the problem, for anything that is not a papershelf state backup
    this version can read.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError('not a papershelf backup (no "format": "papershelf-state")')
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise BackupError(f"backup version {version!r} is not valid")
    if version > VERSION:
        raise BackupError(
            f"the backup was written by a newer papershelf (version {version}; this one reads "
            f"up to {VERSION}): upgrade papershelf to restore it"
        )
    entries = data.get("entries")
    if not isinstance(entries, dict):
        raise BackupError('the backup has no "entries" object')
    loaded: dict[str, Entry] = {}
    for paper_id, record in entries.items():
        if not _ID.fullmatch(paper_id):
            raise BackupError(f"{paper_id[:40]!r} is not a paper id")
        entry = _entry(paper_id, record)
        if not entry.is_default:
            loaded[paper_id] = entry
    return loaded


def write_backup(library: Library, path: Path, *, force: bool = False) -> int:
    """Write the backup of `library` to `path` atomically; returns how many entries it holds.

    Refuses (BackupError) to replace an existing file unless `force`.
    """
    from papershelf.storage.export.writing import ExportError, ExportExists, write_export

    document = dump_state(library)
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    try:
        write_export(Path(path), text, overwrite=force)
    except ExportExists:
        raise BackupError(f"{path} already exists; use --force to overwrite it") from None
    except ExportError as error:
        raise BackupError(str(error)) from None
    return int(document["count"])


def read_backup(path: Path) -> dict[str, Entry]:
    """The validated entries of the backup file at `path`; BackupError (one line) otherwise."""
    path = Path(path)
    try:
        # Size first: read(n) would allocate n bytes even for a small file.
        _, raw = read_regular(path, max_bytes=MAX_BACKUP_BYTES)
    except NotRegularFile as error:
        raise BackupError(f"{path} is not a papershelf backup ({error.strerror})") from None
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise BackupError(f"{path} is not a papershelf backup (not JSON)") from None
    except ValueError:
        # Python's limit on int(str) (4,300 digits): JSON itself sets none, no backup has one.
        raise BackupError(
            f"{path} is not a papershelf backup (it holds a number too long to read)"
        ) from None
    try:
        return load_state(data)
    except BackupError as error:
        raise BackupError(f"{path}: {error}") from None


@dataclass(frozen=True, slots=True)
class RestoreReport:
    """What a restore did."""

    entries: int
    """Entries in the backup (papers with some state)."""
    changed: int
    """Papers whose state the restore changed."""
    absent: int
    """Entries of papers this library does not hold (kept for when they are imported)."""


def restore_backup(library: Library, path: Path) -> RestoreReport:
    """Make the library's user state exactly that of the backup at `path` (one undo step)."""
    entries = read_backup(path)
    changed = library.replace_all_entries(entries, f"restore {Path(path).name}")
    held = {paper.id for paper in library.papers()}
    return RestoreReport(len(entries), changed, sum(pid not in held for pid in entries))
