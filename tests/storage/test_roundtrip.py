"""Applying an edited reading list: exactly the person's edits, nothing else."""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic import ids, make_papers, synthetic_library

from papershelf.storage.export.markdown import ExportItem, ListedItem, to_markdown
from papershelf.storage.export.roundtrip import (
    Plan,
    PlannedChange,
    apply_plan,
    export_date,
    import_reading_list,
    is_reading_list,
    plan_markdown_import,
)
from papershelf.storage.library.journal import JournalStore
from papershelf.storage.library.library import Library
from papershelf.storage.model import STATUSES, Entry


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = synthetic_library(tmp_path / "lib", 10)
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
    assert (
        JournalStore(lib.root).peek().undo[-1].description == "tag +later on MethodPaper4"
    )  # no step was added


def old_format(text: str) -> str:
    """The list as papershelf wrote it before the id comment recorded the exported tags."""
    plain = re.sub(r"(<!-- papershelf:\w+) tags=\S* -->", r"\1 -->", text)
    assert plain != text and "tags=" not in plain
    return plain


def test_the_export_records_the_tags_it_wrote(lib: Library):
    p = ids(lib)
    (line,) = [line for line in export_all(lib).split("\n") if f"papershelf:{p[0]} " in line]
    assert line.endswith(f"#gnn #to-read <!-- papershelf:{p[0]} tags=gnn,to-read -->")


def test_a_tag_added_after_the_export_is_kept(lib: Library, tmp_path: Path):
    # Issue #10, item 4: export, tag in papershelf, tick the box, import.
    p = ids(lib)
    text = export_all(lib)
    lib.tag(p[0], add=["later"])
    path = tmp_path / "l.md"
    path.write_text(edit_line(text, p[0], tick))
    report = import_reading_list(lib, path)
    assert report.plan.summary_lines() == ["MethodPaper0: read"]
    assert lib.entry(p[0]).tags == {"to-read", "gnn", "later"}
    assert lib.entry(p[0]).status == "read"


def test_a_comment_an_editor_moved_to_its_own_line_keeps_the_items_tags(
    lib: Library, tmp_path: Path
):
    # An editor's re-wrap put the comment under the item: its tags are still on the item.
    p = ids(lib)
    text = edit_line(export_all(lib), p[0], lambda line: tick(line).replace(" <!--", "\n  <!--"))
    path = tmp_path / "l.md"
    path.write_text(text)
    report = import_reading_list(lib, path)
    assert report.plan.summary_lines() == ["MethodPaper0: read"]
    assert report.plan.unmatched == ()
    assert lib.entry(p[0]).tags == {"to-read", "gnn"}


def test_a_tag_removed_after_the_export_is_not_put_back(lib: Library, tmp_path: Path):
    p = ids(lib)
    text = export_all(lib)
    lib.tag(p[0], remove=["gnn"])
    path = tmp_path / "l.md"
    path.write_text(text)
    report = import_reading_list(lib, path)
    assert (report.changed, report.plan.changes) == (0, ())
    assert lib.entry(p[0]).tags == {"to-read"}


def test_a_tag_deleted_from_the_line_goes_however_late_the_paper_changed(
    lib: Library, tmp_path: Path
):
    p = ids(lib)
    text = export_all(lib, today=date(2020, 1, 1))  # the paper changed "after" this export
    lib.set_starred(p[0], True)
    path = tmp_path / "l.md"
    path.write_text(edit_line(text, p[0], drop_tag("gnn")))
    report = import_reading_list(lib, path)
    assert report.plan.summary_lines() == ["MethodPaper0: -gnn"]
    assert lib.entry(p[0]).tags == {"to-read"} and lib.entry(p[0]).starred


def test_a_mangled_tag_record_is_read_as_no_record(lib: Library, tmp_path: Path):
    p = ids(lib)
    text = export_all(lib).replace(f"papershelf:{p[0]} tags=gnn,to-read", f"papershelf:{p[0]} x y")
    path = tmp_path / "l.md"
    path.write_text(edit_line(text, p[0], drop_tag("gnn")))
    report = import_reading_list(lib, path)
    assert report.changed == 0 and report.plan.unknown == report.plan.unmatched == ()
    assert lib.entry(p[0]).tags == {"to-read", "gnn"}


UPDATED = "2025-06-10T23:30:00Z"


