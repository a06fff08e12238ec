"""Safe text for the terminal: paper and user text becomes `Content`, never markup.

Text from files and users may hold anything: `[MASK]`, `[/]`, `[@click=app.quit]`, escape
sequences. Everything shown goes through `safe()` and is wrapped in `Content` objects, which
Textual never parses as markup. Control characters are replaced one-for-one by visible
stand-ins rather than removed, so match spans computed on the stored text stay valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.content import Content, Span
from textual.style import Style

from papershelf.tui.stand_ins import stand_ins

StyleLike = Style | str

_MULTI_LINE = stand_ins(one_line=False)
_ONE_LINE = stand_ins(one_line=True)


def safe(text: str, *, one_line: bool = False) -> str:
    """Return `text` with every control character replaced by a visible stand-in.

    The result has the same length as `text` (offsets into it stay valid). With `one_line`,
    newlines become spaces too.
    """
    return text.translate(_ONE_LINE if one_line else _MULTI_LINE)


def plain(text: str, style: StyleLike = "", *, one_line: bool = False) -> Content:
    """Content showing `text` literally, optionally in one style."""
    cleaned = safe(text, one_line=one_line)
    spans = [Span(0, len(cleaned), style)] if style and cleaned else []
    return Content(cleaned, spans, strip_control_codes=False)


def highlighted(
    text: str,
    spans: Iterable[tuple[int, int]],
    match_style: StyleLike,
    style: StyleLike = "",
    *,
    one_line: bool = False,
) -> Content:
    """Content showing `text` literally with `match_style` over each (start, end) span.

    Spans outside the text are clipped (they come from an index of possibly older text).
    """
    content = plain(text, style, one_line=one_line)
    length = len(content.plain)
    extra = [
        Span(max(0, start), min(end, length), match_style)
        for start, end in spans
        if start < end and start < length and end > 0
    ]
    if not extra:
        return content
    return Content(content.plain, [*content.spans, *extra], strip_control_codes=False)


def join(parts: Sequence[Content | tuple[str, StyleLike] | str]) -> Content:
    """Concatenate pieces; strings (also in tuples) are made safe first."""
    pieces: list[Content] = []
    for part in parts:
        if isinstance(part, Content):
            pieces.append(part)
        elif isinstance(part, tuple):
            pieces.append(plain(part[0], part[1], one_line=False))
        else:
            pieces.append(plain(part))
    return Content.assemble(*pieces, strip_control_codes=False)


def one_line_notice(text: str, limit: int = 160) -> str:
    """A message safe for `notify(..., markup=False)`: one line, no controls, bounded length."""
    cleaned = " ".join(safe(text, one_line=True).split())
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return cleaned
