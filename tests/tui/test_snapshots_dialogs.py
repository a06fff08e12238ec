"""Screenshots of the dialogs over a plausible background (reviewed by eye before accepting).

Update with `pytest tests/tui/test_snapshots_dialogs.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from test_dialogs_harness import DialogHarness, still_blink
from textual.pilot import Pilot

from papershelf.tui.screens.confirm import Confirm
from papershelf.tui.screens.export_dialog import ExportDialog
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.tag_editor import TagEditor

SIZES = [(80, 24), (160, 48)]
KNOWN = {"to-read": 40, "llm": 30, "transformers": 15, "diffusion": 12, "graph": 9, "rl": 7}
# A fixed folder: the path is part of the picture; nothing is written there.
EXPORT_DIR = Path("/home/reader/papers")


async def settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    still_blink(pilot.app)
    await pilot.pause()


def tag_editor_several() -> DialogHarness:
    names = ["RelGNN", "SafeDiffCon", "K²IE", "STRING", "k-DTW"]
    counts = {"graph": 2, "to-read": 5, "[mask]": 1}
    return DialogHarness(lambda: TagEditor(names, frozenset(counts), KNOWN, counts=counts))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_tag_editor_one_paper(snap_compare: Any, size: tuple[int, int]) -> None:
    app = DialogHarness(lambda: TagEditor(["RelGNN"], frozenset({"graph", "to-read"}), KNOWN))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_tag_editor_several_papers_with_pending_changes(
    snap_compare: Any, size: tuple[int, int]
) -> None:
    async def edit(pilot: Pilot[Any]) -> None:
        await pilot.press(*"graph", "enter", *"-[mask]", "enter", *"tr")
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)

    assert snap_compare(tag_editor_several(), terminal_size=size, run_before=edit)


def test_tag_editor_inline_error(snap_compare: Any) -> None:
    async def bad(pilot: Pilot[Any]) -> None:
        await pilot.press("#", "enter")
        await settle(pilot)

    app = DialogHarness(lambda: TagEditor(["RelGNN"], frozenset({"graph"}), KNOWN))
    assert snap_compare(app, run_before=bad)


def export_dialog(marked: int) -> DialogHarness:
    tags = ["to-read", "diffusion", "graph", "llm", "rl", "theory", "transformers"]
    return DialogHarness(
        lambda: ExportDialog(EXPORT_DIR, tags, 120, marked, None, date(2025, 7, 14))
    )


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x48"])
def test_export_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(export_dialog(marked=3), terminal_size=size, run_before=settle)


def test_export_dialog_on_a_tag_without_marks(snap_compare: Any) -> None:
    async def to_tag(pilot: Pilot[Any]) -> None:
        await pilot.press("down", "down")
        await settle(pilot)

    assert snap_compare(export_dialog(marked=0), run_before=to_tag)


def test_export_dialog_missing_folder(snap_compare: Any) -> None:
    async def bad(pilot: Pilot[Any]) -> None:
        await pilot.press("tab", "enter")
        await settle(pilot)

    assert snap_compare(export_dialog(marked=0), run_before=bad)


def test_export_dialog_bibtex_chosen(snap_compare: Any) -> None:
    async def bibtex(pilot: Pilot[Any]) -> None:
        await pilot.press("tab", "tab", "down")
        await settle(pilot)

    assert snap_compare(export_dialog(marked=0), run_before=bibtex)


def test_note_editor(snap_compare: Any) -> None:
    note = "Atomic routes = composite message passing.\nCompare with RDL on [MASK] tasks."
    app = DialogHarness(lambda: NoteEditor("RelGNN", note))
    assert snap_compare(app, run_before=settle)


def test_link_chooser(snap_compare: Any) -> None:
    urls = [
        "https://github.com/snap-stanford/relgnn",
        "https://relbench.stanford.edu/[/]",
        "https://huggingface.co/papers/2502.06784",
    ]
    app = DialogHarness(lambda: LinkChooser(urls, "Copy which link? · RelGNN"))
    assert snap_compare(app, run_before=settle)


def test_confirm(snap_compare: Any) -> None:
    question = "reading-list-to-read-2025-07-14.md already exists in /home/reader/papers.\n"
    question += "Replace it with this export?"
    app = DialogHarness(lambda: Confirm(question, yes="Replace", no="Keep it"))
    assert snap_compare(app, run_before=settle)
