"""Snapshots of the "more like this" screen at 80x24 and 160x48.

Update with `pytest tests/tui/test_snapshots_related.py --snapshot-update`, then look at the
report before committing the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest

SIZES = [(80, 24), (160, 48)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_related_screen(snap_compare, make_app, size) -> None:
    async def run_before(pilot: Any) -> None:
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        await pilot.press("j", "enter", "r")  # from the reader, on the second paper
        await pilot.pause()
        await pilot.press("down")

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)
