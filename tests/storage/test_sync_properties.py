"""Two real libraries in temporary directories start from a common state (one synced from the
other, then back), are changed concurrently by random sequences of operations (tags, statuses,
stars, notes, removals, imports of new papers), and are then synced both ways from the same
states. The properties:

- commutative where no conflict exists: A after `sync B` holds what B after `sync A` holds
  (papers listed, entries field by field); the conflicts found either way are the same;
- idempotent: a second sync right after the first changes nothing and reports nothing;
- convergent: B syncing back right after A synced B ends equal to A, with no conflict reported
  again (A's record of what it saw of B tells B that A merged B's changes already);
- loses nothing: every change either side made since the common start (each tag added or
  removed, each status, star and note, each removal and import) is in the result, or the
  report names a conflict on that paper and field (a removal conflict covers the whole paper).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from synthetic import make_papers

from papershelf.storage.library.library import Library
from papershelf.storage.model import STATUSES, Entry
from papershelf.storage.sync.run import SyncReport, sync_library

EXAMPLES = int(os.environ.get("PAPERSHELF_STATEFUL_EXAMPLES", "30"))
# Few papers and tags, so that the two sides often meet on one (and conflict).
POOL = make_papers(3)
EXTRA = make_papers(1, prefix="extra")
TAGS = ("a", "b")
NOTES = ("", "first thought", "second thought")
PAPERS = len(POOL) + len(EXTRA)

Op = tuple[object, ...]
operations = st.one_of(
    st.tuples(st.just("tag"), st.integers(0, PAPERS - 1), st.sampled_from(TAGS), st.booleans()),
    st.tuples(st.just("status"), st.integers(0, PAPERS - 1), st.sampled_from(STATUSES)),
    st.tuples(st.just("star"), st.integers(0, PAPERS - 1), st.booleans()),
    st.tuples(st.just("note"), st.integers(0, PAPERS - 1), st.sampled_from(NOTES)),
    st.tuples(st.just("remove"), st.integers(0, PAPERS - 1)),
    st.tuples(st.just("import"), st.integers(0, len(EXTRA) - 1)),
)


def paper_id(index: int) -> str:
    return [*POOL, *EXTRA][index].id


def apply(library: Library, op: Op) -> None:
    """One user action; actions on a paper the library does not list are skipped, as the
    app and the CLI offer none."""
    kind = op[0]
    if kind == "import":
        library.import_papers([EXTRA[op[1]]], "extra.txt")  # type: ignore[index]
        return
    pid = paper_id(op[1])  # type: ignore[arg-type]
    if not library.has(pid):
        return
    if kind == "tag":
        _, _, tag, add = op
        library.tag([pid], add=[tag] if add else [], remove=[] if add else [tag])  # type: ignore[list-item]
    elif kind == "status":
        library.set_status([pid], op[2])  # type: ignore[arg-type]
    elif kind == "star":
        library.set_starred([pid], bool(op[2]))
    elif kind == "note":
        library.set_note(pid, str(op[2]))
    elif kind == "remove":
        library.remove([pid])


@dataclass(frozen=True)
class Shot:
    """A library's papers and entries (without `updated_at`), as a second process reads them."""

    listed: frozenset[str]
    removed: frozenset[str] = field(compare=False)
    entries: dict[str, Entry]

    @classmethod
    def of(cls, root: Path) -> Shot:
        library = Library.open(root, seed=False)
        listed = frozenset(paper.id for paper in library.papers())
        raw = json.loads((root / "papers.json").read_text(encoding="utf-8"))
        removed = frozenset(record["id"] for record in raw.get("removed", {}).values())
        entries = {
            pid: replace(entry, updated_at=None)
            for pid, entry in library.entries().items()
            if not entry.is_default
        }
        return cls(listed, removed - listed, entries)

    def entry(self, pid: str) -> Entry:
        return self.entries.get(pid, Entry())


def sync(root: Path, other: Path) -> SyncReport:
    return sync_library(Library.open(root, seed=False), other)


def conflicts_of(report: SyncReport) -> set[tuple[str, str]]:
    return {(c.paper_id, c.field.field) for c in report.conflicts}


def check_reported(start: Shot, a: Shot, b: Shot, conflicts: set[tuple[str, str]]) -> None:
    """A field both sides changed since the start, to different values, is reported."""
    for pid in a.listed & b.listed & start.listed:
        before, one, two = start.entry(pid), a.entry(pid), b.entry(pid)
        for name in ("tags", "status", "starred", "note"):
            was, first, second = (getattr(e, name) for e in (before, one, two))
            if first != was and second != was and first != second:
                assert (pid, name) in conflicts, (pid, name, "conflict not reported")


