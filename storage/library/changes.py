"""Changing the user's entries: tags, statuses, stars and notes, each change one locked
read-modify-write of state.json and one step of the undo journal, and undo / redo.

Every change re-reads state.json under the lock, applies itself, writes the whole file
atomically and releases the lock, so two processes never lose each other's updates. A change
returns only once it is on disk; if the write fails it stays in memory (`StateFile.pending`,
with its undo step) and is written by the next change or by `Library.save()`. The journal step
is written right after state.json, under the same lock, so `undo()` survives a restart.

Removing papers (`remove`) is a change too: one step holding the papers' records and entries,
written in the order `storage.library.removal` explains; undo and redo of such a step move the
records in papers.json first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace

from papershelf.storage.errors import NotFound, PapershelfError, SaveError
from papershelf.storage.library import journal
from papershelf.storage.library.journal import JournalStore, Step, UndoOutcome
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.library.papers_file import PapersFile
from papershelf.storage.library.removal import (
    RemoveReport,
    apply_papers,
    classify,
    describe_removal,
    plan_removal,
)
from papershelf.storage.library.state_file import StateFile, put_entry
from papershelf.storage.model import STATUSES, Entry, Status, normalise_tag, utc_now
from papershelf.storage.text.clean import clean_text

__all__ = ["NOTE_MAX_CHARS", "EntryChanges", "InvalidInput"]

NOTE_MAX_CHARS = 20_000
_DEFAULT_ENTRY = Entry()


class InvalidInput(PapershelfError):
    """A value the user gave cannot be stored (an unusable tag, an unknown status)."""


class EntryChanges:
    """The operations on entries of one library (see the module docstring)."""

    def __init__(
        self, lock: LibraryLock, papers: PapersFile, state: StateFile, history: JournalStore
    ) -> None:
        self._lock = lock
        self._papers = papers
        self._state = state
        self._journal = history

    # -- the operations --------------------------------------------------------------------

    def tag(
        self, ids: Iterable[str] | str, add: Iterable[str] = (), remove: Iterable[str] = ()
    ) -> int:
        """Add and remove tags (normalised; removal wins) on papers; returns how many changed."""
        adding = frozenset(_normalise_tags(add))
        removing = frozenset(_normalise_tags(remove))
        words = [f"+{t}" for t in sorted(adding - removing)] + [f"-{t}" for t in sorted(removing)]
        return self._change(
            ids,
            lambda entry: replace(entry, tags=(entry.tags | adding) - removing),
            lambda target: f"tag {' '.join(words)} on {target}",
        )

    def set_status(self, ids: Iterable[str] | str, status: Status | str) -> int:
        """Set the reading status (`unread`, `reading`, `read`); returns how many changed."""
        if status not in STATUSES:
            raise InvalidInput(f"unknown status {status!r} (use {', '.join(STATUSES)})")
        return self._change(
            ids,
            lambda entry: replace(entry, status=status),  # type: ignore[arg-type]
            lambda target: f"status {status} on {target}",
        )

    def set_starred(self, ids: Iterable[str] | str, starred: bool) -> int:
        """Star or unstar papers; returns how many changed."""
        verb = "star" if starred else "unstar"
        return self._change(
            ids,
            lambda entry: replace(entry, starred=bool(starred)),
            lambda target: f"{verb} {target}",
        )

    def set_note(self, paper_id: str, note: str) -> int:
        """Replace a paper's note (control characters removed); returns 1 if it changed."""
        text = clean_text(note).strip()
        if len(text) > NOTE_MAX_CHARS:
            raise InvalidInput(f"note longer than {NOTE_MAX_CHARS} characters")
        verb = "edit note on" if text else "clear note on"
        return self._change(
            [paper_id], lambda entry: replace(entry, note=text), lambda target: f"{verb} {target}"
        )

    def edit(self, changes: Mapping[str, Callable[[Entry], Entry]], description: str) -> int:
        """Apply a different change to each paper, as one write and one undo step."""
        unique = self._check_ids(list(changes))
        return self._commit(
            lambda entries: {pid: changes[pid](entries.get(pid, _DEFAULT_ENTRY)) for pid in unique},
            stamp=True,
            describe=lambda _changed: description,
        )

    def restore(self, entries: Mapping[str, Entry], description: str | None = None) -> int:
        """Put entries back exactly as given; one undo step (default `restore N papers`)."""
        wanted = dict(entries)
        return self._commit(
            lambda _current: wanted,
            stamp=False,
            describe=lambda changed: description or f"restore {self._target(changed)}",
        )

    def replace_all(self, entries: Mapping[str, Entry], description: str) -> int:
        """Make the user's state exactly `entries`; every other paper's entry becomes the
        default (ids of papers not in the library are kept). One undo step."""
        wanted = dict(entries)

        def compute(current: Mapping[str, Entry]) -> dict[str, Entry]:
            cleared = {pid: _DEFAULT_ENTRY for pid in current if pid not in wanted}
            return {**cleared, **wanted}

        return self._commit(compute, stamp=False, describe=lambda _changed: description)

    # -- undo and redo -----------------------------------------------------------------------

    def travel(self, *, back: bool) -> UndoOutcome | None:
        """Undo (`back`) or redo one journal step, reporting papers in conflict."""
        state = self._state
        with self._lock.held():
            state.reload()
            if state.unsaved:
                # Changes not saved yet come first (with their undo steps): undo must take
                # back the latest change, not the latest saved one. Raises SaveError if the
                # disk still refuses them.
                state.save()
            history = self._journal.load()
            stack, other = (history.undo, history.redo) if back else (history.redo, history.undo)
            if not stack:
                return None
            step = stack.pop()
            source, target = (step.after, step.before) if back else (step.before, step.after)
            wanted, _, conflicts = journal.plan_travel(source, target, state.entries)
            papers = self._papers
            # A sync's added papers move the other way round a removal's: undo takes them out.
            # Undo takes them out before putting removed ones back, redo the other way round,
            # so every position a step recorded is the one it meets.
            parts = [(step.papers, back), (step.added, not back)]
            if back:
                parts.reverse()
            to_move: list[list[str]] = [[] for _ in parts]
            if step.papers or step.added:
                papers.reload(for_write=True)
                for number, (changes, direction) in enumerate(parts):
                    to_move[number], _, held_back = classify(
                        changes, papers.papers, papers.removed or {}, back=direction
                    )
                    conflicts += [pid for pid in held_back if pid not in conflicts]
            blocked = set(conflicts)
            moved = [pid for pid in step.ids if pid not in blocked]
            verb = "undo" if back else "redo"
            if any(pid not in blocked for ids in to_move for pid in ids):
                # papers.json first: the step stays on its stack until the journal is written,
                # so a kill after this finds these papers done and the entries still to do.
                new, removed, changed = papers.papers, papers.removed or {}, set()
                for (changes, direction), ids in zip(parts, to_move, strict=True):
                    moving = [pid for pid in ids if pid not in blocked]
                    new, removed, done = apply_papers(changes, moving, new, removed, back=direction)
                    changed |= done
                try:
                    papers.rewrite(new, changed, removed)
                except SaveError as error:
                    raise SaveError(f"could not {verb} {step.description}: {error}") from None
            entries = {pid: entry for pid, entry in wanted.items() if pid not in blocked}

            # An undo that cannot be saved is not kept half done (in memory, but not in the
            # journal, so a second `u` would go through the same step): it is taken back.
            held = (state.entries, set(state.pending), state.raw)
            try:
                self._commit(lambda _current: entries, stamp=False, describe=None)
            except SaveError as error:
                state.entries, state.pending, state.raw = held
                state.revision += 1
                raise SaveError(f"could not {verb} {step.description}: {error}") from None
            if moved:
                other.append(step.only(moved))
            self._journal.save(history)
        return UndoOutcome(step.description, len(moved), tuple(conflicts))

    # -- removing papers ---------------------------------------------------------------------

    def remove(
        self, ids: Iterable[str] | str, sources: Sequence[str] = (), *, dry_run: bool = False
    ) -> RemoveReport:
        """Take papers out of the library (and the papers of the files `sources`), as one
        undoable step; see `storage.library.removal` for the order of the writes."""
        unique = self._check_ids(ids)
        papers, state = self._papers, self._state
        with self._lock.held():
            papers.reload(for_write=True)
            state.reload()
            unique = self._check_ids(unique)  # another process may have removed one since
            held = papers.papers
            changes = plan_removal(held, unique, sources)
            gone = [pid for pid, change in changes.items() if change.kept is None]
            report = RemoveReport(
                removed=tuple(held[pid] for pid in gone),
                trimmed=tuple(
                    replace(held[pid], sources=change.kept)
                    for pid, change in changes.items()
                    if change.kept is not None
                ),
                sources=tuple(sources),
                description=describe_removal(changes, sources, held),
            )
            if dry_run or not changes:
                return report
            if state.unsaved:
                state.save()  # earlier changes (and their steps) come first
            now = utc_now()
            before = {pid: state.entries.get(pid) for pid in gone}
            step = Step(report.description, before, dict.fromkeys(gone), now, changes)
            new, removed, changed = apply_papers(
                changes, list(changes), papers.papers, papers.removed or {}, back=False
            )
            papers.rewrite(new, changed, removed)
            # The step (with the entries) is on disk before the entries leave state.json.
            undoable = self._journal.push(step)
            if undoable:
                self._commit(
                    lambda _current: dict.fromkeys(gone, _DEFAULT_ENTRY), stamp=False, describe=None
                )
        return replace(report, done=True, undoable=undoable)

    def bring_back(self, ids: Sequence[str]) -> int:
        """Give papers an import brought back after their removal (`include_removed`, `add`)
        the tags, status, star and note they were removed with, as one undo step; returns how
        many changed.

        The entry is the one the newest removal of the paper still in the undo history kept
        (`Step.before`); a paper that has an entry in state.json already keeps it (the
        removal's journal write failed, or a backup restored one since): it is newer.
        """
        if not ids:
            return 0
        with self._lock.held():
            self._state.reload()
            held = self._state.entries
            wanted = [pid for pid in dict.fromkeys(ids) if pid not in held]
            if not wanted:
                return 0
            entries = _removed_entries(self._journal.load().undo, wanted)
            if not entries:
                return 0
            names = self._papers.papers
            first = {pid: names[pid].name for pid in list(entries)[:1] if pid in names}
            target = journal.target_text(list(entries), first)
            return self.restore(entries, f"bring back the tags and notes of {target}")

    # -- one change ----------------------------------------------------------------------------

    def _check_ids(self, ids: Iterable[str] | str) -> list[str]:
        if isinstance(ids, str):
            ids = [ids]
        unique = list(dict.fromkeys(ids))
        papers = self._papers.papers
        for paper_id in unique:
            if paper_id not in papers:
                raise NotFound(f"no paper with id {paper_id!r}")
        return unique

    def _change(
        self,
        ids: Iterable[str] | str,
        change: Callable[[Entry], Entry],
        describe: Callable[[str], str],
    ) -> int:
        """Apply `change` to each paper's entry in one locked read-modify-write of state.json.

        `describe(target)` words the journal step, `target` being `RelGNN` or `3 papers`.
        """
        unique = self._check_ids(ids)
        return self._commit(
            lambda entries: {pid: change(entries.get(pid, _DEFAULT_ENTRY)) for pid in unique},
            stamp=True,
            describe=lambda changed: describe(self._target(changed)),
        )

    def _target(self, ids: Sequence[str]) -> str:
        papers = self._papers.papers
        names = {pid: papers[pid].name for pid in ids[:1] if pid in papers}
        return journal.target_text(ids, names)

    def _commit(
        self,
        compute: Callable[[Mapping[str, Entry]], Mapping[str, Entry]],
        *,
        stamp: bool,
        describe: Callable[[list[str]], str] | None,
    ) -> int:
        """Under the lock: re-read state.json, compute the wanted entries from it, save.

        The entries dict is replaced, never mutated, so a view another thread holds stays whole.
        `stamp` sets `updated_at` on changed entries (a restore keeps the given one). When
        `describe` is given, the change is recorded as one journal step worded by
        `describe(changed ids)`; undo and redo pass None and keep the journal themselves.
        """
        state = self._state
        with self._lock.held():
            state.reload()
            entries = dict(state.entries)
            now = utc_now()
            before: dict[str, Entry | None] = {}
            after: dict[str, Entry | None] = {}
            for paper_id, wanted in compute(state.entries).items():
                old = entries.get(paper_id, _DEFAULT_ENTRY)
                if stamp:
                    if replace(wanted, updated_at=old.updated_at) == old:
                        continue
                    wanted = replace(wanted, updated_at=now)
                elif wanted == old:
                    continue
                put_entry(entries, (before, after), paper_id, wanted)
                state.pending.add(paper_id)
            if after:
                state.entries = entries
                state.revision += 1
                if describe is not None:
                    # Recorded once the change is on disk: a change that cannot be saved yet
                    # gets its undo step when a later save writes it.
                    state.pending_steps.append(Step(describe(list(after)), before, after, now))
            if state.unsaved:
                state.save()
        return len(after)


def _removed_entries(steps: Sequence[Step], ids: Sequence[str]) -> dict[str, Entry]:
    """The entries the newest removal of each of `ids` in `steps` (oldest first) took out of
    state.json; ids no removal with an entry names are left out."""
    found: dict[str, Entry] = {}
    wanted = set(ids)
    for step in reversed(steps):
        if not wanted:
            break
        for pid in wanted & set(step.papers):
            if step.papers[pid].kept is None:
                wanted.discard(pid)
                if (entry := step.before.get(pid)) is not None:
                    found[pid] = entry
    return found


def _normalise_tags(raw: Iterable[str]) -> list[str]:
    if isinstance(raw, str):
        raw = [raw]
    try:
        return [normalise_tag(tag) for tag in raw]
    except ValueError as error:
        raise InvalidInput(str(error)) from None
