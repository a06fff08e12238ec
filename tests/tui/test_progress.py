"""The status line shows how the first search-index build and the related-papers build go
(`search index 45%`), from their workers, and says nothing of it once they are done."""

from __future__ import annotations

from time import monotonic

from pilot_helpers import settle, status
from test_app import SIZE

from papershelf.storage.library.library import Library
from papershelf.tui.app_search import SEARCH_CACHE
from papershelf.tui.progress import INTERVAL, WorkerProgress, progress_text
from papershelf.tui.widgets.status_line import StatusLine, status_content


async def test_builds_show_their_progress_on_the_status_line(make_app, library: Library) -> None:
    assert not (library.root / SEARCH_CACHE).exists()  # the first start builds the index
    app = make_app()
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        line = app.query_one(StatusLine)
        # Every value the line was given, as the UI thread set it (call_from_thread).
        app.main_screen.watch(line, "progress", lambda value: seen.append(value or ""))
        await settle(app, pilot)
        assert app.search.engine is not None and app.workflow.related_index is not None
        search_shown = app.search.progress.shown if app.search.progress else []
        related_shown = app.workflow.related_progress.shown if app.workflow.related_progress else []
        # The first call shows at once; the last (done == total) always shows.
        assert search_shown[0].startswith("search index ") and search_shown[-1] == (
            "search index 100%"
        )
        assert related_shown[0].startswith("related papers ")
        assert related_shown[-1] == "related papers 100%"
        assert [v for v in seen if v] == [*search_shown, *related_shown]
        assert seen[-1] == ""  # cleared when the related index was ready
        assert "%" not in status(app)


async def test_progress_reaches_the_screen_at_most_ten_times_a_second(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        shown: list[str | None] = []
        progress = WorkerProgress(app, "busy", shown.append)
        timing: list[float] = []

        def build() -> None:  # a build that reports far more often than the screen needs
            started = monotonic()
            for done in range(1, 200_001):
                progress(done, 200_000)
            timing.append(monotonic() - started)

        worker = app.run_worker(build, thread=True, description="busy")
        await worker.wait()
        assert shown == progress.shown
        assert shown[0] == "busy 0%" and shown[-1] == "busy 100%"
        assert len(shown) <= timing[0] / INTERVAL + 2


async def test_a_loaded_index_shows_no_build(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:  # builds and saves both indexes
        await settle(app, pilot)
    again = make_app()
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        assert again.search.progress is not None and again.search.progress.shown == []
        progress = again.workflow.related_progress
        assert progress is None or progress.shown == []  # loaded: not even started
        assert "%" not in status(again)


def test_progress_text_is_a_percentage_that_never_passes_100() -> None:
    assert progress_text("search index", 0, 0) == "search index 0%"
    assert progress_text("search index", 1, 3) == "search index 33%"
    assert progress_text("search index", 2_999, 3_000) == "search index 99%"
    assert progress_text("related papers", 5, 4) == "related papers 100%"


def test_the_status_line_names_a_build_after_the_counts() -> None:
    line = status_content(
        shown=3, total=10, query="", marked=0, sort="library order", progress="search index 45%"
    )
    assert line.plain == "3 of 10 papers  sort: library order  search index 45%"