@pytest.mark.parametrize(
    ("exported_on", "removed"),
    [
        (date(2025, 6, 12), True),  # the change is two UTC days older than the export's day
        (date(2025, 6, 11), False),  # a day apart: east of UTC, the export may be the older one
        (date(2025, 6, 10), False),  # the same day
        (date(2020, 1, 1), False),  # the paper changed after the export
        (None, False),  # no `Exported` line: the list could be of any age
    ],
)
def test_an_old_list_removes_a_tag_only_when_the_paper_surely_changed_before_it(
    lib: Library, tmp_path: Path, exported_on: date | None, removed: bool
):
    p = ids(lib)
    lib.restore({p[0]: replace(lib.entry(p[0]), updated_at=UPDATED)})
    text = old_format(export_all(lib, today=exported_on or date(2025, 6, 12)))
    if exported_on is None:
        text = re.sub(r"(?m)^Exported .*$", "", text)
    path = tmp_path / "old.md"
    path.write_text(edit_line(text, p[0], lambda line: add_tag("new")(drop_tag("gnn")(line))))
    report = import_reading_list(lib, path)
    assert lib.entry(p[0]).tags == ({"to-read", "new"} if removed else {"to-read", "gnn", "new"})
    expected = (
        "MethodPaper0: +new -gnn"
        if removed
        else "MethodPaper0: +new; kept #gnn (the paper may have changed in papershelf since "
        "the export)"
    )
    assert report.plan.summary_lines() == [expected]


def test_an_old_list_keeps_the_tags_of_an_entry_with_no_change_time(lib: Library, tmp_path: Path):
    p = ids(lib)
    lib.restore({p[0]: replace(lib.entry(p[0]), updated_at=None)})
    text = old_format(export_all(lib, today=date(2030, 1, 1)))
    path = tmp_path / "old.md"
    path.write_text(edit_line(text, p[0], drop_tag("gnn")))
    assert import_reading_list(lib, path).changed == 0
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


TAG = st.sampled_from(["a", "b", "c", "to-read", "x-y"])
TAGS = st.frozensets(TAG, max_size=4)
# With authors and titles that look like list syntax: the details paragraph the export writes
# under each item (title, authors) must never be read back as an item, a box or a tag.
HOSTILE_AUTHORS = ("Ann #to-read Lee", "- [x] Bob", "<!-- papershelf:0123456789ab -->", "C. Dee")
PAPERS = [
    replace(paper, title=f"Title [ ] #x of {paper.name}", authors=HOSTILE_AUTHORS[: i + 1])
    for i, paper in enumerate(make_papers(5))
]


@st.composite
def round_trips(draw: st.DrawFn) -> dict[str, object]:
    """Per paper: its state at the export, what papershelf changed since, what the person did."""
    papers = []
    for _ in PAPERS:
        exported = draw(TAGS)
        papers.append(
            {
                "exported": exported,
                "status": draw(st.sampled_from(STATUSES)),
                "listed": draw(st.booleans()),
                "shelf_add": draw(TAGS),
                "shelf_remove": draw(TAGS),
                "deleted": draw(st.frozensets(st.sampled_from(sorted(exported))))
                if exported
                else frozenset(),
                "added": draw(TAGS) - exported,
                "tick": draw(st.booleans()),
            }
        )
    return {
        "papers": papers,
        "old_day": draw(st.sampled_from([None, date(2020, 1, 1)])),
        # An editor that re-wraps long lines (Vim's `gq`, Emacs' fill) at this width, or None.
        "wrap": draw(st.none() | st.integers(10, 90)),
    }


def rewrap(line: str, width: int) -> str:
    """`line` as an editor re-wraps it at `width`: the comment may land on a line of its own
    (it is kept whole: a comment split across lines is no longer papershelf's)."""
    comment = line[line.index("<!--") :]
    head = line[: line.index("<!--")] + comment.replace(" ", "\0")
    wrapped = textwrap.fill(
        head, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )
    return wrapped.replace("\0", " ")


def edit_tags(line: str, deleted: frozenset[str], added: frozenset[str], tick_it: bool) -> str:
    """The item line as a person edits it: tags deleted and added, the box maybe ticked."""
    words = [word for word in line.split(" ") if word.lstrip("#") not in deleted or word[:1] != "#"]
    at = next(i for i, word in enumerate(words) if word == "<!--")
    words[at:at] = [f"#{tag}" for tag in sorted(added)]
    line = " ".join(words)
    return tick(line) if tick_it else line


