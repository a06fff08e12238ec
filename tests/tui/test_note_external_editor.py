"""`ctrl+e` in the note editor: the note in $VISUAL/$EDITOR, the app suspended, saved on return.

The editor is a script on PATH (tests/tui/editors.py writes it) that really edits the temp file.
The terminal is Textual's HeadlessDriver told that it can be suspended, as Textual's own tests of
`App.suspend` do: the headless driver cannot, and the app then keeps the dialog and says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from editors import FakeEditor
from pilot_helpers import settle
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Static, TextArea

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.note_editor import NoteEditor

SIZE = (120, 40)


class SuspendableTerminal(HeadlessDriver):
    """A headless terminal that can be handed to another program and back."""

    @property
    def can_suspend(self) -> bool:
        return True


def suspendable_app(library: Library) -> PapershelfApp:
    app = PapershelfApp(library)
    app.driver_class = SuspendableTerminal  # run_test(headless=False) starts this driver
    return app


def error_text(app: PapershelfApp) -> str:
    error = app.screen.query_one("#error", Static)
    return str(error.render()) if error.display else ""


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeEditor:
    return FakeEditor(tmp_path / "editor-bin", monkeypatch)


async def test_ctrl_e_saves_what_the_editor_wrote(
    library: Library, library_root: Path, reopen, editor: FakeEditor
) -> None:
    editor.appends("Written in my editor.")
    app = suspendable_app(library)
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        assert paper_id is not None
        await pilot.press("n", *"typed here", "ctrl+e")  # one burst
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteEditor)
        assert reopen(library_root).entry(paper_id).note == "typed here\nWritten in my editor."
        # Twice: the editor gets the saved note and adds to it again.
        await pilot.press("n", "ctrl+e")
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).note == (
            "typed here\nWritten in my editor.\nWritten in my editor."
        )
        assert not isinstance(app.screen, NoteEditor)
    assert editor.runs == 2
    assert editor.leftover_files() == []


async def test_an_unchanged_note_or_a_failed_editor_saves_nothing_and_says_so(
    library: Library, library_root: Path, reopen, editor: FakeEditor
) -> None:
    app = suspendable_app(library)
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        assert paper_id is not None
        editor.leaves_it()
        await pilot.press("n", *"draft", "ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor)  # still open, the draft kept
        assert app.screen.query_one("#note", TextArea).text == "draft"
        assert "Note unchanged; nothing saved" in error_text(app)
        editor.fails(3, "Half a sentence")
        await pilot.press("ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor)
        assert "The editor exited with status 3; nothing saved" in error_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
    assert reopen(library_root).entry(paper_id).note == ""
    assert editor.runs == 2 and editor.leftover_files() == []


async def test_an_editor_that_does_not_run_is_one_line(
    library: Library, editor: FakeEditor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VISUAL", "no-such-editor-anywhere --wait")
    app = suspendable_app(library)
    async with app.run_test(size=SIZE, headless=False) as pilot:
        await settle(app, pilot)
        await pilot.press("n", "ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor) and app.is_running
        assert "Cannot run the editor 'no-such-editor-anywhere'" in error_text(app)


async def test_a_terminal_that_cannot_be_suspended_keeps_the_dialog(
    make_app, editor: FakeEditor
) -> None:
    editor.appends("never")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:  # Textual's headless driver: no suspend
        await settle(app, pilot)
        await pilot.press("n", "ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor)
        assert "cannot be handed to an editor" in error_text(app)
    assert editor.runs == 0
