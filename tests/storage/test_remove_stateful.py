"""Removal under random sequences of imports (from two files, with and without bringing removed
papers back, with their tags: one more step), removals by id and by source file, tags, undo and
redo, against a model.

The model is a list of ids in library order, each paper's sources, the entries the Library
acknowledged, the removed ids, and two stacks of steps it undoes and redoes itself by the rules
of `storage.library.removal` (a removed paper goes back to its old position, in ascending order;
a paper brought back meanwhile counts as undone; a trimmed paper moves only while its sources are
the step's other side). After every step the Library (in memory and reopened from disk) holds
exactly the model: papers (records, sources and order), entries with their timestamps, the
removed table; nothing imported is ever lost (every paper is listed or removed).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from synthetic import make_papers

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "30"))
POOL = make_papers(9)
BY_ID = {paper.id: paper for paper in POOL}
FILES = ("a.txt", "b.txt")
TAGS = ("a", "b")


@dataclass
class Step:
    """A model step: entries before/after by id; a removal's positions (removed papers) and
    sources (before, kept) of the papers it only trimmed."""

    before: dict[str, Entry | None]
    after: dict[str, Entry | None]
    positions: dict[str, int] = field(default_factory=dict)
    removed_sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    trims: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)

    def only(self, ids: set[str]) -> Step:
        return Step(
            {pid: e for pid, e in self.before.items() if pid in ids},
            {pid: e for pid, e in self.after.items() if pid in ids},
            {pid: p for pid, p in self.positions.items() if pid in ids},
            {pid: s for pid, s in self.removed_sources.items() if pid in ids},
            {pid: t for pid, t in self.trims.items() if pid in ids},
        )

    @property
    def ids(self) -> list[str]:
        return list(dict.fromkeys([*self.after, *self.trims]))


class RemovalMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        self.library = Library.open(self.root, seed=False)
        self.order: list[str] = []
        self.sources: dict[str, tuple[str, ...]] = {}
        """Every paper's sources, listed or removed (the removed table keeps the record)."""
        self.entries: dict[str, Entry] = {}
        self.removed: set[str] = set()
        self.seen: set[str] = set()
        self.undo_stack: list[Step] = []
        self.redo_stack: list[Step] = []

    def teardown(self) -> None:
        self.tmp.cleanup()

    # -- rules ---------------------------------------------------------------------------------

    @rule(
        picks=st.lists(st.sampled_from(range(len(POOL))), max_size=5),
        source=st.sampled_from(FILES),
        include=st.booleans(),
    )
    def import_papers(self, picks: list[int], source: str, include: bool) -> None:
        batch = [replace(POOL[i], sources=(source,)) for i in picks]
        report = self.library.import_papers(batch, source, include_removed=include)
        skipped = 0
        back: list[str] = []
        for paper in batch:
            pid = paper.id
            if pid in self.removed and not include:
                skipped += 1
                continue
            if pid not in self.order:
                if pid in self.removed:
                    back.append(pid)
                self.order.append(pid)
                self.removed.discard(pid)
                self.seen.add(pid)
            old = self.sources.get(pid, ()) if pid in self.order else ()
            if source not in old:
                self.sources[pid] = (*old, source)
        assert report.removed == skipped
        self._brought_back(back)

    def _brought_back(self, back: list[str]) -> None:
        """Papers brought back get the entry their newest removal in the history took out of
        state.json, as one step (none when none had one)."""
        entries: dict[str, Entry] = {}
        for pid in back:
            for step in reversed(self.undo_stack):
                if pid in step.positions:
                    if (entry := step.before.get(pid)) is not None:
                        entries[pid] = entry
                    break
        if entries:
            for pid, entry in entries.items():
                self._set(pid, entry)
            self._record(Step(dict.fromkeys(entries), dict(entries)))

    @precondition(lambda self: self.order)
    @rule(data=st.data(), tag=st.sampled_from(TAGS), add=st.booleans())
    def tag(self, data: st.DataObject, tag: str, add: bool) -> None:
        paper_id = data.draw(st.sampled_from(self.order))
        old = self.entries.get(paper_id)
        changed = self.library.tag(paper_id, add=[tag] if add else [], remove=[] if add else [tag])
        if not changed:
            return
        new = self.library.entry(paper_id)
        self._set(paper_id, new)
        self._record(Step({paper_id: old}, {paper_id: None if new.is_default else new}))

    @precondition(lambda self: self.order)
    @rule(data=st.data())
    def remove(self, data: st.DataObject) -> None:
        ids = data.draw(st.lists(st.sampled_from(self.order), min_size=1, max_size=4, unique=True))
        report = self.library.remove(ids)
        assert report.done and report.undoable
        self._removed(set(ids), source=None)

    @precondition(lambda self: self.order)
    @rule(source=st.sampled_from(FILES))
    def remove_source(self, source: str) -> None:
        if not any(source in self.sources[pid] for pid in self.order):
            return
        report = self.library.remove(source=source)
        assert report.done and report.undoable
        gone = {pid for pid in self.order if self.sources[pid] == (source,)}
        assert {paper.id for paper in report.removed} == gone
        self._removed(gone, source=source)

    def _removed(self, gone: set[str], source: str | None) -> None:
        step = Step({}, {})
        for position, pid in enumerate(self.order):
            if pid in gone:
                step.positions[pid] = position
                step.removed_sources[pid] = self.sources[pid]
                step.before[pid] = self.entries.get(pid)
                step.after[pid] = None
            elif source is not None and source in self.sources[pid]:
                kept = tuple(s for s in self.sources[pid] if s != source)
                step.trims[pid] = (self.sources[pid], kept)
                self.sources[pid] = kept
        for pid in gone:
            self.order.remove(pid)
            self.removed.add(pid)
            self.entries.pop(pid, None)
        self._record(step)

    @rule()
    def undo(self) -> None:
        self._travel(back=True)

    @rule()
    def redo(self) -> None:
        self._travel(back=False)

    # -- the model -----------------------------------------------------------------------------

    def _travel(self, *, back: bool) -> None:
        outcome = self.library.travel(back=back)
        stack, other = self.undo_stack, self.redo_stack
        if not back:
            stack, other = other, stack
        if not stack:
            assert outcome is None
            return
        step = stack.pop()
        conflicts = self._conflicts(step, back=back)
        assert outcome is not None and set(outcome.conflicts) == conflicts
        moved = [pid for pid in step.ids if pid not in conflicts]
        self._apply(step.only(set(moved)), back=back)
        if moved:
            other.append(step.only(set(moved)))

    def _conflicts(self, step: Step, *, back: bool) -> set[str]:
        """The papers the Library must leave (the rules of `removal.classify`)."""
        found: set[str] = set()
        for pid, sources in step.removed_sources.items():
            listed = pid in self.order
            if not back and listed and sorted(self.sources[pid]) != sorted(sources):
                found.add(pid)
        for pid, (before, kept) in step.trims.items():
            now = sorted(self.sources[pid]) if pid in self.order else None
            if now not in (sorted(before), sorted(kept)):
                found.add(pid)
        return found

    def _set(self, paper_id: str, entry: Entry | None) -> None:
        if entry is None or entry.is_default:
            self.entries.pop(paper_id, None)
        else:
            self.entries[paper_id] = entry

    def _record(self, step: Step) -> None:
        self.undo_stack.append(step)
        self.redo_stack.clear()

    def _apply(self, step: Step, *, back: bool) -> None:
        if back:
            for position, pid in sorted((p, i) for i, p in step.positions.items()):
                if pid not in self.order:
                    self.order.insert(min(position, len(self.order)), pid)
                    self.removed.discard(pid)
        else:
            for pid in step.positions:
                if pid in self.order:
                    self.order.remove(pid)
                    self.removed.add(pid)
        for pid, (before, kept) in step.trims.items():
            target = before if back else kept
            if sorted(self.sources[pid]) != sorted(target):
                self.sources[pid] = target
        for pid, entry in (step.before if back else step.after).items():
            self._set(pid, entry)

    # -- what must always hold -----------------------------------------------------------------

    @invariant()
    def the_library_is_the_model(self) -> None:
        assert [paper.id for paper in self.library.papers()] == self.order
        assert dict(self.library.entries()) == self.entries
        for pid in self.order:
            assert self.library.get(pid) == replace(BY_ID[pid], sources=self.sources[pid])

    @invariant()
    def the_disk_is_the_model_and_nothing_is_lost(self) -> None:
        again = Library.open(self.root, seed=False)
        assert [paper.id for paper in again.papers()] == self.order
        assert dict(again.entries()) == self.entries
        path = self.root / "papers.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        removed = {doc["id"]: tuple(doc["sources"]) for doc in data.get("removed", {}).values()}
        assert removed == {pid: self.sources[pid] for pid in self.removed}
        assert set(self.order) | set(removed) == self.seen


TestRemoval = RemovalMachine.TestCase
TestRemoval.settings = settings(max_examples=EXAMPLES, stateful_step_count=25)
