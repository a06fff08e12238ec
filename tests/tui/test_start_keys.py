"""Keys typed the moment the app starts (before its first frame is drawn, while the search
index loads and cyclic collections are held off) are handled in the order typed: none is
lost, none acts on the wrong paper."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pilot_helpers import settle

import papershelf.tui.app_search as search_module
from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.collector import StartPause
from papershelf.tui.widgets.filter_bar import FilterBar

SIZE = (120, 40)


@pytest.fixture
def held_index(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The search index loads only once the returned event is set (as at 100,000 papers,
    where it takes a second after the first frame)."""
    release = threading.Event()
    real_engine = search_module.SearchEngine

    def slow_engine(papers, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(timeout=30)
        return real_engine(papers, **kwargs)

    monkeypatch.setattr(search_module, "SearchEngine", slow_engine)
    yield release
    release.set()


async def test_a_burst_at_start_moves_tags_and_filters_in_order(
    library: Library, library_root: Path, reopen, held_index: threading.Event
) -> None:
    order = [paper.id for paper in library.papers()]
    pause = StartPause()
    try:
        app = PapershelfApp(library, start_pause=pause)
        async with app.run_test(size=SIZE) as pilot:
            # No pause before: the keys queue behind the start itself.
            await pilot.press("j", "j", "T", "k", "s", "slash", *"peptide")
            await pilot.pause()
            assert app.search.engine is None  # all of it typed before the index
            entries = reopen(library_root).entries()
            assert entries[order[2]].tags == frozenset({"to-read"})  # j j T: the third paper
            assert entries[order[1]].status == "reading"  # k s: the second
            assert set(entries) == {order[1], order[2]}
            assert app.query_one(FilterBar).value == "peptide"
            held_index.set()
            await settle(app, pilot)
            assert pause.ended and gc.isenabled()
            shown = [hit.paper_id for hit in app.paper_list.hits]
            assert shown and all(
                "peptide" in library.get(paper_id).abstract.lower() for paper_id in shown
            )
    finally:
        pause.end()
        gc.unfreeze()


async def test_keys_after_the_filter_at_start_wait_for_its_results(
    library: Library, library_root: Path, reopen, held_index: threading.Event
) -> None:
    """`/peptide enter T` typed at start, before the index: nothing is tagged from the
    unfiltered list (the app says the index is loading); typed again once it is there, `T`
    tags a paper of the results."""
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"peptide", "enter", "T")
        await pilot.pause()
        assert reopen(library_root).entries() == {}
        held_index.set()
        await settle(app, pilot)
        await pilot.press("T")
        await pilot.pause()
        tagged = [pid for pid, entry in reopen(library_root).entries().items() if entry.tags]
        assert len(tagged) == 1
        assert "peptide" in library.get(tagged[0]).abstract.lower()
