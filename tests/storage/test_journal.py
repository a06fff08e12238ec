"""The undo / redo journal: every change kind, bulk steps, restarts, bounds, conflicts, damage."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import ids, make_papers, reopen, synthetic_library

import papershelf.storage.library.journal as journal
from papershelf.storage.errors import SaveError
from papershelf.storage.library.journal import Journal, Step, UndoOutcome, plan_travel, same_entry
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry


def undo_steps(lib: Library) -> list[str]:
    """What the journal on disk holds to undo, oldest first (read as `JournalStore.peek` does)."""
    return [step.description for step in journal.JournalStore(lib.root).peek().undo]


def redo_steps(lib: Library) -> list[str]:
    """What the journal on disk holds to redo, oldest first."""
    return [step.description for step in journal.JournalStore(lib.root).peek().redo]


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    return synthetic_library(tmp_path / "lib", 8)


def snapshot(library: Library) -> dict[str, Entry]:
    return dict(library.entries())


def content(entries: dict[str, Entry]) -> dict[str, Entry]:
    return {pid: replace(entry, updated_at=None) for pid, entry in entries.items()}


# -- every change kind ----------------------------------------------------------------------


CHANGES = {
    "tag": (
        lambda lib, p: lib.tag(p[:1], add=["to-read"], remove=["old"]),
        "tag +to-read -old on ",
    ),
    "status": (lambda lib, p: lib.set_status(p[:1], "reading"), "status reading on "),
    "star": (lambda lib, p: lib.set_starred(p[:1], True), "star "),
    "note": (lambda lib, p: lib.set_note(p[0], "a thought"), "edit note on "),
    "edit": (
        lambda lib, p: lib.edit({p[0]: lambda e: replace(e, status="read")}, "mark as read"),
        "mark as read",
    ),
    "restore": (lambda lib, p: lib.restore({p[0]: Entry(starred=True)}), "restore "),
    "replace_all": (
        lambda lib, p: lib.replace_all_entries({p[0]: Entry(tags=frozenset({"x"}))}),
        "restore a backup",
    ),
}


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_every_change_kind_undoes_exactly_and_redoes(lib: Library, kind: str):
    papers = ids(lib)
    lib.tag(papers[0], add=["old"])
    lib.set_note(papers[1], "kept")
    before = snapshot(lib)
    change, wording = CHANGES[kind]
    assert change(lib, papers) >= 1
    after = snapshot(lib)
    assert after != before
    assert undo_steps(lib) and not redo_steps(lib)
    assert undo_steps(lib)[-1].startswith(wording)

    message = lib.undo()
    assert message is not None and message.startswith(wording)
    assert snapshot(lib) == before  # exactly, updated_at included
    assert redo_steps(lib)[-1:] == [message]

    assert lib.redo() == message
    assert snapshot(lib) == after
    assert not redo_steps(lib)


def test_single_paper_step_names_the_paper(lib: Library):
    paper = lib.papers()[2]
    lib.set_starred(paper.id, True)
    assert lib.undo() == f"star {paper.name}"


def test_unchanged_papers_make_no_step(lib: Library):
    papers = ids(lib)
    lib.tag(papers[0], add=["x"])
    assert lib.tag(papers[0], add=["x"]) == 0
    assert lib.undo() == f"tag +x on {lib.get(papers[0]).name}"
    assert lib.undo() is None
    assert lib.entries() == {}


def test_nothing_to_undo_or_redo(lib: Library):
    assert not undo_steps(lib) and not redo_steps(lib)
    assert lib.undo() is None
    assert lib.redo() is None
    assert undo_steps(lib) == [] and redo_steps(lib) == []


# -- bulk, order, restart -------------------------------------------------------------------


def test_bulk_action_is_one_step(lib: Library):
    papers = ids(lib)
    lib.tag(papers[0], add=["to-read"])  # already tagged: not part of the bulk step
    before = snapshot(lib)
    assert lib.tag(papers[:5], add=["to-read"]) == 4
    assert lib.undo() == "tag +to-read on 4 papers"
    assert snapshot(lib) == before
    assert lib.undo() is not None  # the single tag before it
    assert lib.entries() == {}


def test_steps_undo_newest_first(lib: Library):
    papers = ids(lib)
    lib.set_status(papers[0], "reading")
    lib.set_status(papers[0], "read")
    lib.set_starred(papers[1], True)
    assert lib.undo().startswith("star ")
    assert lib.entry(papers[0]).status == "read"
    assert lib.undo().startswith("status read")
    assert lib.entry(papers[0]).status == "reading"
    assert lib.undo().startswith("status reading")
    assert lib.entries() == {}


def test_history_survives_reopening(lib: Library):
    papers = ids(lib)
    lib.tag(papers[:3], add=["later"])
    lib.set_note(papers[0], "remember")
    later = reopen(lib)
    assert undo_steps(later)[-1] == f"edit note on {later.get(papers[0]).name}"
    later.undo()
    again = reopen(lib)
    assert again.entry(papers[0]).note == ""
    assert again.undo() == "tag +later on 3 papers"
    assert reopen(lib).entries() == {}
    assert reopen(lib).redo() == "tag +later on 3 papers"
    assert reopen(lib).entry(papers[2]).tags == {"later"}


def test_new_change_clears_redo(lib: Library):
    papers = ids(lib)
    lib.set_starred(papers[0], True)
    lib.set_starred(papers[1], True)
    lib.undo()
    assert redo_steps(lib)
    lib.set_status(papers[2], "read")
    assert not redo_steps(lib)
    assert lib.redo() is None
    assert lib.entry(papers[1]).starred is False


def test_journal_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(journal, "MAX_STEPS", 5)
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(make_papers(3), "synthetic.txt")
    paper = ids(library)[0]
    for i in range(8):
        library.tag(paper, add=[f"t{i}"])
    data = json.loads((library.root / "journal.json").read_text())
    assert len(data["undo"]) == 5
    undone = 0
    while library.undo() is not None:
        undone += 1
    assert undone == 5
    assert library.entry(paper).tags == {"t0", "t1", "t2"}


def test_record_bounds_steps_and_records():
    history = Journal()
    for i in range(250):
        history.record(Step(f"s{i}", {"a": None}, {"a": Entry(starred=True)}))
    assert len(history.undo) == journal.MAX_STEPS
    assert history.undo[0].description == "s50"
    big = {f"p{i}": None for i in range(30)}
    history.record(Step("big", big, dict.fromkeys(big, Entry(starred=True))))
    history.trim(max_records=40)
    assert [step.description for step in history.undo][-1] == "big"
    assert sum(step.size for step in history.undo) <= 40
    huge = {f"q{i}": None for i in range(100)}
    history.record(Step("huge", huge, huge), max_records=40)
    assert [step.description for step in history.undo] == ["huge"]  # the newest always stays


# -- other processes ------------------------------------------------------------------------


def unjournaled(monkeypatch: pytest.MonkeyPatch, change) -> None:
    """Make a change whose journal step is lost (as from a papershelf without a journal, or a
    full disk), so that the journal's newest step is older than the state."""

    def refuse(*_args, **_kwargs):
        raise SaveError("could not save journal.json: the disk is full; nothing was changed")

    with monkeypatch.context() as patch:
        patch.setattr(journal, "atomic_write", refuse)
        change()


