"""Screenshots of the add dialog (`a`) over a plausible background (reviewed by eye).

Update with `pytest tests/tui/test_snapshots_add.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_dialogs_harness import DialogHarness
from test_snapshots_dialogs import SIZES, settle
from textual.pilot import Pilot

from papershelf.tui.screens.add_dialog import AddDialog


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_add_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(DialogHarness(AddDialog), terminal_size=size, run_before=settle)


def test_add_dialog_names_a_word_that_is_no_identifier(snap_compare: Any) -> None:
    async def typed(pilot: Pilot[Any]) -> None:
        await pilot.press(*"arXiv:2501.01234 wombat\x1b[2J", "enter")
        await settle(pilot)

    app = DialogHarness(AddDialog)
    assert snap_compare(app, terminal_size=(80, 24), run_before=typed)
