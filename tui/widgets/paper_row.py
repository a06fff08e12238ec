"""One row of the paper list: the paper's marks, name, title, authors (when the column is on),
venue and tags as styled pieces.

Plain functions of a paper, its entry and its search hit (no widget state, no Textual):
`PaperList` caches the rows it draws and turns the pieces into Segments.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import Hit, field_text
from papershelf.tui.text import safe

STATUS_MARKS = {"unread": " ", "reading": "◐", "read": "✓"}
"""One cell per status, so the column lines up."""
MARK_BOXES = ("☐", "☑")
STAR = "★"
CODE_MARK = "{}"
LEGEND: tuple[tuple[str, str], ...] = (
    (MARK_BOXES[1], "marked (space); the boxes show while any paper is marked"),
    (STATUS_MARKS["reading"], "reading (s cycles unread → reading → read)"),
    (STATUS_MARKS["read"], "read"),
    (STAR, "starred (*)"),
    (CODE_MARK, "has code (y copies its URL)"),
    ("#tag", "a tag (t edits them; the tag pane filters by one)"),
    ("█", "where the list or the text is (the position bar; click or drag it)"),
)
"""What each symbol of the list means: the help screen's legend, the first-run hint's."""
_PREFIX_WIDTH = 7  # mark, space, status, star, code (2 cells), space
VENUE_CELLS = 12
"""The venue column's width: `NeurIPS 2024` fits whole, a longer venue is cut with `…`."""
LEFT_MIN = 24
"""The fewest cells a row keeps for the name and title before it drops the venue column."""
TAGS_MAX = 24
"""The widest the tags column gets; a fifth of the row below that."""
TAGS_FROM = 60
"""The narrowest row (after its marks) that has a tags column."""
AUTHORS_MAX = 28
"""The widest the authors column gets (its gap included): `Vaswani, Shazeer, … +6` fits."""
AUTHORS_MIN = 10

Piece = tuple[str, "StyleKey"]
"""A run of row text and the component parts styling it (none: the row's base style)."""
StyleKey = tuple[str, ...]


def _cells(pieces: list[Piece]) -> int:
    return sum(len(text) if text.isascii() else cell_len(text) for text, _ in pieces)


def _highlight(out: list[Piece], text: str, spans: Sequence[tuple[int, int]], part: str) -> None:
    """Append `text` (made safe, one line) in `part` style, with `match` over `spans`."""
    shown = safe(text, one_line=True)
    end = len(shown)
    position = 0
    for start, stop in spans:
        start, stop = max(start, position), min(stop, end)
        if start >= stop:
            continue
        if start > position:
            out.append((shown[position:start], (part,)))
        out.append((shown[start:stop], (part, "match")))
        position = stop
    if position < end:
        out.append((shown[position:], (part,)))


def _fit(pieces: list[Piece], width: int, *, pad: bool) -> list[Piece]:
    """Cut `pieces` to `width` cells with an ellipsis, or pad them: like `Content.truncate`.

    The ellipsis takes the style of the character it replaces, as Content's does.
    """
    length = _cells(pieces)
    if length <= width:
        if pad and length < width:
            return [*pieces, (" " * (width - length), ())]
        return list(pieces)
    keep = width - 1 if width else 0
    fitted: list[Piece] = []
    used = 0
    for text, parts in pieces:
        cells = len(text) if text.isascii() else cell_len(text)
        if used + cells <= keep:
            fitted.append((text, parts))
            used += cells
            continue
        if keep > used:
            fitted.append((set_cell_size(text, keep - used), parts))
        if width:
            fitted.append(("…", parts))
        break
    return fitted


