"""papers.json as the library holds it: the papers in memory, read from the file or from
papers.cache, written back by an import, a removal and its undo.

papers.json also keeps the removed papers (`records.REMOVED_TABLE`), read only from papers.json
itself (`reload(for_write=True)`), since only a write (an import, a removal) needs them.

Nothing written to papers.json is ever taken from a cache: an import re-reads papers.json
itself (`reload(for_write=True)`), and a damaged papers.json is moved aside, never rebuilt from
a copy. Every read or write of papers.json refreshes papers.cache (`library.papers_cache`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from papershelf.storage.caches.abstracts import AbstractFile
from papershelf.storage.caches.places import PlaceFinder, Places, locate
from papershelf.storage.errors import LibraryError, SaveError
from papershelf.storage.files.jsonstore import AtomicJSONStorage, CorruptFileError, StatKey
from papershelf.storage.files.layout import (
    PAPERS_FILE,
    SCHEMA_VERSION,
    schema_of,
    schema_on_disk,
)
from papershelf.storage.library import papers_cache
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.library.quarantine import move_aside
from papershelf.storage.library.records import (
    REMOVED_TABLE,
    meta,
    paper_records,
    papers_of,
    read_checked,
    removed_of,
    removed_records,
    table,
)
from papershelf.storage.model import Paper, utc_now

__all__ = ["PapersFile"]


class _PapersStorage(AtomicJSONStorage):
    """papers.json's storage, which also finds where each abstract lies in the bytes it reads
    (`caches.places.locate`), so that papers.cache can point at them instead of copying them."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.places: Places | None = None
        """The places of the papers table's abstracts in the version last read or written."""

    def _parse(self, raw: bytes, key: StatKey) -> dict[str, Any]:
        data = super()._parse(raw, key)
        self.places = None
        records = data.get("papers")
        if isinstance(records, dict):
            abstracts = (
                record.get("abstract") if isinstance(record, dict) else None
                for record in records.values()
            )
            self.places = locate(raw, abstracts)
        return data

    def write_papers(self, data: dict[str, Any], abstracts: list[object]) -> None:
        """Write `data`, whose papers table's documents hold `abstracts` in order, a document
        at a time, noting where each abstract lands."""
        finder = PlaceFinder("papers", abstracts)
        self.places = None
        self.write_chunks(data, finder.document)
        self.places = finder.finished()


