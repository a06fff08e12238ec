"""Applying an edited reading list: exactly the person's edits, nothing else."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from killworker import make_papers

from storage.export import ExportItem, ListedItem, to_markdown
from storage.library import Library
from storage.model import STATUSES, Entry, Paper
from storage.roundtrip import (
    Plan,
    PlannedChange,
    apply_plan,
    export_date,
    import_reading_list,
    is_reading_list,
    plan_markdown_import,
)


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(make_papers(10), "synthetic.txt")
    p = ids(library)
    library.tag(p[0], add=["to-read", "gnn"])
    library.tag(p[1], add=["to-read"])
    library.set_status(p[1], "reading")
    library.tag(p[2], add=["done"])
    library.set_status(p[2], "read")
    library.set_starred(p[3], True)
    library.set_note(p[3], "keep me")
    library.tag(p[4], add=["later"])
    return library


def ids(library: Library) -> list[str]:
    return [paper.id for paper in library.papers()]


def export_all(library: Library, today: date | None = None) -> str:
    items = [ExportItem(paper, library.entry(paper.id)) for paper in library.papers()]
    return to_markdown(items, title="Reading list", today=today or date.today())


def edit_line(text: str, paper_id: str, edit) -> str:
    """Apply `edit` to the item line of `paper_id` (None drops the line)."""
    lines = []
    for line in text.split("\n"):
        if f"papershelf:{paper_id} " in line:
            line = edit(line)
            if line is None:
                continue
        lines.append(line)
    return "\n".join(lines)


def content(entries) -> dict[str, Entry]:
    return {pid: replace(entry, updated_at=None) for pid, entry in entries.items()}


def tick(line: str) -> str:
    return line.replace("- [ ]", "- [x]", 1)


def untick(line: str) -> str:
    return line.replace("- [x]", "- [ ]", 1)


def add_tag(tag: str):
    return lambda line: line.replace(" <!--", f" #{tag} <!--", 1)


def drop_tag(tag: str):
    return lambda line: line.replace(f" #{tag}", "", 1)


def test_export_edit_import_changes_exactly_the_edits(lib: Library, tmp_path: Path):
    p = ids(lib)
    text = export_all(lib)
    text = edit_line(text, p[1], tick)
    text = edit_line(text, p[2], untick)  # never un-reads
    text = edit_line(text, p[0], lambda line: add_tag("Later")(drop_tag("gnn")(line)))
    text = edit_line(text, p[4], lambda line: None)  # a removed item changes nothing
    text = edit_line(text, p[5], add_tag("new-tag"))
    path = tmp_path / "reading-list.md"
    path.write_text(text, encoding="utf-8")
    before = dict(lib.entries())
    papers_bytes = (lib.root / "papers.json").read_bytes()

    report = import_reading_list(lib, path)

    assert report.changed == 3
    assert sorted(report.plan.summary_lines()) == [
        "MethodPaper0: +later -gnn",
        "MethodPaper1: read",
        "MethodPaper5: +new-tag",
    ]
    assert report.plan.unchanged == 6 and report.plan.unknown == ()
    after = dict(lib.entries())
    assert after[p[0]].tags == {"to-read", "later"}
    assert after[p[1]].status == "read" and after[p[1]].tags == {"to-read"}
    assert after[p[5]].tags == {"new-tag"}
    for paper_id in set(before) | set(after):
        if paper_id not in (p[0], p[1], p[5]):
            assert after.get(paper_id) == before.get(paper_id), paper_id  # updated_at too
    assert (lib.root / "papers.json").read_bytes() == papers_bytes
    assert dict(Library.open(lib.root, seed=False).entries()) == after

    # One undo step takes it all back; a second import of the same list is a no-op.
    assert lib.undo() == "import reading-list.md"
    assert dict(lib.entries()) == before
    assert import_reading_list(lib, path).changed == 3
    assert import_reading_list(lib, path).changed == 0
    assert content(lib.entries()) == content(after)


def test_an_untouched_export_changes_nothing(lib: Library, tmp_path: Path):
    path = tmp_path / "list.md"
    path.write_text(export_all(lib))
    state_bytes = (lib.root / "state.json").read_bytes()
    report = import_reading_list(lib, path)
    assert report.changed == 0 and report.plan.changes == ()
    assert report.plan.unchanged == 10
    assert (lib.root / "state.json").read_bytes() == state_bytes
    assert lib.undo_description == "tag +later on MethodPaper4"  # no step was added


def test_tags_removed_after_a_later_change_are_kept(lib: Library, tmp_path: Path):
    p = ids(lib)
    old = export_all(lib, today=date(2020, 1, 1))  # the papers changed "after" this export
    assert export_date(old) == date(2020, 1, 1)
    path = tmp_path / "old.md"
    path.write_text(edit_line(old, p[0], drop_tag("gnn")))
    report = import_reading_list(lib, path)
    assert report.changed == 0
    assert report.plan.summary_lines() == [
        "MethodPaper0: kept #gnn (changed in papershelf after the export)"
    ]
    assert lib.entry(p[0]).tags == {"to-read", "gnn"}


def test_unknown_ids_and_items_without_ids_are_reported(lib: Library, tmp_path: Path):
    text = export_all(lib)
    text += "\n- [x] **Ghost** <!-- papershelf:ffffffffffff -->\n- [x] a box without an id\n"
    path = tmp_path / "list.md"
    path.write_text(text)
    report = import_reading_list(lib, path)
    assert report.plan.unknown == ("ffffffffffff",)
    assert len(report.plan.unmatched) == 1
    assert report.changed == 0


def test_which_files_are_reading_lists(tmp_path: Path, lib: Library):
    listing = tmp_path / "list.md"
    listing.write_text(export_all(lib))
    other_md = tmp_path / "notes.md"
    other_md.write_text("Venue 2025\n\nWe propose a thing that works well on everything.\n")
    text_file = tmp_path / "list.txt"
    text_file.write_text(export_all(lib))
    upper = tmp_path / "LIST.MARKDOWN"
    upper.write_text(export_all(lib))
    assert is_reading_list(listing) and is_reading_list(upper)
    assert not is_reading_list(other_md)
    assert not is_reading_list(text_file)
    assert not is_reading_list(tmp_path / "missing.md")


def test_export_date_only_from_the_header():
    assert export_date("# T\n\nExported 2025-06-01 · 3 papers\n") == date(2025, 6, 1)
    assert export_date("# T\n\nExported 2025-13-01 · 3 papers\n") is None
    assert export_date("# T\n\nno date here\n") is None


def test_planned_change_summary_and_apply():
    change = PlannedChange(
        "id", "RelGNN", read=True, add=frozenset({"later"}), remove=frozenset({"to-read"})
    )
    assert change.summary() == "RelGNN: read; +later -to-read"
    entry = Entry(tags=frozenset({"to-read", "x"}), status="reading", starred=True, note="n")
    assert change.apply(entry) == Entry(frozenset({"later", "x"}), "read", True, "n")


@dataclass
class FakeLibrary:
    """Just what planning reads from a Library."""

    papers_: list[Paper]
    state: dict[str, Entry] = field(default_factory=dict)

    def papers(self) -> list[Paper]:
        return self.papers_

    def entry(self, paper_id: str) -> Entry:
        return self.state.get(paper_id, Entry())

    def get(self, paper_id: str) -> Paper:
        return next(paper for paper in self.papers_ if paper.id == paper_id)


TAG = st.sampled_from(["a", "b", "c", "to-read"])
ENTRY = st.builds(
    Entry,
    tags=st.frozensets(TAG, max_size=3),
    status=st.sampled_from(STATUSES),
    updated_at=st.sampled_from([None, "2025-01-01T00:00:00Z", "2025-03-01T00:00:00Z"]),
)
PAPERS = make_papers(6)


@given(
    state=st.lists(ENTRY, min_size=6, max_size=6),
    listed=st.dictionaries(
        st.integers(0, 5), st.tuples(st.booleans(), st.frozensets(TAG, max_size=3)), max_size=6
    ),
    exported=st.sampled_from([None, date(2025, 2, 1)]),
)
def test_plan_reaches_the_list_and_touches_nothing_else(state, listed, exported):
    library = FakeLibrary(PAPERS, {paper.id: e for paper, e in zip(PAPERS, state, strict=True)})
    items = [
        ListedItem(PAPERS[i].id, checked, tags, i + 1) for i, (checked, tags) in listed.items()
    ]
    plan = plan_markdown_import(library, items, exported_on=exported)  # type: ignore[arg-type]
    assert isinstance(plan, Plan)
    result = dict(library.state)
    for change in plan.to_change:
        result[change.paper_id] = change.apply(result[change.paper_id])
    for i, paper in enumerate(PAPERS):
        old, new = library.state[paper.id], result[paper.id]
        if i not in listed:
            assert new == old
            continue
        checked, tags = listed[i]
        stale = exported is not None and (old.updated_at or "")[:10] > exported.isoformat()
        assert new.tags == (old.tags | tags if stale else tags)
        assert new.status == ("read" if checked else old.status)
        assert (new.starred, new.note) == (old.starred, old.note)
    assert plan.unchanged + len(plan.changes) == len(listed)


def test_apply_of_an_empty_plan_writes_nothing(lib: Library):
    state_bytes = (lib.root / "state.json").read_bytes()
    assert apply_plan(lib, Plan((), 0)) == 0
    assert (lib.root / "state.json").read_bytes() == state_bytes