def authors_width(width: int) -> int:
    """The cells of the authors column (its gap included) in a row of `width` cells: two
    fifths of the room, at most `AUTHORS_MAX`; none when fewer than `AUTHORS_MIN` would
    be left to read."""
    cells = min(AUTHORS_MAX, (width - _PREFIX_WIDTH) * 2 // 5)
    return cells if cells >= AUTHORS_MIN else 0


def _authors_column(authors: str, cells: int) -> list[Piece]:
    """A gap, then `authors` (made safe) fitted and padded to the rest of `cells`."""
    if not cells:
        return []
    shown = [(safe(authors, one_line=True), ("authors",))] if authors else []
    return [(" ", ()), *_fit(shown, cells - 1, pad=True)]


def columns(width: int, tags_column: bool, venue_width: int = VENUE_CELLS) -> tuple[int, int]:
    """The cells of the venue and tags columns (each gap included) in a row of `width` cells
    after its marks: fixed for a width, so they line up down the list whatever a row holds.
    The venue goes when fewer than `LEFT_MIN` cells would be left for the name; the tags
    column (only in a library with tags) when the row is narrower than `TAGS_FROM`."""
    venue_width = min(venue_width, VENUE_CELLS)
    venue = venue_width + 1 if venue_width and width - venue_width - 1 >= LEFT_MIN else 0
    tags = 0
    if tags_column and width >= TAGS_FROM:
        tags = min(TAGS_MAX, width // 5) + 1
    return venue, tags


def _annotation(pieces: list[Piece], cells: int) -> list[Piece]:
    """A one-cell gap, then `pieces` cut and padded to the rest of `cells` (none: nothing)."""
    if cells <= 1:
        return []
    return [(" ", ()), *_fit(pieces, cells - 1, pad=True)]


def row_pieces(
    paper: Paper,
    entry: Entry,
    hit: Hit,
    heading: tuple[str, str | None],
    width: int,
    marked: bool,
    authors: str | None = None,
    *,
    boxes: bool = True,
    split: tuple[int, int] | None = None,
    tags_column: bool = False,
    venue_width: int = VENUE_CELLS,
) -> list[Piece]:
    """The row of `paper` as (text, style parts) pieces, fitted to `width` cells.

    `heading` is the paper's (head, below) fields; `split`, for a title that heads alone and
    begins with the name (`PANDAS: Improving…`), is where its name ends and its other words
    start (`headings.name_split`): the row shows `PANDAS  Improving…`, each word once. `boxes`
    shows the bulk-mark box (only while some paper is marked). The venue and, when
    `tags_column`, the tags go in columns of fixed width (`columns`; the venue's at most
    `venue_width`, the longest venue in the library); `authors`, when given
    (`""`: none), in a column of its own at the row's end. Text is made safe here
    (`safe(..., one_line=True)`): pieces become Segments directly.
    """
    column = _authors_column(authors, authors_width(width)) if authors is not None else []
    width -= _cells(column)
    left: list[Piece] = []
    if boxes:
        left += [(MARK_BOXES[marked], ("box",)), (" ", ())]
    left += [
        (STATUS_MARKS.get(entry.status, " "), ("status",)),
        (STAR if entry.starred else " ", ("star",)),
        (CODE_MARK if paper.has_code else "  ", ("code",)),
        (" ", ()),
    ]
    room = width - _cells(left)
    head, below = heading
    # The shown text of each field, which its spans index into.
    if head == "title" and below is None and split is not None:
        title = field_text(paper, entry, "title")
        spans = hit.spans_in("title")
        _highlight(left, title[: split[0]], spans, "name")
        left.append(("  ", ()))
        rest = [(a - split[1], b - split[1]) for a, b in spans if b > split[1]]
        _highlight(left, title[split[1] :], rest, "title")
    else:
        _highlight(left, field_text(paper, entry, head), hit.spans_in(head), "name")
        if below is not None:
            left.append(("  ", ()))
            _highlight(left, field_text(paper, entry, below), hit.spans_in(below), "title")
    venue_cells, tags_cells = columns(room, tags_column, venue_width)
    venue = [(safe(paper.venue, one_line=True), ("venue",))] if paper.venue else []
    tags: list[Piece] = []
    for tag in sorted(entry.tags):
        if tags:
            tags.append((" ", ()))
        tags.append((safe(f"#{tag}", one_line=True), ("tag",)))
    row = _fit(left, width - venue_cells - tags_cells, pad=True)
    row += _annotation(venue, venue_cells)
    row += _annotation(tags, tags_cells)
    # Last, at the row's end: a column that lines up whatever the venue and tags are.
    row.extend(column)
    return row
