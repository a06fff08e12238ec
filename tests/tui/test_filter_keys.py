"""Keys typed right after leaving the filter act on the list, however fast they come."""

from __future__ import annotations

from textual import events

from tui.widgets.filter_bar import FilterBar


async def test_a_key_queued_right_after_enter_goes_to_the_list(make_app, reopen, library_root):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"peptide")
        await app.workers.wait_for_complete()
        await pilot.pause()
        # Both keys are in the app's queue before either is handled, as when a fast typist
        # (or a slow machine) delivers "enter T" in one read.
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("T", "T"))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.query_one(FilterBar).value == "peptide"
        paper_id = app.paper_list.current_id
        assert paper_id is not None
        assert "to-read" in reopen(library_root).entry(paper_id).tags


async def test_a_key_queued_right_after_escape_goes_to_the_list(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"peptide")
        await app.workers.wait_for_complete()
        app.post_message(events.Key("escape", "\x1b"))
        app.post_message(events.Key("j", "j"))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.query_one(FilterBar).value == ""
        assert app.focused is app.paper_list
        assert app.paper_list.cursor == 1
