"""Which searches run on the UI thread, and that a burst of keys never shows older results over
newer ones."""

from __future__ import annotations

import pytest

from papershelf.tui.widgets.filter_bar import FilterBar


async def _ready(app, pilot) -> None:
    for _ in range(200):  # the index worker starts after the first frame
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.search.engine is not None:
            return
    raise AssertionError("no search index")


async def test_an_exact_term_searches_in_the_worker_however_quick_the_last_search(
    make_app,
) -> None:
    # `'` took 2 ms, `'d` then 0.4 s at 100k papers, on the UI thread: the screen froze.
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(app, pilot)
        await pilot.press("slash")
        bar = app.query_one(FilterBar)
        bar.insert_text_at_cursor("diffusion")  # a word: searched here, at once
        assert app.search.shown_serial == app.search.serial
        app.search.last_search = 0.0
        shown = app.paper_list.shown_count
        bar.insert_text_at_cursor(" 'd")
        assert app.paper_list.shown_count == shown  # not here: in the worker
        assert app.search.shown_serial != app.search.serial
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.search.shown_serial == app.search.serial
        expected = app.search.engine.results("diffusion 'd", app.library.entries())
        assert [hit.paper_id for hit in app.paper_list.hits] == [hit.paper_id for hit in expected]
        # Answered once, the same query is quick: here again.
        bar.value = "diffusion"
        bar.value = "diffusion 'd"
        assert app.search.shown_serial == app.search.serial


async def test_a_burst_of_keys_never_shows_older_results_after_newer_ones(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(app, pilot)
        shown: list[int] = []
        show = app.search.show_results

        def record(serial, hits, keep):
            shown.append(serial)
            show(serial, hits, keep)

        app.search.show_results = record  # type: ignore[method-assign]
        # Exact terms go to the worker, words may run here: both kinds, typed without waiting.
        await pilot.press("slash", *"'dif", "space", *"graph", "space", *"'ne", "backspace")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown == sorted(shown)  # never an older search's results after a newer one's
        assert shown[-1] == app.search.serial == app.search.shown_serial
        expected = app.search.engine.results("'dif graph 'n", app.library.entries())
        assert [hit.paper_id for hit in app.paper_list.hits] == [hit.paper_id for hit in expected]


async def test_a_search_replaced_by_newer_keys_gives_up_and_never_delivers(
    make_app, monkeypatch
) -> None:
    # Every search in the worker; the one for `'di` held until two more keys are typed. Then it
    # gives up at its first step (its results would be of a query no longer typed), so does
    # `'dif`'s, which waited for the engine behind it, and `'diff`'s are the ones shown.
    import threading

    from papershelf.storage.search.engine import SearchCancelled
    from papershelf.tui import app_search
    from papershelf.tui.messages import SearchFinished

    monkeypatch.setattr(app_search, "INLINE_SEARCH_SECONDS", -1.0)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await _ready(app, pilot)
        engine = app.search.engine
        search = engine.results
        held, gate = threading.Event(), threading.Event()
        given_up: list[str] = []

        def results(query, entries, cancelled=None):
            if query == "'di":
                held.set()
                gate.wait(timeout=30)
            try:
                return search(query, entries, cancelled)
            except SearchCancelled:
                given_up.append(query)
                raise

        engine.results = results  # type: ignore[method-assign]
        delivered: list[str] = []
        post = app.post_message

        def record(message):
            if isinstance(message, SearchFinished):
                delivered.append(message.query)
            return post(message)

        app.post_message = record  # type: ignore[method-assign]
        await pilot.press("slash", *"'di")
        for _ in range(1000):
            if held.is_set():
                break
            await pilot.pause()
        assert held.is_set()
        await pilot.press(*"ff")  # while `'di` is being searched
        gate.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert given_up == ["'di", "'dif"]
        assert "'di" not in delivered and "'dif" not in delivered
        assert delivered[-1] == "'diff"
        assert app.search.shown_serial == app.search.serial
        expected = search("'diff", app.library.entries())
        assert [hit.paper_id for hit in app.paper_list.hits] == [hit.paper_id for hit in expected]


def test_the_warm_up_gives_way_while_searches_run_or_just_ran(make_app, monkeypatch) -> None:
    # A fake clock that the warm-up's waits advance: no real time passes in this test.
    from types import SimpleNamespace

    from papershelf.tui import app_search

    clock = [100.0]
    worker = SimpleNamespace(is_cancelled=False)
    monkeypatch.setattr(app_search, "perf_counter", lambda: clock[0])
    monkeypatch.setattr(app_search, "get_current_worker", lambda: worker)
    wiring = make_app().search
    waits: list[float] = []

    def wait(timeout: float) -> bool:
        waits.append(timeout)
        clock[0] += timeout
        if len(waits) == 3 and wiring.lock.locked():
            wiring.lock.release()  # the search running ends
        return False

    monkeypatch.setattr(wiring._quiet, "wait", wait)
    wiring.last_activity = 100.0 - app_search.WARM_QUIET_SECONDS  # quiet long enough
    wiring.give_way()
    assert waits == []
    wiring.last_activity = 100.0  # a search just started: the warm-up waits for quiet
    wiring.give_way()
    assert waits and clock[0] - wiring.last_activity >= app_search.WARM_QUIET_SECONDS
    waits.clear()
    wiring.lock.acquire()  # a search runs: the warm-up waits until it ends
    wiring.give_way()
    assert len(waits) == 3 and not wiring.lock.locked()
    worker.is_cancelled = True  # the app stops: a waiting warm-up ends
    wiring.last_activity = clock[0]
    with pytest.raises(app_search.GiveWayStopped):
        wiring.give_way()
