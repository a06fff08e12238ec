"""The theme picked in the command palette is the theme of the next start."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pilot_helpers import settle

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


async def test_a_theme_chosen_in_the_palette_is_there_at_the_next_start(
    library: Library, library_root: Path
) -> None:
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        default = app.theme
        assert default != "nord"
        await pick_theme_in_the_palette(app, pilot, "nord")
        assert app.theme == "nord"
    saved = json.loads((library_root / SETTINGS_FILE).read_text())
    assert saved["theme"] == "nord"

    again = PapershelfApp(Library.open(library_root, seed=False))
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.theme == "nord"


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
