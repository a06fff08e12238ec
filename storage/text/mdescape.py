"""Markdown escaping for exports: inline text that can never become markup, and safe links.

The contract, relied on by `papershelf.storage.export.markdown` and its tests:

* `clean_inline(text)` is the text a reader sees: every whitespace character (including newlines
  and tabs) becomes a space, other control characters (Unicode category Cc), lone surrogates and
  bidi overrides are removed, runs of spaces collapse to one and the ends are stripped.
* `markdown_escape(text)` renders, in any CommonMark viewer, as exactly `clean_inline(text)`:
  plain text, at any position on a line, including its start.
* `link_destination(url)` is the `(...)` part of a Markdown link for an http(s) URL, or None
  when the URL must not become a link.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# ASCII punctuation that is markup (or starts markup) wherever it appears: escapes, code spans,
# emphasis, links, autolinks/HTML, entities, math, tables, strikethrough, ATX headings and
# tag-like `#words`, and `@` (e-mail autolinks). CommonMark renders `\X` as `X` for all of them.
_ALWAYS = frozenset("\\`*_[]<&$|~#@")
# Only dangerous as the first character of a line: list items, block quotes, setext underlines.
_AT_LINE_START = frozenset("-+>=")
# Bidi controls are category Cf (not Cc) but can reorder what a reader sees.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ENTITY_LIKE = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_WEB_URL = re.compile(r"https?://[^/?#\s]", re.IGNORECASE)


# Control characters (Cc) that are not whitespace, lone surrogates (Cs) and bidi controls:
# removed outright. Whitespace controls (tab, newline, U+0085, ...) become spaces instead.
_DROPPED = re.compile(
    "["
    + "".join(re.escape(chr(c)) for c in [*range(0x20), *range(0x7F, 0xA0)] if not chr(c).isspace())
    + "\ud800-\udfff"
    + "".join(sorted(_BIDI))
    + "]"
)
# Percent-encoded inside a link's `(...)`: whitespace and control characters, and what would
# end the destination, start a title, open a code span or HTML, or be an escape.
_URL_UNSAFE = re.compile(r"[\s()<>`\\|]|" + _DROPPED.pattern)
_SURROGATES = re.compile("[\ud800-\udfff]")
# Characters that may need a backslash; `_needs_escape` decides from their context.
_CANDIDATES = re.compile(r"[\\`*_\[\]<&$|~#@.:/=%+>)-]")


def clean_inline(text: str) -> str:
    """The one-line text a reader sees: whitespace collapsed, control characters removed."""
    # `str.split()` splits on exactly the characters `str.isspace()` accepts.
    return " ".join(_DROPPED.sub("", text).split())


def _needs_escape(text: str, i: int, line_start: bool) -> bool:
    """Whether the character at `text[i]` must be backslash-escaped."""
    ch = text[i]
    if ch in _ALWAYS:
        return True
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if line_start and i == 0 and ch in _AT_LINE_START:
        return True
    if line_start and 0 < i <= 9 and ch in ".)" and text[:i].isascii() and text[:i].isdigit():
        return True  # `1.` / `1)` would start an ordered list
    if ch == ".":
        # Breaks the domain names linkifiers find on their own (`x.com`, `www.x`).
        return after.isalpha() or text[max(0, i - 3) : i].casefold() == "www"
    if ch == ":":
        return after == "/"  # `http://`
    if ch == "/":
        return before == "/"  # protocol-relative `//host`
    if ch in "=%":
        # `==highlight==` and `%%comment%%` (Obsidian)
        return before == ch or after == ch
    return False


def markdown_escape(text: str, *, line_start: bool = True) -> str:
    """Return `text` as Markdown that renders as exactly `clean_inline(text)` and nothing else.

    With `line_start=False` the result is only safe after other text on the same line (it skips
    the escapes that matter only at the start of a line, e.g. for `#tags`).
    """
    clean = clean_inline(text)
    return _CANDIDATES.sub(
        lambda m: "\\" + m[0] if _needs_escape(clean, m.start(), line_start) else m[0], clean
    )


def is_web_url(url: str) -> bool:
    """Whether `url` is an absolute http(s) URL with a host: the only kind exported as a link."""
    url = url.strip()
    if not _WEB_URL.match(url):
        return False
    try:
        return bool(urlsplit(url).netloc)
    except ValueError:  # e.g. an unbalanced IPv6 bracket
        return False


def _percent(ch: str) -> str:
    """Percent-encode one character as UTF-8."""
    return "".join(f"%{byte:02X}" for byte in ch.encode("utf-8"))


def link_destination(url: str) -> str | None:
    """The Markdown link destination for an http(s) `url`, or None when it must not be a link.

    Whitespace, control characters and the characters that could end or change the destination
    are percent-encoded, so a browser opens the same address; `&` that would read as an HTML
    entity is backslash-escaped (Markdown decodes entities inside destinations).
    """
    url = url.strip()
    if not is_web_url(url):
        return None
    encoded = _URL_UNSAFE.sub(lambda m: _percent(m[0]), _SURROGATES.sub("", url))
    return _ENTITY_LIKE.sub(r"\\&", encoded)