def test_a_round_trip_changes_exactly_the_persons_edits(tmp_path: Path):
    """Through the real Library: export, change tags in papershelf, edit the file, import.

    Every tag the person deleted from a line is gone, every tag they added is there, every other
    tag is as papershelf has it now; a ticked box means read; nothing else changes.
    """
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(PAPERS, "synthetic.txt")
    path = tmp_path / "list.md"
    ids_ = [paper.id for paper in PAPERS]

    @given(case=round_trips())
    def check(case: dict) -> None:
        papers = case["papers"]
        at_export = {
            pid: Entry(tags=c["exported"], status=c["status"], note=f"n{i}")
            for i, (pid, c) in enumerate(zip(ids_, papers, strict=True))
        }
        library.replace_all_entries(at_export)
        listed = [pid for pid, c in zip(ids_, papers, strict=True) if c["listed"]]
        items = [ExportItem(library.get(pid), library.entry(pid)) for pid in listed]
        text = to_markdown(items, title="t", today=date.today())
        # Each item's details name its authors after the title.
        assert text.count("* — Lee") == len(listed)
        now = {}
        for pid, c in zip(ids_, papers, strict=True):
            tags = (c["exported"] | c["shelf_add"]) - c["shelf_remove"]
            now[pid] = replace(library.entry(pid), tags=tags)
        library.edit({pid: lambda _e, e=e: e for pid, e in now.items()}, "papershelf changes")
        before = dict(library.entries())
        for pid, c in zip(ids_, papers, strict=True):
            text = edit_line(
                text, pid, lambda line, c=c: edit_tags(line, c["deleted"], c["added"], c["tick"])
            )
            if case["wrap"] is not None:
                text = edit_line(text, pid, lambda line: rewrap(line, case["wrap"]))
        path.write_text(text)

        import_reading_list(library, path)

        for pid, c in zip(ids_, papers, strict=True):
            old, new = before.get(pid, Entry()), library.entry(pid)
            if pid not in listed:
                assert new == old
                continue
            expected = (old.tags - c["deleted"]) | c["added"]
            assert new.tags == expected, c
            assert new.status == ("read" if c["tick"] else old.status)
            assert (new.starred, new.note) == (old.starred, old.note)

    check()


def test_planning_touches_only_listed_papers_and_never_removes_a_tag_it_cannot_know(
    tmp_path: Path,
):
    """The planning rule for lists with and without a tag record, on a real Library."""
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(PAPERS, "synthetic.txt")
    entry = st.builds(
        Entry,
        tags=TAGS,
        status=st.sampled_from(STATUSES),
        updated_at=st.sampled_from([None, "2025-01-01T00:00:00Z", "2025-03-01T00:00:00Z"]),
    )

    @given(
        state=st.lists(entry, min_size=len(PAPERS), max_size=len(PAPERS)),
        listed=st.dictionaries(
            st.integers(0, len(PAPERS) - 1),
            st.tuples(st.booleans(), TAGS, st.none() | TAGS),
            max_size=len(PAPERS),
        ),
        exported=st.sampled_from([None, date(2025, 2, 1)]),
    )
    def check(state, listed, exported) -> None:
        library.replace_all_entries(
            {paper.id: e for paper, e in zip(PAPERS, state, strict=True) if not e.is_default}
        )
        old_state = {paper.id: library.entry(paper.id) for paper in PAPERS}
        items = [
            ListedItem(PAPERS[i].id, checked, tags, i + 1, record)
            for i, (checked, tags, record) in listed.items()
        ]
        plan = plan_markdown_import(library, items, exported_on=exported)
        apply_plan(library, plan)
        for i, paper in enumerate(PAPERS):
            old, new = old_state[paper.id], library.entry(paper.id)
            if i not in listed:
                assert new == old
                continue
            checked, tags, record = listed[i]
            if record is not None:
                assert new.tags == (old.tags - (record - tags)) | (tags - record)
            else:
                surely_older = exported is not None and (old.updated_at or "9")[:10] < "2025-01-31"
                assert new.tags == (tags if surely_older else old.tags | tags)
            assert new.status == ("read" if checked else old.status)
            assert (new.starred, new.note) == (old.starred, old.note)
        assert plan.unchanged + len(plan.changes) == len(listed)

    check()


def test_apply_of_an_empty_plan_writes_nothing(lib: Library):
    state_bytes = (lib.root / "state.json").read_bytes()
    assert apply_plan(lib, Plan((), 0)) == 0
    assert (lib.root / "state.json").read_bytes() == state_bytes
