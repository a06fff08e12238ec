"""Three real libraries, each with a note of its own on one paper, synced pairwise in any
order and direction (a ring, a star, back and forth), then round a ring until nothing changes.
The properties: no note loses a library's text, none holds a text twice, and the three end
holding the same texts with nothing left to change.

Found by an attacker pass: round a ring A<-B<-C<-A the notes rotated forever (every sync
"1 changed"), each taking a neighbour's whole, and a library's own text dropped out of it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from synthetic import make_papers

from papershelf.storage.library.library import Library
from papershelf.storage.sync.merge import note_parts
from papershelf.storage.sync.run import sync_library

EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "30"))
NAMES = ("a", "b", "c")
PAPER = make_papers(1)[0]

pairs = st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).filter(lambda p: p[0] != p[1])


def note_texts(root: Path) -> list[str]:
    note = Library.open(root, seed=False).entry(PAPER.id).note
    return [text for _line, text in note_parts(note, "x")]


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(schedule=st.lists(pairs, max_size=8), edits=st.sets(st.sampled_from(NAMES), min_size=2))
def test_notes_round_any_schedule_lose_nothing_double_nothing_and_settle(
    schedule: list[tuple[str, str]], edits: set[str]
) -> None:
    with tempfile.TemporaryDirectory(prefix="papershelf-ring-") as raw:
        tmp = Path(raw)
        for name in NAMES:
            library = Library.open(tmp / name, seed=False)
            library.import_papers([PAPER], "seeds.txt")
            if name in edits:
                library.set_note(PAPER.id, f"note of {name}")
        ring = [("a", "b"), ("b", "c"), ("c", "a")]
        for ours, theirs in [*schedule, *ring, *ring]:
            sync_library(Library.open(tmp / ours, seed=False), tmp / theirs)
        wanted = sorted(f"note of {name}" for name in edits)
        for name in NAMES:
            assert sorted(note_texts(tmp / name)) == wanted, name
        for ours, theirs in ring:
            report = sync_library(Library.open(tmp / ours, seed=False), tmp / theirs)
            assert (report.changed, report.conflicts) == (0, ()), (ours, theirs)
        shutil.rmtree(tmp, ignore_errors=True)
