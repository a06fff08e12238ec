"""The one-cell position bar that the paper list and the reader draw in their own rows.

Textual's scrollbar is a widget of its own: it re-renders (~2 ms) whenever the scrolled
height changes, and that height only reaches it through a layout of the whole screen (or a
private method). Both change on every keystroke here, so the two scrolling widgets draw
their position in their last column instead: a thumb (a full block, visible without colours
too) on a track.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.geometry import Region
from textual.scroll_view import ScrollView

THUMB = "█"
"""The thumb's cell (the track is a blank in the track colour)."""


def thumb_rows(rows: int, height: int, top: int) -> tuple[int, int] | None:
    """Screen rows (start, stop) of the thumb, `top` being the first row shown; None if all fits."""
    if rows <= height or height <= 0:
        return None
    size = max(1, round(height * height / rows))
    start = round((height - size) * min(top, rows - height) / (rows - height))
    return start, start + size


def bar_part(thumb: tuple[int, int] | None, y: int) -> str | None:
    """The bar's style part at screen row `y`: "thumb", "track", or None (no bar)."""
    if thumb is None:
        return None
    return "thumb" if thumb[0] <= y < thumb[1] else "track"


def row_for_bar(y: int, height: int, rows: int) -> int:
    """The row that a click on bar cell `y` stands for (proportional, clamped)."""
    if rows <= 0 or height <= 1:
        return 0
    fraction = max(0.0, min(1.0, y / (height - 1)))
    return round(fraction * (rows - 1))


def row_regions(rows: Sequence[int], width: int) -> list[Region]:
    """The regions of screen rows `rows` (ascending), `width` cells wide, each run of
    consecutive rows as one region: one `refresh` call for all of them (each call walks the
    widget's geometry and styles)."""
    regions: list[Region] = []
    start = previous = -2
    for y in rows:
        if y != previous + 1:
            if previous >= 0:
                regions.append(Region(0, start, width, previous - start + 1))
            start = y
        previous = y
    if previous >= 0:
        regions.append(Region(0, start, width, previous - start + 1))
    return regions


class BarScrollView(ScrollView):
    """A Line-API ScrollView that draws its position bar itself (subclasses place it).

    Textual's own scrollbar is hidden and takes no room, so the widget's geometry never
    depends on its scrolled height: that height can change without a layout. The mouse wheel
    and the scroll keys work as in any ScrollView; pressing or dragging on the bar's column
    calls `bar_moved` with the bar cell under the pointer.
    """

    DEFAULT_CSS = """
    BarScrollView {
        overflow-x: hidden;
        overflow-y: scroll;
        scrollbar-size-vertical: 0;
        scrollbar-visibility: hidden;
    }
    BarScrollView > .bar--thumb {
        color: $scrollbar;
        background: $scrollbar-background;
    }
    BarScrollView > .bar--track {
        background: $scrollbar-background;
    }
    """

    @property
    def look_key(self) -> tuple[bool, bool, bool]:
        """What changes a line's colours besides its text: hover, focus, disabled.

        The same state Textual keys its own style cache on, read from public attributes.
        """
        return (self.mouse_hover, self.has_focus, self.is_disabled)

    COMPONENT_CLASSES: ClassVar[set[str]] = {"bar--thumb", "bar--track"}

    @property
    def allow_vertical_scroll(self) -> bool:
        """Keys and the mouse wheel scroll whenever there is more than a screen of rows."""
        return not self.is_disabled and self.max_scroll_y > 0

    def thumb(self, rows: int) -> tuple[int, int] | None:
        """The thumb's screen rows for `rows` rows at the current scroll offset."""
        height = self.scrollable_content_region.height
        return thumb_rows(rows, height, round(self.scroll_offset.y))

    def on_bar(self, event: events.MouseEvent) -> bool:
        """Whether the pointer is on the bar's column (the last one)."""
        offset = event.get_content_offset(self)
        return offset is not None and offset.x >= self.scrollable_content_region.width - 1

    def bar_moved(self, y: int) -> None:
        """The bar was pressed or dragged at cell `y` (may be off the widget while dragging)."""
        raise NotImplementedError

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Pressing on the bar jumps there and starts dragging it."""
        if self.on_bar(event):
            self.capture_mouse()
            self.bar_moved(event.screen_y - self.scrollable_content_region.y)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Dragging the bar moves through the rows."""
        if self.app.mouse_captured is self:
            self.bar_moved(event.screen_y - self.scrollable_content_region.y)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        """The end of a drag."""
        if self.app.mouse_captured is self:
            self.release_mouse()
