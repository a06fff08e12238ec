"""The query language (DESIGN §4): text -> `Query`. Tolerant: parsing never raises.

Grammar, one whitespace-separated word at a time (double quotes keep spaces and `|` inside a word):

    word        fuzzy word over name, title, tags, note and abstract (typos and prefixes match;
                not the authors: only author: looks there)
    'word       exact substring (case-insensitive) of one of those fields
    "two words" exact phrase, same as '"two words"
    ^word       the name or the title starts with word
    !term       must not match (any kind of term: !word, !'word, !#tag, !is:read)
    #tag        a tag equal to, or starting with, tag   (also tag:tag)
    is:unread|reading|read|starred                      (a unique prefix is enough: is:s)
    has:code|links|note|tags
    venue:x     x is a substring of the venue, ignoring case and spaces
                (venue:icml2025 and venue:"icml 2025" both match "ICML 2025")
    author:x    any of word, 'exact, ^prefix or "phrase" inside one field: author: (the
    title:x     authors, joined by ", "; author:^x is the first author), title: (the title and
    abstract:x  the name: the heading the list shows), name:, abstract:
    year:2024   the paper's year (else the year in its venue): 2024, 2023..2025, 2020.., ..2019;
                fewer than four digits stand for every year they start (year:202 is 2020..2029)
    a|b         either (also `a | b`); in `is:read|reading`, `#a|b`, `author:a|b` and
                `year:2017|2024` a bare alternative repeats the key

Words are ANDed. Mistakes (an unknown `is:` value, an unusable tag, a year that is not one) do
not raise: the term matches nothing and `Query.errors` says why, so a filter-as-you-type box
can show it; the CLI calls
`Query.check()` to turn the first error into a `QueryError`. A marker with nothing after it yet
(`!`, `'`, `^`, `#`, `is:`, `author:`, `year:..`), as while typing, is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from papershelf.storage.errors import QueryError
from papershelf.storage.model import normalise_tag
from papershelf.storage.text.fold import fold

TermKind = Literal["word", "exact", "prefix", "tag", "is", "has", "venue", "year"]

TOKEN_RE = re.compile(r"[^\W_]+")
"""What a word is, both in indexed text and in a query word: a run of letters and digits.

`_` separates words, as `-` does: `_lifting_` (Markdown emphasis) holds the word `lifting`, and
`snake_case_words` the words `snake`, `case` and `words`, as a person reads them."""


def fold_text(text: str) -> str:
    """Text as searches compare it: `K²IE` as `k2ie`, `Déjà` as `deja`, script NP as `np`, any case.

    `storage.text.fold.fold`, which the name lookup (`storage.library.library.fold_name`) uses
    too: compatibility forms unfolded, accents dropped, case folded, and the letters NFKD keeps
    whole as people type them (authors' names: `author:lukasz` finds Łukasz, `author:aeby`
    Æby). ASCII text is only lower-cased (same length).
    """
    return fold(text)


def words_of(text: str) -> list[str]:
    """The searchable words of a text, folded, in order (repeats kept)."""
    return TOKEN_RE.findall(fold_text(text))


STATUS_VALUES = ("unread", "reading", "read", "starred")
HAS_VALUES = ("code", "links", "note", "tags")
FIELD_KEYS: dict[str, tuple[str, ...]] = {
    "author": ("authors",),
    "authors": ("authors",),
    "title": ("name", "title"),
    "name": ("name",),
    "abstract": ("abstract",),
}
"""A field key -> the fields its word, exact or prefix term looks in. `title:` looks in the name
too: the name is the heading the list shows, and the only one a paper without a title has."""
_KEYS = {"tag": "tag", "is": "is", "has": "has", "venue": "venue", "year": "year"}
_KEYS.update({key: key for key in FIELD_KEYS})
MIN_YEAR, MAX_YEAR = 0, 9999
"""The bounds of an open year range (`year:2020..`, `year:..2019`)."""
_YEAR_RE = re.compile(r"(?P<low>\d{1,4})?(?:(?P<dots>\.\.)(?P<high>\d{1,4})?|\.)?")
"""A year, a range of years with either end open, or a year followed by the first `.` of `..`
(while typing `2020..`)."""
_YEAR_HELP = "use a year like 2024, or a range: 2023..2025, 2020.., ..2019"
_KEY_RE = re.compile(r"([A-Za-z]+):(.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Term:
    """One condition. `value` is normalised: lower case for text, the canonical tag for tags."""

    kind: TermKind
    value: str
    negated: bool = False
    tokens: tuple[str, ...] = ()
    """For `word`: the word's tokens (`gpt-4` -> ("gpt", "4")); each must match."""
    choices: tuple[str, ...] = ()
    """For `is`/`has`: the values the (possibly abbreviated) value stands for; empty = none."""
    fields: tuple[str, ...] = ()
    """For `word`, `exact` and `prefix` given a field key (`author:x`): the only fields it looks
    in (see `FIELD_KEYS`); empty = every field of its kind."""
    years: tuple[int, int] | None = None
    """For `year`: the first and last year it matches; None for a value that is no year."""


