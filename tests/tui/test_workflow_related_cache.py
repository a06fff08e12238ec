"""The app's related-papers worker and `related-index.bin`: loaded when it is the papers',
built and saved when it is missing or stale, and the index then answers as a built one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pilot_helpers import settle
from test_app import SIZE

import papershelf.tui.app_workflow as workflow
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.related.cache import RELATED_CACHE, load, load_or_build, save
from papershelf.storage.related.index import RelatedIndex
from papershelf.tui.screens.related import RelatedScreen


class CountedIndex(RelatedIndex):
    """`RelatedIndex`, counting the builds the app asks for."""

    builds: ClassVar[list[int]] = []

    def __init__(self, papers: Sequence[Paper], **kwargs: Any) -> None:
        super().__init__(papers, **kwargs)
        CountedIndex.builds.append(len(self))


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the indexes the app builds (not loads), in order."""
    monkeypatch.setattr(CountedIndex, "builds", [])
    monkeypatch.setattr(workflow, "RelatedIndex", CountedIndex)
    return CountedIndex.builds


def twin_of(source: Paper) -> Paper:
    return Paper(
        id="0123456789ab",
        name="Twin",
        title=None,
        abstract=source.abstract + " A twin of it, imported later.",
        venue="Later 2026",
        sources=("later.jsonl",),
    )


async def test_the_app_loads_a_valid_cache_instead_of_building(
    make_app, library: Library, builds: list[int]
) -> None:
    saved, loaded = load_or_build(library.root, library.papers_key, library.papers())
    assert not loaded
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        index = app.workflow.related_index
        assert index is not None and len(index) == 37
        assert builds == []
        assert not isinstance(index, CountedIndex)
        for paper in library.papers():
            assert index.related(paper.id) == saved.related(paper.id)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RelatedScreen)
        source = library.papers()[0].id
        ranked = saved.related(source, 10)
        assert [item.paper_id for item in screen.items] == [pid for pid, _ in ranked]


async def test_without_a_cache_the_app_builds_once_and_saves_it(
    make_app, library: Library, builds: list[int]
) -> None:
    cache = library.root / RELATED_CACHE
    assert not cache.exists()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert builds == [37]
        built = app.workflow.related_index
        assert built is not None
    saved = load(library.root, library.papers_key, library.papers())
    assert saved is not None
    for paper in library.papers():
        assert saved.related(paper.id) == built.related(paper.id)

    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.workflow.related_index is not None and len(again.workflow.related_index) == 37
        assert builds == [37]  # the second start loaded it


@pytest.fixture
def cache_before_import(library_root: Path) -> Paper:
    """Save the library's related index, then import a twin of its first paper (replacing
    papers.json, so the cache is stale); the twin's source is returned. Ask for it before
    `make_app`, so that the app's library is opened after the import."""
    before = Library.open(library_root, seed=False)
    _, loaded = load_or_build(library_root, before.papers_key, before.papers())
    assert not loaded and (library_root / RELATED_CACHE).exists()
    source = before.papers()[0]
    before.import_papers([twin_of(source)], "later.jsonl")
    return source


async def test_a_cache_of_an_older_papers_json_is_rebuilt_at_start(
    cache_before_import: Paper, make_app, library: Library, builds: list[int]
) -> None:
    assert len(library.papers()) == 38
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert builds == [38]
        index = app.workflow.related_index
        assert index is not None
        assert index.related(cache_before_import.id, k=1)[0][0] == "0123456789ab"
    saved = load(library.root, library.papers_key, library.papers())
    assert saved is not None and len(saved) == 38


async def test_a_cache_of_other_papers_under_the_same_key_is_rebuilt(
    make_app, library: Library, builds: list[int]
) -> None:
    # Another library's index written under this papers.json's key: the ids tell it apart.
    others = [twin_of(paper) for paper in library.papers()[:1]] + list(library.papers()[1:])
    assert save(library.root, library.papers_key, RelatedIndex(others))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert builds == [37]
        index = app.workflow.related_index
        assert index is not None and [p.id for p in index.papers] == [
            p.id for p in library.papers()
        ]


async def test_papers_imported_while_running_are_indexed_and_saved(
    make_app, library: Library, builds: list[int]
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert builds == [37]
        source = library.papers()[0]
        Library.open(library.root, seed=False).import_papers([twin_of(source)], "later.jsonl")
        app.poll_library()  # what the timer does every two seconds
        await settle(app, pilot)
        assert builds == [37, 38]
        assert app.workflow.related_index is not None and len(app.workflow.related_index) == 38
        saved = load(library.root, library.papers_key, library.papers())
        assert saved is not None and saved.related(source.id, k=1)[0][0] == "0123456789ab"


@pytest.fixture
def child_from_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every related index the app must build is built in a child process (at 5,000 papers and
    more in use; the fixture library has 37)."""
    monkeypatch.setattr(workflow, "RELATED_CHILD_FROM", 1)


async def test_a_large_library_has_its_related_index_built_by_a_child_process(
    child_from_one: None, make_app, library: Library, builds: list[int]
) -> None:
    assert not (library.root / RELATED_CACHE).exists()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        index = app.workflow.related_index
        assert index is not None and len(index) == 37
        assert builds == []  # not built in this process: the child saved it, the app loaded it
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RelatedScreen)
    here = RelatedIndex(library.papers())
    for paper in library.papers():
        assert index.related(paper.id) == here.related(paper.id)


async def test_a_child_that_cannot_save_the_index_leaves_the_build_to_the_app(
    child_from_one: None, make_app, library: Library, builds: list[int]
) -> None:
    (library.root / RELATED_CACHE).mkdir()  # the child's save (a rename onto it) fails
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert builds == [37]
        index = app.workflow.related_index
        assert index is not None and len(index) == 37
