"""Pilot tests of "more like this": the related screen's content, the jump, the index's life."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

import papershelf.tui.app_workflow as workflow
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.related.index import RelatedIndex
from papershelf.tui.screens.related import RelatedList, RelatedScreen
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader


def expected(library: Library, paper_id: str) -> list[tuple[str, float]]:
    """What the storage side ranks for `paper_id` (the screen must list exactly this)."""
    return RelatedIndex(library.papers()).related(paper_id, 10)


def prompts(screen: RelatedScreen) -> list[str]:
    return [str(prompt) for prompt in screen.query_one("#related", RelatedList).prompts]


async def test_r_lists_the_ten_most_related_papers_with_scores_and_terms(
    make_app, library: Library
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        source = app.query_one(Reader).paper_id
        assert source is not None
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RelatedScreen)
        ranked = expected(library, source)
        assert len(ranked) == 10
        assert [item.paper_id for item in screen.items] == [pid for pid, _ in ranked]
        index = RelatedIndex(library.papers())
        for item, text, (paper_id, score) in zip(
            screen.items, prompts(screen), ranked, strict=True
        ):
            paper = library.get(paper_id)
            terms = index.shared_terms(source, paper_id)
            assert terms and item.shared_terms == tuple(terms)
            lines = text.split("\n")
            assert lines[0] == f"{score:4.2f}  {paper.name}  {paper.venue}"
            assert lines[-1].strip() == "shared: " + " · ".join(terms)
        title = screen.query_one("#dialog").border_title
        assert str(title) == f"More like {library.get(source).name}"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RelatedScreen)
        assert isinstance(app.focused, PaperList)


async def test_enter_jumps_to_the_paper_in_the_list(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        source = library.papers()[3].id
        await go_to(app, pilot, source)
        await pilot.press("enter", "r")  # from the reader
        await pilot.pause()
        target = expected(library, source)[2][0]
        await pilot.press("down", "down", "enter")
        await settle(app, pilot)
        assert isinstance(app.focused, PaperList)
        assert app.paper_list.current_id == target
        assert app.query_one(Reader).paper_id == target


async def test_the_jump_clears_a_filter_that_hides_the_paper(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        source = library.papers()[0]
        await pilot.press("slash", *f"^{source.name}", "enter")
        await settle(app, pilot)
        shown = [hit.paper_id for hit in app.paper_list.hits]
        target = next(pid for pid, _ in expected(library, source.id) if pid not in shown)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RelatedScreen)
        index = [item.paper_id for item in screen.items].index(target)
        await pilot.press(*["down"] * index, "enter")
        await settle(app, pilot)
        assert app.query_one(FilterBar).value == ""
        assert len(app.paper_list.hits) == len(library.papers())
        assert app.paper_list.current_id == target
        assert app.query_one(Reader).paper_id == target
        assert isinstance(app.focused, PaperList)


async def test_r_says_still_indexing_until_the_index_is_built(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    built: list[int] = []

    class SlowIndex(RelatedIndex):
        def __init__(self, papers: Any, **kwargs: Any) -> None:
            release.wait(30)
            super().__init__(papers, **kwargs)  # (its build's progress)
            built.append(len(self))

    monkeypatch.setattr(workflow, "RelatedIndex", SlowIndex)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert not built
        notes = Notes(app)
        await pilot.press("r")
        assert notes.last == "Related papers: still indexing… try again in a moment"
        assert notes.last_severity == "warning"
        assert not isinstance(app.screen, RelatedScreen)
        release.set()
        await settle(app, pilot)
        assert built == [37]
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RelatedScreen)


async def test_the_index_is_rebuilt_when_papers_are_imported(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        first = app.workflow.related_index
        assert first is not None and len(first) == 37
        source = library.papers()[0]
        twin = Paper(
            id="0123456789ab",
            name="Twin",
            title=None,
            abstract=source.abstract + " A twin of it, imported later.",
            venue="Later 2026",
            sources=("later.jsonl",),
        )
        Library.open(library.root, seed=False).import_papers([twin], "later.jsonl")
        app.poll_library()  # what the timer does every two seconds
        await settle(app, pilot)
        assert app.workflow.related_index is not first
        assert len(app.workflow.related_index) == 38
        await go_to(app, pilot, source.id)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RelatedScreen)
        assert app.screen.items[0].paper_id == twin.id


async def test_j_and_k_move_the_highlight_and_stop_at_the_ends(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        source = app.query_one(Reader).paper_id
        assert source is not None
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RelatedScreen)
        related = screen.query_one("#related", RelatedList)
        assert app.focused is related and related.cursor == 0
        await pilot.press("k")  # already at the top
        assert related.cursor == 0
        await pilot.press(*["j"] * 12)  # past the bottom
        assert related.cursor == len(screen.items) - 1
        await pilot.press("k", "k", "enter")
        await settle(app, pilot)
        assert app.paper_list.current_id == expected(library, source)[-3][0]


async def test_the_related_build_waits_while_searches_run(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build gives way to the searches of keys being typed (`SearchWiring.give_way`): while
    a search ran within `WARM_QUIET_SECONDS` it waits; once searches are quiet it finishes."""
    import papershelf.tui.app_search as app_search

    monkeypatch.setattr(app_search, "WARM_QUIET_SECONDS", 1e12)  # a search "just ran", always
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        assert app.workflow.related_index is None
        assert any(worker.group == "related" and not worker.is_finished for worker in app.workers)
        monkeypatch.setattr(app_search, "WARM_QUIET_SECONDS", 0.0)
        await settle(app, pilot)
        assert app.workflow.related_index is not None
        assert len(app.workflow.related_index) == 37
