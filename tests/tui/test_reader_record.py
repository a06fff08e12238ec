"""The reader with a paper's bibliographic record (issue 13): every author, the year, the
identifiers and the PDF; `y` and `o` offer the record's links (PDF, doi.org, arXiv, OpenReview).

Papers are built with their record and stored by `Library.import_papers`, as importers store
them; copies go to the fake `xclip` of `conftest.clipboard`, and `webbrowser.open` (the outside
browser) is replaced by a recorder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.widgets.reader import Reader, reader_content

AUTHORS = (
    "Ashish Vaswani",
    "Noam Shazeer",
    "Niki Parmar",
    "Jakob Uszkoreit",
    "Llion Jones",
    "Aidan N. Gomez",
    "Łukasz Kaiser",
    "Illia Polosukhin",
)
PAGE = "https://papers.nips.cc/paper/7181-attention-is-all-you-need"
PDF = "https://arxiv.org/pdf/1706.03762v7"
FULL = Paper(
    id="abcdef000101",
    name="Transformer",
    title="Attention Is All You Need",
    abstract=(
        "We propose a new simple network architecture, the Transformer, based solely on "
        "attention mechanisms, dispensing with recurrence and convolutions entirely."
    ),
    venue="NeurIPS 2017",
    sources=("record.jsonl",),
    authors=AUTHORS,
    url=PAGE,
    year=2017,
    doi="10.48550/arxiv.1706.03762",
    arxiv_id="1706.03762",
    openreview_id="rJ4km2R5t7",
    pdf_url=PDF,
    kind="inproceedings",
    cite_key="vaswani2017attention",
)
# Authors as no importer would store them (the model holds whatever it is given): markup, raw
# escapes, a name longer than any pane.
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff" * 6
HOSTILE = Paper(
    id="abcdef000102",
    name="Hostile",
    title="Hostile: authors full of markup and escapes",
    abstract="We propose Hostile, a kiwi counter whose authors are not to be trusted.",
    venue=None,
    sources=("record.jsonl",),
    authors=(
        "[bold]Mallory[/bold] [@click=app.quit]Markup[/]",
        "Eve \x1b[2J\x1b]52;c;aGk=\x07Escape",
        LONG_NAME,
    ),
    year=2025,
    pdf_url="https://kiwi.example.org/[b]paper[/b].pdf",
)
BARE = Paper(
    id="abcdef000103",
    name="Bare",
    title=None,
    abstract="We propose Bare, a paper with no record at all.",
    venue=None,
    sources=("record.jsonl",),
)


def lines_of(paper: Paper, hit: Hit | None = None) -> list[str]:
    return reader_content(paper, Entry(), hit).plain.splitlines()


def test_the_reader_shows_the_whole_record_under_the_heading() -> None:
    lines = lines_of(FULL)
    assert lines[:3] == ["Transformer", "Attention Is All You Need", ""]
    assert lines[3:7] == [
        "by     " + ", ".join(AUTHORS),
        "venue  NeurIPS 2017",
        "year   2017",
        "ids    doi:10.48550/arxiv.1706.03762  arxiv:1706.03762  openreview:rJ4km2R5t7",
    ]
    assert f"page   {PAGE}" in lines
    assert f"pdf    {PDF}" in lines
    assert lines.index(f"page   {PAGE}") + 1 == lines.index(f"pdf    {PDF}")


def test_a_paper_without_a_record_shows_none_of_its_lines() -> None:
    lines = lines_of(BARE)
    assert lines[2] == "venue  unknown venue"
    assert not [line for line in lines if line.split(" ")[0] in ("by", "year", "ids", "pdf")]


def test_a_pdf_that_is_already_shown_is_not_repeated() -> None:
    from dataclasses import replace

    text = "\n".join(lines_of(replace(FULL, pdf_url=PAGE)))
    assert text.count(PAGE) == 1 and "pdf    " not in text


def test_author_matches_are_highlighted_where_search_puts_them() -> None:
    # The place search's `author:` highlights land: spans under "authors", into the line shown.
    start = ", ".join(AUTHORS).index("Kaiser")
    hit = Hit(FULL.id, 1.0, "authors", ("kaiser",), {"authors": ((start, start + 6),)})
    content = reader_content(FULL, Entry(), hit)
    marked = [content.plain[s.start : s.end] for s in content.spans if s.style == ".reader--match"]
    assert marked == ["Kaiser"]


def test_hostile_authors_are_shown_literally_without_control_characters() -> None:
    content = reader_content(HOSTILE, Entry(), None)
    (by,) = [line for line in content.plain.splitlines() if line.startswith("by ")]
    assert "[bold]Mallory[/bold] [@click=app.quit]Markup[/]" in by
    assert LONG_NAME in by
    assert not any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in content.plain if ch != "\n")
    assert "pdf    https://kiwi.example.org/[b]paper[/b].pdf" in content.plain.splitlines()


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "library", seed=False)
    library.import_papers([FULL, HOSTILE, BARE], "record.jsonl")
    return Library.open(tmp_path / "library", seed=False)


async def test_the_reader_wraps_every_author_and_draws_hostile_names_cleanly(library) -> None:
    app = PapershelfApp(library)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(app, pilot)
        reader = app.query_one(Reader)
        for paper in (FULL, HOSTILE):
            await go_to(app, pilot, paper.id)
            await pilot.pause()
            width = reader.scrollable_content_region.width
            drawn = [reader.render_line(y) for y in range(reader.scrollable_content_region.height)]
            assert all(strip.cell_length == width for strip in drawn)
            screen = "\n".join(strip.text for strip in drawn)
            assert "\x1b" not in screen and "\x07" not in screen
        # Every author of FULL is on screen, over more than one line at this width.
        await go_to(app, pilot, FULL.id)
        await pilot.pause()
        text_width = reader.scrollable_content_region.width - 2  # a gap, then the bar
        screen = [reader.render_line(y).text[:text_width].rstrip() for y in range(12)]
        together = " ".join(line.strip() for line in screen)
        for name in AUTHORS:
            assert name in together
        assert screen[3].startswith("by     Ashish Vaswani")
        assert "Polosukhin" not in screen[3]
        assert app.is_running


async def test_y_offers_the_record_links_of_a_paper_without_code(library, clipboard) -> None:
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        Notes(app)  # every notification with markup off
        await go_to(app, pilot, FULL.id)
        await pilot.press("y")
        await pilot.pause()
        chooser = app.screen
        assert isinstance(chooser, LinkChooser)
        assert chooser.urls == (
            PAGE,
            PDF,
            "https://doi.org/10.48550/arxiv.1706.03762",
            "https://arxiv.org/abs/1706.03762",
            "https://openreview.net/forum?id=rJ4km2R5t7",
        )
        await pilot.press("2")
        await settle(app, pilot)
        assert clipboard.copied == [PDF]
        # Twice, in a burst, from the reader: the DOI's address, then arXiv's.
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, Reader)
        await pilot.press("y", "3", "y", "4")
        await settle(app, pilot)
        assert clipboard.copied == [
            PDF,
            "https://doi.org/10.48550/arxiv.1706.03762",
            "https://arxiv.org/abs/1706.03762",
        ]


async def test_o_opens_the_pdf_and_a_lone_record_link_at_once(library, monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, FULL.id)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LinkChooser)
        assert len(app.screen.urls) == 5
        await pilot.press("2")
        await settle(app, pilot)
        assert opened == [PDF]
        # HOSTILE's one link is its PDF: opened at once, address as written.
        await go_to(app, pilot, HOSTILE.id)
        await pilot.press("o")
        await settle(app, pilot)
        assert not isinstance(app.screen, LinkChooser)
        assert opened == [PDF, "https://kiwi.example.org/[b]paper[/b].pdf"]
