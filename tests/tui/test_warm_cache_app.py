"""The app's warm tables (`storage.search.warm_cache`): the first start saves them once the
warm-up made them, the next takes them from the file instead of reading every abstract, and a
damaged file is not used but written anew; the filter answers alike every time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import index_loaded

from papershelf.storage.search import warm_cache
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.warm_cache import WarmParts
from papershelf.tui import app_search
from papershelf.tui.app import PapershelfApp

QUERY = "'dif"


@pytest.fixture
def adopted(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """What each `adopt_warm` of the app's engines answered (the real one runs)."""
    answers: list[bool] = []
    adopt = SearchEngine.adopt_warm

    def spy(engine: SearchEngine, parts: WarmParts) -> bool:
        answers.append(adopt(engine, parts))
        return answers[-1]

    monkeypatch.setattr(SearchEngine, "adopt_warm", spy)
    return answers


async def warmed_up(app: PapershelfApp, pilot: Any, cache: Path) -> list[str]:
    """Once the index worker is done (tables warm, the cache saved if it was to be): the ids
    the filter shows for `QUERY`."""
    await index_loaded(app, pilot)
    for _ in range(200):
        await app.workers.wait_for_complete()
        await pilot.pause()
        engine = app.search.engine
        if engine is not None and engine._letters and cache.exists():
            break
    await pilot.press("slash", *QUERY)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.search.query_text == QUERY
    return [hit.paper_id for hit in app.paper_list.hits]


async def test_the_second_start_takes_the_tables_from_the_first(
    make_app, library_root: Path, adopted: list[bool]
) -> None:
    cache = library_root / warm_cache.WARM_CACHE
    assert not cache.exists()
    app = make_app()
    async with app.run_test() as pilot:
        first = await warmed_up(app, pilot, cache)
    assert first  # the query finds papers
    assert adopted == []  # nothing to take: made, then saved
    written = cache.stat()
    app = make_app()
    async with app.run_test() as pilot:
        assert await warmed_up(app, pilot, cache) == first
    assert adopted == [True]
    again = cache.stat()
    assert (again.st_ino, again.st_mtime_ns) == (written.st_ino, written.st_mtime_ns)  # kept


async def test_a_damaged_file_is_not_used_and_written_anew(
    make_app, library_root: Path, adopted: list[bool]
) -> None:
    cache = library_root / warm_cache.WARM_CACHE
    app = make_app()
    async with app.run_test() as pilot:
        first = await warmed_up(app, pilot, cache)
    data = bytearray(cache.read_bytes())
    data[len(data) // 2] ^= 0x10  # in the compressed text: its checksum fails
    cache.write_bytes(data)
    app = make_app()
    async with app.run_test() as pilot:
        for _ in range(200):  # the damaged file is replaced once the tables are made again
            await app.workers.wait_for_complete()
            await pilot.pause()
            if cache.read_bytes() != data:
                break
        assert await warmed_up(app, pilot, cache) == first
    assert adopted == []  # never taken
    app = make_app()
    async with app.run_test() as pilot:
        assert await warmed_up(app, pilot, cache) == first
    assert adopted == [True]  # the file written anew is whole


async def test_a_large_library_has_its_warm_tables_made_by_a_child_process(
    make_app, library_root: Path, adopted: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    # From 5,000 papers in use; the fixture library has 37. The app then takes the tables the
    # child saved instead of making them (adopted), and answers as when it made them.
    cache = library_root / warm_cache.WARM_CACHE
    app = make_app()
    async with app.run_test() as pilot:
        made_here = await warmed_up(app, pilot, cache)
    assert adopted == []
    cache.unlink()
    monkeypatch.setattr(app_search, "WARM_CHILD_FROM", 1)
    app = make_app()
    async with app.run_test() as pilot:
        assert await warmed_up(app, pilot, cache) == made_here
    assert adopted == [True]  # what the child saved, loaded at the first start