def test_undo_leaves_papers_changed_elsewhere(lib: Library, monkeypatch: pytest.MonkeyPatch):
    papers = ids(lib)
    lib.tag(papers[:3], add=["mine"])
    other = reopen(lib)
    unjournaled(monkeypatch, lambda: other.set_note(papers[1], "theirs"))
    message = lib.undo()
    assert message == "tag +mine on 3 papers (1 paper changed since, left as they are)"
    assert lib.entry(papers[0]).tags == frozenset()
    assert lib.entry(papers[1]).tags == {"mine"} and lib.entry(papers[1]).note == "theirs"
    # The step now in redo holds only the two papers really undone.
    assert lib.redo() == "tag +mine on 3 papers"
    assert [lib.entry(p).tags for p in papers[:3]] == [{"mine"}] * 3
    assert lib.entry(papers[1]).note == "theirs"


def test_undo_when_every_paper_changed_since(lib: Library, monkeypatch: pytest.MonkeyPatch):
    papers = ids(lib)
    lib.set_starred(papers[1], True)
    lib.set_status(papers[0], "reading")
    unjournaled(monkeypatch, lambda: reopen(lib).set_status(papers[0], "read"))
    assert lib.undo() == ("status reading on MethodPaper0: nothing done, all 1 paper changed since")
    assert lib.entry(papers[0]).status == "read"
    assert not redo_steps(lib)  # nothing moved, so nothing to redo
    assert lib.undo() == "star MethodPaper1"  # the step is gone; the next one is reachable


