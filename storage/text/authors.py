"""Authors as papershelf shows them: a family name from a name however it is written, a short
list that stays readable (`Vaswani, Shazeer, … +6`), and the one line of all of them.

Names come from records as people and tools write them: `Ashish Vaswani`, `Vaswani, Ashish`
(BibTeX's and Zotero's form), `Jean-Luc van der Berg`, `King, Jr., Martin Luther`, one word
(`Plato`, a collaboration), `{Google DeepMind}` (a corporate author braced whole, as BibTeX
writes it and a BibTeX import keeps it; shown without its braces). The family name follows
BibTeX's reading of a name, which every `.bib` file papershelf imports was written for:

- with a comma, the family name is what comes before the first comma (`van der Berg, Jean-Luc`
  is `van der Berg`), unless all that follows is a suffix (`Martin Luther King, Jr.`);
- without one, a trailing `Jr.`, `Sr.`, `II`, ... is dropped and the family name is the last
  word, together with the lower-case words before it that start BibTeX's "von part"
  (`Jean-Luc van der Berg` is `van der Berg`; the first word is never one: it is a given name).

Pure Python; may import `papershelf.storage.text.clean` only.
"""

from __future__ import annotations

from collections.abc import Sequence

from papershelf.storage.text.clean import clean_line

__all__ = ["FAMILY_MAX", "authors_short", "authors_text", "display_name", "family_name"]

FAMILY_MAX = 40
"""A family name longer than this (a stray abstract in an author field) is cut with `…`."""

_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v", "2nd", "3rd"})
_MORE = "…"


def _cleaned(name: str) -> str:
    """`name` as one clean line (no control characters)."""
    return clean_line(name)


def _has_text(name: str) -> bool:
    """Whether `family_name(name)` is not empty, without parsing or cleaning a printable name
    (what importers store): a collaboration's 3,000 names are counted in ~1 ms, not 9."""
    if name.isprintable():  # nothing clean_line removes but the spaces at its ends
        return bool(name.strip())
    return bool(_cleaned(name))


def _braced(text: str) -> str | None:
    """What is inside braces around all of `text` (BibTeX's way to write one name that is not
    to be parsed, a corporate author: `{Google DeepMind}`), or None."""
    if len(text) < 2 or text[0] != "{" or text[-1] != "}":
        return None
    return text[1:-1].strip("{} ")


def _is_suffix(word: str) -> bool:
    return word.rstrip(".").casefold() in _SUFFIXES


def _from_words(words: list[str]) -> str:
    """The family name of a name written given names first (suffixes already dropped)."""
    if len(words) <= 1:
        return words[0] if words else ""
    # BibTeX's von part: the first lower-case word after the given name starts the family name.
    for index in range(1, len(words) - 1):
        if words[index][:1].islower():
            return " ".join(words[index:])
    return words[-1]


def _cut(family: str) -> str:
    return family if len(family) <= FAMILY_MAX else family[: FAMILY_MAX - 1] + _MORE


def family_name(name: str) -> str:
    """The family name of `name` (see the module's docstring), one clean line; `""` only for a
    name with no text, and the whole name when it holds no family name to find (`,`, `{}`)."""
    text = _cleaned(name)
    return (_family(text) or _cut(text)) if text else ""


def _family(text: str) -> str:
    """The family name in a clean, non-empty `text`; `""` when there is none."""
    whole = _braced(text)
    if whole is not None:
        return _cut(whole)
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        rest = [part for part in parts[1:] if part]
        if parts[0] and not (rest and all(_is_suffix(part) for part in rest)):
            return _cut(parts[0])
        # `Martin Luther King, Jr.` or `, Ashish`: read the words as if there were no comma.
        text = " ".join(part for part in parts if part and not _is_suffix(part)) or parts[0]
    words = text.split()
    while len(words) > 1 and _is_suffix(words[-1]):
        words.pop()
    return _cut(_from_words(words))


def authors_short(authors: Sequence[str], limit: int = 3) -> str:
    """The authors by family name, at most `limit` items: all of them when they are that few,
    else the first `limit - 1` and how many more (`Vaswani, Shazeer, … +6`).

    Names with no text are not counted. A `limit` below 2 reads as 2, so that a name is always
    shown.
    """
    limit = max(2, limit)
    families: list[str] = []
    total = 0
    for name in authors:
        if len(families) < limit:
            family = family_name(name)
            if family:
                families.append(family)
                total += 1
        elif _has_text(name):
            total += 1
    if total <= limit:
        return ", ".join(families)
    shown = families[: limit - 1]
    return ", ".join([*shown, f"{_MORE} +{total - len(shown)}"])


def display_name(name: str) -> str:
    """A name as shown: as written, but a name braced whole (a corporate author as a BibTeX
    import keeps it, `{Google DeepMind}`) without its braces."""
    if name[:1] == "{" and name[-1:] == "}":
        inner = _braced(name)
        if inner and "{" not in inner and "}" not in inner:
            return inner
    return name


def authors_text(authors: Sequence[str]) -> str:
    """All the authors on one line, as the reader and `papershelf show` print them and search
    looks in them: names as written (`display_name`), joined by `, `. Highlight spans for
    authors index into this text."""
    return ", ".join(map(display_name, authors))
