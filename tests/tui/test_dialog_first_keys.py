"""Every key typed after a dialog's key, in the same burst, lands in that dialog.

An attacker pass found `a` then `/` in one burst opening the filter: `/` is a priority binding,
which Textual runs the moment the key arrives, before `a` has bubbled back to the app and opened
the add dialog. The same held for `?` and the other dialog keys (`t`, `n`, `e`, `D`).
"""

from __future__ import annotations

import pytest
from keys import burst
from pilot_helpers import settle
from test_app import SIZE
from textual.widgets import Input, TextArea

from papershelf.storage.library.library import Library
from papershelf.tui.screens.add_dialog import AddDialog
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.remove_dialog import RemoveDialog
from papershelf.tui.screens.tag_editor import TagEditor
from papershelf.tui.widgets.filter_bar import FilterBar


def typed_text(app) -> str:  # type: ignore[no-untyped-def]
    """What the dialog on top holds in its input (an Input, or the note's TextArea)."""
    widget = app.screen.focused
    if isinstance(widget, Input):
        return widget.value
    assert isinstance(widget, TextArea)
    return widget.text


@pytest.mark.parametrize(
    ("key", "dialog"),
    [("a", AddDialog), ("t", TagEditor), ("n", NoteEditor)],
    ids=["a", "t", "n"],
)
async def test_a_slash_right_after_a_dialog_key_is_the_dialogs_text(
    make_app, key: str, dialog: type
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for _ in range(2):  # and twice
            await burst(pilot, key, "/", "x", "?", "/")
            await settle(app, pilot)
            assert isinstance(app.screen, dialog)
            assert typed_text(app) == "/x?/"
            assert app.query_one(FilterBar).value == ""
            await burst(pilot, "escape")
            await settle(app, pilot)
            assert len(app.screen_stack) == 1


async def test_a_slash_after_d_or_e_stays_in_their_dialog(
    make_app, library: Library, reopen
) -> None:
    """`D` and `e` have no text input: a `/` typed behind them goes to the dialog (which has no
    use for it), not to the filter behind it; `esc` then closes the dialog, nothing changed."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        count = len(library.papers())
        for key, dialog in (("D", RemoveDialog), ("e", ExportDialog), ("D", RemoveDialog)):
            await burst(pilot, key, "/", "?")
            await settle(app, pilot)
            assert isinstance(app.screen, dialog)
            assert app.query_one(FilterBar).value == ""
            await burst(pilot, "escape")
            await settle(app, pilot)
            assert len(app.screen_stack) == 1
            assert not app.query_one(FilterBar).has_focus
        assert len(reopen(library.root).papers()) == count


async def test_keys_after_a_closed_dialog_still_reach_the_filter(make_app) -> None:
    """The held keys are only those behind a dialog key: `/` on its own opens the filter at
    once, and typing there is not held up."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await burst(pilot, "a", "escape", "/", *"graph")
        await settle(app, pilot)
        assert len(app.screen_stack) == 1
        assert app.query_one(FilterBar).value == "graph"
