"""The status line names the query beside its results' count: a key searched in the worker is
drawn alone (the filter's line), the status line says `searching…` once that frame is drawn,
and the count and the query change together when the results come."""

from __future__ import annotations

import threading
from typing import Any

from pilot_helpers import index_loaded, settle, status

from papershelf.tui.widgets.reader import Reader


async def test_a_key_searched_in_the_worker_redraws_the_filter_alone(
    make_app, monkeypatch: Any
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await index_loaded(app, pilot)
        await pilot.press("slash", *"graph")
        await settle(app, pilot)
        before = status(app)
        assert "filter: graph" in before
        engine = app.search.engine
        real = type(engine).results
        release = threading.Event()

        def held(self: Any, *args: Any, **kwargs: Any) -> Any:
            if threading.current_thread() is not threading.main_thread():
                release.wait(10)  # the worker's search, until the test lets it go
            return real(self, *args, **kwargs)

        monkeypatch.setattr(type(engine), "results", held)
        drawn: list[int] = []
        real_lines = Reader.render_lines

        def recording(self: Reader, crop: Any) -> Any:
            drawn.append(crop.height)
            return real_lines(self, crop)

        monkeypatch.setattr(Reader, "render_lines", recording)
        app.search.last_search = 1.0  # the last search was slow: this one goes to the worker
        await pilot.press("s")
        await pilot.pause()
        assert app.search.shown_serial != app.search.serial  # the worker still searches
        text = status(app)
        assert "filter: graphs" in text and "searching" in text
        # The key's frame and the status line's were drawn apart: neither spanned the reader.
        assert drawn == []
        release.set()
        await settle(app, pilot)
        assert app.search.shown_serial == app.search.serial
        text = status(app)
        assert "filter: graphs" in text and "searching" not in text
        assert f"{len(app.paper_list.hits):,} of" in text
