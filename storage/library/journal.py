"""The undo / redo journal: every change to the user's state, kept next to state.json.

`<root>/journal.json` holds two stacks of steps, `undo` (oldest first) and `redo`::

    {"format": "papershelf-journal", "version": 1,
     "undo": [{"description": "tag +to-read on 3 papers", "at": "2025-06-01T10:00:00Z",
               "before": {"<id>": <entry> | null}, "after": {"<id>": <entry> | null}}, ...],
     "redo": [...]}

A step (`journal_steps.Step`, re-exported here) holds the entries of the papers it changed only
(`null` = no entry, the default state), so a bulk action is one step. A step that removed papers
(`Library.remove`) also holds, besides their entries, where they were and their sources,
`"papers": {"<id>": {"position": n, "sources": [...], "kept": [...] | null}}` (`PaperChange`;
null: removed); their records are in papers.json's removed table, written in the same atomic
write that took them out, so a removal of 10,000 papers does not make every later save of the
journal rewrite 20 MB of abstracts. A papershelf without removal ignores the key (it reads
`before`, `after`, `description`, `at`). A sync (`storage.sync`) records the papers it listed
under `"added"`, in the same shape (`kept` null): undo takes them out, into the removed table.

The file is written atomically under the library's lock, right after state.json (before it, for
a removal: `storage.library.removal`); a change that reached state.json but not the journal (a
kill in between, a full disk) is simply not undoable. Recording a new step clears the redo
stack. The undo stack keeps the last `max_steps` steps and at most `max_records` paper entries
in all (the newest step always stays; a removed paper counts once, its record included).

Undo is safe against other processes: a paper is put back only while its entry still equals the
step's `after` (ignoring `updated_at`); a paper changed since is left as it is and reported as a
conflict, and a paper already back at `before` counts as undone. Only the papers actually undone
move to the redo stack (redo works the same way in the other direction). The journal is shared by
every process using the library, so `undo` takes back the latest change whoever made it.

A journal that cannot be read (damaged, not a journal, newer version) is moved aside to
`journal.json.corrupt-<time>` and replaced by an empty one: the undo history is lost, the user's
state is not. A journal that cannot be written only loses history; neither ever fails a change.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papershelf.storage.errors import LibraryError
from papershelf.storage.files.jsonstore import (
    CorruptFileError,
    StatKey,
    atomic_write,
    move_aside,
    parse_object,
    read_keyed,
    stale_temp_files,
    stat_key,
)
from papershelf.storage.library.journal_steps import (
    PaperChange,
    Step,
    same_entry,
    target_text,
)
from papershelf.storage.model import Entry, file_stamp

__all__ = [
    "JOURNAL_FILE",
    "MAX_RECORDS",
    "MAX_STEPS",
    "Journal",
    "JournalStore",
    "PaperChange",
    "Step",
    "UndoOutcome",
    "plan_travel",
    "same_entry",
    "target_text",
]

JOURNAL_FILE = "journal.json"
FORMAT = "papershelf-journal"
VERSION = 1
MAX_STEPS = 200
MAX_RECORDS = 20_000
"""Paper entries kept over all undo steps: bounds the file (a step on 10,000 papers is ~2 MB)."""


@dataclass(slots=True)
class Journal:
    """The two stacks, oldest step first; `record` keeps them bounded."""

    undo: list[Step] = field(default_factory=list)
    redo: list[Step] = field(default_factory=list)

    def record(
        self, step: Step, *, max_steps: int = MAX_STEPS, max_records: int = MAX_RECORDS
    ) -> None:
        """Push a new change: it clears redo; the oldest steps drop out past the bounds."""
        self.undo.append(step)
        self.redo.clear()
        self.trim(max_steps=max_steps, max_records=max_records)

    def trim(self, *, max_steps: int = MAX_STEPS, max_records: int = MAX_RECORDS) -> None:
        """Drop the oldest undo steps beyond `max_steps` or `max_records` (keeping the newest)."""
        if len(self.undo) > max_steps:
            del self.undo[: len(self.undo) - max_steps]
        total = sum(step.size for step in self.undo)
        drop = 0
        while total > max_records and drop < len(self.undo) - 1:
            total -= self.undo[drop].size
            drop += 1
        del self.undo[:drop]

    def encoded(self) -> bytes:
        """The whole journal file as JSON bytes (equal to `dumps(self.to_json())`)."""
        undo = b",".join(step.encoded() for step in self.undo)
        redo = b",".join(step.encoded() for step in self.redo)
        head = f'{{"format":"{FORMAT}","version":{VERSION},"undo":['.encode()
        return head + undo + b'],"redo":[' + redo + b"]}"

    def to_json(self) -> dict[str, Any]:
        """The whole journal file."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "undo": [step.to_json() for step in self.undo],
            "redo": [step.to_json() for step in self.redo],
        }

    @classmethod
    def from_json(cls, data: Any) -> Journal:
        """Inverse of `to_json`; ValueError names what is wrong with anything else."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a papershelf journal")
        version = data.get("version")
        if type(version) is not int or version > VERSION:
            raise ValueError(f"journal version {version!r} is not one this papershelf reads")
        stacks = data.get("undo"), data.get("redo")
        if not all(isinstance(stack, list) for stack in stacks):
            raise ValueError("the undo/redo stacks are not lists")
        try:
            return cls(
                undo=[Step.from_json(item) for item in data["undo"]],
                redo=[Step.from_json(item) for item in data["redo"]],
            )
        except (TypeError, AttributeError) as error:
            raise ValueError(f"a step is invalid: {error}") from None


@dataclass(frozen=True, slots=True)
class UndoOutcome:
    """What one undo or redo did."""

    description: str
    """The step's description, e.g. `tag +to-read on 3 papers`."""
    applied: int
    """Papers put back (or already back) to the step's other side."""
    conflicts: tuple[str, ...] = ()
    """Ids of papers changed elsewhere since the step, left as they are."""

    @property
    def message(self) -> str:
        """One line for the user: the description, plus what was skipped and why."""
        if not self.conflicts:
            return self.description
        skipped = len(self.conflicts)
        papers = "paper" if skipped == 1 else "papers"
        if not self.applied:
            return f"{self.description}: nothing done, all {skipped} {papers} changed since"
        return f"{self.description} ({skipped} {papers} changed since, left as they are)"


