"""Bringing another library's state in as one undoable step: the write side of a sync.

`storage.sync` decides what changes (it reads the other library and the record of the last
sync); this module applies that decision under the lock, against what the files hold at that
moment: `compute` is called after both files were re-read, so a change another process made
meanwhile is merged, never overwritten.

One journal step holds everything the merge did: the entries it changed (`before`/`after`),
the papers it removed (`papers`, as `Library.remove` records them: their records go to the
removed table) and the papers it listed (`added`: new ones from the other library, or removed
ones brought back), so `undo` takes the whole merge back and `redo` does it again.

Order of the writes: papers.json (papers in and out), then state.json and the journal step (as
every change writes them). Killed after papers.json, the papers are in and the entries not yet:
the next sync merges the entries again (the record of the last sync is written last).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from papershelf.storage.library.journal import JournalStore, PaperChange, Step
from papershelf.storage.library.lock import LibraryLock
from papershelf.storage.library.papers_file import PapersFile
from papershelf.storage.library.removal import apply_papers
from papershelf.storage.library.state_file import StateFile, put_entry
from papershelf.storage.model import Entry, Paper, utc_now

__all__ = ["MergePlan", "MergeView", "apply_merge"]

_DEFAULT_ENTRY = Entry()


@dataclass(frozen=True, slots=True)
class MergeView:
    """What the library holds when a merge is computed (under the lock, files re-read)."""

    papers: Mapping[str, Paper]
    """The listed papers, in library order."""
    removed: Mapping[str, Paper]
    """The removed table."""
    entries: Mapping[str, Entry]
    """The non-default entries."""


@dataclass(frozen=True, slots=True)
class MergePlan:
    """What a merge changes; `entries` holds the wanted entry of each paper whose entry changes
    (a default `Entry()` clears it), exactly as it is to be stored (`updated_at` included)."""

    description: str
    entries: Mapping[str, Entry] = field(default_factory=dict)
    add: tuple[Paper, ...] = ()
    """Papers to list, at the end in this order: new ones, or (same id) removed ones back."""
    remove: tuple[str, ...] = ()
    """Listed papers to remove (their records go to the removed table)."""

    @property
    def empty(self) -> bool:
        """Whether the plan changes nothing."""
        return not (self.entries or self.add or self.remove)


def apply_merge(
    lock: LibraryLock,
    papers: PapersFile,
    state: StateFile,
    history: JournalStore,
    compute: Callable[[MergeView], MergePlan],
    *,
    dry_run: bool = False,
    done: Callable[[MergeView], None] | None = None,
) -> MergePlan:
    """Under the lock: re-read both files, `compute` the plan from them and (unless `dry_run`)
    write it as one journal step; then `done(view after the merge)`, still under the lock (the
    sync records what the two libraries agreed on). Returns the plan; raises `SaveError` when
    papers.json cannot be written (nothing changed) or state.json cannot (held as pending)."""
    with lock.held():
        papers.reload(for_write=True)
        state.reload()
        if state.unsaved and not dry_run:
            state.save()  # earlier changes (and their steps) come first
        plan = compute(MergeView(papers.papers, papers.removed or {}, state.entries))
        if dry_run:
            return plan
        if plan.empty:
            if done is not None:
                done(MergeView(papers.papers, papers.removed or {}, state.entries))
            return plan
        now = utc_now()
        removals, additions = _move_papers(papers, plan)
        entries = dict(state.entries)
        before: dict[str, Entry | None] = {}
        after: dict[str, Entry | None] = {}
        for paper_id, wanted in plan.entries.items():
            old = entries.get(paper_id)
            if wanted == (old or _DEFAULT_ENTRY) or (wanted.is_default and old is None):
                continue
            put_entry(entries, (before, after), paper_id, wanted)
            state.pending.add(paper_id)
        if after or removals or additions:
            state.entries = entries
            state.revision += 1
            step = Step(plan.description, before, after, now, removals, additions)
            state.pending_steps.append(step)
            state.save()
        if done is not None:
            done(MergeView(papers.papers, papers.removed or {}, state.entries))
    return plan


def _move_papers(
    papers: PapersFile, plan: MergePlan
) -> tuple[dict[str, PaperChange], dict[str, PaperChange]]:
    """Write papers.json with the plan's papers out and in; the step's record of both."""
    if not plan.add and not plan.remove:
        return {}, {}
    current = papers.papers
    positions = {paper_id: number for number, paper_id in enumerate(current)}
    removals = {
        pid: PaperChange(positions[pid], current[pid].sources, None)
        for pid in plan.remove
        if pid in current
    }
    listed, removed, changed = apply_papers(
        removals, list(removals), current, papers.removed or {}, back=False
    )
    additions: dict[str, PaperChange] = {}
    for paper in plan.add:
        if paper.id in listed:
            continue
        # A removed paper comes back as the removed table keeps it (the record it had here).
        record = removed.pop(paper.id, None) or paper
        listed[paper.id] = record
        additions[paper.id] = PaperChange(len(listed) - 1, record.sources, None)
        changed.add(paper.id)
    papers.rewrite(listed, changed, removed)
    return removals, additions
