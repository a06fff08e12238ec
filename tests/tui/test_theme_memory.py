"""The theme picked in the command palette is the theme of the next start (kept in the user's
config file, its comments intact; a version 1 library's settings.json theme still applies)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from pilot_helpers import settle
from test_app_saving import record_notifications

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import SETTINGS_FILE
from papershelf.tui.app import PapershelfApp

SIZE = (120, 40)


async def pick_theme_in_the_palette(app: PapershelfApp, pilot: Any, name: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"theme")
    await settle(app, pilot)
    await pilot.press("enter")
    await settle(app, pilot)
    await pilot.press(*name)
    await settle(app, pilot)
    await pilot.press("enter")
    await settle(app, pilot)


def config_file() -> Path:
    """The config every test has of its own (tests/conftest.py sets $PAPERSHELF_CONFIG)."""
    return Path(os.environ["PAPERSHELF_CONFIG"])


async def test_a_theme_chosen_in_the_palette_is_there_at_the_next_start(
    library: Library, library_root: Path
) -> None:
    config = config_file()
    config.write_text(
        '# my settings\nsort = "name"  # by name, always\n\n[keys]\n"app.tag" = "g"\n'
    )
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        default = app.theme
        assert default != "nord"
        await pick_theme_in_the_palette(app, pilot, "nord")
        assert app.theme == "nord"
    text = config.read_text()
    assert tomllib.loads(text)["theme"] == "nord"
    # tomlkit kept every line the person wrote, comments included, and the table after it.
    assert "# my settings" in text and "# by name, always" in text
    assert tomllib.loads(text)["keys"] == {"app.tag": "g"}
    # The theme is the user's, not the library's (settings.json may hold the first-run hint).
    library_settings = library_root / SETTINGS_FILE
    assert not library_settings.exists() or "theme" not in json.loads(library_settings.read_text())
    assert not list(config.parent.glob("*.tmp"))

    again = PapershelfApp(Library.open(library_root, seed=False))
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.theme == "nord"


async def test_the_first_theme_chosen_creates_the_config(library: Library) -> None:
    config = config_file()
    assert not config.exists()
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick_theme_in_the_palette(app, pilot, "dracula")
        await pick_theme_in_the_palette(app, pilot, "nord")  # twice: the second replaces it
    assert tomllib.loads(config.read_text()) == {"theme": "nord"}


async def test_a_theme_version_1_kept_in_the_library_still_applies(
    library: Library, library_root: Path
) -> None:
    old = {"format": "papershelf-settings", "version": 1, "sort": "library", "theme": "nord"}
    (library_root / SETTINGS_FILE).write_text(json.dumps(old))
    app = PapershelfApp(Library.open(library_root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == "nord"
    assert not config_file().exists()  # starting writes nothing


async def test_an_unknown_theme_in_the_config_is_one_warning(library: Library) -> None:
    config_file().write_text('theme = "no-such-theme"\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        default = App_default_theme()
        assert app.theme == default and app.is_running
    problems = [line for line in shown if "no-such-theme" in line]
    assert len(problems) == 1
    assert problems[0] == (
        "config.toml: theme: unknown theme 'no-such-theme' (ctrl+p, Theme lists them); ignored"
    )


async def test_a_misspelt_theme_gets_a_suggestion(library: Library) -> None:
    config_file().write_text('theme = "solarised"\n')
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
    assert (
        "config.toml: theme: unknown theme 'solarised' "
        "(did you mean solarized-dark or solarized-light?); ignored"
    ) in shown


def App_default_theme() -> str:
    """Textual's own default theme name."""
    from textual.app import App

    return App().theme


async def test_a_config_that_is_not_toml_is_not_overwritten_by_a_theme(library: Library) -> None:
    config = config_file()
    config.write_text("theme = [\n")
    app = PapershelfApp(library)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pick_theme_in_the_palette(app, pilot, "nord")
        assert app.theme == "nord" and app.is_running
    assert config.read_text() == "theme = [\n"
    assert any("not valid TOML" in line and "ignored" in line for line in shown)
    assert any(line.startswith("Theme not remembered:") for line in shown)


async def test_a_theme_this_textual_does_not_know_is_ignored(
    library: Library, library_root: Path
) -> None:
    (library_root / SETTINGS_FILE).write_text(
        json.dumps({"format": "papershelf-settings", "version": 1, "sort": "name", "theme": "x"})
    )
    app = PapershelfApp(Library.open(library_root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme != "x" and app.workflow.sort_order == "name"
        assert app.is_running
    # Starting with it changed nothing in the file.
    assert json.loads((library_root / SETTINGS_FILE).read_text())["theme"] == "x"
