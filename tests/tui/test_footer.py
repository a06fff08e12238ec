"""The footer is not rebuilt behind a dialog, and shows the main keys again once it closes."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from papershelf.tui.widgets.footer import QuietFooter


async def test_footer_waits_while_covered_and_is_right_after(make_app, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        footer = app.main_screen.query_one(QuietFooter)
        rebuilds: list[str] = []
        original = QuietFooter.recompose

        async def counting(self: QuietFooter) -> None:
            rebuilds.append(type(app.screen).__name__)
            await original(self)

        monkeypatch.setattr(QuietFooter, "recompose", counting)
        await pilot.press("question_mark")  # the help screen covers the main one
        await pilot.pause()
        assert app.screen is not app.main_screen
        assert rebuilds == []
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert app.screen is app.main_screen
        descriptions = {key.description for key in footer.query(FooterKey)}
        assert {"Quit", "Help", "Filter"} <= descriptions
