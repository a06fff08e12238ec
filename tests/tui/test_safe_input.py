"""SafeInput, PathInput and SafeTextArea: no control character is kept (or drawn) raw."""

from __future__ import annotations

import unicodedata

from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from papershelf.tui.widgets.safe_input import PathInput, SafeInput, SafeTextArea

HOSTILE = "a\x9b2J\u202eb\x05\x1a\x1b[2Jc\x7f"
BIDI = frozenset(chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def controls(text: str) -> list[str]:
    return [ch for ch in text if ch != "\n" and (ch in BIDI or unicodedata.category(ch) == "Cc")]


def drawn(widget: Widget) -> str:
    width, height = widget.outer_size
    return "".join(
        segment.text
        for strip in widget.render_lines(Region(0, 0, width, height))
        for segment in strip
    )


class _Harness(App[None]):
    def compose(self) -> ComposeResult:
        yield SafeInput(id="safe")
        yield PathInput(HOSTILE, id="path")
        yield SafeTextArea("x\x1b\ny\t", id="area")


async def test_safe_input_cleans_values_set_by_code_and_pasted() -> None:
    app = _Harness()
    async with app.run_test() as pilot:
        safe = app.query_one("#safe", SafeInput)
        safe.value = "x\x1by\nz"
        assert safe.value == "xy z"
        safe.focus()
        safe.cursor_position = 1
        app.post_message(events.Paste(HOSTILE))
        await pilot.pause()
        assert safe.value == "xa2Jb[2Jcy z"
        assert safe.cursor_position == len("xa2Jb[2Jc")  # after the cleaned paste
        assert controls(drawn(safe)) == []


async def test_path_input_keeps_its_value_but_draws_controls_visibly() -> None:
    app = _Harness()
    async with app.run_test() as pilot:
        path = app.query_one("#path", PathInput)
        assert path.value == HOSTILE
        path.focus()
        await pilot.pause()
        text = drawn(path)
        assert controls(text) == []
        assert "\u2405" in text and "\ufffd" in text  # ENQ and C1/bidi shown, not dropped
        # Each control takes one cell, so the cursor at the end sits after all of them.
        assert path._position_to_cell(len(HOSTILE)) == len(HOSTILE)
        assert path._cell_offset_to_index(3) == 3
        path.cursor_position = len(HOSTILE)
        await pilot.press("z", "\x07")  # typed text is cleaned even here
        assert path.value == HOSTILE + "z"


async def test_safe_text_area_cleans_initial_inserted_and_pasted_text() -> None:
    app = _Harness()
    async with app.run_test() as pilot:
        area = app.query_one("#area", SafeTextArea)
        assert area.text == "x\ny\t"
        area.insert("p\x9bq\u202e\r\nr", (0, 0))
        assert area.text == "pq\nrx\ny\t"
        area.focus()
        area.move_cursor(area.document.end)
        app.post_message(events.Paste("\x05s\x1a"))
        await pilot.pause()
        assert area.text == "pq\nrx\ny\ts"
        area.load_text("new\x1b[2J")
        assert area.text == "new[2J"
        assert controls(drawn(area)) == []
