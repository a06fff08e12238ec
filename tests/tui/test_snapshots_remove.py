"""Screenshots of the remove dialog over a plausible background (reviewed by eye before accepting).

Update with `pytest tests/tui/test_snapshots_remove.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_dialogs_harness import DialogHarness
from test_snapshots_dialogs import settle

from papershelf.tui.screens.remove_dialog import RemoveDialog

MANY = ["RelGNN", "SafeDiffCon", "K²IE", "STRING", "k-DTW", "[MASK] \x1b[2J", "LEVIS", "NCAL"]


def test_remove_one_paper(snap_compare: Any) -> None:
    app = DialogHarness(lambda: RemoveDialog(["RelGNN"], on_remove=lambda: None))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_remove_marked_papers(snap_compare: Any, size: tuple[int, int]) -> None:
    app = DialogHarness(lambda: RemoveDialog(MANY, on_remove=lambda: None))
    assert snap_compare(app, terminal_size=size, run_before=settle)
