"""Authors' names as people read them in a line: short lists (`Vaswani, Shazeer, … +6`) and a
name's family part (for short lists and citation keys).

A stored author is one name as its source wrote it: `Ashish Vaswani` (JSON, arXiv, OpenReview)
or `Vaswani, Ashish` (BibTeX's "Last, First"). Pure functions, no imports from papershelf.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["authors_short", "family_name"]

# Name particles that belong to the family name when a "First Last" name is split by words:
# `Ludwig van Beethoven` is `van Beethoven`'s, cited as `Beethoven` by BibTeX's keys but shown
# whole in a list.
_PARTICLES = frozenset(
    ["van", "von", "der", "den", "de", "del", "della", "da", "di", "du", "la", "le", "ter", "ten"]
)
_SUFFIXES = frozenset(["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"])


def family_name(author: str) -> str:
    """The family name of one author, with its particles (`van Beethoven`), as written.

    `Vaswani, Ashish` -> `Vaswani`; `Ashish Vaswani` -> `Vaswani`; `Guido van Rossum` ->
    `van Rossum`; `Martin Luther King Jr.` -> `King`; a one-word name is itself. Braces that
    BibTeX uses to keep a name whole (`{OpenAI}`) are dropped.
    """
    name = " ".join(author.replace("{", "").replace("}", "").split())
    if "," in name:
        family = name.split(",", 1)[0].strip()
        return family or name
    words = name.split(" ")
    while len(words) > 1 and words[-1].casefold().rstrip(",") in _SUFFIXES:
        words.pop()
    start = len(words) - 1
    while start > 1 and words[start - 1].casefold() in _PARTICLES:
        start -= 1
    return " ".join(words[start:])


def authors_short(authors: Sequence[str], limit: int = 3) -> str:
    """Family names of the first authors, `…` and how many more: `Vaswani, Shazeer, … +6`.

    Up to `limit` authors are all named (`Vaswani, Shazeer, Parmar`); a longer list names the
    first `limit - 1` (at least one) and counts the rest, so the line never holds more than
    `limit` names. Empty names are skipped; no authors give "".
    """
    names = [family_name(author) for author in authors if author.strip()]
    names = [name for name in names if name]
    if len(names) <= max(limit, 1):
        return ", ".join(names)
    shown = max(limit - 1, 1)
    return ", ".join(names[:shown]) + f", … +{len(names) - shown}"
