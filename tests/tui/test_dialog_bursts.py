"""Keys typed faster than the app handles them, through every dialog."""

from __future__ import annotations

import pytest
from keys import burst
from pilot_helpers import settle
from test_app import SIZE, go_to

from papershelf.storage.library.library import Library
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.related import RelatedScreen
from papershelf.tui.screens.tag_editor import TagEditor


async def test_tag_typed_right_after_t_then_saved_in_one_burst(
    make_app, library: Library, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await burst(pilot, "t", *"quick", "enter", "ctrl+s", "enter")
        await settle(app, pilot)
        assert app.is_running
        assert "quick" in reopen(library.root).entry(paper_id).tags


async def test_tag_after_the_dialog_opened_but_before_it_is_built(
    make_app, library: Library, reopen
) -> None:
    """What a priority binding gives: `t` handled, the rest arriving while the dialog mounts."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        app.action_tag()
        await burst(pilot, *"early", "enter", "ctrl+s")
        await settle(app, pilot)
        assert not isinstance(app.screen, TagEditor)
        assert reopen(library.root).entry(paper_id).tags == {"early"}


async def test_a_second_apply_is_ignored_and_later_keys_reach_the_list(
    make_app, library: Library, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first, second = [hit.paper_id for hit in app.paper_list.hits[:2]]
        # ctrl+s twice, enter twice: one dismissal; then `j` moves the list's cursor.
        await burst(pilot, "t", *"once", "ctrl+s", "ctrl+s", "enter", "escape", "j")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert reopen(library.root).entry(first).tags == {"once"}
        assert reopen(library.root).entry(second).tags == frozenset()
        assert app.paper_list.current_id == second


async def test_note_typed_in_a_burst_is_saved_whole(make_app, library: Library, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await burst(pilot, "n", *"fast note", "ctrl+s", "ctrl+s", "j")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert reopen(library.root).entry(paper_id).note == "fast note"
        assert app.paper_list.current_id != paper_id  # `j` reached the list


# Each dialog, the key that opens it and a paper it needs.
DIALOGS = [
    ("t", TagEditor, None),
    ("n", NoteEditor, None),
    ("e", ExportDialog, None),
    ("question_mark", HelpScreen, None),
    ("y", LinkChooser, "multi"),
    ("o", LinkChooser, "multi"),
    ("r", RelatedScreen, None),
]


@pytest.mark.parametrize(
    ("key", "dialog", "paper"), DIALOGS, ids=[d[1].__name__ + ":" + d[0] for d in DIALOGS]
)
async def test_every_dialog_opens_and_closes_twice_in_one_burst(
    make_app, ids, key: str, dialog: type, paper: str | None
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        if paper is not None:
            await go_to(app, pilot, getattr(ids, paper))
        start = app.paper_list.current_id
        # Opened by a key, closed by `esc` (twice: the second reaches the main screen), again.
        await burst(pilot, key, "escape", "escape", key, "escape", "escape", "j")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert app.paper_list.current_id != start  # `j` after it all reached the list
        # And the same dialog opens again at once, ready for keys.
        if paper is not None:
            await go_to(app, pilot, getattr(ids, paper))
        await burst(pilot, key)
        await settle(app, pilot)
        assert isinstance(app.screen, dialog)
        assert app.screen.dialog_ready


@pytest.mark.parametrize("result", [None, "first"])
async def test_dismissing_twice_calls_back_once_and_keeps_the_stack(make_app, result) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        results: list[str | None] = []
        dialog = NoteEditor("x", "")
        app.push_screen(dialog, results.append)
        await pilot.pause()
        dialog.dismiss(result)
        dialog.dismiss("second")  # e.g. a second ctrl+s queued behind the first
        await pilot.pause()
        assert results == [result]
        assert len(app.screen_stack) == 1 and app.is_running