def plan_travel(
    source: Mapping[str, Entry | None],
    target: Mapping[str, Entry | None],
    current: Mapping[str, Entry],
) -> tuple[dict[str, Entry], list[str], list[str]]:
    """Move papers from `source` to `target` state where that is still safe.

    Returns (entries to write, ids moved or already at target, ids in conflict). A paper moves
    only while its current entry equals `source`; one already equal to `target` needs no write.
    """
    wanted: dict[str, Entry] = {}
    moved: list[str] = []
    conflicts: list[str] = []
    for paper_id, old in source.items():
        new = target.get(paper_id)
        now = current.get(paper_id)
        if same_entry(now, new):
            moved.append(paper_id)
        elif same_entry(now, old):
            wanted[paper_id] = new or Entry()
            moved.append(paper_id)
        else:
            conflicts.append(paper_id)
    return wanted, moved, conflicts


class JournalStore:
    """Reads and writes `<root>/journal.json`; never raises for a bad or unwritable journal.

    The journal is plain JSON, not a TinyDB file, so it is written with `atomic_write` directly;
    reads are cached while the file's identity (`StatKey`) is unchanged.
    """

    def __init__(self, root: Path, *, sync: bool = True) -> None:
        self.path = root / JOURNAL_FILE
        self.sync = sync
        self._cache: tuple[StatKey, Journal] | None = None
        self.max_steps = MAX_STEPS
        self.max_records = MAX_RECORDS
        self.notice: str | None = None
        """The last problem with the journal, as a one-line message (None: none so far)."""

    def _read(self) -> Journal:
        """The journal on disk (shared, do not change); raises `_Unreadable` when it is bad."""
        try:
            key = stat_key(os.stat(self.path))
        except FileNotFoundError:
            self._cache = None
            return Journal()
        except OSError as error:
            raise _Unreadable(error.strerror or str(error), None) from None
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        try:
            found = read_keyed(self.path)
        except OSError as error:
            raise _Unreadable(error.strerror or str(error), None) from None
        if found is None:
            self._cache = None
            return Journal()
        key, raw = found
        try:
            history = Journal.from_json(parse_object(raw, self.path, key))
        except CorruptFileError as error:  # says why in words of ours, not Python's
            raise _Unreadable(error.reason, key) from None
        except RecursionError:
            raise _Unreadable("nested too deeply", key) from None
        except ValueError as error:
            raise _Unreadable(str(error), key) from None
        self._cache = (key, history)
        return history

    def load(self) -> Journal:
        """A copy of the journal to change; call under the library's lock.

        A damaged or foreign journal is moved aside and an empty one returned (see `notice`).
        """
        try:
            history = self._read()
        except _Unreadable as error:
            self._set_aside(error)
            return Journal()
        return Journal(list(history.undo), list(history.redo))

    def peek(self) -> Journal:
        """The journal as it is on disk (do not change it), read without the lock; a bad file
        reads as empty and is left for `load` to deal with."""
        try:
            return self._read()
        except _Unreadable:
            return Journal()

    def _set_aside(self, error: _Unreadable) -> None:
        moved: Path | None = None
        if error.key is not None:
            stamp = file_stamp()
            with contextlib.suppress(OSError):
                moved = self._quarantine(error.key, stamp)
        where = f"it was moved to {moved}" if moved else "it was left where it is"
        self.notice = f"undo history was lost: {self.path} was unreadable ({error.reason}); {where}"

    def _quarantine(self, key: StatKey, suffix: str) -> Path | None:
        # Only the version seen to be bad is moved: one another process just wrote stays.
        target = move_aside(self.path, key, suffix)
        if target is not None:
            self._cache = None
        return target

    def save(self, history: Journal) -> bool:
        """Write the journal (under the library's lock); False (and `notice`) when it failed."""
        history.trim(max_steps=self.max_steps, max_records=self.max_records)
        try:
            key = atomic_write(self.path, history.encoded(), sync=self.sync)
        except LibraryError as error:
            self._cache = None
            self.notice = f"undo history not saved: {error}"
            return False
        self._cache = (key, Journal(list(history.undo), list(history.redo)))
        return True

    def push(self, step: Step) -> bool:
        """Record a new change (under the library's lock); False when it could not be saved."""
        history = self.load()
        history.record(step, max_steps=self.max_steps, max_records=self.max_records)
        return self.save(history)

    def temp_files(self) -> list[Path]:
        """Temp files a killed writer of the journal may have left (removed at open)."""
        return list(stale_temp_files(self.path))


class _Unreadable(Exception):
    """The journal file exists but cannot be used; `key` identifies the bad version."""

    def __init__(self, reason: str, key: StatKey | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key
