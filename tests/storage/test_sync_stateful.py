"""Two libraries changed and synced in any order, many rounds (a hypothesis state machine over
real Library objects in temporary directories): every sync is idempotent (syncing again at once
changes and reports nothing), and a sync straight back after a sync leaves the two libraries
holding the same papers and entries, with no conflict reported a second time. This runs the
paths a single round does not: bases of earlier syncs, each side's record of what it saw of the
other (`peers.their_view`), papers removed and brought back over several rounds."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule
from synthetic import make_papers
from test_sync_properties import POOL, Shot, apply, operations

from papershelf.storage.library.library import Library
from papershelf.storage.sync.run import SyncReport, sync_library

# Each step opens and syncs real libraries (fsync and all): fewer runs than other machines.
EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "30")) // 2
SIDES = ("a", "b")


def quiet(report: SyncReport) -> bool:
    return (report.papers_in, report.changed, report.removed, report.conflicts) == (0, 0, 0, ())


class TwoLibraries(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.roots = {side: Path(self.tmp.name, side) for side in SIDES}

    def teardown(self) -> None:
        self.tmp.cleanup()

    @initialize(copy_whole=st.booleans())
    def start(self, copy_whole: bool) -> None:
        first = Library.open(self.roots["a"], seed=False)
        first.import_papers(POOL, "pool.txt")
        first.tag([POOL[0].id], add=["a"])
        if copy_whole:
            # A second machine started as a copy of the first (sync.json and all, once there
            # is one): the first sync between them must still be right.
            other = Library.open(Path(self.tmp.name, "c"), seed=False)
            other.import_papers(make_papers(1, prefix="third"), "third.txt")
            sync_library(first, other.root)
            shutil.copytree(self.roots["a"], self.roots["b"])
        else:
            # The other machine starts empty and takes everything from the first.
            sync_library(Library.open(self.roots["b"], seed=False), self.roots["a"])
        self.last: tuple[str, str] | None = None

    def library(self, side: str) -> Library:
        return Library.open(self.roots[side], seed=False)

    @rule(side=st.sampled_from(SIDES), ops=st.lists(operations, min_size=1, max_size=4))
    def change(self, side: str, ops: list) -> None:
        library = self.library(side)
        for op in ops:
            apply(library, op)
        self.last = None

    @rule(side=st.sampled_from(SIDES))
    def sync(self, side: str) -> None:
        other = "b" if side == "a" else "a"
        report = sync_library(self.library(side), self.roots[other])
        assert quiet(sync_library(self.library(side), self.roots[other])), "not idempotent"
        if self.last == (other, side):
            # Straight back after the other side merged us: we take its result, no conflict.
            assert report.conflicts == (), report.conflicts
            mine, theirs = Shot.of(self.roots[side]), Shot.of(self.roots[other])
            assert mine == theirs
            assert quiet(sync_library(self.library(other), self.roots[side]))
        self.last = (side, other)

    @rule(side=st.sampled_from(SIDES))
    def round_trip(self, side: str) -> None:
        """Sync, then sync straight back: the second finds no conflict and both agree."""
        self.sync(side)
        self.sync("b" if side == "a" else "a")


TwoLibraries.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=10, deadline=None
)
test_two_libraries_in_many_rounds = TwoLibraries.TestCase
