"""Full garbage collections wait for the user's pauses, and the app leaves gc as it found it."""

from __future__ import annotations

import gc
import threading
from typing import Any

import pytest
from pilot_helpers import index_loaded

from papershelf.storage.library.library import Library
from papershelf.storage.search.engine import SearchEngine
from papershelf.tui.app import PapershelfApp
from papershelf.tui.collector import (
    HOLD_YOUNG_SECONDS,
    IDLE_SECONDS,
    NO_AUTOMATIC_FULL_COLLECTION,
    YOUNG_LIMIT,
    IdleCollector,
    StartPause,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def full_collections(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record gc.collect() calls instead of running them."""
    calls: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: calls.append(generation) or 0)
    return calls


def test_a_full_collection_runs_once_after_a_pause(full_collections: list[int]) -> None:
    clock = Clock()
    collector = IdleCollector(clock)
    assert not collector.tick()  # nothing happened yet: nothing to collect
    collector.activity()
    clock.now += IDLE_SECONDS / 2
    assert not collector.tick() and full_collections == []  # still typing
    collector.activity()
    clock.now += IDLE_SECONDS / 2
    assert not collector.tick()  # the pause counts from the last key
    clock.now += IDLE_SECONDS / 2
    assert collector.tick() and full_collections == [2]
    clock.now += 10 * IDLE_SECONDS
    assert not collector.tick() and full_collections == [2]  # one per burst of activity
    assert not collector.pending


def test_start_turns_automatic_full_collections_off_and_stop_restores() -> None:
    before = gc.get_threshold()
    collector = IdleCollector()
    try:
        collector.start()
        young, middle, oldest = gc.get_threshold()
        assert (young, middle) == before[:2]
        assert oldest == NO_AUTOMATIC_FULL_COLLECTION
        collector.start()  # twice: still restores the original settings
    finally:
        collector.stop()
    assert gc.get_threshold() == before


async def test_the_app_freezes_its_index_and_restores_gc_when_it_stops(make_app) -> None:
    before = gc.get_threshold()
    gc.unfreeze()
    app = make_app()
    async with app.run_test() as pilot:
        await index_loaded(app, pilot)
        assert app.search.engine is not None
        assert gc.get_threshold()[2] == NO_AUTOMATIC_FULL_COLLECTION
        assert gc.get_freeze_count() > 0  # the library and its index are out of gc's way
        await pilot.press("slash", "d")
        assert app.collector.pending  # typing asks for a collection at the next pause
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_free_memory_goes_back_to_the_system_after_a_full_collection(
    full_collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from papershelf.tui import native_memory

    trims: list[int] = []
    monkeypatch.setattr(native_memory, "trim", lambda: trims.append(len(full_collections)) or True)
    clock = Clock()
    collector = IdleCollector(clock)
    collector.activity()
    clock.now += 2 * IDLE_SECONDS
    assert collector.tick()
    assert trims == [1]  # after the collection, not before


def test_the_allocator_calls_are_safe_anywhere() -> None:
    """On glibc they take effect; elsewhere they do nothing and say so."""
    import sys

    from papershelf.tui import native_memory

    limited, trimmed = native_memory.limit_arenas(), native_memory.trim()
    assert isinstance(limited, bool) and isinstance(trimmed, bool)
    if sys.platform.startswith("linux") and native_memory._libc() is not None:
        assert limited


def test_the_start_pause_turns_collections_off_until_it_ends() -> None:
    assert gc.isenabled()
    gc.unfreeze()
    pause = StartPause()
    try:
        assert not gc.isenabled() and not pause.ended
        pause.end()
        assert gc.isenabled() and pause.ended
        assert gc.get_freeze_count() == 0  # garbage the start left is collected, not frozen
        pause.end()  # the app's first frame, then run_app's finally: once is what counts
        assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_the_start_pause_leaves_collections_off_when_they_were() -> None:
    gc.disable()
    try:
        pause = StartPause()
        pause.end()
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


async def test_the_app_ends_the_start_pause_at_its_first_frame(library: Library) -> None:
    gc.unfreeze()
    pause = StartPause()
    try:
        app = PapershelfApp(library, start_pause=pause)
        async with app.run_test() as pilot:
            await index_loaded(app, pilot)
            assert pause.ended and gc.isenabled()
            assert app.search.engine is not None  # the index was loaded after that frame
    finally:
        pause.end()
        gc.unfreeze()


async def test_the_search_engines_warm_tables_are_frozen_once_built(
    make_app, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables `warm_tables` builds in the worker after the index is shared live as long as
    the index: frozen when done, so the first full collection at a pause does not walk them
    (at 100,000 papers it took 0.7-2 s, and a key typed then waited for it)."""
    # At 100,000 papers the tables take seconds, long after the index was shared (and frozen):
    # here too, the worker builds them only once the app has the index.
    shared = threading.Event()
    warm = SearchEngine.warm_tables

    def late(engine: SearchEngine, abstracts: bool = True, **how: Any) -> None:
        shared.wait(10)
        warm(engine, abstracts, **how)  # `pause=`: the warm-up gives way to searches

    monkeypatch.setattr(SearchEngine, "warm_tables", late)
    gc.unfreeze()
    app = make_app()
    async with app.run_test() as pilot:
        await index_loaded(app, pilot)
        shared.set()
        for _ in range(3):  # the worker goes on to the tables, then says so
            await app.workers.wait_for_complete()
            await pilot.pause()
        engine = app.search.engine
        assert engine is not None
        tables = [table for table in (*engine._texts.values(), engine._scan) if table is not None]
        tracked = [table for table in tables if gc.is_tracked(table)]
        assert tracked  # there is something for a collection to walk
        collected = {id(thing) for thing in gc.get_objects()}  # all but the frozen
        assert not any(id(table) in collected for table in tracked)


def test_keys_hold_young_collections_off_until_they_pause(full_collections: list[int]) -> None:
    """A key raises the youngest generation's threshold (no young collection inside its
    frame); once keys pause, the young generations are collected and their thresholds back."""
    before = gc.get_threshold()
    clock = Clock()
    collector = IdleCollector(clock)
    woken: list[bool] = []
    collector.wake = lambda: woken.append(True)
    try:
        collector.start()
        assert collector.release_young() and not woken  # nothing held
        collector.activity()
        assert collector.holding and woken == [True]
        assert gc.get_threshold() == (YOUNG_LIMIT, before[1], NO_AUTOMATIC_FULL_COLLECTION)
        clock.now += HOLD_YOUNG_SECONDS / 2
        collector.activity()  # still typing: held, and the app's timer already runs
        assert woken == [True]
        clock.now += HOLD_YOUNG_SECONDS / 2
        assert not collector.release_young() and full_collections == []
        clock.now += HOLD_YOUNG_SECONDS
        assert collector.release_young() and full_collections == [1]  # both young ones
        assert not collector.holding
        assert gc.get_threshold() == (*before[:2], NO_AUTOMATIC_FULL_COLLECTION)
        collector.activity()
        clock.now += 2 * IDLE_SECONDS
        assert collector.tick() and not collector.holding  # the full collection releases too
        assert full_collections == [1, 2]  # no young collection of its own before it
        assert gc.get_threshold() == (*before[:2], NO_AUTOMATIC_FULL_COLLECTION)
    finally:
        collector.stop()
    assert gc.get_threshold() == before


async def test_the_app_runs_the_held_young_collections_when_typing_pauses(make_app) -> None:
    before = gc.get_threshold()
    clock = Clock()
    app = make_app()
    app.collector = IdleCollector(clock)  # the keys pause when the test says so
    async with app.run_test() as pilot:
        await index_loaded(app, pilot)
        await pilot.press("slash", *"graph")  # a burst: no young collection inside it
        assert app.collector.holding
        assert gc.get_threshold()[0] == YOUNG_LIMIT
        assert app.collector.wake == app.young_release.resume  # the timer runs meanwhile
        await pilot.pause()
        assert app.collector.holding  # no pause yet on this clock
        clock.now += 2 * HOLD_YOUNG_SECONDS
        app._release_young()  # what the timer runs
        assert not app.collector.holding
        assert gc.get_threshold()[:2] == before[:2]
    assert gc.get_threshold() == before


def test_nothing_is_collected_while_a_write_holds_the_collector(
    full_collections: list[int],
) -> None:
    """A removal's worker re-reads every paper: no collection walks them while it runs (at a
    pause, or the young ones a key held), and they are frozen once it ends."""
    clock = Clock()
    collector = IdleCollector(clock)
    was_enabled = gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        collector.start()
        collector.hold()
        assert collector.held and not gc.isenabled()
        collector.activity()
        clock.now += 10 * IDLE_SECONDS
        assert not collector.tick() and not collector.release_young()
        assert full_collections == []
        made = [[index] for index in range(1000)]  # what the worker made, alive after it
        collector.end_hold()
        assert not collector.held and gc.isenabled() == was_enabled
        assert gc.get_freeze_count() >= frozen + len(made)
        assert collector.release_young() and full_collections == [1]  # the keys' young ones
        assert collector.tick() and full_collections == [1, 2]  # the pause's own, now
    finally:
        collector.stop()
        gc.unfreeze()
        if was_enabled:
            gc.enable()
