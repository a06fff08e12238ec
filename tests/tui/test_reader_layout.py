"""The reader never lays the screen out, always lets every line be scrolled to, re-wraps on
resize, and draws its own position bar."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit
from papershelf.tui.widgets.position_bar import THUMB
from papershelf.tui.widgets.reader import Reader


def paper(paper_id: str, words: int) -> Paper:
    abstract = " ".join(f"word{i % 17} zebrafish" for i in range(words))
    return Paper(paper_id, f"Name{paper_id}", None, abstract, "Test 2025", ("t.txt",))


SHORT = paper("aaaa00000001", 20)
LONG = paper("aaaa00000003", 200)
HEIGHT = 12


class _Harness(App[None]):
    CSS = f"Reader {{ width: 50; height: {HEIGHT}; padding: 0 0 0 1; }}"

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


def wrapped_height(reader: Reader) -> int:
    """Lines of the reader's text wrapped where it wraps them (left of the gap and bar)."""
    width = reader.scrollable_content_region.width - 2
    return reader.content.get_height(reader.styles, width)


def screen_text(reader: Reader) -> list[str]:
    return [reader.render_line(y).text for y in range(reader.scrollable_content_region.height)]


async def test_papers_of_any_length_are_shown_without_a_layout(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(SHORT, Entry())
        await pilot.pause()
        calls = count_layouts(monkeypatch)
        for shown in (LONG, SHORT, None, LONG):
            reader.show(shown, Entry())
            await pilot.pause()
            # Every line can be scrolled to, no more: the scrolled height is the text's.
            assert reader.virtual_size.height == wrapped_height(reader)
        assert calls[0] == 0
        assert reader.max_scroll_y == wrapped_height(reader) - HEIGHT > 0


async def test_new_highlights_on_the_same_paper_keep_the_scroll(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(LONG, Entry())
        await pilot.pause()
        reader.scroll_to(y=5, animate=False)
        hit = Hit(LONG.id, 1.0, "abstract", ("zebrafish",), None)
        reader.show(LONG, Entry(), hit)
        await pilot.pause()
        assert reader.scroll_y == 5
        assert any(span.style == ".reader--match" for span in reader.content.spans)
        reader.show(SHORT, Entry())  # another paper: back to its top
        await pilot.pause()
        assert reader.scroll_y == 0


async def test_the_last_line_is_drawn_at_the_bottom_and_the_bar_follows(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(LONG, Entry())
        await pilot.pause()
        top = screen_text(reader)
        assert top[0].startswith(LONG.name)
        assert top[0][-1] == THUMB and all(line[-1] == " " for line in top[-3:])
        reader.focus()
        await pilot.press("G")
        await pilot.pause()
        bottom = screen_text(reader)
        last_word = LONG.abstract.split()[-1]
        assert bottom[-1].rstrip(" " + THUMB).endswith(last_word)
        assert bottom[-1][-1] == THUMB and bottom[0][-1] == " "


async def test_a_narrower_pane_wraps_the_text_again(monkeypatch) -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(LONG, Entry())
        await pilot.pause()
        wide = reader.virtual_size.height
        calls = count_layouts(monkeypatch)
        reader.styles.width = 30  # a layout of its own: the pane changed size
        await pilot.pause()
        assert calls[0] > 0
        assert reader.virtual_size.height == wrapped_height(reader) > wide
        assert all(
            len(line) == reader.scrollable_content_region.width for line in screen_text(reader)
        )


async def test_clicking_the_bar_scrolls_there() -> None:
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(LONG, Entry())
        await pilot.pause()
        bar_x = reader.region.width - 1
        await pilot.click(Reader, offset=(bar_x, HEIGHT - 1))
        assert reader.scroll_y == reader.max_scroll_y
        await pilot.click(Reader, offset=(bar_x, 0))
        assert reader.scroll_y == 0


async def test_text_can_be_selected_with_the_mouse_after_scrolling() -> None:
    words = " ".join(f"word{i} zebrafish" for i in range(200))
    paper_ = Paper("aaaa00000009", "NameX", None, words, "Test 2025", ("t.txt",))
    app = _Harness()
    async with app.run_test(size=(60, 20)) as pilot:
        reader = app.query_one(Reader)
        reader.show(paper_, Entry())
        await pilot.pause()
        reader.scroll_to(y=5, animate=False)
        await pilot.pause()
        first, second = (reader.render_line(y).text for y in (2, 3))
        await pilot.mouse_down(Reader, offset=(1, 2))  # column 1: the first cell of the text
        await pilot.hover(Reader, offset=(20, 3))
        await pilot.mouse_up(Reader, offset=(20, 3))
        await pilot.pause()
        selected = app.screen.get_selected_text()
        assert selected == first.rstrip(" " + THUMB) + " " + second[:20]
