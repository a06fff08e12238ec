"""The list's authors column (issue 13): shown and hidden from the palette, remembered in
settings.json, made only for the rows drawn, hostile names drawn literally."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import settle
from test_app import Notes
from test_reader_record import BARE, FULL, HOSTILE

import papershelf.tui.widgets.list_rows as paper_list_module
from papershelf.storage.library.library import Library
from papershelf.storage.library.settings import SETTINGS_FILE
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.paper_row import AUTHORS_MAX, authors_width, row_pieces

SIZE = (120, 30)


def rows(app: PapershelfApp) -> list[str]:
    papers = app.paper_list
    width = papers.scrollable_content_region.width - 1
    return [papers.rows.content(hit, width, False).plain for hit in papers.hits]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    library = Library.open(tmp_path / "library", seed=False)
    library.import_papers([FULL, HOSTILE, BARE], "record.jsonl")
    return tmp_path / "library"


def saved(root: Path) -> dict[str, Any]:
    return json.loads((root / SETTINGS_FILE).read_text(encoding="utf-8"))


async def palette(pilot: Any, command: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*command)
    await settle(pilot.app, pilot)
    await pilot.press("enter")
    await settle(pilot.app, pilot)


async def test_the_palette_shows_and_hides_the_column_and_it_is_remembered(root) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        assert not any("Vaswani" in row for row in rows(app))
        await palette(pilot, "Show authors column")
        assert app.paper_list.show_authors
        assert notes.last == "Authors column shown"
        assert "Vaswani, Shazeer, … +6" in rows(app)[0]
        assert saved(root)["authors_column"] is True
    # The next start shows it too; hiding it is remembered as well.
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        assert app.paper_list.show_authors
        assert "Vaswani, Shazeer, … +6" in rows(app)[0]
        await palette(pilot, "Hide authors column")
        assert not app.paper_list.show_authors
        assert notes.last == "Authors column hidden"
        # Hidden is a choice of this library too: a config that shows it elsewhere stays out.
        assert saved(root)["authors_column"] is False


async def test_toggling_twice_in_a_burst_ends_where_it_began(root) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        before = rows(app)
        await app.run_action("toggle_authors_column")
        await app.run_action("toggle_authors_column")
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
        assert app.paper_list.show_authors and saved(root)["authors_column"] is True
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
        assert rows(app) == before and saved(root)["authors_column"] is False
        # What is drawn follows: the row on screen has no authors again.
        first = app.paper_list.render_line(0).text
        assert "Vaswani" not in first and "Transformer" in first


async def test_hostile_authors_in_the_column_are_drawn_literally(root) -> None:
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(app, pilot)
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
        papers = app.paper_list
        drawn = [papers.render_line(y).text for y in range(3)]
        assert "[@click=app.quit]Mark" in drawn[1]
        assert all("\x1b" not in line and "\x07" not in line for line in drawn)
        assert all(len(line) == papers.scrollable_content_region.width for line in drawn)
        assert app.is_running


async def test_short_authors_are_made_for_the_rows_drawn_only(tmp_path, monkeypatch) -> None:
    papers = [
        Paper(
            id=f"{index:012x}",
            name=f"Method{index}",
            title=f"Method{index}: a paper about topic {index % 7}",
            abstract=f"We propose Method{index} for problem {index}.",
            venue="Synth 2025",
            sources=("synthetic.jsonl",),
            authors=(f"Ann Author{index}", f"Bo Writer{index}", "Cy Third", "Di Fourth"),
        )
        for index in range(3000)
    ]
    library = Library.open(tmp_path / "big", seed=False)
    library.import_papers(papers, "synthetic.jsonl")
    made: list[tuple[str, ...]] = []
    real = paper_list_module.authors_short

    def counting(authors: Any, limit: int = 3) -> str:
        made.append(tuple(authors))
        return real(authors, limit)

    monkeypatch.setattr(paper_list_module, "authors_short", counting)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
        height = app.paper_list.scrollable_content_region.height
        assert 0 < len(made) <= height
        assert "Author0, Writer0, … +2" in app.paper_list.render_line(0).text
        made.clear()
        await pilot.press("slash", *"topic 3", "enter")
        await settle(app, pilot)
        # A query shows other papers: only the rows on screen are made, once each.
        assert len(app.paper_list.hits) > height
        assert 0 < len(made) <= height and len(set(made)) == len(made)


HIT = Hit(FULL.id, 1.0, "", (), {})


def test_the_column_lines_up_and_every_row_fills_its_width() -> None:
    from dataclasses import replace

    others = [replace(FULL, authors=()), replace(FULL, authors=("Plato",), venue=None)]
    for width in (40, 60, 80, 120, 200):
        starts = set()
        for paper in (FULL, *others):
            authors = paper_list_module.authors_short(paper.authors)
            pieces = row_pieces(paper, Entry(), HIT, ("name", "title"), width, False, authors)
            text = "".join(piece for piece, _ in pieces)
            assert len(text) == width
            column = [i for i, (_, parts) in enumerate(pieces) if parts == ("authors",)]
            if column:
                starts.add(len("".join(piece for piece, _ in pieces[: column[0]])))
        assert len(starts) <= 1  # one column, wherever the names are long or short
        cells = authors_width(width)
        assert cells <= AUTHORS_MAX


def test_without_the_column_rows_are_as_before() -> None:
    for width in (40, 80, 120):
        plain = row_pieces(FULL, Entry(), HIT, ("name", "title"), width, False)
        none = row_pieces(FULL, Entry(), HIT, ("name", "title"), width, False, None)
        assert plain == none
        shown = "".join(
            p for p, _ in row_pieces(FULL, Entry(), HIT, ("name", "title"), width, False, "Vaswani")
        )
        if authors_width(width):
            assert "Vaswani" in shown


async def test_the_palette_names_the_command_by_what_it_will_do(root) -> None:
    from papershelf.tui.app_columns import ColumnCommands

    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        provider = ColumnCommands(app.screen)
        (hit,) = [hit async for hit in provider.discover()]
        assert str(hit.display) == "Show authors column"
        await hit.command()  # type: ignore[misc]
        await settle(app, pilot)
        assert app.paper_list.show_authors
        (hit,) = [hit async for hit in provider.discover()]
        assert str(hit.display) == "Hide authors column"
        assert [hit async for hit in provider.search("sort by venue")] == []


async def test_a_column_that_cannot_be_remembered_is_still_shown_and_said(root) -> None:
    (root / SETTINGS_FILE).mkdir()  # nothing can replace a directory
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await app.run_action("toggle_authors_column")
        await settle(app, pilot)
        assert app.paper_list.show_authors
        assert any(
            message.startswith("Authors column not remembered: ") and severity == "error"
            for message, severity in notes.items
        )
        assert notes.last == "Authors column shown"
