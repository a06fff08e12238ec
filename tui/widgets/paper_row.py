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
_PREFIX_WIDTH = 7  # mark, space, status, star, code (2 cells), space
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


def row_pieces(
    paper: Paper,
    entry: Entry,
    hit: Hit,
    heading: tuple[str, str | None],
    width: int,
    marked: bool,
    authors: str | None = None,
) -> list[Piece]:
    """The row of `paper` as (text, style parts) pieces, fitted to `width` cells.

    `heading` is the paper's (head, below) fields; `authors`, when given (`""`: none), is
    shown in a column of its own at the row's end, after the venue and tags. Text is made safe here
    (`safe(..., one_line=True)`): pieces become Segments directly.
    """
    column = _authors_column(authors, authors_width(width)) if authors is not None else []
    width -= _cells(column)
    left: list[Piece] = [
        (MARK_BOXES[marked], ("box",)),
        (" ", ()),
        (STATUS_MARKS.get(entry.status, " "), ("status",)),
        (STAR if entry.starred else " ", ("star",)),
        (CODE_MARK if paper.has_code else "  ", ("code",)),
        (" ", ()),
    ]
    head, below = heading
    # The shown text of each field, which its spans index into.
    _highlight(left, field_text(paper, entry, head), hit.spans_in(head), "name")
    if below is not None:
        left.append(("  ", ()))
        _highlight(left, field_text(paper, entry, below), hit.spans_in(below), "title")
    right: list[Piece] = []
    if paper.venue:
        right.append((safe(paper.venue, one_line=True), ("venue",)))
    for tag in sorted(entry.tags):
        if right:
            right.append((" ", ()))
        right.append((safe(f"#{tag}", one_line=True), ("tag",)))
    right_length = _cells(right)
    room = width - _PREFIX_WIDTH
    right_width = min(right_length, max(0, room // 3))
    # Drop the annotations only when they would be cut to a few unreadable cells; a short
    # one that fits whole (`#rl`) is always shown.
    if right_width < min(6, right_length):
        right_width = 0
    left_width = width - right_width - (1 if right_width else 0)
    row = _fit(left, left_width, pad=True)
    if right_width:
        fitted = _fit(right, right_width, pad=False)
        padding = right_width - min(right_length, right_width)
        row.append((" " * (1 + padding), ()))
        row.extend(fitted)
    # Last, at the row's end: a column that lines up whatever the venue and tags are.
    row.extend(column)
    return row
