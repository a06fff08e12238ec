"""The paper list: a Line API widget that renders only the rows on screen.

Its cost per frame depends on the height of the terminal, not on the number of results,
so 10,815 papers show as fast as 10 (OptionList/DataTable build every row up front).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, overload

from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style

from storage.model import Entry, Paper
from storage.query import Hit
from tui.text import highlighted, plain

if TYPE_CHECKING:
    from storage.library import Library

STATUS_MARKS = {"unread": " ", "reading": "◐", "read": "✓"}
"""One cell per status, so the column lines up."""
MARK_BOXES = ("☐", "☑")
STAR = "★"
CODE_MARK = "{}"
_PREFIX_WIDTH = 7  # mark, space, status, star, code (2 cells), space


class AllPapers(Sequence[Hit]):
    """The results of the empty query: one Hit per paper, built only when a row needs it."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = papers

    def __len__(self) -> int:
        return len(self._papers)

    @overload
    def __getitem__(self, index: int) -> Hit: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Hit]: ...

    def __getitem__(self, index: int | slice) -> Hit | Sequence[Hit]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._papers)))]
        return Hit(paper_id=self._papers[index].id, score=0.0, field="", terms=(), spans={})


class PaperList(ScrollView, can_focus=True):
    """The filtered papers, one row each, with a cursor and bulk marks."""

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

    @dataclass
    class MarksChanged(Message):
        """The set of marked papers changed."""

        count: int

    def __init__(
        self,
        library: Library,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._library = library
        self._hits: Sequence[Hit] = ()
        self._cursor = 0
        self._marks: set[str] = set()
        self._generation = 0
        self._row_cache: LRUCache[tuple[object, ...], Strip] = LRUCache(512)
        self._announced: str | None = None
        self._styles: dict[str, Style] = {}

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
        """Show new results; keep the cursor on paper `keep` when it is still there."""
        self._hits = hits
        self._generation += 1
        self._row_cache.clear()
        index = 0
        if keep is not None:
            index = next(
                (i for i, hit in enumerate(self._hits) if hit.paper_id == keep),
                min(self._cursor, max(0, len(self._hits) - 1)),
            )
        self._cursor = index
        self.virtual_size = Size(0, len(self._hits))
        if keep is None:
            self.scroll_to(y=0, animate=False)
        self._scroll_to_cursor()
        self.refresh()
        # New results carry new match terms even when the cursor stays on the same paper
        # (or none): announce it always, so the reader shows this query's matches.
        self._announced = self.current_id
        self.post_message(self.Highlighted(self._announced))

    def refresh_rows(self) -> None:
        """Redraw every row (entries changed: tags, status, star)."""
        self._generation += 1
        self._row_cache.clear()
        self.refresh()

    def move_to(self, index: int) -> None:
        """Put the cursor on row `index` (clamped) and announce the paper."""
        if not self._hits:
            return
        self._cursor = max(0, min(index, len(self._hits) - 1))
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def set_marks(self, ids: set[str]) -> None:
        """Replace the marked set."""
        self._marks = set(ids)
        self.refresh_rows()
        self.post_message(self.MarksChanged(len(self._marks)))

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
        self.move_to(self._cursor + 1)

    def action_cursor_up(self) -> None:
        """Move the cursor one paper up."""
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
        """Clicking a row moves the cursor there."""
        offset = event.get_content_offset(self)
        if offset is not None:
            self.move_to(round(self.scroll_offset.y) + offset.y)

    # -- rendering ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Render row `y` of the visible region (the Line API)."""
        index = round(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if index >= len(self._hits) or width <= 0:
            return Strip.blank(width, self.get_visual_style().rich_style)
        hit = self._hits[index]
        is_cursor = index == self._cursor
        marked = hit.paper_id in self._marks
        key = (self._generation, index, width, is_cursor, marked, self.has_focus)
        strip = self._row_cache.get(key)
        if strip is None:
            strip = self._render_row(hit, width, is_cursor, marked)
            self._row_cache[key] = strip
        return strip

    def _part(self, name: str) -> Style:
        # Looked up for every cell group of every row: keep them until the styles change.
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self.get_visual_style(f"paper-list--{name}", partial=True)
        return style

    def notify_style_update(self) -> None:
        """The theme or CSS changed: forget cached styles and rows."""
        super().notify_style_update()
        self._styles.clear()
        self._row_cache.clear()

    def _render_row(self, hit: Hit, width: int, is_cursor: bool, marked: bool) -> Strip:
        if is_cursor:
            base = self.get_visual_style("paper-list--cursor")
        elif marked:
            base = self.get_visual_style("paper-list--marked")
        else:
            base = self.get_visual_style()
        row = self.row_content(hit, width, marked)
        segments = row.render_segments(base)
        return Strip(segments, row.cell_length).adjust_cell_length(width, base.rich_style)

    def row_content(self, hit: Hit, width: int, marked: bool) -> Content:
        """The row of one paper, fitted to `width` cells."""
        paper = self._library.get(hit.paper_id)
        entry = self._library.entry(hit.paper_id)
        prefix = Content.assemble(
            (MARK_BOXES[marked], self._part("box")),
            " ",
            (STATUS_MARKS.get(entry.status, " "), self._part("status")),
            (STAR if entry.starred else " ", self._part("star")),
            (CODE_MARK if paper.has_code else "  ", self._part("code")),
            " ",
        )
        left = Content.assemble(prefix, self._describe(paper, hit))
        right = self._annotations(paper, entry)
        room = width - _PREFIX_WIDTH
        right_width = min(right.cell_length, max(0, room // 3))
        if right_width < 6:
            right_width = 0
        left_width = width - right_width - (1 if right_width else 0)
        left = left.truncate(left_width, ellipsis=True, pad=True)
        if not right_width:
            return left
        right = right.truncate(right_width, ellipsis=True).pad_left(
            right_width - min(right.cell_length, right_width)
        )
        return Content.assemble(left, " ", right)

    def _describe(self, paper: Paper, hit: Hit) -> Content:
        match = self._part("match")
        spans = hit.spans or {}
        name = highlighted(
            paper.name, spans.get("name", ()), match, self._part("name"), one_line=True
        )
        if not paper.title or paper.title == paper.name:
            return name
        title = highlighted(
            paper.title, spans.get("title", ()), match, self._part("title"), one_line=True
        )
        return Content.assemble(name, ("  ", ""), title)

    def _annotations(self, paper: Paper, entry: Entry) -> Content:
        parts: list[Content] = []
        if paper.venue:
            parts.append(plain(paper.venue, self._part("venue"), one_line=True))
        for tag in sorted(entry.tags):
            parts.append(plain(f"#{tag}", self._part("tag"), one_line=True))
        if not parts:
            return Content("")
        spaced: list[Content | str] = []
        for part in parts:
            if spaced:
                spaced.append(" ")
            spaced.append(part)
        return Content.assemble(*spaced)
