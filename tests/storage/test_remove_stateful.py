"""Removal under random sequences of imports, removals, tags, undo and redo, against a model.

The model is a list of ids in library order, the entries the Library acknowledged, the removed
ids, and two stacks of steps it undoes and redoes itself (a removal's papers go back to their
old positions, in ascending order). After every step the Library (in memory and reopened from
disk) holds exactly the model: papers in order, entries with their timestamps, the removed
table; nothing imported is ever lost (every paper is listed or removed).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from killworker import make_papers

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "30"))
POOL = make_papers(9)
BY_ID = {paper.id: paper for paper in POOL}
TAGS = ("a", "b")


@dataclass
class Step:
    """A model step: entries before/after by id, and (a removal) the positions removed from."""

    before: dict[str, Entry | None]
    after: dict[str, Entry | None]
    positions: dict[str, int] = field(default_factory=dict)


class RemovalMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        self.library = Library.open(self.root, seed=False)
        self.order: list[str] = []
        self.entries: dict[str, Entry] = {}
        self.removed: set[str] = set()
        self.seen: set[str] = set()
        self.undo_stack: list[Step] = []
        self.redo_stack: list[Step] = []

    def teardown(self) -> None:
        self.tmp.cleanup()

    # -- rules ---------------------------------------------------------------------------------

    @rule(picks=st.lists(st.sampled_from(range(len(POOL))), max_size=5), include=st.booleans())
    def import_papers(self, picks: list[int], include: bool) -> None:
        batch = [POOL[i] for i in picks]
        report = self.library.import_papers(batch, "pool.txt", include_removed=include)
        skipped = 0
        for paper in batch:
            if paper.id in self.order:
                continue
            if paper.id in self.removed and not include:
                skipped += 1
                continue
            self.removed.discard(paper.id)
            self.order.append(paper.id)
            self.seen.add(paper.id)
        assert report.removed == skipped

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
        positions = {pid: self.order.index(pid) for pid in ids}
        before = {pid: self.entries.get(pid) for pid in ids}
        for pid in ids:
            self.order.remove(pid)
            self.removed.add(pid)
            self.entries.pop(pid, None)
        self._record(Step(before, dict.fromkeys(ids), positions))

    @rule()
    def undo(self) -> None:
        outcome = self.library.travel(back=True)
        if not self.undo_stack:
            assert outcome is None
            return
        assert outcome is not None and outcome.conflicts == ()
        step = self.undo_stack.pop()
        self._apply(step, back=True)
        self.redo_stack.append(step)

    @rule()
    def redo(self) -> None:
        outcome = self.library.travel(back=False)
        if not self.redo_stack:
            assert outcome is None
            return
        assert outcome is not None and outcome.conflicts == ()
        step = self.redo_stack.pop()
        self._apply(step, back=False)
        self.undo_stack.append(step)

    # -- the model -----------------------------------------------------------------------------

    def _set(self, paper_id: str, entry: Entry | None) -> None:
        if entry is None or entry.is_default:
            self.entries.pop(paper_id, None)
        else:
            self.entries[paper_id] = entry

    def _record(self, step: Step) -> None:
        self.undo_stack.append(step)
        self.redo_stack.clear()

    def _apply(self, step: Step, *, back: bool) -> None:
        target = step.before if back else step.after
        if step.positions and back:
            for position, pid in sorted((p, i) for i, p in step.positions.items()):
                if pid not in self.order:
                    self.order.insert(min(position, len(self.order)), pid)
                self.removed.discard(pid)
        elif step.positions:
            for pid in step.positions:
                self.order.remove(pid)
                self.removed.add(pid)
        for pid, entry in target.items():
            self._set(pid, entry)

    # -- what must always hold -----------------------------------------------------------------

    @invariant()
    def the_library_is_the_model(self) -> None:
        assert [paper.id for paper in self.library.papers()] == self.order
        assert dict(self.library.entries()) == self.entries
        assert all(self.library.get(pid) == BY_ID[pid] for pid in self.order)

    @invariant()
    def the_disk_is_the_model_and_nothing_is_lost(self) -> None:
        again = Library.open(self.root, seed=False)
        assert [paper.id for paper in again.papers()] == self.order
        assert dict(again.entries()) == self.entries
        path = self.root / "papers.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        removed = {doc["id"] for doc in data.get("removed", {}).values()}
        assert removed == self.removed
        assert set(self.order) | removed == self.seen


TestRemoval = RemovalMachine.TestCase
TestRemoval.settings = settings(max_examples=EXAMPLES, stateful_step_count=25)