def test_undo_counts_papers_already_back_as_undone(lib: Library, monkeypatch):
    papers = ids(lib)
    lib.set_starred(papers[:2], True)
    unjournaled(monkeypatch, lambda: reopen(lib).set_starred(papers[0], False))
    assert lib.undo() == "star 2 papers"
    assert lib.entries() == {}
    assert lib.redo() == "star 2 papers"
    assert all(lib.entry(p).starred for p in papers[:2])


def test_the_journal_is_shared_between_processes(lib: Library):
    papers = ids(lib)
    other = reopen(lib)
    other.set_starred(papers[4], True)
    assert undo_steps(lib)
    assert lib.undo() == "star MethodPaper4"
    other.refresh()
    assert other.entry(papers[4]).starred is False


# -- damage ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    [
        b"{ not json",
        b"",
        b'{"format": "something-else", "version": 1, "undo": [], "redo": []}',
        b'{"format": "papershelf-journal", "version": 99, "undo": [], "redo": []}',
        b'{"format": "papershelf-journal", "version": 1, "undo": [{"description": 3}], "redo": []}',
        b"[1, 2, 3]",
        pytest.param(
            b'{"format": "papershelf-journal", "version": 1, "undo": [' + b"7" * 5000 + b"]}",
            id="a-5000-digit-number",
        ),
        pytest.param(
            b'{"format": "papershelf-journal", "version": 1, "undo": ' + b"[" * 100_000 + b"}",
            id="nested-100000-deep",
        ),
    ],
)
def test_damaged_journal_is_moved_aside_and_state_kept(lib: Library, garbage: bytes):
    papers = ids(lib)
    lib.tag(papers[0], add=["safe"])
    (lib.root / "journal.json").write_bytes(garbage)
    fresh = reopen(lib)
    assert not undo_steps(fresh)  # read without repair
    assert fresh.undo() is None
    assert fresh.journal_notice is not None and "undo history was lost" in fresh.journal_notice
    # In papershelf's words: not Python's advice ("sys.set_int_max_str_digits", "recursion").
    assert "sys." not in fresh.journal_notice and "recursion" not in fresh.journal_notice
    assert fresh.entry(papers[0]).tags == {"safe"}
    moved = sorted(lib.root.glob("journal.json.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == garbage
    # History starts again with the next change.
    fresh.set_starred(papers[1], True)
    assert fresh.undo() == "star MethodPaper1"
    assert fresh.entry(papers[0]).tags == {"safe"}


def test_a_change_recorded_on_a_damaged_journal_replaces_it(lib: Library):
    papers = ids(lib)
    (lib.root / "journal.json").write_text("garbage")
    lib.set_note(papers[0], "x")
    assert lib.entry(papers[0]).note == "x"
    assert len(list(lib.root.glob("journal.json.corrupt-*"))) == 1
    assert lib.undo() is not None and lib.entry(papers[0]).note == ""


def test_unwritable_journal_never_fails_a_change(lib: Library, monkeypatch: pytest.MonkeyPatch):
    papers = ids(lib)

    def refuse(*_args, **_kwargs):
        raise SaveError("could not save journal.json: the disk is full; nothing was changed")

    monkeypatch.setattr(journal, "atomic_write", refuse)
    assert lib.tag(papers[0], add=["kept"]) == 1
    assert reopen(lib).entry(papers[0]).tags == {"kept"}
    assert lib.journal_notice is not None and "the disk is full" in lib.journal_notice
    assert lib.undo() is None  # nothing was recorded
    monkeypatch.undo()
    lib.set_starred(papers[0], True)
    assert lib.undo() == "star MethodPaper0"
    assert lib.entry(papers[0]).tags == {"kept"}


def test_stale_journal_temp_files_are_removed_at_open(lib: Library):
    stale = lib.root / ".journal.json.123.abcd.tmp"
    stale.write_text("half")
    reopen(lib)
    assert not stale.exists()


# -- pure parts -----------------------------------------------------------------------------


def test_same_entry_ignores_updated_at_and_treats_none_as_default():
    assert same_entry(None, Entry(updated_at="2025-01-01T00:00:00Z"))
    assert same_entry(Entry(starred=True, updated_at="a"), Entry(starred=True, updated_at="b"))
    assert not same_entry(None, Entry(note="x"))


def test_plan_travel_sorts_moved_already_done_and_conflicts():
    source = {"a": None, "b": None, "c": None}
    target = dict.fromkeys(source, Entry(starred=True))
    current = {"b": Entry(starred=True, updated_at="t"), "c": Entry(note="other")}
    wanted, moved, conflicts = plan_travel(source, target, current)
    assert wanted == {"a": Entry(starred=True)}
    assert moved == ["a", "b"]
    assert conflicts == ["c"]


def test_outcome_messages():
    assert UndoOutcome("star X", 1).message == "star X"
    assert UndoOutcome("tag +a on 3 papers", 1, ("p", "q")).message == (
        "tag +a on 3 papers (2 papers changed since, left as they are)"
    )


def test_journal_json_round_trip():
    step = Step(
        "d",
        {"a": None, "b": Entry(note="n")},
        {"a": Entry(tags=frozenset({"t"})), "b": None},
        "now",
    )
    history = Journal([step], [step])
    assert Journal.from_json(json.loads(json.dumps(history.to_json()))) == history


OPS = st.lists(
    st.tuples(
        st.sampled_from(["tag", "untag", "status", "star", "note"]),
        st.lists(st.integers(0, 5), min_size=1, max_size=3),
        st.sampled_from(["a", "b", "read", "reading", ""]),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=25)
@given(ops=OPS)
def test_undo_all_then_redo_all_round_trips(tmp_path_factory: pytest.TempPathFactory, ops):
    library = Library.open(tmp_path_factory.mktemp("prop") / "lib", seed=False)
    library.import_papers(make_papers(6), "synthetic.txt")
    papers = ids(library)
    states = [snapshot(library)]
    for kind, which, value in ops:
        chosen = [papers[i] for i in which]
        if kind == "tag":
            changed = library.tag(chosen, add=[value or "c"])
        elif kind == "untag":
            changed = library.tag(chosen, remove=[value or "c"])
        elif kind == "status":
            changed = library.set_status(
                chosen, value if value in ("read", "reading") else "unread"
            )
        elif kind == "star":
            changed = library.set_starred(chosen, bool(value))
        else:
            changed = library.set_note(chosen[0], value)
        if changed:
            states.append(snapshot(library))
    for expected in reversed(states[:-1]):
        assert library.undo() is not None
        assert snapshot(library) == expected
    assert library.undo() is None
    for expected in states[1:]:
        assert library.redo() is not None
        assert content(snapshot(library)) == content(expected)
    assert library.redo() is None


def test_encoded_journal_is_the_json_form():
    step = Step("d", {"a": None}, {"a": Entry(note='ü "quoted" \\ back')}, "now")
    history = Journal([step, step.only(["a"])], [step])
    assert json.loads(history.encoded()) == history.to_json()
    assert step.encoded() is step.encoded()  # made once
