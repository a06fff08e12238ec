"""The list's rows (issue 15, part 1): the name once, venue and tags in columns that line up
whatever the tags, the bulk-mark box only while marks exist; the symbols' legend on the help
screen and the first-run hint, shown once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pilot_helpers import settle
from rich.cells import cell_len
from test_app import Notes

from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import SETTINGS_FILE
from papershelf.tui.app import PapershelfApp
from papershelf.tui.first_run import HINT
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.widgets.paper_row import LEGEND, MARK_BOXES

FIXTURE = Path(__file__).parents[1] / "fixtures" / "layout" / "rows.jsonl"
SIZE = (120, 30)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    library = Library.open(tmp_path / "library", seed=False)
    library.import_files([FIXTURE])
    return tmp_path / "library"


def drawn_rows(app: PapershelfApp) -> list[str]:
    """The rows as drawn on screen (the list's own lines, position bar cut off)."""
    papers = app.paper_list
    width = papers.scrollable_content_region.width
    lines = [papers.render_line(y).text for y in range(len(papers.hits))]
    return [line[: width - 1] for line in lines]


def row_of(rows: list[str], word: str) -> str:
    (row,) = [row for row in rows if word in row]
    return row


def cell_of(row: str, text: str) -> int:
    """The screen column where `text` starts in `row`."""
    return cell_len(row[: row.index(text)])


async def test_a_title_that_begins_with_the_name_shows_the_name_once(root: Path) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        rows = drawn_rows(app)
        pandas = row_of(rows, "PANDAS")
        assert pandas.count("PANDAS") == 1
        assert "PANDAS  Improving Many-shot" in pandas and "PANDAS:" not in pandas
        assert "RLEF  Grounding Code LLMs" in row_of(rows, "RLEF")
        # A name that is not the title's start keeps the whole title beside it.
        assert "MARINE  Mitigating Object Hallucination" in row_of(rows, "MARINE")
        # A headline name (the title's own first words) shows the title once, unsplit.
        forests = row_of(rows, "Random Forests")
        assert forests.count("Generalized") == 1


async def test_venue_and_tags_line_up_whatever_the_tags(root: Path) -> None:
    library = Library.open(root, seed=False)
    papers = library.papers()
    library.tag([papers[0].id], add=["jailbreak", "safety", "long-tag-name"])
    library.tag([papers[2].id], add=["rl"])
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        rows = drawn_rows(app)
        names = ("ICML 2025", "NeurIPS 2024", "ICLR 2025")
        venues = {cell_of(row, venue) for row in rows for venue in names if venue in row}
        assert len(venues) == 1, rows  # ICML 2025, NeurIPS 2024, ICLR 2025: one column
        tags = {cell_of(row, "#") for row in rows if "#" in row}
        assert len(tags) == 1, rows
        assert all(cell_len(row) == cell_len(rows[0]) for row in rows)


async def test_the_mark_box_shows_only_while_marks_exist(root: Path) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert not any(box in row for row in drawn_rows(app) for box in MARK_BOXES)
        await pilot.press("space")
        await pilot.pause()
        rows = drawn_rows(app)
        assert rows[0].startswith(MARK_BOXES[1]) and all(
            row.startswith(MARK_BOXES[0]) for row in rows[1:]
        )
        await pilot.press("k", "space")  # unmark the only marked paper: the boxes go
        await pilot.pause()
        assert not any(box in row for row in drawn_rows(app) for box in MARK_BOXES)
        await pilot.press("space", "space", "space")  # in a burst: each marks and moves on
        await pilot.pause()
        rows = drawn_rows(app)
        assert sum(row.startswith(MARK_BOXES[1]) for row in rows) == 3
        assert all(row[0] in MARK_BOXES for row in rows)


async def test_the_help_screen_has_a_legend_of_every_symbol(root: Path) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = str(app.screen.query_one("#help-keys").render())
        assert "Symbols in the list" in text
        for symbol in ("☑", "◐", "✓", "★", "{}", "#tag", "█"):
            assert any(symbol == s for s, _ in LEGEND)
            assert f"  {symbol}  " in text or f"  {symbol} " in text


async def test_the_first_run_hint_shows_once_and_settings_remember_it(root: Path) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
    assert [message for message, _ in notes.items].count(HINT) == 1
    assert json.loads((root / SETTINGS_FILE).read_text(encoding="utf-8"))["hint_shown"] is True
    again = PapershelfApp(Library.open(root, seed=False))
    notes = Notes(again)
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
    assert HINT not in [message for message, _ in notes.items]


async def test_a_hint_that_cannot_be_remembered_still_shows(root: Path) -> None:
    (root / SETTINGS_FILE).mkdir()  # nothing can replace a directory
    app = PapershelfApp(Library.open(root, seed=False))
    notes = Notes(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert [message for message, _ in notes.items].count(HINT) == 1
        assert app.return_code is None  # still running: no crash over a settings file


def test_help_descriptions_wrap_under_their_own_column() -> None:
    from papershelf.tui.screens.help import HelpSection, KeyHelp, help_content

    sections = [HelpSection("List", (KeyHelp("esc", "Back to the list of papers"),))]
    assert help_content(sections).plain.splitlines()[1] == "  esc  Back to the list of papers"
    lines = help_content(sections, 22).plain.splitlines()
    assert lines[1:] == ["  esc  Back to the", "       list of papers"]
    assert all(len(line) <= 22 for line in lines)
