"""A key in the filter and the list's new results are drawn in the same frame.

Input.Changed reaches the app only after hopping through the bar's parents; by then the screen
has drawn the key's echo alone, and the results wait for the next frame tick (17-33 ms later).
FilterBar's `on_edit` runs the search inside the key's own handling instead. (Which frame
draws what depends on real terminal timing, so `bench/bench_app.py` measures that in tmux; these
tests pin down the mechanism: the search has run before the key's handling returns.)
"""

from __future__ import annotations

from textual.app import App, ComposeResult

from papershelf.tui.widgets.filter_bar import FilterBar


class _Harness(App[None]):
    def __init__(self, bar: FilterBar) -> None:
        super().__init__()
        self.bar = bar

    def compose(self) -> ComposeResult:
        yield self.bar


async def test_on_edit_is_called_at_once_with_every_new_value() -> None:
    seen: list[str] = []
    bar = FilterBar(on_edit=seen.append, id="bar")
    async with _Harness(bar).run_test() as pilot:
        bar.focus()
        for char in "gan":
            await pilot.press(char)
        await pilot.press("backspace")
        assert seen == ["g", "ga", "gan", "ga"]
        bar.value = "diffusion"  # set by code: reported before anything else runs
        assert seen[-1] == "diffusion"
        bar.value = "diffusion"  # no change: no call
        assert seen.count("diffusion") == 1


async def test_the_query_is_searched_before_the_key_returns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash")
        bar = app.query_one(FilterBar)
        shown = app.paper_list.shown_count
        bar.insert_text_at_cursor("zebrafish")
        # No await in between: the list already holds the new results.
        assert app.search.query_text == "zebrafish"
        assert app.paper_list.shown_count == shown + 1
        expected = app.search.engine.results("zebrafish", app.library.entries())
        assert len(expected) > 0
        assert [hit.paper_id for hit in app.paper_list.hits] == [hit.paper_id for hit in expected]
