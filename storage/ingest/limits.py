"""Caps on what one record may put in the library, so that a hostile or broken file cannot make
a list row, the reader or an export unusable: a title is at most `MAX_TITLE_CHARS` (cut at a
word, with `…`), an author list at most `MAX_AUTHORS` names (the rest stand as BibTeX's
`others`, "et al."), and one name at most `MAX_AUTHOR_CHARS`. Real records are far inside them:
the longest title in the 10,815-abstract corpus is under 300 characters, and the largest
collaborations (ATLAS, CMS) list about 3,000 authors that no reading list needs by name.

Every importer builds its Paper through `record.bibliographic_paper` or `parse`'s abstract-list
reader, which both apply these. Pure Python; imports nothing of papershelf.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "MAX_AUTHORS",
    "MAX_AUTHOR_CHARS",
    "MAX_TITLE_CHARS",
    "OTHERS",
    "capped_authors",
    "capped_title",
    "cut_at_word",
]

MAX_TITLE_CHARS = 1_000
MAX_AUTHORS = 500
MAX_AUTHOR_CHARS = 1_000
OTHERS = "others"
"""BibTeX's name for the authors not listed (`and others`; styles print "et al.")."""
_MORE = "…"


def cut_at_word(text: str, limit: int) -> str:
    """`text` when it is at most `limit` characters, else cut at the last space that keeps at
    least half of it (else at `limit`), with `…`: at most `limit` characters either way."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space >= limit // 2:
        head = head[:space]
    return head.rstrip() + _MORE


def capped_title(title: str | None) -> str | None:
    """The title, cut to `MAX_TITLE_CHARS`."""
    return None if title is None else cut_at_word(title, MAX_TITLE_CHARS)


def capped_authors(authors: Sequence[str]) -> tuple[str, ...]:
    """The first `MAX_AUTHORS` names, each cut to `MAX_AUTHOR_CHARS`, and `others` for the
    rest when there are more."""
    kept = [cut_at_word(name, MAX_AUTHOR_CHARS) for name in authors[:MAX_AUTHORS]]
    if len(authors) > MAX_AUTHORS and (not kept or kept[-1] != OTHERS):
        kept.append(OTHERS)
    return tuple(kept)
