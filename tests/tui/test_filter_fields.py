"""Field terms typed in the app's filter: the same engine and answers as `papershelf list`."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from pilot_helpers import settle

from papershelf.cli.main import main
from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.status_line import StatusLine

AUTHORS = Path(__file__).resolve().parent.parent / "fixtures" / "search" / "authors.jsonl"
SIZE = (120, 40)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "lib"
    library = Library.open(root, seed=False)
    library.import_files([AUTHORS])
    return root


def cli_titles(root: Path, query: str) -> list[str]:
    """What `papershelf list --json` answers for `query`, as titles."""
    import json

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--db", str(root), "list", "--json", query]) == 0
    return [row["title"] for row in json.loads(out.getvalue())]


def shown_titles(app: PapershelfApp, library: Library) -> list[str | None]:
    return [library.get(hit.paper_id).title for hit in app.paper_list.hits]


@pytest.mark.parametrize(
    "query",
    [
        "author:muller year:2024",
        "author:shazeer|bengio !year:2018..",
        "title:attention year:..2017",
    ],
)
async def test_a_field_query_typed_in_the_filter_lists_what_the_cli_lists(
    root: Path, query: str
) -> None:
    expected = cli_titles(root, query)
    assert expected  # each query finds something
    library = Library.open(root, seed=False)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *query)
        await settle(app, pilot)
        assert app.query_one(FilterBar).value == query
        assert shown_titles(app, library) == expected


async def test_typing_author_narrows_the_list_key_by_key(root: Path) -> None:
    library = Library.open(root, seed=False)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"author:")
        await settle(app, pilot)
        assert len(app.paper_list.hits) == 8  # a key with nothing after it yet: everything
        await pilot.press(*"vasw")
        await settle(app, pilot)
        assert shown_titles(app, library) == ["Attention Is All You Need"]
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"muller")
        await settle(app, pilot)
        assert shown_titles(app, library) == [
            "Neural Processes for Müller's Ratchet",
            "Diffusion Transformers at Scale",
        ]


async def test_a_bad_year_is_said_in_the_status_line_as_the_cli_says_it(root: Path) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["--db", str(root), "list", "year:20x4"]) == 1
    said = err.getvalue().removeprefix("papershelf: ").strip()
    assert said.startswith("unknown year: value '20x4'")
    app = PapershelfApp(Library.open(root, seed=False))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"year:20x4")
        await settle(app, pilot)
        assert said in str(app.query_one(StatusLine).render())
        assert len(app.paper_list.hits) == 0
