"""The reader lays the screen out only when its text's height changes, and always shows it all."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from storage.model import Entry, Paper
from storage.query import Hit
from tui.widgets.reader import Reader


def paper(paper_id: str, words: int) -> Paper:
    abstract = " ".join(f"word{i % 17} zebrafish" for i in range(words))
    return Paper(paper_id, f"Name{paper_id}", None, abstract, "Test 2025", ("t.txt",))


SHORT = paper("aaaa00000001", 20)
SHORT_TWIN = paper("aaaa00000002", 20)  # other words, as many lines
LONG = paper("aaaa00000003", 200)


class _Harness(App[None]):
    CSS = "Reader { width: 50; height: 12; padding: 0 1; } #reader-body { width: 100%; }"

    def compose(self) -> ComposeResult:
        yield Reader(id="reader")


def count_layouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = Screen._refresh_layout

    def counting(self: Screen, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        calls[0] += 1
        real(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counting)
    return calls


def body_fits(reader: Reader) -> bool:
    """The body is exactly as tall as its text wrapped at its width: nothing cut off."""
    body = reader.query_one("#reader-body", Static)
    width = body.content_size.width
    return width > 0 and body.size.height == body.visual.get_height(body.styles, width)


async def test_new_highlights_on_the_same_paper_need_no_layout(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(LONG, Entry())
        await pilot.pause()
        calls = count_layouts(monkeypatch)
        hit = Hit(LONG.id, 1.0, "abstract", ("zebrafish",), None)
        reader.show(LONG, Entry(), hit)
        await pilot.pause()
        assert calls[0] == 0
        body = reader.query_one("#reader-body", Static)
        assert any(span.style == ".reader--match" for span in body.visual.spans)
        assert body_fits(reader)


async def test_another_paper_of_as_many_lines_needs_no_layout(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(SHORT, Entry())
        await pilot.pause()
        calls = count_layouts(monkeypatch)
        reader.show(SHORT_TWIN, Entry())
        await pilot.pause()
        assert calls[0] == 0
        assert "NameAaaa00000002".lower() in reader.text.lower()
        assert body_fits(reader)


async def test_a_taller_or_shorter_paper_is_laid_out_and_shown_whole(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(SHORT, Entry())
        await pilot.pause()
        calls = count_layouts(monkeypatch)
        for shown in (LONG, SHORT, None, LONG):
            before = calls[0]
            reader.show(shown, Entry())
            await pilot.pause()
            assert calls[0] > before  # the height changed: only a layout can apply it
            assert body_fits(reader)
        assert reader.max_scroll_y > 0  # the long paper scrolls, as it did before
