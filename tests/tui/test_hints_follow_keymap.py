"""Every dialog's key hints follow the config's `[keys]` (issue 15, part 4): a hint names the
key that does the thing now, never one that no longer does; a remapped key the dialog's text
field keeps for itself (a letter is typed, `ctrl+w` deletes a word) is not named. The same
holds for the remove dialog's "u undoes it", the help screen's last line, the marking notice
and the first-run hint."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import settle
from test_app import SIZE, go_to
from test_app_saving import record_notifications
from textual.widgets import Static

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import SETTINGS_FILE
from papershelf.tui.app import PapershelfApp
from papershelf.tui.key_names import key_name
from papershelf.tui.screens.add_dialog import AddDialog
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.remove_dialog import RemoveDialog
from papershelf.tui.screens.tag_editor import TagEditor

REMAPPED = """# my keys
[keys]
"dialog.cancel" = "f4"
"tags.apply" = "f5"
"tags.next" = "ctrl+n"
"tags.previous" = "ctrl+b"
"note.save" = "f3"
"confirm.yes" = "f7"
"confirm.no" = "f8"
"add.run" = "f9"
"help.close" = ["f10", "escape"]
"app.palette" = "f2"
"app.undo" = "z"
"links.choose-1" = "a"
"links.choose-2" = "b"
"""


def write_config(text: str) -> Path:
    path = Path(os.environ["PAPERSHELF_CONFIG"])  # tests/conftest.py: one per test
    path.write_text(text, encoding="utf-8")
    return path


def hints(app: PapershelfApp) -> str:
    """The dialog's key-hint lines, as shown."""
    return str(app.screen.query_one(".dialog-hints", Static).render())


async def open_dialog(app: PapershelfApp, pilot: Any, key: str, kind: type) -> None:
    await pilot.press(key)
    await settle(app, pilot)
    assert isinstance(app.screen, kind), app.screen


async def closes_with(app: PapershelfApp, pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(app, pilot)
    assert app.screen is app.main_screen, app.screen


def test_key_names() -> None:
    assert [key_name(key) for key in ("escape", "down", "asterisk", "ctrl+s", "f4", "y")] == [
        "esc",
        "↓",
        "*",
        "ctrl+s",
        "f4",
        "y",
    ]


async def test_every_dialog_names_the_remapped_keys(library: Library, ids: Any) -> None:
    write_config(REMAPPED)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.multi)  # two code URLs: `y` offers a chooser

        await open_dialog(app, pilot, "t", TagEditor)
        shown = hints(app)
        assert "f5 apply" in shown and "f4 cancel" in shown and "ctrl+n ctrl+b" not in shown
        assert "ctrl+b ctrl+n known tags" in shown
        assert "ctrl+s" not in shown and "esc" not in shown
        await pilot.press("escape")  # no longer the dialog's key: the tag editor stays
        await settle(app, pilot)
        assert isinstance(app.screen, TagEditor)
        await closes_with(app, pilot, "f4")

        await open_dialog(app, pilot, "n", NoteEditor)
        shown = hints(app)
        assert "f3 save" in shown and "f4 cancel" in shown and "ctrl+e your editor" in shown
        await closes_with(app, pilot, "f4")

        await open_dialog(app, pilot, "D", RemoveDialog)
        shown = hints(app)
        assert "f7 remove" in shown and "f8 keep" in shown and "f4 keep" in shown
        assert "y remove" not in shown
        after = str(app.screen.query_one("#after", Static).render())
        assert after.startswith("z undoes it")
        await closes_with(app, pilot, "f8")  # keep

        await open_dialog(app, pilot, "e", ExportDialog)
        assert "f4 cancel" in hints(app)
        await closes_with(app, pilot, "f4")

        await open_dialog(app, pilot, "a", AddDialog)
        shown = hints(app)
        assert "f9 fetch and add" in shown and "f4 cancel" in shown and "enter" not in shown
        await closes_with(app, pilot, "f4")

        await open_dialog(app, pilot, "y", LinkChooser)
        shown = hints(app)
        assert "the key beside a link choose" in shown and "1-2" not in shown
        rows = str(app.screen.query_one("#links").render_line(0).text)
        assert rows.strip().startswith("a ")
        await closes_with(app, pilot, "f4")

        await open_dialog(app, pilot, "question_mark", HelpScreen)
        last = [str(static.render()) for static in app.screen.query(Static)]
        assert "f10 / esc closes · f2 finds any command by name" in last
        await closes_with(app, pilot, "f10")


