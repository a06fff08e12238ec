"""HTML in a feed's text fields as plain text: arXiv's RSS wraps each abstract in `<p>`, other
feeds put `<em>`, `<br/>` and `&amp;` in descriptions. Tags go (a block tag leaves a space),
character references are decoded, and a `<script>` or `<style>` element goes with its content.

The standard library's `html.parser` (a tolerant tokenizer: broken or unclosed tags never
raise) is all this needs; a feed's field is short and the parser is linear in it.

Pure Python; imports nothing of papershelf.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_text", "looks_like_html"]

# A tag feeds use, with attributes that look like attributes: `<p>`, `</em>`, `<br/>`,
# `<a href="...">`; `a<b and c>d` (math in a plain-text abstract) is no tag.
_TAG = re.compile(
    r"</?(?:p|br|div|span|em|i|b|strong|u|sub|sup|a|li|ul|ol|code|pre|blockquote|h[1-6]|hr)"
    r"""(?:\s+[A-Za-z-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s<>"']+))*\s*/?>""",
    re.IGNORECASE,
)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_BLOCK = frozenset(
    [
        "p",
        "br",
        "div",
        "li",
        "ul",
        "ol",
        "tr",
        "td",
        "th",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "hr",
        "table",
        "dd",
        "dt",
    ]
)
_DROPPED = frozenset(["script", "style"])


def looks_like_html(text: str) -> bool:
    """Whether `text` holds a tag (`<p>`, `</em>`, `<br/>`) or a character reference (`&amp;`)."""
    return _TAG.search(text) is not None or _ENTITY.search(text) is not None


class _Text(HTMLParser):
    """Collects the text of a fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED:
            self._dropping += 1
        elif tag in _BLOCK:
            self.parts.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED:
            self._dropping = max(0, self._dropping - 1)
        elif tag in _BLOCK:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.parts.append(data)


def html_text(text: str) -> str:
    """The text of an HTML fragment: tags dropped, references decoded, spaces where blocks
    were. (Callers read a field as HTML when the feed says it is, or `looks_like_html`.)"""
    parser = _Text()
    parser.feed(text)
    parser.close()
    return "".join(parser.parts)