Clause = tuple[Term, ...]
"""Alternatives: a paper satisfies the clause when it satisfies any one of them."""


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: every clause must hold."""

    text: str
    clauses: tuple[Clause, ...] = ()
    errors: tuple[str, ...] = ()
    truncated: bool = False
    """True when the text held more than MAX_QUERY_TERMS words: the rest were ignored."""

    @property
    def notice(self) -> str | None:
        """One line saying the query was cut, or None."""
        if not self.truncated:
            return None
        return f"query cut to its first {MAX_QUERY_TERMS} words"

    @property
    def is_empty(self) -> bool:
        """True when the query puts no condition on papers (every paper matches)."""
        return not self.clauses

    def check(self) -> Query:
        """Return self, or raise `QueryError` with the first problem found while parsing."""
        if self.errors:
            raise QueryError(self.errors[0])
        return self


def _split_words(text: str) -> list[list[tuple[str, bool]]]:
    """Whitespace-separated words, each as (piece, quoted) pieces; quotes are removed."""
    words: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    buf: list[str] = []
    quoted = False
    started = False
    for ch in text:
        if ch == '"':
            if buf:
                current.append(("".join(buf), quoted))
                buf = []
            quoted = not quoted
            started = True
        elif ch.isspace() and not quoted:
            if buf:
                current.append(("".join(buf), quoted))
                buf = []
            if current or started:
                words.append(current)
            current, started = [], False
        else:
            buf.append(ch)
            started = True
    if buf:
        current.append(("".join(buf), quoted))
    if current:
        words.append(current)
    return words


def _split_alternatives(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """Split one word on `|` outside quotes: (alternative text, whether any of it was quoted)."""
    alternatives: list[tuple[str, bool]] = []
    text, quoted = "", False
    for piece, is_quoted in pieces:
        if is_quoted:
            text += piece
            quoted = True
            continue
        parts = piece.split("|")
        for i, part in enumerate(parts):
            if i:
                alternatives.append((text, quoted))
                text, quoted = "", False
            text += part
    alternatives.append((text, quoted))
    return alternatives


def _choices(value: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """An exact value, else every allowed value it is a prefix of."""
    if value in allowed:
        return (value,)
    return tuple(choice for choice in allowed if choice.startswith(value))


def _squash(text: str) -> str:
    """Venue comparison form: lower case without whitespace."""
    return "".join(text.lower().split())


def _text_term(text: str, quoted: bool, negated: bool, fields: tuple[str, ...]) -> Term | None:
    """A word, `'exact`, `^prefix` or quoted phrase, looking in `fields` (empty: all)."""
    if text.startswith("'"):
        value = fold_text(text[1:])
        return Term("exact", value, negated, fields=fields) if value.strip() else None
    if text.startswith("^"):
        value = fold_text(text[1:]).lstrip()
        return Term("prefix", value, negated, fields=fields) if value else None
    value = fold_text(text)
    if not value.strip():
        return None
    if quoted and any(ch.isspace() for ch in value.strip()):
        # A quoted phrase is matched as written.
        return Term("exact", value, negated, fields=fields)
    tokens = tuple(TOKEN_RE.findall(value))
    if not tokens:
        # Punctuation only: `$`, `---`.
        return Term("exact", value.strip(), negated, fields=fields)
    return Term("word", value, negated, tokens, fields=fields)


def _year_term(value: str, negated: bool, errors: list[str]) -> Term | None:
    """`year:` with its value: one year, a range, or (an error) neither."""
    match = _YEAR_RE.fullmatch(value)
    low, high = (match.group("low"), match.group("high")) if match else (None, None)
    if match is not None and low is None and high is None:
        return None  # `year:..` or `year:.`: a range not typed yet
    if match is None:
        errors.append(f"unknown year: value {value!r} ({_YEAR_HELP})")
        return Term("year", value, negated)
    ranged = match.group("dots") is not None or value.endswith(".")
    first = _year_bounds(low)[0] if low is not None else MIN_YEAR
    end = high if ranged else low
    last = _year_bounds(end)[1] if end is not None else MAX_YEAR
    if first > last:
        errors.append(f"year range {value!r} runs backwards (use {high}..{low})")
        return Term("year", value, negated)
    return Term("year", value, negated, years=(first, last))


def _year_bounds(digits: str) -> tuple[int, int]:
    """The years a value of up to four digits stands for: `2024` itself, `202` 2020..2029."""
    scale = 10 ** (4 - len(digits))
    return int(digits) * scale, (int(digits) + 1) * scale - 1


def _parse_term(raw: str, quoted: bool, key_hint: str | None, errors: list[str]) -> Term | None:
    """One alternative -> a Term, or None when there is nothing to match yet."""
    negated = raw.startswith("!")
    text = raw[1:] if negated else raw
    key: str | None = None
    value = text
    if text.startswith(("'", "^")):
        # After a field key (`title:a|^b`) the alternative stays in the key's fields.
        return _text_term(text, quoted, negated, FIELD_KEYS.get(key_hint or "", ()))
    if text.startswith("#"):
        key, value = "tag", text[1:]
    else:
        match = _KEY_RE.fullmatch(text)
        if match and match.group(1).lower() in _KEYS:
            key, value = _KEYS[match.group(1).lower()], match.group(2)
        elif key_hint is not None and text and (not quoted or key_hint in FIELD_KEYS):
            # `is:read|reading`: a bare alternative repeats the key (`author:"a b"|"c d"` too)
            key = key_hint
    if key is None:
        return _text_term(text, quoted, negated, ())
    if key in FIELD_KEYS:
        if value.startswith("!"):  # `author:!x` is `!author:x`
            value, negated = value[1:], not negated
        return _text_term(value, quoted, negated, FIELD_KEYS[key])
    value = value.strip()
    if not value:
        return None
    if key == "year":
        return _year_term(value, negated, errors)
    if key == "tag":
        try:
            return Term("tag", normalise_tag(value), negated)
        except ValueError as error:
            errors.append(str(error))
            return Term("tag", "", negated)
    if key == "venue":
        return Term("venue", _squash(value), negated)
    allowed = STATUS_VALUES if key == "is" else HAS_VALUES
    lowered = value.lower()
    choices = _choices(lowered, allowed)
    if not choices:
        errors.append(f"unknown {key}: value {value!r} (use {', '.join(allowed)})")
    return Term(key, lowered, negated, choices=choices)  # type: ignore[arg-type]


def _key_of(raw: str) -> str | None:
    """The key an alternative was written with (`#x` is `tag`), which bare alternatives after it
    repeat (`is:read|reading`, `author:vaswani|shazeer`), or None."""
    text = raw[1:] if raw.startswith("!") else raw
    if text.startswith("#"):
        return "tag"
    match = _KEY_RE.fullmatch(text)
    return _KEYS.get(match.group(1).lower()) if match else None


MAX_QUERY_TERMS = 24
"""Words a query may hold (a word's `|` alternatives count as one); each costs a pass over the
index, so a pasted page of text would otherwise take seconds per keystroke."""


def parse_query(text: str) -> Query:
    """Parse a query string. Never raises; problems are listed in `Query.errors`.

    Only the first MAX_QUERY_TERMS words count; `Query.truncated` says when more were given.
    """
    errors: list[str] = []
    clauses: list[Clause] = []
    join_next = False
    count = 0
    truncated = False
    for pieces in _split_words(text):
        if count >= MAX_QUERY_TERMS:
            truncated = True
            break
        if pieces == [("|", False)]:
            join_next = bool(clauses)  # `a | b`: the next clause joins the previous one
            continue
        terms: list[Term] = []
        hint: str | None = None
        for raw, quoted in _split_alternatives(pieces):
            term = _parse_term(raw, quoted, hint, errors)
            if term is not None:
                terms.append(term)
            hint = _key_of(raw) or hint
        if not terms:
            continue
        count += 1
        if join_next and clauses:
            clauses[-1] = clauses[-1] + tuple(terms)
        else:
            clauses.append(tuple(terms))
        join_next = False
    return Query(text, tuple(clauses), tuple(errors), truncated)
