"""Pilot tests of `y` and `o` on papers whose page (the import's `url`) is a link (issue 11).

The library is made by a real import of a JSON Lines file; copies go to the fake `xclip` of
`conftest.clipboard`, and `webbrowser.open` (the outside browser) is replaced by a recorder.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.widgets.reader import Reader

PAGE = "https://pageonly.example.org/paper/1"
MARKUP_PAGE = "https://kiwi.example.org/[b]bold[/b]?q=[@click=app.quit]x[/]"
RECORDS = {
    "page": {
        "title": "PageOnly: its landing page is its only link",
        "abstract": "We propose PageOnly, a way to count wombats from their burrows.",
        "url": PAGE,
    },
    "all": {
        "title": "Everything: code, a link and a page",
        "abstract": (
            "We propose Everything, a quokka tracker. Code: https://github.com/quokka/every. "
            "Project page: quokka-every.github.io."
        ),
        "url": "every.example.org/paper",
    },
    "repo": {
        "title": "RepoPage: its landing page is its repository",
        "abstract": "We propose RepoPage, a bilby tracker.",
        "url": "https://github.com/bilby/repopage",
    },
    "markup": {
        "title": "MarkupPage: a page address full of markup",
        "abstract": "We propose MarkupPage, a kiwi counter.",
        "url": MARKUP_PAGE,
    },
    "none": {
        "title": "Nothing: no link at all",
        "abstract": "We propose Nothing, a numbat survey with no address at all.",
    },
}


@pytest.fixture
def papers(tmp_path: Path) -> tuple[Library, SimpleNamespace]:
    source = tmp_path / "links.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in RECORDS.values()), encoding="utf-8")
    library = Library.open(tmp_path / "library", seed=False)
    (report,) = library.import_files([source])
    assert report.added == len(RECORDS), report
    by_title = {paper.title: paper.id for paper in library.papers()}
    ids = SimpleNamespace(**{key: by_title[record["title"]] for key, record in RECORDS.items()})
    return library, ids


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs handed to the browser (none is started)."""
    urls: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: urls.append(url) or True)
    return urls


async def test_y_copies_the_page_of_a_paper_without_code(papers, clipboard) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await go_to(app, pilot, ids.page)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == [PAGE]
        assert PAGE in notes.last
        # The same from the reader.
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, Reader)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == [PAGE, PAGE]


async def test_y_still_copies_the_code_url_when_there_is_one(papers, clipboard) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await go_to(app, pilot, ids.all)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == ["https://github.com/quokka/every"]
        await go_to(app, pilot, ids.none)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == ["https://github.com/quokka/every"]
        assert notes.last == "Nothing has no code URL"
        assert notes.last_severity == "warning"


async def test_o_opens_the_page_of_a_paper_with_nothing_else(papers, opened) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.page)
        await pilot.press("o")
        await settle(app, pilot)
        assert not isinstance(app.screen, LinkChooser)
        assert opened == [PAGE]


async def test_o_offers_code_then_links_then_the_page(papers, opened) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.all)
        await pilot.press("o")
        await pilot.pause()
        chooser = app.screen
        assert isinstance(chooser, LinkChooser)
        assert chooser.urls == (
            "https://github.com/quokka/every",
            "https://quokka-every.github.io",
            "https://every.example.org/paper",
        )
        await pilot.press("3")
        await settle(app, pilot)
        assert opened == ["https://every.example.org/paper"]


async def test_the_reader_shows_bare_hosts_and_the_page_with_https(papers) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.all)
        await pilot.pause()
        lines = app.query_one(Reader).text.splitlines()
        assert "code   https://github.com/quokka/every" in lines
        assert "link   https://quokka-every.github.io" in lines
        assert "page   https://every.example.org/paper" in lines


async def test_the_reader_shows_a_page_that_is_the_repository_once(papers) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.repo)
        await pilot.pause()
        text = app.query_one(Reader).text
        assert "code   https://github.com/bilby/repopage" in text.splitlines()
        assert text.count("https://github.com/bilby/repopage") == 1


async def test_y_copies_a_page_full_of_markup_as_written(papers, clipboard) -> None:
    library, ids = papers
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)  # checks that every notification has markup off
        await go_to(app, pilot, ids.markup)
        await pilot.press("y")
        await settle(app, pilot)
        assert app.is_running
        assert clipboard.copied == [MARKUP_PAGE]
        assert MARKUP_PAGE in notes.last
