"""Which searches run on the UI thread, and that a burst of keys never shows older results over
newer ones."""

from __future__ import annotations

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
