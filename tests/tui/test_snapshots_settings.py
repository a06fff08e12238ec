"""Snapshot of the help screen under a config that remaps keys: the remapped keys are shown.

Update with `pytest tests/tui/test_snapshots_settings.py --snapshot-update`, then look at the
report before committing the SVG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import settle

from papershelf.storage.library.config import parse_config
from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp

# The config as read from this text; its path (which the help screen shows) is the same in
# every run, and nothing is written there.
CONFIG = parse_config(
    '[keys]\n"list.down" = ["J", "down"]\n"app.filter" = ["slash", "f"]\n',
    Path("/home/reader/.config/papershelf/config.toml"),
)


def test_help_screen_with_remapped_keys(snap_compare, library: Library) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("question_mark")
        await settle(pilot.app, pilot)

    app = PapershelfApp(library, CONFIG)
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
