"""Snapshots of a paper's bibliographic record (issue 13): the reader with every field, the
reader with hostile author names, and the list's authors column.

Update with `pytest tests/tui/test_snapshots_record.py --snapshot-update`, then look at the
report before committing the SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import hint_seen, settle
from test_reader_record import BARE, FULL, HOSTILE

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp


def record_app(tmp_path: Path) -> PapershelfApp:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([FULL, HOSTILE, BARE], "record.jsonl")
    hint_seen(tmp_path / "lib")
    return PapershelfApp(Library.open(tmp_path / "lib", seed=False))


def test_reader_with_a_full_record(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("enter")  # the first paper, FULL, in the focused reader
        await settle(pilot.app, pilot)

    assert snap_compare(record_app(tmp_path), run_before=run_before, terminal_size=(100, 30))


def test_reader_with_hostile_authors(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("j")
        await settle(pilot.app, pilot)

    assert snap_compare(record_app(tmp_path), run_before=run_before, terminal_size=(100, 30))


def test_list_with_the_authors_column(snap_compare, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.app.run_action("toggle_authors_column")
        await settle(pilot.app, pilot)

    assert snap_compare(record_app(tmp_path), run_before=run_before, terminal_size=(140, 24))
