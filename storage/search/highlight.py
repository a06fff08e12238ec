"""Text helpers for showing matches: field texts, highlight spans in any text, snippets."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.parse import fold_text
from papershelf.storage.text.authors import authors_text, display_name
from papershelf.storage.text.titles import display_title, shown_text

FIELDS = ("name", "title", "tags", "authors", "note", "abstract")
"""Searchable fields, in ranking order; `Hit.field` is one of these or ""."""
AUTHOR_SEPARATOR = ", "
"""Between two authors in the authors' text (`field_text(paper, entry, "authors")`, which is
`text.authors.authors_text`: a corporate author shown without its braces)."""

Spans = tuple[tuple[int, int], ...]


def field_text(paper: Paper, entry: Entry, field: str) -> str:
    """The text of `field` that `Hit.spans` index into (tags: sorted, joined by one space; the
    authors in order, joined by `AUTHOR_SEPARATOR`; the title and the abstract as shown, LaTeX
    as Unicode and without emphasis markers)."""
    if field == "tags":
        return " ".join(sorted(entry.tags))
    if field == "authors":
        return authors_text(paper.authors)
    if field == "note":
        return entry.note
    if field == "title":
        return display_title(paper.title)
    if field == "abstract":
        return shown_text(paper.abstract)
    return str(getattr(paper, field))


def author_spans(authors: Sequence[str], spans: Spans) -> tuple[Spans, ...]:
    """`Hit.spans["authors"]` (offsets in the authors joined by `AUTHOR_SEPARATOR`) as spans in
    each author's own name, one tuple per author: for a display that shows the names another way
    (`Vaswani, Shazeer, … +6`, one per line)."""
    out: list[list[tuple[int, int]]] = [[] for _ in authors]
    start = 0
    for n, name in enumerate(authors):
        end = start + len(display_name(name))
        for a, b in spans:
            if a < end and b > start:  # overlaps this name: cut to it
                out[n].append((max(a, start) - start, min(b, end) - start))
        start = end + len(AUTHOR_SEPARATOR)
    return tuple(tuple(found) for found in out)


def folded_map(text: str) -> tuple[str, list[int] | None]:
    """`fold_text(text)` and, for each of its characters, the offset in `text` it comes from
    (None: the same offsets, as for ASCII text)."""
    if text.isascii():
        return text.lower(), None
    parts: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        folded = fold_text(ch) if not ch.isascii() else ch.lower()
        parts.append(folded)
        origin.extend([i] * len(folded))
    return "".join(parts), origin


def _mapped(origin: list[int] | None, start: int, end: int) -> tuple[int, int]:
    """A non-empty span of the folded text as a span of the text (whole source characters)."""
    if origin is None:
        return start, end
    return origin[start], origin[end - 1] + 1


def folded_spans(text: str, value: str) -> list[tuple[int, int]]:
    """Spans of `text` whose folded form contains `value` (folded): what an exact query for
    `value` matched (`'k2ie` in `K²IE`, `'deja` in `Déjà`)."""
    if not value:
        return []
    folded, origin = folded_map(text)
    spans = []
    position = folded.find(value)
    while position != -1:
        spans.append(_mapped(origin, position, position + len(value)))
        position = folded.find(value, position + len(value))
    return spans


def folded_prefix(text: str, value: str) -> tuple[int, int] | None:
    """The span of `text` whose folded form is `value` at its start, if it starts so."""
    folded, origin = folded_map(text)
    if not value or not folded.startswith(value):
        return None
    return _mapped(origin, 0, len(value))


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping spans (overlapping and touching ones joined)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


@lru_cache(maxsize=256)
def _terms_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    words = sorted({term for term in terms if term}, key=len, reverse=True)
    if not words:
        return None
    return re.compile("|".join(re.escape(word) for word in words), re.IGNORECASE)


def highlight_spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping spans of case-insensitive occurrences of `terms` in any text.

    Meant for text other than the indexed one (e.g. the LaTeX-converted display text), with
    `Hit.terms`; overlapping and touching occurrences are joined.
    """
    origin: list[int] | None = None
    if not (text.isascii() and all(term.isascii() for term in terms)):
        # Compared folded, as searches compare (a term `K2IE` shows in `K²IE`).
        text, origin = folded_map(text)
        terms = [fold_text(term) for term in terms]
    pattern = _terms_pattern(tuple(terms))
    if pattern is None:
        return []
    found: list[tuple[int, int]] = []
    position = 0
    # finditer would skip occurrences overlapping a previous one ("ana" twice in "banana").
    while True:
        m = pattern.search(text, position)
        if m is None:
            break
        found.append(_mapped(origin, m.start(), m.end()))
        position = m.start() + 1
    return merge_spans(found)


def snippet(text: str, span: tuple[int, int], width: int = 60) -> str:
    """At most `width` characters of `text` around `span`, cut at spaces, "…" where cut.

    Whitespace runs (newlines included) become single spaces, so the result is one line.
    """
    width = max(width, 3)
    start, end = max(0, min(span[0], len(text))), max(0, min(span[1], len(text)))
    start, end = min(start, end), max(start, end)
    if end - start >= width - 2:
        # The match alone fills the width: show its beginning.
        left, right = start, start + width - 2
    else:
        room = width - 2 - (end - start)
        left = max(0, start - room // 2)
        right = min(len(text), end + (room - (start - left)))
        left = max(0, right - (width - 2) if right - left < width - 2 else left)
        # Prefer cutting at a space, as long as it stays outside the match.
        if left > 0:
            space = text.find(" ", left, start)
            if space != -1:
                left = space + 1
        if right < len(text):
            space = text.rfind(" ", end, right)
            if space != -1:
                right = space
    body = text if left == 0 and right >= len(text) else text[left:right]
    body = " ".join(body.split()) if body.strip() else body.strip()
    prefix = "…" if left > 0 else ""
    suffix = "…" if right < len(text) else ""
    if len(prefix) + len(body) + len(suffix) > width:
        body = body[: width - len(prefix) - len(suffix)]
    return prefix + body + suffix