def check_kept(start: Shot, side: Shot, result: Shot, conflicts: set[tuple[str, str]]) -> None:
    """Every change `side` made since `start` is in `result`, or reported as a conflict."""
    for pid in {*start.listed, *side.listed, *side.removed}:
        if (pid, "removal") in conflicts:
            continue
        was_listed, is_listed = pid in start.listed, pid in side.listed
        if was_listed and not is_listed:
            assert pid not in result.listed, f"the removal of {pid} was lost"
            continue
        if not was_listed and is_listed:
            assert pid in result.listed, f"the import of {pid} was lost"
        if not is_listed:
            continue
        before, after, got = start.entry(pid), side.entry(pid), result.entry(pid)
        # Tags never conflict away: from a common start, a tag one side added is one the
        # other cannot have removed since.
        assert after.tags - before.tags <= got.tags, (pid, "tag added lost")
        assert not (before.tags - after.tags) & got.tags, (pid, "tag removal lost")
        for name in ("status", "starred"):
            if getattr(after, name) != getattr(before, name) and (pid, name) not in conflicts:
                assert getattr(got, name) == getattr(after, name), (pid, name)
        if after.note != before.note:
            # A note both changed keeps both texts: this side's is in the result.
            assert after.note in got.note, (pid, "note lost")


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    start_ops=st.lists(operations, min_size=2, max_size=8),
    ops_a=st.lists(operations, max_size=8),
    ops_b=st.lists(operations, max_size=8),
)
# Cases every run must meet (random sequences find them only now and then): B removes a tag
# of the common start; both add tags to one paper; A removes a paper B edits; both edit one
# note; B removes a paper and imports a new one while A stars another.
@example(
    start_ops=[("tag", 0, "a", True), ("tag", 1, "b", True)],
    ops_a=[],
    ops_b=[("tag", 0, "a", False)],
)
@example(
    start_ops=[("tag", 0, "a", True), ("tag", 1, "b", True)],
    ops_a=[("tag", 1, "a", True)],
    ops_b=[("tag", 1, "b", False), ("status", 1, "read")],
)
@example(
    start_ops=[("note", 2, "first thought"), ("status", 2, "reading")],
    ops_a=[("remove", 2)],
    ops_b=[("tag", 2, "b", True)],
)
@example(
    start_ops=[("note", 2, "first thought"), ("star", 0, True)],
    ops_a=[("note", 2, "second thought"), ("star", 0, False)],
    ops_b=[("note", 2, ""), ("star", 0, False)],
)
@example(
    start_ops=[("star", 2, True), ("tag", 2, "a", True)],
    ops_a=[("note", 2, "first thought"), ("tag", 2, "b", True)],
    ops_b=[("note", 2, "second thought"), ("status", 2, "read")],
)
@example(
    start_ops=[("status", 1, "read"), ("star", 1, True)],
    ops_a=[("star", 0, True)],
    ops_b=[("remove", 1), ("import", 0), ("tag", 3, "a", True)],
)
def test_two_libraries_changed_concurrently_merge_alike_once_and_lose_nothing(
    start_ops: list[Op], ops_a: list[Op], ops_b: list[Op]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        a_root, b_root = Path(tmp, "a"), Path(tmp, "b")
        saved, saved_b = Path(tmp, "a-before"), Path(tmp, "b-before")
        first = Library.open(a_root, seed=False)
        first.import_papers(POOL, "pool.txt")
        for op in start_ops:
            apply(first, op)
        # The common start: B takes A whole, then A syncs back (nothing changes).
        sync(b_root, a_root)
        back = sync(a_root, b_root)
        assert (back.papers_in, back.changed, back.removed, back.conflicts) == (0, 0, 0, ())
        start = Shot.of(a_root)
        assert Shot.of(b_root).listed == start.listed
        assert Shot.of(b_root).entries == start.entries

        library_a = Library.open(a_root, seed=False)
        for op in ops_a:
            apply(library_a, op)
        library_b = Library.open(b_root, seed=False)
        for op in ops_b:
            apply(library_b, op)
        side_a, side_b = Shot.of(a_root), Shot.of(b_root)

        shutil.copytree(a_root, saved)
        shutil.copytree(b_root, saved_b)
        report_a = sync(a_root, b_root)
        result_a = Shot.of(a_root)
        again = sync(a_root, b_root)
        assert (again.papers_in, again.changed, again.removed, again.conflicts) == (0, 0, 0, ())
        assert Shot.of(a_root) == result_a

        # B, unchanged since A read it, syncs back: A merged B's changes already, so B takes
        # A's result whole, conflicts included, and reports none (A's record of B says what A
        # saw of B). Then the two agree: nothing more either way.
        back = sync(b_root, a_root)
        assert back.conflicts == ()
        assert Shot.of(b_root) == result_a
        for root, other in ((a_root, b_root), (b_root, a_root)):
            again = sync(root, other)
            assert (again.papers_in, again.changed, again.removed, again.conflicts) == (0, 0, 0, ())

        # B, as it was, syncs with A as A was before its sync.
        for root, copy in ((a_root, saved), (b_root, saved_b)):
            shutil.rmtree(root)
            shutil.copytree(copy, root)
        report_b = sync(b_root, a_root)
        result_b = Shot.of(b_root)
        again = sync(b_root, a_root)
        assert (again.papers_in, again.changed, again.removed, again.conflicts) == (0, 0, 0, ())

        assert conflicts_of(report_a) == conflicts_of(report_b)
        event("conflict" if report_a.conflicts else "no conflict")
        if not report_a.conflicts:
            assert result_a == result_b
        check_reported(start, side_a, side_b, conflicts_of(report_a))
        for result, report in ((result_a, report_a), (result_b, report_b)):
            found = conflicts_of(report)
            check_kept(start, side_a, result, found)
            check_kept(start, side_b, result, found)
