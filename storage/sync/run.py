"""One sync: read the other side, merge it into the library paper by paper, record the agreement.

`sync_library(library, other)` reads the other library directory or backup file
(`storage.sync.other`, read only), loads what the two last agreed on (`storage.sync.peers`),
and hands `Library.merge_state` a plan computed under the library's lock:

- Identity: a paper of theirs is ours when it has our id, else when the importer's
  `MatchIndex` finds it among ours (the same abstract, a shared identifier, the same title when
  one has no abstract); their ids are translated to ours before anything is compared.
- Entries: `storage.sync.merge.merge_entry` per paper, over every id either side or either base
  names.
- Papers (a library directory only): a paper's presence on each side is `listed`, `removed`
  or `never held`. Where they changed it since the last agreement and we did not, theirs is
  taken: a paper only they list comes in with its record, a paper we removed before comes back,
  a paper they removed goes here too, unless we changed its entry since (then it stays, and the
  report says so). Where both changed it differently, ours stays and it is reported; a paper we
  removed whose entry they changed stays removed and is reported too. A first sync takes every
  paper as never held before, so it brings papers in but never removes one.

The merge is one undo step; `dry_run` computes the same plan and writes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from papershelf.storage.errors import PapershelfError
from papershelf.storage.ingest.merge import MatchIndex
from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.library import Library, MergePlan, MergeView
from papershelf.storage.model import Entry, Paper
from papershelf.storage.sync.merge import FieldConflict, change_times, merge_entry
from papershelf.storage.sync.other import Other, SyncError, clean_paper, read_other
from papershelf.storage.sync.peers import (
    Base,
    PeerBase,
    load_base,
    own_id,
    save_base,
    side,
    their_view,
)

__all__ = ["Conflict", "SyncError", "SyncReport", "read_other", "sync_library"]

_DEFAULT = Entry()


@dataclass(frozen=True, slots=True)
class Conflict:
    """One field of one paper both sides changed since they last agreed."""

    paper_id: str
    name: str
    field: FieldConflict


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What a sync did (or, `dry_run`, would do)."""

    other: str
    """The other side as the user named it."""
    papers_in: int = 0
    changed: int = 0
    removed: int = 0
    conflicts: tuple[Conflict, ...] = ()
    changes: tuple[str, ...] = ()
    """One line per paper the merge changes (`+ RelGNN: in`, `~ RelGNN: +to-read, read`)."""
    notices: tuple[str, ...] = ()
    dry_run: bool = False

    @property
    def summary(self) -> str:
        """`synced with DIR: 12 papers in, 30 changed, 2 conflicts`."""
        verb = "would sync with" if self.dry_run else "synced with"
        parts = [_count(self.papers_in, "paper") + " in", f"{self.changed} changed"]
        if self.removed:
            parts.append(f"{self.removed} removed")
        parts.append(_count(len(self.conflicts), "conflict"))
        return f"{verb} {self.other}: {', '.join(parts)}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def sync_library(
    library: Library,
    other_path: str | os.PathLike[str],
    *,
    dry_run: bool = False,
    other: Other | None = None,
) -> SyncReport:
    """Merge the library directory or backup file `other_path` into `library` (one undo step);
    `SyncError` (one line, nothing changed) when it cannot be read. `other`: what
    `read_other(other_path)` gave already."""
    if other is None:
        other = read_other(other_path)
    shown = os.fspath(other_path)
    if other.path == Path(library.root).resolve():
        raise SyncError(f"{shown} is this library itself: give the other library")
    peer = str(other.path)
    base, problem = load_base(library.root, peer)
    notices = [problem] if problem else []
    label = other.path.name or peer
    view = their_view(other.path, own_id(library.root)) if other.is_library else None
    seen_at = None if view is None else view[1]
    # A view of us taken in by an earlier sync is no news: our own record is newer than it.
    seen = None if view is None or seen_at == base.seen_at else view[0]
    planner = _Planner(other, base, label, seen, Path(library.root))
    peer_id = own_id(other.path) if other.is_library else None

    def record(view: MergeView) -> None:
        try:
            ours = side(view.entries, view.papers, view.removed)
            theirs = side(planner.theirs_entries, planner.theirs_listed, planner.theirs_removed)
            save_base(library.root, peer, ours, theirs, peer_id, seen_at)
        except PapershelfError as error:
            notices.append(
                f"the sync is saved, but not the record of it ({error}): the next sync with "
                f"{shown} may report the same conflicts again"
            )

    library.merge_state(planner.plan, dry_run=dry_run, done=record)
    return replace(planner.report, other=shown, notices=tuple(notices), dry_run=dry_run)


