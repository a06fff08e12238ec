"""The paper list's rows as drawn: what each row shows, its Strip, and which rows changed.

`ListRows` is a plain object the `PaperList` widget holds: the widget owns the results, the
cursor, the marks and the scrolling; this owns the drawing. Rows are cached by what they show
(paper, matches, entry, cursor, mark, focus state, bar cell, authors column), not by position:
typing a query one key at a time keeps showing many of the same papers, and moving the cursor
redraws two rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.segment import Segment
from textual.cache import LRUCache
from textual.content import Content, Span
from textual.strip import Strip
from textual.style import Style

from papershelf.storage.model import Paper
from papershelf.storage.search.engine import Hit
from papershelf.storage.text.authors import authors_short
from papershelf.storage.text.headings import heading_fields, name_split
from papershelf.storage.text.titles import display_title
from papershelf.tui.text import safe
from papershelf.tui.widgets.paper_row import Piece, row_pieces
from papershelf.tui.widgets.position_bar import THUMB, bar_part
from papershelf.tui.widgets.row_styles import RowStyles

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

RowKey = tuple[object, ...]
"""Everything one row shows; equal keys draw equal rows."""


@dataclass(slots=True)
class View:
    """What the rows on screen depend on besides each row's own paper."""

    hits: Sequence[Hit]
    cursor: int
    marks: Set[str]
    top: int
    """The index of the first row on screen (the scroll offset)."""
    width: int
    look: object
    """The widget's `look_key` (hover, focus, disabled)."""
    thumb: tuple[int, int] | None
    """The position bar's thumb rows (None: no bar)."""


