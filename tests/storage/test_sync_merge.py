"""The three-way merge of one entry (`storage.sync.merge`), the record of the last agreement
(`storage.sync.peers`), and a sync's journal step (`Step.added`) read back and undone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from synthetic import make_papers, synthetic_library

from papershelf.storage.ingest.limits import MAX_AUTHORS, MAX_TITLE_CHARS
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS
from papershelf.storage.library.journal import Step
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry
from papershelf.storage.sync.merge import change_times, merge_entry
from papershelf.storage.sync.peers import SYNC_FILE, load_base, own_id, save_base, side
from papershelf.storage.sync.run import sync_library


def entry(*tags: str, **fields: object) -> Entry:
    return Entry(tags=frozenset(tags), **fields)  # type: ignore[arg-type]


def test_their_change_is_applied_to_ours_and_ours_stays() -> None:
    base = entry("a", "b")
    ours = entry("a", "b", status="reading")
    theirs = entry("a", "c", note="theirs")  # removed b, added c, wrote a note
    merged, conflicts = merge_entry(ours, base, theirs, base, "desktop")
    assert merged.tags == {"a", "c"}
    assert (merged.status, merged.note) == ("reading", "theirs")
    assert conflicts == []


def test_a_value_they_have_not_pulled_is_not_taken_for_their_change() -> None:
    # We tagged #new after the last sync took place on their side only: our base has it,
    # theirs does not (they never saw it). Their side did not remove it.
    ours = entry("new", "old")
    merged, conflicts = merge_entry(ours, entry("new", "old"), entry("old"), entry("old"), "x")
    assert merged.tags == {"new", "old"} and conflicts == []
    # Idempotent: merging the same again changes nothing.
    again, _ = merge_entry(merged, merged, entry("old"), entry("old"), "x")
    assert again == merged


def test_both_changed_tags_keep_both_additions_minus_both_removals_and_are_reported() -> None:
    base = entry("a", "b")
    merged, conflicts = merge_entry(entry("a", "x"), base, entry("b", "y"), base, "desktop")
    assert merged.tags == {"x", "y"}
    assert [(c.field, c.ours, c.theirs, c.kept) for c in conflicts] == [
        ("tags", "#a #x", "#b #y", "both")
    ]


def test_both_changed_notes_keep_both_texts_and_an_emptied_note_keeps_the_other() -> None:
    base = entry(note="draft")
    merged, conflicts = merge_entry(entry(note="mine"), base, entry(note="theirs"), base, "desk")
    assert merged.note == "mine\n\n--- from desk ---\ntheirs"
    assert [c.kept for c in conflicts] == ["both"]
    merged, conflicts = merge_entry(entry(note=""), base, entry(note="theirs"), base, "desk")
    assert merged.note == "theirs" and [c.kept for c in conflicts] == ["theirs"]
    merged, conflicts = merge_entry(entry(note="mine"), base, entry(note=""), base, "desk")
    assert merged.note == "mine" and [c.kept for c in conflicts] == ["ours"]


def test_two_notes_too_long_together_keep_ours_and_say_so() -> None:
    base = entry(note="draft")
    ours, theirs = entry(note="o" * 15_000), entry(note="t" * 15_000)
    merged, conflicts = merge_entry(ours, base, theirs, base, "desk")
    assert merged.note == ours.note
    assert [c.kept for c in conflicts] == ["ours: both together are over 20,000 characters"]


def test_status_and_star_take_the_newer_change_and_report_both() -> None:
    early, late = "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"
    ours = entry(status="read", starred=True, updated_at=early)
    theirs = entry(status="reading", starred=False, updated_at=late)
    base = entry(status="unread", starred=False)
    base_theirs = entry(status="unread", starred=True)
    merged, conflicts = merge_entry(ours, base, theirs, base_theirs, "x")
    assert (merged.status, merged.starred, merged.updated_at) == ("reading", False, late)
    assert [(c.field, c.ours, c.theirs, c.kept) for c in conflicts] == [
        ("status", "read", "reading", "theirs, the newer"),
        ("starred", "starred", "not starred", "theirs, the newer"),
    ]
    # The other way round, the same values win: the merge is the same both ways.
    back, _ = merge_entry(theirs, base_theirs, ours, base, "x")
    assert (back.status, back.starred) == ("reading", False)


def test_a_field_s_own_change_time_decides_not_the_entry_s_last_change() -> None:
    # Ours changed status early and tags late (updated_at is late); theirs changed status
    # in between: theirs is the newer status change.
    base = Entry()
    ours = entry("late", status="read", updated_at="2026-03-01T12:00:00Z")
    theirs = entry(status="reading", updated_at="2026-03-01T11:00:00Z")
    steps = [
        Step("status read on X", {"p": None}, {"p": entry(status="read")}, "2026-03-01T10:00:00Z"),
        Step("tag +late on X", {"p": entry(status="read")}, {"p": ours}, "2026-03-01T12:00:00Z"),
    ]
    times = change_times(steps)
    assert times == {"p": {"status": "2026-03-01T10:00:00Z", "tags": "2026-03-01T12:00:00Z"}}
    merged, conflicts = merge_entry(ours, base, theirs, base, "x", (times["p"], {}))
    assert merged.status == "reading"
    assert [c.kept for c in conflicts if c.field == "status"] == ["theirs, the newer"]
    # By the entries' updated_at alone, ours would have won.
    merged, _ = merge_entry(ours, base, theirs, base, "x")
    assert merged.status == "read"


def test_the_record_reads_back_and_a_damaged_one_is_an_empty_base_with_a_notice(
    tmp_path: Path,
) -> None:
    ours = side({"p1": entry("a")}, ["p1", "p2"], ["p3"])
    theirs = side({"p1": entry("b"), "p2": Entry()}, ["p1"], [])
    save_base(tmp_path, "/else/where", ours, theirs, "their-id")
    base, problem = load_base(tmp_path, "/else/where")
    assert problem is None
    assert (base.ours, base.theirs, base.peer_id) == (ours, theirs, "their-id")
    assert base.theirs.entries == {"p1": entry("b")}  # default entries are not kept
    assert load_base(tmp_path, "/never/synced")[0].synced_at is None

    record = json.loads((tmp_path / SYNC_FILE).read_text(encoding="utf-8"))
    record["peers"]["/else/where"]["ours"]["listed"] = "p1"
    (tmp_path / SYNC_FILE).write_text(json.dumps(record), encoding="utf-8")
    base, problem = load_base(tmp_path, "/else/where")
    assert base.synced_at is None
    assert problem is not None and "is damaged for /else/where" in problem
    (tmp_path / SYNC_FILE).write_bytes(b"\x00garbage")
    base, problem = load_base(tmp_path, "/else/where")
    assert base.synced_at is None and problem is not None and "is damaged" in problem


def test_a_sync_step_reads_back_from_the_journal_and_undo_takes_its_papers_out(
    tmp_path: Path,
) -> None:
    ours = synthetic_library(tmp_path / "ours", 2)
    theirs = synthetic_library(tmp_path / "theirs", 2)
    extra = make_papers(2, prefix="new")
    theirs.import_papers(extra, "new.txt")
    theirs.tag([extra[1].id], add=["fresh"])
    report = sync_library(ours, tmp_path / "theirs")
    assert (report.papers_in, report.changed) == (2, 0)

    journal = json.loads((tmp_path / "ours" / "journal.json").read_text(encoding="utf-8"))
    step = Step.from_json(journal["undo"][-1])
    assert list(step.added) == [paper.id for paper in extra]
    assert step.to_json() == journal["undo"][-1]

    reopened = Library.open(tmp_path / "ours", seed=False)
    assert reopened.undo() == "sync with theirs"
    assert len(reopened.papers()) == 2 and reopened.entry(extra[1].id) == Entry()
    again = Library.open(tmp_path / "ours", seed=False)
    assert again.redo() == "sync with theirs"
    assert [paper.id for paper in again.papers()][2:] == [paper.id for paper in extra]
    assert again.entry(extra[1].id).tags == {"fresh"}


def test_a_library_copied_whole_gets_its_own_id_at_its_first_sync(tmp_path: Path) -> None:
    first = synthetic_library(tmp_path / "first", 2)
    synthetic_library(tmp_path / "other", 1)
    sync_library(first, tmp_path / "other")
    shutil.copytree(tmp_path / "first", tmp_path / "copy")
    assert own_id(tmp_path / "copy") == own_id(tmp_path / "first") is not None
    sync_library(Library.open(tmp_path / "copy", seed=False), tmp_path / "first")
    assert own_id(tmp_path / "copy") not in (None, own_id(tmp_path / "first"))


def test_a_note_that_holds_the_other_side_s_text_already_is_not_merged_again() -> None:
    # Found by an attacker pass: B synced from A after A had merged B's note (B had never
    # synced, so A's record could not name it), and a sync repeated after its record was lost
    # (kill -9 before sync.json): each time theirs was appended again, and a note grew past
    # the limit kept ours only, so the two never agreed.
    base = Entry()
    merged_there = "note from A\n\n--- from B ---\nnote from B"
    merged, conflicts = merge_entry(
        entry(note="note from B"), base, entry(note=merged_there), base, "A"
    )
    assert merged.note == merged_there and conflicts == []
    merged, conflicts = merge_entry(
        entry(note=merged_there), base, entry(note="note from B"), base, "B"
    )
    assert merged.note == merged_there and conflicts == []
    # Theirs holds all of ours (in another order): theirs is the merge.
    three = merged_there + "\n\n--- from C ---\nnote from C"
    ours = "note from B\n\n--- from A ---\nnote from A"
    merged, conflicts = merge_entry(entry(note=ours), base, entry(note=three), base, "C")
    assert merged.note == three and conflicts == []
    # Only what is new to us comes in, under its own line.
    ours += "\n\n--- from D ---\nnote from D"
    merged, conflicts = merge_entry(entry(note=ours), base, entry(note=three), base, "C")
    assert merged.note == ours + "\n\n--- from C ---\nnote from C"
    assert [c.kept for c in conflicts] == ["both"]
    # A long note they extended: theirs holds ours whole, so it is taken, not refused.
    long = "x" * 15_000
    merged, conflicts = merge_entry(
        entry(note=long), base, entry(note=long + "\n\n--- from B ---\nmore"), base, "B"
    )
    assert merged.note == long + "\n\n--- from B ---\nmore" and conflicts == []


def test_a_hostile_library_name_cannot_forge_lines_in_a_merged_note() -> None:
    merged, _ = merge_entry(entry(note="a"), Entry(), entry(note="b"), Entry(), "x ---\n\x1b[2Jy")
    assert merged.note.count("\n") == 3 and "\x1b" not in merged.note


def test_a_sync_repeated_after_its_record_was_lost_adds_no_text(tmp_path: Path) -> None:
    ours = synthetic_library(tmp_path / "ours", 2)
    theirs = synthetic_library(tmp_path / "theirs", 2)
    pid = ours.papers()[0].id
    ours.set_note(pid, "mine")
    theirs.set_note(pid, "yours")
    sync_library(ours, tmp_path / "theirs")
    note = Library.open(tmp_path / "ours", seed=False).entry(pid).note
    assert note == "mine\n\n--- from theirs ---\nyours"
    (tmp_path / "ours" / SYNC_FILE).unlink()  # as a kill -9 between state.json and sync.json
    report = sync_library(Library.open(tmp_path / "ours", seed=False), tmp_path / "theirs")
    assert Library.open(tmp_path / "ours", seed=False).entry(pid).note == note
    assert report.changed == 0 and report.conflicts == ()


def test_their_edit_of_their_note_keeps_the_text_of_ours_they_never_saw() -> None:
    # Found by an attacker pass: A noted "note A", B "note B"; A synced from B (both kept);
    # B, not having synced back, edited its note; A's next sync took B's edit whole and
    # "note A" was gone from both libraries.
    merged_here = "note A\n\n--- from B ---\nnote B"
    merged, conflicts = merge_entry(
        entry(note=merged_here),
        entry(note=merged_here),
        entry(note="note B, edited"),
        entry(note="note B"),
        "B",
    )
    assert merged.note == "note A\n\n--- from B ---\nnote B, edited" and conflicts == []
    # A note of ours they never saw at all, and they wrote their first.
    merged, _ = merge_entry(
        entry(note="mine"), entry(note="mine"), entry(note="theirs"), Entry(), "B"
    )
    assert merged.note == "mine\n\n--- from B ---\ntheirs"
    # An edit of a note they had seen whole is taken as it is (emptied too).
    for edited in ("rewritten", ""):
        merged, conflicts = merge_entry(
            entry(note="same"), entry(note="same"), entry(note=edited), entry(note="same"), "B"
        )
        assert merged.note == edited and conflicts == []


def test_a_note_edited_on_the_other_side_after_a_merge_loses_nothing(tmp_path: Path) -> None:
    ours = synthetic_library(tmp_path / "ours", 2)
    theirs = synthetic_library(tmp_path / "theirs", 2)
    pid = ours.papers()[0].id
    ours.set_note(pid, "note A")
    theirs.set_note(pid, "note B")
    sync_library(ours, tmp_path / "theirs")
    theirs.set_note(pid, "note B, edited")
    sync_library(Library.open(tmp_path / "ours", seed=False), tmp_path / "theirs")
    note = Library.open(tmp_path / "ours", seed=False).entry(pid).note
    assert note == "note A\n\n--- from theirs ---\nnote B, edited"


def test_a_newer_papershelf_s_record_is_left_as_it_is_and_a_damaged_one_is_kept_aside(
    tmp_path: Path,
) -> None:
    # Found by an attacker pass: a sync.json of a newer version was rewritten as version 1
    # with the one peer of this sync (every other record gone, and our id changed, so no peer
    # knew us); a damaged one was replaced with nothing kept.
    ours = synthetic_library(tmp_path / "ours", 2)
    synthetic_library(tmp_path / "theirs", 2)
    newer = {"format": "papershelf-sync", "version": 2, "self": "me", "peers": {"x": {}}}
    record = tmp_path / "ours" / SYNC_FILE
    record.write_text(json.dumps(newer), encoding="utf-8")
    report = sync_library(ours, tmp_path / "theirs")
    assert json.loads(record.read_text(encoding="utf-8")) == newer
    assert any("newer papershelf" in notice for notice in report.notices)

    record.write_bytes(b"\x00garbage")
    report = sync_library(Library.open(tmp_path / "ours", seed=False), tmp_path / "theirs")
    kept = list((tmp_path / "ours").glob(f"{SYNC_FILE}.corrupt-*"))
    assert [path.read_bytes() for path in kept] == [b"\x00garbage"]
    assert load_base(tmp_path / "ours", str((tmp_path / "theirs").resolve()))[1] is None


def test_a_paper_coming_in_is_cleaned_as_an_import_would_clean_it(tmp_path: Path) -> None:
    # Found by an attacker pass: a hand-made papers.json on the other side brought a paper
    # whose name, title, abstract and authors held terminal escapes and bidi overrides into
    # our papers.json as they were (an import would have cleaned them): `export --format csv`
    # then wrote the escapes to the file.
    ours = synthetic_library(tmp_path / "ours", 1)
    synthetic_library(tmp_path / "theirs", 1).import_papers(make_papers(1, prefix="x"), "x.txt")
    path = tmp_path / "theirs" / "papers.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for record in data["papers"].values():
        if record["name"] == "MethodX0":
            record["name"] = "Evil\x1b[2J\x1b]0;pwn\x07"
            record["title"] = "Title \u202eturned\x1b[31m"
            record["abstract"] += " \x1b[5mblink\x00"
            record["authors"] = ["Ann\x1b[8m Hidden"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert sync_library(ours, tmp_path / "theirs").papers_in == 1
    stored = (tmp_path / "ours" / "papers.json").read_text(encoding="utf-8")
    for raw in ("\\u001b", "\\u0007", "\\u202e", "\\u0000"):
        assert raw not in stored
    paper = Library.open(tmp_path / "ours", seed=False).papers()[-1]
    assert (paper.name, paper.title, paper.authors) == ("Evil", "Title turned", ("Ann Hidden",))
    assert paper.abstract.endswith("blink")


def test_a_paper_coming_in_is_capped_as_an_import_would_cap_it(tmp_path: Path) -> None:
    # Found by an attacker pass: a hand-made paper with a 1 MB title, 100,000 authors and an
    # 8 MB abstract came in whole (an import caps the first two and refuses the third);
    # `papershelf show` then printed 10 MB.
    ours = synthetic_library(tmp_path / "ours", 1)
    synthetic_library(tmp_path / "theirs", 1).import_papers(make_papers(1, prefix="x"), "x.txt")
    path = tmp_path / "theirs" / "papers.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for record in data["papers"].values():
        if record["name"] == "MethodX0":
            record["title"] = "word " * 2_000
            record["authors"] = [f"Author {i}" for i in range(MAX_AUTHORS + 10)]
            record["abstract"] = "abstract " * (MAX_ABSTRACT_CHARS // 4)
    path.write_text(json.dumps(data), encoding="utf-8")
    assert sync_library(ours, tmp_path / "theirs").papers_in == 1
    paper = Library.open(tmp_path / "ours", seed=False).papers()[-1]
    assert paper.title is not None and len(paper.title) <= MAX_TITLE_CHARS
    assert len(paper.authors) == MAX_AUTHORS + 1 and paper.authors[-1] == "others"
    assert len(paper.abstract) <= MAX_ABSTRACT_CHARS