async def test_the_remapped_keys_do_what_the_hints_say_in_bursts_and_twice(
    library: Library, ids: Any, reopen, library_root: Path, clipboard
) -> None:
    write_config(REMAPPED)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        # Tag, apply with the remapped key, all in one burst; then again on the same paper.
        for tag in ("alpha", "beta"):
            await pilot.press("t", *tag, "enter", "f5")
            await settle(app, pilot)
            assert app.screen is app.main_screen
            assert tag in reopen(library_root).entry(first).tags
        # Remove, yes with the remapped key, then undo with the remapped undo: twice.
        for _ in range(2):
            await go_to(app, pilot, first)  # undo brought it back; the cursor stayed
            await pilot.press("D", "f7")
            await settle(app, pilot)
            assert first not in {p.id for p in reopen(library_root).papers()}
            await pilot.press("z")
            await settle(app, pilot)
            assert first in {p.id for p in reopen(library_root).papers()}
        # The chooser's remapped second key copies the second URL.
        await go_to(app, pilot, ids.multi)
        await pilot.press("y", "b")
        await settle(app, pilot)
        assert app.screen is app.main_screen
        assert clipboard.copied[-1] == library.get(ids.multi).all_links[1]


@pytest.mark.parametrize(
    ("entry", "dialog_key", "kind", "kept", "refused"),
    [
        # ctrl+w deletes a word in the input
        ('"tags.apply" = "ctrl+w"', "t", TagEditor, "ctrl+s apply", "ctrl+w apply"),
        # x would be typed into the tag input
        ('"dialog.cancel" = "x"', "t", TagEditor, "esc cancel", "x cancel"),
        # ctrl+z is the text area's undo
        ('"note.save" = "ctrl+z"', "n", NoteEditor, "ctrl+s save", "ctrl+z save"),
        # F would be typed into the identifier input
        ('"add.run" = "F"', "a", AddDialog, "enter fetch and add", "F fetch"),
    ],
)
async def test_a_key_the_field_keeps_is_refused_and_the_hint_keeps_the_default(
    library: Library, entry: str, dialog_key: str, kind: type, kept: str, refused: str
) -> None:
    """A remap onto a key the dialog's text field takes is refused (config check), so the hint
    names the default key, which still does the thing, and never the refused one."""
    write_config(f"[keys]\n{entry}\n")
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot, dialog_key, kind)
        shown = hints(app)
        assert kept in shown
        assert refused not in shown


async def test_a_refused_cancel_key_leaves_escape_named_and_working(
    library: Library,
) -> None:
    write_config('[keys]\n"dialog.cancel" = "x"\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await open_dialog(app, pilot, "D", RemoveDialog)
        assert "x keep" not in hints(app)
        assert "esc keep" in hints(app)
        await closes_with(app, pilot, "escape")
        await open_dialog(app, pilot, "t", TagEditor)
        await pilot.press("x")  # typed into the tag input, as before
        await settle(app, pilot)
        assert isinstance(app.screen, TagEditor)


async def test_the_marking_notice_and_first_run_hint_name_the_remapped_keys(
    library: Library, library_root: Path
) -> None:
    write_config(
        '[keys]\n"app.tag" = "f6"\n"app.star" = "x"\n"app.clear-marks" = "X"\n'
        '"list.first" = "home"\n"list.read" = "o"\n"app.open" = "O"\n'
    )
    (library_root / SETTINGS_FILE).unlink()  # a first start: the hint is shown
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
    hint = next(message for message in shown if "lists every key" in message)
    assert hint.endswith("o reads, / filters, ? lists every key and symbol")
    marked = next(message for message in shown if message.startswith("Marked"))
    assert marked.endswith("f6, T, s and x now apply to them (X clears)")
