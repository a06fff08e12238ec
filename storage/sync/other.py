"""The other side of a sync, read without writing anything there: a library directory (its
papers.json and state.json, as they are: no lock taken, no file moved aside, no cache made) or
a backup file (`papershelf backup`, through `export.backup.read_backup`).

Every write papershelf makes replaces a whole file, so the files read are each one whole
version. Anything that is not a papershelf library or backup, or is damaged, is a `SyncError`
naming the path and the problem in one line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from papershelf.storage.errors import PapershelfError
from papershelf.storage.export.backup import read_backup
from papershelf.storage.files.jsonstore import AtomicJSONStorage, CorruptFileError
from papershelf.storage.files.layout import PAPERS_FILE, STATE_FILE
from papershelf.storage.ingest.limits import capped_authors, capped_title, cut_at_word
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS
from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.records import entries_of, papers_of, read_checked, removed_of
from papershelf.storage.model import Entry, Paper
from papershelf.storage.sync.merge import change_times
from papershelf.storage.text.clean import clean_line, clean_text

__all__ = ["Other", "SyncError", "clean_paper", "read_other"]


class SyncError(PapershelfError):
    """The other library or backup cannot be read, or the sync cannot be done."""


@dataclass(frozen=True, slots=True)
class Other:
    """What the other side holds. `papers` and `removed` are None for a backup file, which
    carries the user's state only."""

    path: Path
    """Resolved: the key of its record of the last sync."""
    entries: dict[str, Entry]
    papers: dict[str, Paper] | None = None
    removed: dict[str, Paper] | None = None
    times: dict[str, dict[str, str]] = field(default_factory=dict)
    """When each field of each paper last changed there, by its undo history (a library
    directory's journal.json, read like the rest; `merge.change_times`)."""

    @property
    def is_library(self) -> bool:
        """Whether the other side is a library directory (not a backup file)."""
        return self.papers is not None


def read_other(raw_path: str | os.PathLike[str]) -> Other:
    """Read the library directory or backup file at `raw_path`; `SyncError` otherwise."""
    given = Path(os.path.expanduser(os.fspath(raw_path)))
    try:
        path = given.resolve()
    except (OSError, RuntimeError) as error:
        raise SyncError(f"cannot read {given}: {error}") from None
    if not path.exists():
        raise SyncError(f"{given} does not exist (give a library directory or a backup file)")
    if path.is_dir():
        return _read_library(given, path)
    try:
        entries = read_backup(path)
    except PapershelfError as error:
        raise SyncError(str(error)) from None
    return Other(path, entries)


def _read_library(given: Path, path: Path) -> Other:
    papers_path, state_path = path / PAPERS_FILE, path / STATE_FILE
    if not papers_path.exists() and not state_path.exists():
        raise SyncError(
            f"{given} is not a papershelf library (no {PAPERS_FILE} or {STATE_FILE} in it)"
        )
    try:
        papers_store = AtomicJSONStorage(papers_path)
        data = read_checked(papers_store, "papers")
        papers = papers_of(data, papers_store)
        removed = removed_of(data, papers_store)
        state_store = AtomicJSONStorage(state_path)
        entries = entries_of(read_checked(state_store, "state"), state_store)
    except CorruptFileError as error:
        raise SyncError(
            f"{given} holds a damaged library ({error.path.name}: {error.reason}); nothing "
            "was changed (open it with papershelf there to recover it, then sync again)"
        ) from None
    except PapershelfError as error:
        raise SyncError(f"cannot sync with {given}: {error}") from None
    # Notes as the library would store them (a backup's are cleaned as it is read).
    cleaned = {pid: replace(e, note=clean_text(e.note).strip()) for pid, e in entries.items()}
    # Its undo history, read as it is: a damaged one reads as empty and is left alone.
    times = change_times(JournalStore(path).peek().undo)
    return Other(path, cleaned, dict(papers), dict(removed), times)


def clean_paper(paper: Paper) -> Paper:
    """A paper of theirs as an import would have left it: no control characters, escapes or
    bidi overrides, title, authors and abstract capped (their papers.json may be anyone's
    hand-made file, and a paper that comes in is stored here as it is)."""
    changes: dict[str, object] = {}
    for name in _TEXT_FIELDS:
        value = getattr(paper, name)
        if isinstance(value, str):
            clean = clean_text(value).strip() if name == "abstract" else clean_line(value)
            if clean != value:
                changes[name] = clean if clean or name in ("name", "abstract") else None
        elif isinstance(value, tuple):
            items = tuple(_clean_item(item) for item in value)
            if items != value:
                changes[name] = items
    cleaned = replace(paper, **changes) if changes else paper
    # Capped as an import caps (an abstract over the import's limit, which an import refuses,
    # is cut: the rest of the sync should not be refused for it).
    title, authors = capped_title(cleaned.title), capped_authors(cleaned.authors)
    abstract = cut_at_word(cleaned.abstract, MAX_ABSTRACT_CHARS)
    if (title, authors, abstract) != (cleaned.title, cleaned.authors, cleaned.abstract):
        cleaned = replace(cleaned, title=title, authors=authors, abstract=abstract)
    return cleaned


def _clean_item(item: object) -> object:
    """One item of a tuple field: a text, or a pair of texts (`extra`)."""
    if isinstance(item, str):
        return clean_line(item)
    if isinstance(item, tuple):
        return tuple(clean_line(part) if isinstance(part, str) else part for part in item)
    return item


# Every field of a Paper but its id (kept: it names the paper on both sides).
_TEXT_FIELDS = tuple(name for name in Paper.__dataclass_fields__ if name != "id")
