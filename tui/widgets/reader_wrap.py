"""The reader's labelled fields wrapped with a hanging indent, and URLs broken between parts.

`by     Vaswani, Shazeer, …` wrapped by Textual starts its second line flush left, under the
label; a long URL is folded wherever the width ends (`…/MAR` / `INE`). `hang` wraps such lines
itself, before Textual sees them: the value's other lines start under its first, and a URL
breaks at the last place that fits after a `/` or before a `?`, `&`, `#` or `=`; failing those,
after a `-` or `_`; it is cut mid-part only when a part has no such place within the room.
Plain functions of Content and a width (no widget state).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content

LABEL_CELLS = 7
"""The label column (`venue  `, `from   `): what a value's wrapped lines are indented by."""
LABEL_STYLE = ".reader--label"
URL_STYLE = ".reader--url"
MIN_VALUE_CELLS = 12
"""Narrower than this after its label, a value wraps as Textual wraps it (no indent)."""

_URL_BREAK_AFTER = "/"
_URL_BREAK_INSIDE = "-_"
"""Where a URL part too wide for the rest of the line may break when no `/` place fits."""
_URL_BREAK_BEFORE = "?&#="


def wrap_points(text: str, width: int, *, url: bool = False) -> list[int]:
    """Offsets at which to break `text` into lines of at most `width` cells.

    Words break after their spaces (the spaces end the line, to be stripped); a URL after a
    `/` (not inside `//`) or before `?`, `&`, `#`, `=`, else after a `-` or `_`. A part wider
    than `width` is cut at the width.
    """
    if width <= 0:
        return []
    points: list[int] = []
    start = 0  # where the current line starts
    cells = 0  # its cells so far
    last_break: int | None = None  # the latest offset the line may break at
    last_inside: int | None = None  # a URL's: the latest after a `-` or `_` (used last)
    index = 0
    while index < len(text):
        ch = text[index]
        if url and ch in _URL_BREAK_BEFORE and index > start:
            last_break = index
        char_cells = cell_len(ch)
        if cells + char_cells > width and not (not url and ch == " "):
            cut = index
            if last_break is not None and last_break > start:
                cut = last_break
            elif last_inside is not None and last_inside > start:
                cut = last_inside
            last_break = last_inside = None
            if cut == start:
                # A character wider than the whole line: alone on its line, cut after it.
                index += 1
                if index < len(text):
                    points.append(index)
                start, cells = index, 0
                continue
            points.append(cut)
            start = cut
            cells = cell_len(text[start:index])
            continue  # measure this character again on the new line
        cells += char_cells
        index += 1
        if url:
            if ch in _URL_BREAK_AFTER and text[index : index + 1] != ch:
                last_break = index
            elif ch in _URL_BREAK_INSIDE:
                last_inside = index
        elif ch == " ":
            last_break = index
    return points


def _labelled(line: Content) -> bool:
    """Whether `line` starts with a reader label of `LABEL_CELLS` cells."""
    return any(
        span.start == 0 and span.end == LABEL_CELLS and span.style == LABEL_STYLE
        for span in line.spans
    )


def hang(content: Content, width: int) -> Content:
    """`content` with each labelled line wider than `width` wrapped under its value (URLs
    broken between their parts); other lines are left for Textual to wrap."""
    if width - LABEL_CELLS < MIN_VALUE_CELLS:
        return content
    lines = content.split("\n", allow_blank=True)
    out: list[Content] = []
    changed = False
    indent = Content(" " * LABEL_CELLS)
    for line in lines:
        if not _labelled(line) or cell_len(line.plain) <= width:
            out.append(line)
            continue
        changed = True
        label, value = line[:LABEL_CELLS], line[LABEL_CELLS:]
        url = any(span.style == URL_STYLE for span in value.spans)
        parts = value.divide(wrap_points(value.plain, width - LABEL_CELLS, url=url))
        out.append(label + parts[0].rstrip())
        out.extend(indent + part.rstrip() for part in parts[1:])
    return Content("\n").join(out) if changed else content
