"""The config file in the app: keys remapped through Textual's keymap (and shown so on the help
screen), one warning per bad entry, and the defaults a library has not chosen (sort, authors
column) or the export dialog uses (export_dir)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pilot_helpers import settle
from test_app_saving import record_notifications
from textual.widgets import Input, Static

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import SETTINGS_FILE
from papershelf.tui.app import PapershelfApp
from papershelf.tui.app_config import MAX_PROBLEMS_SHOWN
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.help import HelpScreen

SIZE = (120, 40)


def write_config(text: str) -> Path:
    path = Path(os.environ["PAPERSHELF_CONFIG"])  # tests/conftest.py: one per test
    path.write_text(text, encoding="utf-8")
    return path


def help_text(app: PapershelfApp) -> str:
    """Every Static of the screen on top (the help screen's keys, a dialog's hints)."""
    return "\n".join(str(static.render()) for static in app.screen.query(Static))


def help_line(app: PapershelfApp, description: str) -> str:
    """The help screen's line for `description`, its spaces squeezed."""
    line = next(line for line in help_text(app).splitlines() if line.strip().endswith(description))
    return " ".join(line.split())


async def test_a_remapped_key_runs_the_action_and_the_old_key_does_not(
    library: Library, reopen, library_root: Path
) -> None:
    write_config('[keys]\n"app.star" = "x"\n"list.down" = ["J", "down"]\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("x")
        await settle(app, pilot)
        assert reopen(library_root).entry(first).starred
        await pilot.press("asterisk")  # no longer bound: nothing changes
        await settle(app, pilot)
        assert reopen(library_root).entry(first).starred
        # In a burst, and twice: down with the new key, star, back up, unstar.
        await pilot.press("J", "x", "k", "x")
        await settle(app, pilot)
        second = app.paper_list.hits[1].paper_id
        assert reopen(library_root).entry(second).starred
        assert not reopen(library_root).entry(first).starred
        assert app.paper_list.current_id == first
        await pilot.press("j")  # list.down was remapped: j no longer moves
        await settle(app, pilot)
        assert app.paper_list.current_id == first


async def test_the_help_screen_shows_the_remapped_key_and_the_config_path(
    library: Library,
) -> None:
    path = write_config('[keys]\n"app.star" = "x"\n"app.help" = ["question_mark", "f1"]\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await settle(app, pilot)
        assert help_line(app, "Star") == "x Star"
        assert help_line(app, "Help") == "? / f1 Help"
        assert f"Settings and key remapping: {path}" in help_text(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, HelpScreen)


async def test_a_remap_onto_a_key_another_binding_keeps_is_ignored(
    library: Library, reopen, library_root: Path
) -> None:
    # t stays the tag editor's key; a swap (both remapped) is fine.
    write_config('[keys]\n"app.star" = "t"\n"list.up" = "j"\n"list.down" = "k"\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("k", "t")
        await settle(app, pilot)
        assert app.screen is not app.main_screen  # the tag editor, as without the config
        await pilot.press("escape", "j", "asterisk")
        await settle(app, pilot)
        assert app.paper_list.current_id == first
        assert reopen(library_root).entry(first).starred
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert problems == [
        "config.toml: keys.app.star: 't' is already app.tag's key (remap app.tag too); ignored"
    ]


async def test_bad_entries_are_one_warning_each_and_the_good_ones_apply(
    library: Library, reopen, library_root: Path
) -> None:
    write_config(
        'sort = "by-date"\ntheme = 7\n[keys]\n"app.star" = "x"\n"app.strar" = "z"\n'
        '"list.down" = "two words"\n'
    )
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        await pilot.press("x")
        await settle(app, pilot)
        assert first is not None and reopen(library_root).entry(first).starred
        assert app.is_running
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert [line.split(":")[1].strip() for line in problems] == [
        "sort",
        "theme",
        "keys.list.down",
        "keys.app.strar",
    ]
    assert "no binding has this id (did you mean app.star" in problems[3]
    assert all(line.endswith("; ignored") for line in problems)


async def test_the_config_sort_and_column_apply_where_the_library_chose_none(
    library: Library, library_root: Path
) -> None:
    config = write_config('sort = "name"\n[columns]\nauthors = true\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        names = [library.get(hit.paper_id).name.casefold() for hit in app.paper_list.hits]
        assert names == sorted(names)
        assert app.paper_list.show_authors
        await pilot.press("S")  # name -> venue: chosen in this library now
        await settle(app, pilot)
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
    saved = json.loads((library_root / SETTINGS_FILE).read_text())
    assert (saved["sort"], saved["authors_column"]) == ("venue", False)
    assert config.read_text() == 'sort = "name"\n[columns]\nauthors = true\n'  # untouched
    again = PapershelfApp(Library.open(library_root, seed=False))
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.workflow.sort_order == "venue" and not again.paper_list.show_authors


async def test_the_export_dialog_proposes_the_config_export_dir(
    library: Library, tmp_path: Path
) -> None:
    target = tmp_path / "reading lists"
    target.mkdir()
    write_config(f'export_dir = "{target}"\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExportDialog)
        path = Path(app.screen.query_one("#path", Input).value)
        assert path.parent == target
        await pilot.press("enter")
        await settle(app, pilot)
    assert [file.parent for file in target.iterdir()] == [target]


async def test_odd_key_names_never_stop_the_app(library: Library) -> None:
    # Names the config's check lets through but no terminal sends: drawn in the footer and
    # on the help screen without an error.
    write_config(
        '[keys]\n"app.star" = "++"\n"app.tag" = "ctrl+"\n"app.status" = "+a"\n'
        '"list.down" = ["~", "F13", "shift+"]\n"app.copy" = "\'"\n'
    )
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "apostrophe", "tilde")
        await settle(app, pilot)
        assert app.is_running and app.return_code is None


async def test_an_export_dir_that_is_not_a_directory_is_one_warning(
    library: Library, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write_config(f'export_dir = "{tmp_path / "gone"}"\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExportDialog)
        assert Path(app.screen.query_one("#path", Input).value).parent == tmp_path
    assert [line for line in shown if "export_dir" in line] == [
        f"config.toml: export_dir: {tmp_path / 'gone'} is not a directory; ignored"
    ]


async def test_a_remapped_dialog_key_saves_the_note_and_its_hint_says_so(
    library: Library, reopen, library_root: Path
) -> None:
    from papershelf.tui.screens.note_editor import NoteEditor

    write_config('[keys]\n"note.save" = "f2"\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteEditor)
        assert "f2 save · ctrl+e your editor" in help_text(app)
        await pilot.press(*"mine", "f2")
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteEditor)
    assert reopen(library_root).entry(first).note == "mine"


async def test_a_config_with_hundreds_of_problems_shows_a_few_and_counts_the_rest(
    library: Library, reopen, library_root: Path
) -> None:
    # Found by an attacker pass: 3,000 unknown ids were 3,000 notifications, and the app spun
    # at full CPU for minutes, deaf to keys. The good entry beside them still applies.
    write_config('[keys]\n"app.star" = "x"\n' + "".join(f'"nope.k{i}" = "z"\n' for i in range(300)))
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        await pilot.press("x")
        await settle(app, pilot)
        assert first is not None and reopen(library_root).entry(first).starred
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert len(problems) == MAX_PROBLEMS_SHOWN + 1
    assert all("keys.nope.k" in line for line in problems[:-1])
    assert problems[-1] == (
        f"config.toml: {300 - MAX_PROBLEMS_SHOWN} more problems like these; "
        "fix the ones above first"
    )


async def test_a_dialog_wide_key_cannot_take_a_dialog_key_and_lose_the_note(
    library: Library, reopen, library_root: Path
) -> None:
    # Found by an attacker pass: dialog.cancel and note.save were checked as different places,
    # so "dialog.cancel" = "ctrl+s" was taken, and ctrl+s in the note editor threw the note away.
    write_config('[keys]\n"dialog.cancel" = "ctrl+s"\n"help.close" = ["escape", "z"]\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("n", *"keep me", "ctrl+s")
        await settle(app, pilot)
        assert app.screen is app.main_screen
        await pilot.press("question_mark", "z")  # help.close shares esc with dialog.cancel
        await settle(app, pilot)
        assert app.screen is app.main_screen
    assert reopen(library_root).entry(first).note == "keep me"
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert len(problems) == 1
    assert problems[0].startswith("config.toml: keys.dialog.cancel: 'ctrl+s' is already ")
    assert any(
        f"{other}'s key" in problems[0] for other in ("note.save", "tags.apply", "export.run")
    )


async def test_every_binding_remapped_to_its_own_keys_is_no_clash(library: Library) -> None:
    # The clash check must not refuse what the app binds by default (esc is both dialog.cancel
    # and help.close; y both app.copy and confirm.yes, which never meet a key press together).
    from papershelf.tui.app_config import known_bindings

    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        known = known_bindings(app)
    lines = "".join(f'"{binding_id}" = {keys!r}\n' for binding_id, keys in known.items())
    write_config("[keys]\n" + lines.replace("'", '"'))
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert set(app.applied_keymap) == set(known)
    assert [line for line in shown if line.startswith("config.toml: ")] == []


async def test_a_list_key_cannot_hide_an_app_key_and_back(
    library: Library, reopen, library_root: Path
) -> None:
    # Found by an attacker pass: the list's bindings come before the app's while the list has
    # the focus, so "list.down" = "t" left t moving down and the tag editor out of reach.
    write_config('[keys]\n"list.down" = "t"\n"app.star" = "j"\n"reader.down" = "x"\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        await pilot.press("j", "t")
        await settle(app, pilot)
        assert app.screen is not app.main_screen  # t: the tag editor
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.paper_list.current_id == app.paper_list.hits[1].paper_id  # j: still down
    assert first is not None and not reopen(library_root).entry(first).starred
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert problems == [
        "config.toml: keys.list.down: 't' is already app.tag's key (remap app.tag too); ignored",
        "config.toml: keys.app.star: 'j' is already list.down's key (remap list.down too); ignored",
    ]


async def test_a_key_written_with_capitals_still_works(
    library: Library, reopen, library_root: Path
) -> None:
    # Found by an attacker pass: "Ctrl+S" was given to Textual as written; the terminal's ctrl+s
    # is "ctrl+s", so the note could no longer be saved with a key.
    write_config('[keys]\n"note.save" = "Ctrl+S"\n"app.star" = "F2"\n')
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("f2", "n", *"saved", "ctrl+s")
        await settle(app, pilot)
        assert app.screen is app.main_screen
    entry = reopen(library_root).entry(first)
    assert entry.starred and entry.note == "saved"


async def test_a_dialog_key_its_text_field_takes_is_refused(
    library: Library, reopen, library_root: Path
) -> None:
    # Found by an attacker pass: "note.save" = "s" typed an s into the note, ctrl+w deleted a
    # word instead of applying tags, and "dialog.cancel" = "q" left the note editor with no key
    # to cancel it: the text field takes them first. Each is refused; the defaults stay.
    write_config(
        '[keys]\n"note.save" = "s"\n"tags.apply" = "ctrl+w"\n"dialog.cancel" = "q"\n'
        '"add.run" = "space"\n"confirm.yes" = "x"\n"filter.done" = "z"\n'
    )
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.paper_list.current_id
        assert first is not None
        await pilot.press("n", *"sq", "ctrl+s")
        await settle(app, pilot)
        assert app.screen is app.main_screen
        await pilot.press("t", *"mine", "enter", "ctrl+s")
        await settle(app, pilot)
        assert app.screen is app.main_screen
    entry = reopen(library_root).entry(first)
    assert (entry.note, set(entry.tags)) == ("sq", {"mine"})
    problems = [line for line in shown if line.startswith("config.toml: ")]
    assert [line.split(":")[1].strip() for line in problems] == [
        "keys.note.save",
        "keys.tags.apply",
        "keys.dialog.cancel",
        "keys.add.run",
        "keys.filter.done",
    ]
    assert problems[0] == (
        "config.toml: keys.note.save: 's' goes into the dialog's text field there "
        "(use a key with ctrl, or a function key); ignored"
    )
