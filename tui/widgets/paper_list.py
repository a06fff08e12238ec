"""The paper list: a Line API widget that renders only the rows on screen.

Its cost per frame depends on the height of the terminal, not on the number of results,
so 10,815 papers show as fast as 10 (OptionList/DataTable build every row up front).

It draws its own position bar (`position_bar`) in the last column of each row instead of
Textual's scrollbar: the results change on every keystroke, and Textual redraws its scrollbar
widget whenever the number of rows changes (about 2 ms a frame, a fifth of the keystroke's
frame), where a bar drawn in the rows costs nothing unless its thumb moves.

The widget owns the results, the cursor (kept on a paper across new results), the marks, the
scrolling and the messages; drawing the rows, and knowing which ones changed, is `list_rows`'.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import var
from textual.strip import Strip

from papershelf.storage.search.engine import Hit
from papershelf.tui.app_trace import TRACE
from papershelf.tui.widgets.hits import Without, position
from papershelf.tui.widgets.list_rows import ListRows, View
from papershelf.tui.widgets.position_bar import BarScrollView, row_for_bar, row_regions
from papershelf.tui.widgets.reactives import VIRTUAL_SIZE

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

_ANNOUNCE_AGAIN = "\x00"
"""Never a paper id: `show` sets it so that the current paper (or None) is announced again."""


class PaperList(BarScrollView, can_focus=True):
    """The filtered papers, one row each, with a cursor, bulk marks and a position bar."""

    # Colours of the parts of a row (component classes), drawn by render_line.
    DEFAULT_CSS = """
    PaperList > .paper-list--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
    }

    PaperList:focus > .paper-list--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }

    PaperList > .paper-list--marked {
        background: $secondary 25%;
    }

    PaperList > .paper-list--box {
        color: $text-muted;
    }

    PaperList > .paper-list--name {
        text-style: bold;
    }

    PaperList > .paper-list--title {
        color: $text-muted;
    }

    PaperList > .paper-list--match {
        color: $text-warning;
        text-style: bold underline;
    }

    PaperList > .paper-list--venue {
        color: $text-muted;
    }

    PaperList > .paper-list--authors {
        color: $text-muted;
        text-style: italic;
    }

    PaperList > .paper-list--tag {
        color: $text-accent;
    }

    PaperList > .paper-list--status {
        color: $text-success;
    }

    PaperList > .paper-list--star {
        color: $text-warning;
    }

    PaperList > .paper-list--code {
        color: $text-secondary;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,down", "cursor_down", "Down", id="list.down", show=False),
        Binding("k,up", "cursor_up", "Up", id="list.up", show=False),
        Binding("pagedown", "cursor_page_down", "Page down", id="list.page-down", show=False),
        Binding("pageup", "cursor_page_up", "Page up", id="list.page-up", show=False),
        Binding("g,home", "cursor_first", "First paper", id="list.first", show=False),
        Binding("G,end", "cursor_last", "Last paper", id="list.last", show=False),
        Binding("enter", "read", "Read", id="list.read"),
        Binding("space", "toggle_mark", "Mark", id="list.mark"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--marked",
        "paper-list--box",
        "paper-list--name",
        "paper-list--title",
        "paper-list--match",
        "paper-list--venue",
        "paper-list--authors",
        "paper-list--tag",
        "paper-list--status",
        "paper-list--star",
        "paper-list--code",
    }

    @dataclass
    class Highlighted(Message):
        """The cursor moved to another paper (None: the list is empty)."""

        paper_id: str | None

    @dataclass
    class Selected(Message):
        """`enter` on a paper: read it."""

        paper_id: str

    result_count: var[int] = var(0)
    """How many results are shown (the status line follows it)."""
    mark_count: var[int] = var(0)
    """How many papers are marked (the status line follows it)."""

    def __init__(
        self,
        library: Library,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._hits: Sequence[Hit] = ()
        self._cursor = 0
        self._marks: set[str] = set()
        self.hiding: set[str] = set()
        """Papers being removed, left out of every result shown (`hide`)."""
        self.shown_count = 0
        """How many times `show` was called (with `painted_count`: for the timing trace)."""
        self.painted_count = 0
        """`shown_count` when a row was last drawn."""
        self._announced: str | None = None
        self.rows = ListRows(library, self.get_visual_style)
        """The rows as drawn (`list_rows`): their keys, cached Strips, which ones changed."""
        self._frame_view: View | None = None
        """The `View` of the rows being drawn (`render_lines`), made once for all of them."""

    # -- state -------------------------------------------------------------------------------

    @property
    def hits(self) -> Sequence[Hit]:
        """The results shown, in order."""
        return self._hits

    @property
    def cursor(self) -> int:
        """Index of the cursor row (0 when the list is empty)."""
        return self._cursor

    @property
    def current_id(self) -> str | None:
        """The id of the paper under the cursor."""
        return self._hits[self._cursor].paper_id if self._hits else None

    @property
    def current_hit(self) -> Hit | None:
        """The search hit under the cursor."""
        return self._hits[self._cursor] if self._hits else None

    @property
    def marked(self) -> frozenset[str]:
        """Ids of the marked papers (marks survive a change of filter)."""
        return frozenset(self._marks)

    def show(self, hits: Sequence[Hit], *, keep: str | None = None) -> None:
        """Show new results; keep the cursor on paper `keep` when it is still there (else in
        its row). Papers being removed (`hide`) are left out."""
        if self.hiding:
            hits = self._without_hidden(hits)
        self._hits = hits
        self.shown_count += 1
        index = 0
        if keep is not None:
            found = position(hits, keep)
            index = found if found is not None else min(self._cursor, max(0, len(hits) - 1))
        self._cursor = index
        self._set_row_count(len(hits))
        self.result_count = len(hits)
        if keep is None:
            self.scroll_to(y=0, animate=False)
        self._scroll_to_cursor()
        self._refresh_changed_rows()
        # New results carry new match terms even when the cursor stays on the same paper:
        # announce it again so the reader highlights this query's matches, not the last one's.
        self._announced = _ANNOUNCE_AGAIN  # not None: an empty result must announce None
        self._announce()

    def _set_row_count(self, rows: int) -> None:
        """Set the virtual height without a layout pass.

        Setting `virtual_size` asks for a layout of the whole screen, which redraws every
        widget. The list's geometry never depends on its rows (its bar is drawn in the rows,
        Textual's scrollbar takes no room), so the size is stored quietly and the scroll
        position kept in range.
        """
        size = Size(0, rows)
        if size == self.virtual_size:
            return
        self.set_reactive(VIRTUAL_SIZE, size)
        if self.scroll_y > self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False)

    def _refresh_changed_rows(self) -> None:
        """Redraw only the rows that show something else than they did (`ListRows.changed`)."""
        changed = self.rows.changed(self._view(), self.scrollable_content_region.height)
        if changed is None:
            self.refresh()
            return
        if not changed:
            self.painted_count = self.shown_count  # what is on screen is already this list
            return
        self.refresh(*row_regions(changed, self.scrollable_content_region.width))

    def refresh_rows(self) -> None:
        """Redraw every row (entries changed: tags, status, star; or papers were re-imported)."""
        self.rows.forget()
        self.refresh()

    @property
    def show_authors(self) -> bool:
        """Whether rows have a column of authors (`Vaswani, Shazeer, … +6`)."""
        return self.rows.show_authors

    @show_authors.setter
    def show_authors(self, shown: bool) -> None:
        if shown != self.rows.show_authors:
            self.rows.show_authors = shown
            self.refresh()  # row keys hold the flag: every row is drawn again

    def move_to(self, index: int) -> None:
        """Put the cursor on row `index` (clamped) and announce the paper."""
        if not self._hits:
            return
        self._cursor = max(0, min(index, len(self._hits) - 1))
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def hide(self, ids: Collection[str]) -> None:
        """Stop showing papers `ids` at once (a removal being saved), in these results and in
        every later `show` until `unhide`: the cursor stays in its row, now on the next paper,
        and their marks go."""
        self.hiding |= set(ids)
        if self._marks & self.hiding:
            self.set_marks(self._marks - self.hiding)
        self.show(self._hits, keep=self.current_id)

    def unhide(self, ids: Collection[str]) -> None:
        """Show papers `ids` again from the next `show` (their removal ended: they are gone
        from the library's results, or it failed and they are back)."""
        self.hiding -= set(ids)

    def _without_hidden(self, hits: Sequence[Hit]) -> Sequence[Hit]:
        if isinstance(hits, Without):
            hits = hits.base
        rows = [row for pid in self.hiding if (row := position(hits, pid)) is not None]
        return Without(hits, rows) if rows else hits

    def set_marks(self, ids: set[str]) -> None:
        """Replace the marked set."""
        self._marks = set(ids)
        self.refresh_rows()
        self.mark_count = len(self._marks)

    def _announce(self) -> None:
        current = self.current_id
        if current != self._announced:
            self._announced = current
            self.post_message(self.Highlighted(current))

    def _scroll_to_cursor(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_offset.y)
        if self._cursor < top:
            self.scroll_to(y=self._cursor, animate=False)
        elif self._cursor >= top + height:
            self.scroll_to(y=self._cursor - height + 1, animate=False)

    # -- actions -----------------------------------------------------------------------------

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_down(self) -> None:
        """Move the cursor one paper down."""
        TRACE.mark("move", "down")  # bench/bench_remove.py times keys to here
        self.move_to(self._cursor + 1)

    def action_cursor_up(self) -> None:
        """Move the cursor one paper up."""
        TRACE.mark("move", "up")
        self.move_to(self._cursor - 1)

    def action_cursor_page_down(self) -> None:
        """Move the cursor one screen down."""
        self.move_to(self._cursor + self._page())

    def action_cursor_page_up(self) -> None:
        """Move the cursor one screen up."""
        self.move_to(self._cursor - self._page())

    def action_cursor_first(self) -> None:
        """Move the cursor to the first paper."""
        self.move_to(0)

    def action_cursor_last(self) -> None:
        """Move the cursor to the last paper."""
        self.move_to(len(self._hits) - 1)

    def action_read(self) -> None:
        """Open the paper under the cursor in the reader."""
        if (paper_id := self.current_id) is not None:
            self.post_message(self.Selected(paper_id))

    def action_toggle_mark(self) -> None:
        """Mark or unmark the paper under the cursor, then move down."""
        paper_id = self.current_id
        if paper_id is None:
            return
        marks = set(self._marks)
        marks.symmetric_difference_update({paper_id})
        self.set_marks(marks)
        self.move_to(self._cursor + 1)

    def mark_all(self) -> int:
        """Mark every paper in the results; returns how many are marked."""
        self.set_marks(self._marks | {hit.paper_id for hit in self._hits})
        return len(self._marks)

    def clear_marks(self) -> None:
        """Unmark everything."""
        self.set_marks(set())

    def on_click(self, event: events.Click) -> None:
        """Clicking a row moves the cursor there (the bar's column is handled on mouse down)."""
        offset = event.get_content_offset(self)
        if offset is not None and not self.on_bar(event):
            self.move_to(round(self.scroll_offset.y) + offset.y)

    def bar_moved(self, y: int) -> None:
        """Put the cursor at the part of the list that cell `y` of the bar stands for."""
        if self._hits:
            height = self.scrollable_content_region.height
            self.move_to(row_for_bar(y, height, len(self._hits)))

    # -- rendering ---------------------------------------------------------------------------

    def _view(self) -> View:
        return View(
            self._hits,
            self._cursor,
            self._marks,
            round(self.scroll_offset.y),
            self.scrollable_content_region.width,
            # Focus, hover and the like: computed once a row (it walks the widget's state),
            # not once a styled piece.
            self.look_key,
            self.thumb(len(self._hits)),
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        """Draw the rows in `crop`, with one `View` for all of them: making it reads the
        widget's geometry and state (~20 us), which once a row cost more than a cached row."""
        self._frame_view = self._view()
        try:
            return super().render_lines(crop)
        finally:
            self._frame_view = None

    def render_line(self, y: int) -> Strip:
        """Render row `y` of the visible region (the Line API)."""
        self.painted_count = self.shown_count
        return self.rows.draw(self._frame_view or self._view(), y)

    def notify_style_update(self) -> None:
        """The theme or CSS changed: forget cached styles and rows."""
        super().notify_style_update()
        self.rows.restyle()
