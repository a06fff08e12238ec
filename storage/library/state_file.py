"""state.json as the library holds it: the user's entries, changes not saved yet, and the
recovery of a damaged file from the rolling backups (`storage.library.state_backups`).

A change is saved with `save()` under the lock; a write that fails keeps the change in memory
(`pending`, with its undo steps) for the next save. A damaged state.json is never overwritten
in place or taken for an empty one: it is kept aside and the newest readable backup put back.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from papershelf.storage.errors import SaveError
from papershelf.storage.files.jsonstore import (
    AtomicJSONStorage,
    CorruptFileError,
    StatKey,
    atomic_write,
    parse_object,
)
from papershelf.storage.files.layout import (
    ENTRY_PAPER_FIELD,
    SCHEMA_VERSION,
    STATE_FILE,
    entries_from_records,
    meta_problem,
    schema_of,
)
from papershelf.storage.library import state_backups
from papershelf.storage.library.journal import JournalStore, Step
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.library.quarantine import move_aside
from papershelf.storage.library.records import (
    entries_of,
    entry_records,
    meta,
    read_checked,
    table,
)
from papershelf.storage.model import Entry

__all__ = ["StateFile", "put_entry"]


class StateFile:
    """The entries of one library: what state.json holds, plus changes not saved yet."""

    def __init__(
        self, root: Path, lock: LibraryLock, notices: list[str], journal: JournalStore
    ) -> None:
        self.root = root
        self.store = AtomicJSONStorage(root / STATE_FILE, keep_raw=True)
        self._lock = lock
        self._notices = notices
        self._journal = journal
        self.entries: dict[str, Entry] = {}
        """By paper id, non-default only; replaced, never mutated (see `Library.entries`)."""
        self.pending: set[str] = set()
        """Ids whose entries changed in memory and are not saved yet."""
        self.pending_steps: list[Step] = []
        """Undo steps of changes not saved yet (pushed to the journal by `save`)."""
        self.rewrite = False
        """state.json must be written whole from memory: it was recovered (from a backup or
        from what this process held) but the write failed; `_handled_damage` is the damaged
        file's StatKey, so meeting it again does not recover (and report) it twice."""
        self._handled_damage: StatKey | None = None
        self.revision = 0
        """Grows whenever `entries` changes."""
        self.raw: dict[str, Any] | None = None
        self._backup_problem: str | None = None
        """Why the last backup could not be kept (told once; see `_backup_failed`)."""

    @property
    def unsaved(self) -> bool:
        """Whether something must still be written (changes, or a recovered file)."""
        return bool(self.pending or self.rewrite)

    def reload(self) -> bool:
        """Re-read state.json if it changed on disk (under the lock); True when it did.

        A damaged state.json is moved aside and recovered from the newest readable backup
        (see `_recover`); it is never overwritten in place or taken for an empty one.
        """
        try:
            data = read_checked(self.store, "state")
            if data is self.raw:
                return False
            loaded = entries_of(data, self.store)
        except CorruptFileError as error:
            if error.key is not None and error.key == self._handled_damage:
                return False  # recovered into memory already; the next save replaces it
            data, loaded = self._recover(error)
        else:
            # A whole state.json (written by another process since) supersedes a recovery
            # this process could not write.
            self.rewrite = False
            self._handled_damage = None
            raw = self.store.raw
            if self._lock.depth and raw is not None:
                self._backup_failed(state_backups.keep_if_behind(self.root, raw))
        self._lay_pending_over(loaded)
        changed = loaded != self.entries
        self.entries = loaded
        self.raw = data
        if changed:
            self.revision += 1
        return changed

    def upgrade(self) -> bool:
        """Rewrite a state.json of an older schema in the current one (under the lock, after
        `reload`), so that a stock TinyDB reads it; True when it did. A failed write is no
        error: the old file stays readable, and the next open or change tries again."""
        if self.raw is None or self.unsaved or schema_of(self.raw) >= SCHEMA_VERSION:
            return False
        try:
            self.save()
        except SaveError:
            return False
        return True

    def _lay_pending_over(self, loaded: dict[str, Entry]) -> None:
        """Changes that failed to save win over the disk version of the same paper."""
        for paper_id in self.pending:
            mine = self.entries.get(paper_id)
            if mine is None:
                loaded.pop(paper_id, None)
            else:
                loaded[paper_id] = mine

    def save(self) -> None:
        """Write state.json from memory (under the lock); raises `SaveError`, keeping `pending`."""
        # Records of entries this process did not change are reused as they were read.
        previous = entry_records(self.raw)
        records = []
        for paper_id in sorted(self.entries):
            record = None if paper_id in self.pending else previous.get(paper_id)
            if record is None:
                record = {ENTRY_PAPER_FIELD: paper_id, **self.entries[paper_id].to_dict()}
            records.append(record)
        # Always the current schema, so the first change after an upgrade migrates the file.
        data = {"meta": meta("state"), "entries": table(records)}
        payload = self.store.write_payload(data)
        self.raw = data
        self.pending.clear()
        self.rewrite = False
        self._handled_damage = None
        self._backup_failed(state_backups.keep(self.root, payload))
        steps, self.pending_steps = self.pending_steps, []
        for step in steps:
            self._journal.push(step)

    def _backup_failed(self, reason: str | None) -> None:
        """Tell the user, once until backups work again, that a save could not be kept as a
        backup: the change is saved, but a later damaged state.json could not be recovered."""
        if reason is None:
            self._backup_problem = None
        elif self._backup_problem is None:
            self._backup_problem = reason
            self._notices.append(
                f"your change is saved, but no backup of it could be kept ({reason}): a damaged "
                "state.json could not be recovered from backups until this is fixed"
            )

    def _recover(self, error: CorruptFileError) -> tuple[dict[str, Any] | None, dict[str, Entry]]:
        """state.json is damaged: keep it aside, put back the newest backup that reads as a
        whole (state-1 is a copy of the last version saved, so normally nothing is lost), and
        say so. Without a readable backup, the entries this process holds are saved again, or
        the library starts with none. The damaged file is always kept.

        Until a good version replaces it, the damaged file stays where it is (a hard link
        keeps the copy aside): a full disk or a kill mid-recovery must leave a file the next
        command recovers again, never a missing one it would take for an empty library.
        """
        store = self.store
        found = state_backups.newest_readable(self.root, self._parse_backup)
        held = self.entries
        kept = move_aside(store, error, self._lock, keep_in_place=found is not None or bool(held))
        if kept is None:
            # Replaced by another process since it was read: that version was not seen to be
            # damaged, so read it again.
            data = read_checked(store, "state")
            return data, entries_of(data, store)
        damaged = f"{store.path} was damaged ({error.reason}); it was kept as {kept}"
        if found is not None:
            path, raw, recovered = found
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M")
            told = f"{damaged}; your tags, statuses, stars and notes were recovered from {path} "
            told += f"(saved {when} UTC)"
            if path != state_backups.backup_path(self.root, 1):
                told += " (newer backups were damaged or missing: changes after that are lost)"
            try:
                atomic_write(store.path, raw)
            except SaveError as failed:
                # Never stop the library from opening: hold the recovered version as unsaved
                # (the next save writes it; the damaged file stays for the next command).
                self._notices.append(f"{told}, but it is not saved yet: {failed}")
                return None, self._unsaved_recovery(recovered, error.key)
            self._notices.append(told)
            data = read_checked(store, "state")
            return data, entries_of(data, store)
        if held:
            # This process read the last good version, and no backup is readable (so nothing
            # newer exists): save it again rather than lose it.
            self._notices.append(
                f"{damaged}; no backup could be read, so the {len(held)} entries this "
                "papershelf holds were saved again"
            )
            return None, self._unsaved_recovery(held, error.key)
        self._notices.append(
            f"{damaged}; no backup could be read, so papershelf starts with no tags: the "
            "damaged file is kept, and a fixed copy of it can be put back with papershelf closed"
        )
        return None, {}

    def _unsaved_recovery(
        self, recovered: Mapping[str, Entry], damaged: StatKey | None
    ) -> dict[str, Entry]:
        """Make `recovered` (with this process's unsaved changes over it) the entries, to be
        written whole by the next save (tried at once)."""
        merged = dict(recovered)
        self._lay_pending_over(merged)
        self.entries = merged
        self.raw = None
        self.rewrite = True
        self._handled_damage = damaged
        with suppress(SaveError):
            self.save()
        return dict(merged)

    def _parse_backup(self, raw: bytes) -> dict[str, Entry]:
        """The entries of a backup of state.json; raises for one that cannot be used whole."""
        data = parse_object(raw, self.store.path, None)
        if meta_problem(data, "state") is not None or not isinstance(data.get("entries"), dict):
            raise ValueError("not a state file this papershelf reads")
        return entries_from_records(data["entries"], schema_of(data))


def put_entry(
    entries: dict[str, Entry],
    changes: tuple[dict[str, Entry | None], dict[str, Entry | None]],
    paper_id: str,
    wanted: Entry,
) -> None:
    """Set `paper_id`'s entry in `entries` to `wanted` (a default entry is dropped, as
    state.json never stores one), noting it in a step's (before, after) `changes`, where None
    stands for no entry."""
    before, after = changes
    before[paper_id] = entries.get(paper_id)
    if wanted.is_default:
        entries.pop(paper_id, None)
        after[paper_id] = None
    else:
        entries[paper_id] = wanted
        after[paper_id] = wanted