@dataclass(slots=True)
class _Planner:
    """Computes the merge plan from what the library holds under the lock."""

    other: Other
    base: PeerBase
    label: str
    seen: Base | None = None
    """What the other library saw of us when it last synced from us (`peers.their_view`)."""
    library_root: Path = Path()
    times: tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]] = ({}, {})
    """When each field last changed here and there (`merge.change_times`), by paper."""
    theirs_entries: dict[str, Entry] = field(default_factory=dict)
    theirs_listed: set[str] = field(default_factory=set)
    theirs_removed: set[str] = field(default_factory=set)
    report: SyncReport = field(default_factory=lambda: SyncReport(""))
    conflicts: list[Conflict] = field(default_factory=list)
    names: _Names = field(default_factory=lambda: _Names())
    view: MergeView | None = None

    def _bases(self, pid: str) -> tuple[Entry, Entry, str, str]:
        """The paper's base entry and presence on our side and theirs: what the two last
        agreed on, or, when we have not changed the paper since the other library saw it, what
        it saw (its version then supersedes ours: it merged ours)."""
        view, seen, base = self.view, self.seen, self.base
        if seen is not None and view is not None:
            was = seen.entries.get(pid, _DEFAULT)
            presence = _presence(pid, seen.listed, seen.removed)
            now = view.entries.get(pid, _DEFAULT)
            if now == was and _presence(pid, view.papers, view.removed) == presence:
                return was, was, presence, presence
        return (
            base.ours.entries.get(pid, _DEFAULT),
            base.theirs.entries.get(pid, _DEFAULT),
            _presence(pid, base.ours.listed, base.ours.removed),
            _presence(pid, base.theirs.listed, base.theirs.removed),
        )

    def plan(self, view: MergeView) -> MergePlan:
        """The merge of what the library holds now (called by `Library.merge_state`)."""
        other = self.other
        self.names = _Names(view.papers, view.removed, other.papers or {}, other.removed or {})
        to_ours = _translation(view, other)
        theirs = {to_ours.get(pid, pid): entry for pid, entry in other.entries.items()}
        listed = {to_ours.get(pid, pid): p for pid, p in (other.papers or {}).items()}
        removed_there = {to_ours.get(pid, pid) for pid in (other.removed or {})} - set(listed)
        self.theirs_entries, self.theirs_removed = theirs, removed_there
        self.theirs_listed = set(listed)
        self.times = (
            change_times(JournalStore(self.library_root).peek().undo),
            {to_ours.get(pid, pid): fields for pid, fields in other.times.items()},
        )
        if self.seen is not None:
            seen = self.seen
            self.seen = Base(
                {to_ours.get(pid, pid): entry for pid, entry in seen.entries.items()},
                frozenset(to_ours.get(pid, pid) for pid in seen.listed),
                frozenset(to_ours.get(pid, pid) for pid in seen.removed),
            )
        self.view = view
        self.conflicts = []
        add: list[Paper] = []
        remove: list[str] = []
        if other.is_library:
            add, remove = self._presence(view, listed, removed_there)
        entries = self._entries(view, theirs, removed_there, {paper.id for paper in add})
        entries.update(dict.fromkeys(remove, _DEFAULT))  # kept in the undo step
        self.report = self._report(view, entries, add, remove)
        return MergePlan(f"sync with {self.label}", entries, tuple(add), tuple(remove))

    def _conflict(self, pid: str, item: FieldConflict) -> None:
        self.conflicts.append(Conflict(pid, self.names.of(pid), item))

    def _entries(
        self,
        view: MergeView,
        theirs: Mapping[str, Entry],
        removed_there: set[str],
        coming: set[str],
    ) -> dict[str, Entry]:
        """The entries that change: each paper's three-way merge."""
        entries: dict[str, Entry] = {}
        ids = set(view.entries) | set(theirs)
        ids |= set(self.base.ours.entries) | set(self.base.theirs.entries)
        if self.seen is not None:
            ids |= set(self.seen.entries)
        for pid in sorted(ids):
            ours = view.entries.get(pid, _DEFAULT)
            base_ours, base_theirs, _, _ = self._bases(pid)
            # Their removal cleared the entry: that is no edit of it (the removal is merged
            # as a removal, by `_going`).
            now_theirs = base_theirs if pid in removed_there else theirs.get(pid, _DEFAULT)
            gone_here = pid in view.removed and pid not in view.papers and pid not in coming
            if gone_here and _edited(now_theirs, base_theirs):
                what = f"changed ({_fields(now_theirs, base_theirs)})"
                self._conflict(pid, FieldConflict("removal", "removed", what, "removed"))
                continue
            times = (self.times[0].get(pid, {}), self.times[1].get(pid, {}))
            merged, found = merge_entry(ours, base_ours, now_theirs, base_theirs, self.label, times)
            for item in found:
                self._conflict(pid, item)
            if merged != ours:
                entries[pid] = merged
        return entries

    def _presence(
        self, view: MergeView, listed: Mapping[str, Paper], removed_there: set[str]
    ) -> tuple[list[Paper], list[str]]:
        """The papers that come in and go: where they changed a paper's presence (listed,
        removed, never held) since the last agreement and we did not, theirs is taken; where
        both changed it, to different ones, ours stays and the report says so."""
        add: list[Paper] = []
        remove: list[str] = []
        for pid in [*listed, *sorted(removed_there)]:
            theirs_now = _presence(pid, listed, removed_there)
            ours_now = _presence(pid, view.papers, view.removed)
            _, _, ours_was, theirs_was = self._bases(pid)
            if theirs_now in (ours_now, theirs_was):
                continue
            if ours_now != ours_was:
                item = FieldConflict("removal", ours_now, theirs_now, f"ours, {ours_now}")
                self._conflict(pid, item)
            elif theirs_now == "listed":
                # A removed paper comes back as our removed table keeps it.
                # Theirs is stored here as it is: cleaned first, as an import would clean it
                # (only the papers that come in: cleaning all of theirs took 0.5 s at 10,000).
                add.append(view.removed.get(pid) or clean_paper(listed[pid]))
            elif ours_now == "listed":
                ours = view.entries.get(pid, _DEFAULT)
                base_ours = self._bases(pid)[0]
                if _edited(ours, base_ours):
                    what = f"changed ({_fields(ours, base_ours)})"
                    item = FieldConflict("removal", what, "removed", "ours, listed")
                    self._conflict(pid, item)
                else:
                    remove.append(pid)
        return add, remove

    def _report(
        self, view: MergeView, entries: Mapping[str, Entry], add: list[Paper], remove: list[str]
    ) -> SyncReport:
        names = self.names
        added_ids = {paper.id for paper in add}
        changes = [f"+ {names.of(paper.id)}: in" for paper in add]
        changes += [f"- {names.of(pid)}: removed" for pid in remove]
        changed = 0
        for pid, entry in entries.items():
            if pid in added_ids or pid in remove:
                continue
            changed += 1
            old = view.entries.get(pid, _DEFAULT)
            changes.append(f"~ {names.of(pid)}: {_difference(old, entry)}")
        return SyncReport(
            "",
            papers_in=len(add),
            changed=changed,
            removed=len(remove),
            conflicts=tuple(self.conflicts),
            changes=tuple(changes),
        )