class ListRows:
    """The drawn rows of a paper list: cached Strips and the key each screen row was drawn with."""

    def __init__(self, library: Library, get_visual_style: Callable[..., Style]) -> None:
        self._library = library
        self._get_visual_style = get_visual_style
        self._styles = RowStyles(get_visual_style)
        self._cache: LRUCache[RowKey, Strip] = LRUCache(1024)
        self._drawn: dict[int, RowKey] = {}
        """Row key last drawn at each screen row, and the scroll offset it was drawn at (-1)."""
        self._headings: dict[str, tuple[str, str | None, tuple[int, int] | None]] = {}
        """Each drawn paper's heading fields and where its title's name ends (`name_split`)."""
        self._tagged: bool | None = None
        self._venue_width: int | None = None
        """Whether any paper has tags (the rows then have a tags column); None: not known."""
        self.boxes = False
        """Whether the rows show the bulk-mark box: only while some paper is marked (the
        last `View` drawn says)."""
        self._authors: dict[str, str] = {}
        """Each drawn paper's short authors (`authors_short`), made when its row is drawn."""
        self.show_authors = False
        """Whether rows end with a column of authors (`Vaswani, Shazeer, … +6`); row keys hold
        it, so changing it redraws every row."""

    def draw(self, view: View, y: int) -> Strip:
        """Screen row `y` of `view` (the Line API's `render_line`)."""
        if self._drawn.get(-1) != (view.top,):
            self._drawn = {-1: (view.top,)}
        self.boxes = bool(view.marks)
        key = self._key(view, view.top + y, bar_part(view.thumb, y))
        self._drawn[y] = key
        strip = self._cache.get(key)
        if strip is None:
            strip = self._cache[key] = self._render(key, view, view.top + y)
        return strip

    def changed(self, view: View, height: int) -> list[int] | None:
        """The screen rows that would show something else than they do; None: redraw all.

        Each redrawn row costs the terminal's frame time; a keystroke that keeps the same top
        papers with the same matches (`diffusio` -> `diffusion`) redraws none of them.
        """
        if self._drawn.get(-1) != (view.top,) or view.width <= 0:
            return None
        return [
            y
            for y in range(height)
            if self._drawn.get(y) != self._key(view, view.top + y, bar_part(view.thumb, y))
        ]

    def forget(self) -> None:
        """Forget every drawn row (entries changed: tags, status, star; or papers re-imported)."""
        self._cache.clear()
        self._headings.clear()
        self._authors.clear()
        self._tagged = None
        self._venue_width = None

    def restyle(self) -> None:
        """Forget cached styles and rows (the theme or the CSS changed)."""
        self._styles.clear()
        self._cache.clear()

    def _key(self, view: View, index: int, bar: str | None) -> RowKey:
        """Everything row `index` shows (paper id None: a blank row below the last paper)."""
        if index >= len(view.hits) or view.width <= 0:
            return (None, view.width, False, False, view.look, bar)
        hit = view.hits[index]
        paper_id = hit.paper_id
        return (
            paper_id,
            view.width,
            index == view.cursor,
            paper_id in view.marks,
            view.look,
            bar,
            hit.spans_in("name"),
            hit.spans_in("title"),
            self._library.entry(paper_id),
            self.show_authors,
            bool(view.marks),
            self.tagged,
            self.venue_width,
        )

    @property
    def tagged(self) -> bool:
        """Whether any paper in the library has a tag (then every row has a tags column, so
        the columns line up); known until the entries change (`forget`)."""
        if self._tagged is None:
            self._tagged = any(entry.tags for entry in self._library.entries().values())
        return self._tagged

    @property
    def venue_width(self) -> int:
        """The cells of the longest venue (up to `VENUE_CELLS`): the venue column's width, so
        `ICML 2025` takes 9, not 12; known until the papers or entries change (`forget`)."""
        if self._venue_width is None:
            venues = {paper.venue for paper in self._library.papers()}
            # Measured as drawn: a control character shows as a one-cell stand-in.
            shown = (safe(v, one_line=True) for v in venues if v)
            self._venue_width = max((cell_len(v) for v in shown), default=0)
        return self._venue_width

    def _render(self, key: RowKey, view: View, index: int) -> Strip:
        """One row: the paper's pieces in `width - 1` cells, then the position bar's cell."""
        paper_id, width, is_cursor, marked, look, bar = key[:6]
        assert isinstance(width, int)
        text_width = max(0, width - 1)
        segments: list[Segment] = []
        if paper_id is not None:
            base = "paper-list--cursor" if is_cursor else "paper-list--marked" if marked else ""
            styles = self._styles.for_state(look, base)
            segments = [
                Segment(text, self._styles.rich(styles, base, parts))
                for text, parts in self.pieces(view.hits[index], text_width, bool(marked))
                if text
            ]
            blank = self._styles.rich(styles, base, ())
        else:
            blank = self._styles.rich(self._styles.for_state(look, ""), "", ())
        row = Strip(segments).adjust_cell_length(text_width, blank)
        if width <= 0:
            return row
        bar_style = self._get_visual_style(f"bar--{bar}").rich_style if bar else blank
        # A full block, not a coloured space: the thumb stays visible without colours (NO_COLOR).
        return Strip([*row, Segment(THUMB if bar == "thumb" else " ", bar_style)], text_width + 1)

    def _heading_fields(self, paper: Paper) -> tuple[str, str | None, tuple[int, int] | None]:
        """`heading_fields` of the paper and, for a title heading alone, where the name ends
        in it (`name_split`); kept per paper (it derives a headline)."""
        known = self._headings.get(paper.id)
        if known is None:
            title = display_title(paper.title) or None  # as shown: LaTeX as Unicode
            head, below = heading_fields(paper.name, title)
            split = name_split(paper.name, title) if head == "title" and title else None
            known = self._headings[paper.id] = (head, below, split)
        return known

    def pieces(self, hit: Hit, width: int, marked: bool) -> list[Piece]:
        """The row of one paper as (text, style parts) pieces, fitted to `width` cells; with
        the bulk-mark box while any paper is marked (`boxes`, set by `draw`) or it is."""
        paper = self._library.get(hit.paper_id)
        head, below, split = self._heading_fields(paper)
        entry = self._library.entry(hit.paper_id)
        authors = self._authors_of(paper) if self.show_authors else None
        return row_pieces(
            paper,
            entry,
            hit,
            (head, below),
            width,
            marked,
            authors,
            boxes=self.boxes or marked,
            split=split,
            tags_column=self.tagged,
            venue_width=self.venue_width,
        )

    def _authors_of(self, paper: Paper) -> str:
        """`authors_short` of the paper, kept per paper: made for the rows drawn only, never
        for all the results of a keystroke."""
        known = self._authors.get(paper.id)
        if known is None:
            known = self._authors[paper.id] = authors_short(paper.authors)
        return known

    def content(self, hit: Hit, width: int, marked: bool) -> Content:
        """The row of one paper, fitted to `width` cells, as Content (the text `draw` draws)."""
        spans: list[Span] = []
        position = 0
        text: list[str] = []
        for piece, parts in self.pieces(hit, width, marked):
            for part in parts:
                spans.append(Span(position, position + len(piece), self._styles.part(part)))
            text.append(piece)
            position += len(piece)
        return Content("".join(text), spans, strip_control_codes=False)
