"""Typing in the filter repaints the bar only: no layout of the whole screen per key."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Input, Static

from papershelf.tui.widgets.filter_bar import FilterBar


class _Harness(App[None]):
    CSS = "#bar { dock: top; height: 1; border: none; padding: 0 1; width: 24; }"

    def __init__(self, bar: Input) -> None:
        super().__init__()
        self.bar = bar

    def compose(self) -> ComposeResult:
        yield self.bar
        yield Static("the rest of the screen")


def count_layouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = Screen._refresh_layout

    def counting(self: Screen, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        calls[0] += 1
        real(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    return calls


async def layouts_while_typing(bar: Input, text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    app = _Harness(bar)
    async with app.run_test(size=(60, 10)) as pilot:
        bar.focus()
        await pilot.pause()
        calls = count_layouts(monkeypatch)
        for char in text:
            await pilot.press(char)
            await pilot.pause()
        assert bar.value == text
        return calls[0]


async def test_typing_in_the_filter_lays_out_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert await layouts_while_typing(FilterBar(id="bar"), "diffusion", monkeypatch) == 0


async def test_a_plain_input_would_lay_out_on_every_key(monkeypatch: pytest.MonkeyPatch) -> None:
    # What FilterBar avoids (if Textual stops doing this, FilterBar's override can go).
    assert await layouts_while_typing(Input(id="bar"), "diffusion", monkeypatch) >= 9


async def scrolled_views(bar: Input, text: str) -> list[tuple[float, int, str]]:
    """(scroll_x, cursor x, drawn line) after typing `text`, and again after `home`."""
    app = _Harness(bar)
    views = []
    async with app.run_test(size=(60, 10)) as pilot:
        bar.focus()
        await pilot.pause()
        for char in text:
            await pilot.press("space" if char == " " else char)
        await pilot.pause()
        assert bar.value == text
        for key in ("end", "home"):
            await pilot.press(key)
            await pilot.pause()
            line = "".join(segment.text for segment in bar.render_line(0))
            views.append((bar.scroll_x, bar.cursor_screen_offset.x, line))
    return views


async def test_a_long_query_scrolls_exactly_like_an_input() -> None:
    text = "graph neural network reinforcement"  # longer than the 22 cells inside the bar
    ours = await scrolled_views(FilterBar(id="bar"), text)
    (end_scroll, _, end_line), (home_scroll, _, home_line) = ours
    assert end_scroll > 0 and "reinforcement" in end_line and "graph" not in end_line
    assert home_scroll == 0 and "graph" in home_line
    assert ours == await scrolled_views(Input(id="bar"), text)
