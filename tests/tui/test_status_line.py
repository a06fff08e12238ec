"""The status line follows the list, the screen and the saving by itself (reactives, data_bind)."""

from __future__ import annotations

from pilot_helpers import settle, status
from test_app import SIZE

from papershelf.tui.widgets.status_line import StatusLine


async def test_results_shown_by_any_caller_are_counted(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        total = len(papers.hits)
        # Straight to the list, as no key does: nobody asks the status line to redraw.
        papers.show(papers.hits[:2])
        await pilot.pause()
        assert status(app).startswith(f"2 of {total} papers")


async def test_marks_set_by_any_caller_are_counted(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        papers.set_marks({hit.paper_id for hit in papers.hits[:3]})
        await pilot.pause()
        assert "3 marked" in status(app)
        papers.clear_marks()
        await pilot.pause()
        assert "marked" not in status(app)


async def test_a_keystroke_draws_the_line_once(make_app, monkeypatch) -> None:
    # A key changes the count, the query, the order's name and the error at once: the line is
    # drawn from its reactives once a frame, not once per figure.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        drawn: list[str] = []
        original = StatusLine.render

        def counting(self: StatusLine):  # type: ignore[no-untyped-def]
            content = original(self)
            drawn.append(content.plain)
            return content

        monkeypatch.setattr(StatusLine, "render", counting)
        await pilot.press("slash", "g")
        await settle(app, pilot)
        assert len(drawn) == 1
        assert "filter: g  sort: relevance" in drawn[0]