def _presence(pid: str, listed: Collection[str], removed: Collection[str]) -> str:
    """`listed`, `removed` or `never held`."""
    if pid in listed:
        return "listed"
    return "removed" if pid in removed else "never held"


def _edited(entry: Entry, base: Entry) -> bool:
    return replace(entry, updated_at=None) != replace(base, updated_at=None)


def _fields(entry: Entry, base: Entry) -> str:
    changed = [
        name
        for name in ("tags", "status", "starred", "note")
        if getattr(entry, name) != getattr(base, name)
    ]
    return ", ".join(changed) or "nothing"


def _difference(old: Entry, new: Entry) -> str:
    """`+to-read -old, read, starred, note`: what a merge changes in one entry."""
    words = [f"+{tag}" for tag in sorted(new.tags - old.tags)]
    words += [f"-{tag}" for tag in sorted(old.tags - new.tags)]
    if new.status != old.status:
        words.append(new.status)
    if new.starred != old.starred:
        words.append("starred" if new.starred else "unstarred")
    if new.note != old.note:
        words.append("note" if new.note else "note cleared")
    return " ".join(words) or "kept as it is"


class _Names:
    """A paper's name for the report: ours, else theirs, else its id."""

    def __init__(self, *sources: Mapping[str, Paper]) -> None:
        self._sources = sources

    def of(self, pid: str) -> str:
        for papers in self._sources:
            paper = papers.get(pid)
            if paper is not None and paper.name:
                return paper.name
        return pid


def _translation(view: MergeView, other: Other) -> dict[str, str]:
    """Their paper ids that are other ids of ours (found as an import would find them)."""
    if not other.is_library:
        return {}
    theirs = {**(other.removed or {}), **(other.papers or {})}
    ours = {**view.removed, **view.papers}
    strangers = [paper for pid, paper in theirs.items() if pid not in ours]
    if not strangers:
        return {}
    index = MatchIndex(ours)
    found: dict[str, str] = {}
    taken = set(theirs)
    for paper in strangers:
        match = index.find(paper)
        if match is not None and match not in taken:
            found[paper.id] = match
            taken.add(match)
    return found
