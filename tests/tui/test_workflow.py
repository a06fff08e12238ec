"""Pilot tests of the reading workflow: undo / redo through the journal, the reader's actions,
and the new keys on the help screen and in the palette."""

from __future__ import annotations

from pathlib import Path

from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.commands import help_sections
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.widgets.reader import Reader


async def test_bulk_tag_is_one_undo_step_that_survives_a_restart(
    make_app, library_root: Path, reopen, clipboard
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        ids = [hit.paper_id for hit in app.paper_list.hits[:4]]
        await pilot.press("space", "space", "space", "T")
        await settle(app, pilot)
    tagged = reopen(library_root)
    assert ["to-read" in tagged.entry(pid).tags for pid in ids] == [True, True, True, False]

    # A new app on the same library: `u` takes back the whole bulk change in one step.
    second = PapershelfApp(reopen(library_root))
    async with second.run_test(size=SIZE) as pilot:
        await settle(second, pilot)
        notes = Notes(second)
        await pilot.press("u")
        await settle(second, pilot)
        assert notes.last == "Undone: tag +to-read on 3 papers"
        assert not any("to-read" in reopen(library_root).entry(pid).tags for pid in ids)
        assert (
            "#to-read"
            not in second.paper_list.rows.content(second.paper_list.hits[0], 120, False).plain
        )
        await pilot.press("ctrl+r")
        await settle(second, pilot)
        assert notes.last == "Redone: tag +to-read on 3 papers"
        redone = reopen(library_root)
        assert ["to-read" in redone.entry(pid).tags for pid in ids] == [True, True, True, False]
        top = second.paper_list.hits[0]
        assert "#to-read" in second.paper_list.rows.content(top, 120, False).plain
        await pilot.press("ctrl+r")
        assert (notes.last, notes.last_severity) == ("Nothing to redo", "warning")
        await pilot.press("u", "u")
        await settle(second, pilot)
        assert (notes.last, notes.last_severity) == ("Nothing to undo", "warning")


async def test_undo_takes_back_a_change_made_by_the_cli(make_app, library: Library, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        paper_id = app.paper_list.current_id
        other = Library.open(library.root, seed=False)  # another process, e.g. `papershelf tag`
        other.set_status([paper_id], "read")
        await pilot.press("u")
        await settle(app, pilot)
        assert notes.last == f"Undone: status read on {library.get(paper_id).name}"
        assert reopen(library.root).entry(paper_id).status == "unread"
        assert "unread" in app.query_one(Reader).text


async def test_a_lost_journal_is_said_once(make_app, library: Library) -> None:
    (library.root / "journal.json").write_text("{not json", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("u")
        await settle(app, pilot)
        warnings = [text for text, severity in notes.items if severity == "warning"]
        assert warnings[0] == "Nothing to undo"
        assert warnings[1].startswith("undo history was lost")
        await pilot.press("asterisk", "u")
        await settle(app, pilot)
        assert sum(text.startswith("undo history") for text, _ in notes.items) == 1
        assert notes.last.startswith("Undone: star ")


async def test_keys_in_the_reader_act_on_the_paper_shown_not_on_the_marks(
    make_app, library_root: Path, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        hits = [hit.paper_id for hit in app.paper_list.hits]
        await pilot.press("space", "space")  # papers 0 and 1 marked
        await go_to(app, pilot, hits[5])
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.focused, Reader)
        assert app.focused.paper_id == hits[5]
        await pilot.press("s", "asterisk", "T")
        await settle(app, pilot)
        disk = reopen(library_root)
        shown = disk.entry(hits[5])
        assert (shown.status, shown.starred, shown.tags) == ("reading", True, {"to-read"})
        assert all(disk.entry(pid) == disk.entry(hits[9]) for pid in hits[:2])  # untouched
        assert "◐ reading" in app.query_one(Reader).text
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        assert app.screen.paper_name == disk.get(hits[5]).name
        await pilot.press(*"from the reader", "ctrl+s")
        await settle(app, pilot)
        assert reopen(library_root).entry(hits[5]).note == "from the reader"
        # Back in the list the marks count again (the cycle starts from the cursor's paper).
        await pilot.press("escape", "s")
        await settle(app, pilot)
        disk = reopen(library_root)
        statuses = [disk.entry(pid).status for pid in (*hits[:2], hits[5])]
        assert statuses == ["read", "read", "reading"]


async def test_new_keys_are_on_the_help_screen_and_in_the_palette(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        sections = {s.title: s for s in help_sections(app, app.bound_actions())}
        papers = {key.description: key.keys for key in sections["Papers"].keys}
        assert papers["Undo"] == "u"
        assert papers["Redo"] == "^r"
        assert papers["More like this"] == "r"
        assert papers["Sort"] == "S"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        # The palette finds the redo command by name and runs the same action.
        notes = Notes(app)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Papers: Redo")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert notes.last == "Nothing to redo"