class PapersFile:
    """The papers of one library: what papers.json holds, plus imports not saved yet."""

    def __init__(self, root: Path, lock: LibraryLock, notices: list[str]) -> None:
        self.store = _PapersStorage(root / PAPERS_FILE)
        self.cache_path = root / papers_cache.CACHE_FILE
        self._lock = lock
        self._notices = notices
        self.papers: Mapping[str, Paper] = {}
        """By id, in import order; replaced, never mutated (a view another thread holds)."""
        self.key: StatKey | None = None
        """StatKey of the papers.json `papers` holds (read from it, its cache, or written)."""
        self.pending: set[str] = set()
        """Ids of imported papers not saved yet (the write failed)."""
        self.revision = 0
        """Grows whenever `papers` changes."""
        self.damaged_told = False
        """Whether a notice already told the user how to get damaged papers back."""
        self.removed: Mapping[str, Paper] | None = None
        """The removed papers by id (None: not read, the papers came from papers.cache); a
        write re-reads papers.json, so it always knows them. Replaced, never mutated."""
        self._removed_changed = False
        self._raw: dict[str, Any] | None = None
        self._listed: tuple[Paper, ...] | None = None
        self.places: Places | None = None
        """Where each paper's abstract lies in the papers.json `key` names (`caches.places`),
        in `papers` order; None when unknown or when `papers` differ from that file."""
        self.abstracts: AbstractFile | None = None
        """The papers.json the papers' abstracts are read from (when they came from
        papers.cache); `stale` once a read failed its checks."""

    def listed(self) -> tuple[Paper, ...]:
        """Every paper, in library (import) order."""
        if self._listed is None:
            self._listed = tuple(self.papers.values())
        return self._listed

    @property
    def abstracts_stale(self) -> bool:
        """Whether an abstract read from papers.json failed its checks: the file changed in
        place behind the library's back (its key may not show it), so it must be read again."""
        return self.abstracts is not None and self.abstracts.stale

    def replace(self, papers: Mapping[str, Paper], changed: set[str]) -> None:
        """Hold `papers` (an import's result) with `changed` ids to be saved."""
        self.papers = papers
        self._listed = None
        self.places = None
        self.revision += 1
        self.pending |= changed

    def reload(self, *, for_write: bool = False) -> bool:
        """Re-read papers.json if it changed on disk (under the lock); True when it did.

        papers.cache (checksummed) stands in for parsing a papers.json it was made from,
        except `for_write`: what is written to papers.json is only ever taken from papers.json
        itself (and the files being imported), never from a cache.
        """
        key = self.store.current_key()
        from_file = self._raw is not None or self.key is None
        stale = self.abstracts_stale
        if key is not None and key == self.key and (from_file or not for_write) and not stale:
            return False
        cached = None
        if key is not None and not for_write and not stale:
            cached = papers_cache.load(self.cache_path, key, self.store.path)
        abstracts = None
        if cached is not None:
            data = None  # raw records unread: a write re-reads papers.json first
            loaded = {paper.id: paper for paper in cached[0]}
            places, abstracts = cached[1], cached[2]
            removed = None
        else:
            try:
                data = read_checked(self.store, "papers")
                if data is self._raw and (data is not None or self.key is None):
                    return False
                loaded = papers_of(data, self.store)
                removed = removed_of(data, self.store)
            except CorruptFileError as error:
                self._damaged(error)
                data, loaded, removed = None, {}, {}
            key = self.store.loaded_key
            places = self.store.places if data is not None else None
            if data is not None and key is not None:
                papers_cache.save(self.cache_path, key, loaded.values(), places)
            if places is not None and len(places) != len(loaded):
                places = None  # papers.json holds a paper twice (schema 1): no places by paper
        if self.pending:
            from papershelf.storage.ingest import parse

            # An import that failed to save is still wanted: lay it over what is on disk now.
            for paper_id in self.pending:
                mine = self.papers[paper_id]
                old = loaded.get(paper_id)
                loaded[paper_id] = mine if old is None else parse.merge_papers(old, mine)
        self._removed_changed = False
        if self.pending and removed:
            # A paper brought back by that import is no longer removed.
            kept = {pid: paper for pid, paper in removed.items() if pid not in self.pending}
            self._removed_changed = len(kept) != len(removed)
            removed = kept
        self.papers = loaded
        self.removed = removed
        self._raw = data
        self.key = key
        self.places = None if self.pending else places
        self.abstracts = abstracts
        self._listed = None
        self.revision += 1
        return True

    def upgrade(self) -> bool:
        """Rewrite a papers.json of an older schema in the current one (under the lock), so
        that a stock TinyDB reads it; True when it did. The records come from papers.json
        itself (`reload(for_write=True)`), never from papers.cache; a failed write is no
        error: the file stays readable to papershelf, and the next open or import tries again.
        """
        schema = schema_on_disk(self.store.path)
        if schema is None or schema >= SCHEMA_VERSION or self.pending:
            return False
        self.reload(for_write=True)
        if self._raw is None or schema_of(self._raw) >= SCHEMA_VERSION:
            return False
        try:
            self.save()
        except SaveError:
            return False
        return True

    def save(self) -> None:
        """Write papers.json (under the lock), reusing the stored records of unchanged papers;
        raises `SaveError`, keeping `pending`."""
        previous = paper_records(self._raw)
        records: list[dict[str, Any]] = []
        for paper_id, paper in self.papers.items():
            record = None if paper_id in self.pending else previous.get(paper_id)
            records.append(record if record is not None else paper.to_dict())
        # Always the current schema, so the first import after an upgrade migrates the file.
        data: dict[str, Any] = {"meta": meta("papers"), "papers": table(records)}
        removed = self._removed_table()
        if removed:
            data[REMOVED_TABLE] = removed
        self.store.write_papers(data, [record.get("abstract") for record in records])
        self._raw = data
        self._removed_changed = False
        self.pending = set()
        self.key = self.store.loaded_key
        self.places = self.store.places
        if self.key is not None:
            papers_cache.save(self.cache_path, self.key, self.papers.values(), self.places)

    def _removed_table(self) -> dict[str, dict[str, Any]]:
        """The removed table to write: as read, or (changed) from `removed`, reusing the records
        of papers removed before (their `removed_at` stays) and stamping the new ones."""
        previous = removed_records(self._raw)
        if not self._removed_changed:
            return table(previous.values())
        now = utc_now()
        records = []
        for paper_id, paper in (self.removed or {}).items():
            record = previous.get(paper_id)
            if record is None or Paper.from_dict(record) != paper:
                record = {**paper.to_dict(), "removed_at": now}
            records.append(record)
        return table(records)

    def rewrite(
        self, papers: Mapping[str, Paper], changed: set[str], removed: Mapping[str, Paper]
    ) -> None:
        """Write `papers` (with `changed` ids new or changed) and the `removed` table, under the
        lock after `reload(for_write=True)`: a removal, its undo or redo, an import that skips or
        brings back removed papers. Raises `SaveError` with nothing changed in memory."""
        held = (self.papers, set(self.pending), self.removed, self._removed_changed)
        self.replace(papers, changed)
        self.removed = removed
        self._removed_changed = True
        try:
            self.save()
        except SaveError:
            self.papers, self.pending, self.removed, self._removed_changed = held
            self._listed = None
            self.places = None
            self.revision += 1
            raise

    def _damaged(self, error: CorruptFileError) -> None:
        """papers.json is damaged: move it aside and go on without papers, saying how to get
        them back. Nothing is written in its place: papers.json is rebuilt from the user's
        own files by importing them again (the ids come from the abstracts, so every tag
        finds its paper again), never from a copy held in memory or in a cache."""
        moved = move_aside(self.store, error, self._lock)
        if moved is None:
            raise LibraryError(f"{self.store.path} changed while it was being read; try again")
        self.damaged_told = True
        self._notices.append(
            f"{self.store.path} was damaged ({error.reason}) and moved to {moved}; "
            "your tags and notes are safe in state.json: import your files again "
            "(papershelf import FILE...) to bring the papers back"
        )
