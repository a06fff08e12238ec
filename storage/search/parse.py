"""The query language (DESIGN §4): text -> `Query`. Tolerant: parsing never raises.

Grammar, one whitespace-separated word at a time (double quotes keep spaces and `|` inside a word):

    word        fuzzy word over name, title, tags, note and abstract (typos and prefixes match)
    'word       exact substring (case-insensitive) of one of those fields
    "two words" exact phrase, same as '"two words"
    ^word       the name or the title starts with word
    !term       must not match (any kind of term: !word, !'word, !#tag, !is:read)
    #tag        a tag equal to, or starting with, tag   (also tag:tag)
    is:unread|reading|read|starred                      (a unique prefix is enough: is:s)
    has:code|links|note|tags
    venue:x     x is a substring of the venue, ignoring case and spaces
                (venue:icml2025 and venue:"icml 2025" both match "ICML 2025")
    a|b         either (also `a | b`); in `is:read|reading` and `#a|b` a bare alternative
                repeats the key

Words are ANDed. Mistakes (an unknown `is:` value, an unusable tag) do not raise: the term matches
nothing and `Query.errors` says why, so a filter-as-you-type box can show it; the CLI calls
`Query.check()` to turn the first error into a `QueryError`. A marker with nothing after it yet
(`!`, `'`, `^`, `#`, `is:`), as while typing, is ignored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

from papershelf.storage.errors import QueryError
from papershelf.storage.model import normalise_tag

TermKind = Literal["word", "exact", "prefix", "tag", "is", "has", "venue"]

TOKEN_RE = re.compile(r"[^\W_]+")
"""What a word is, both in indexed text and in a query word: a run of letters and digits.

`_` separates words, as `-` does: `_lifting_` (Markdown emphasis) holds the word `lifting`, and
`snake_case_words` the words `snake`, `case` and `words`, as a person reads them."""
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold_text(text: str) -> str:
    """Text as searches compare it: `K²IE` as `k2ie`, `Déjà` as `deja`, script NP as `np`, any case.

    The same folding as the name lookup (`storage.library.library.fold_name`): compatibility forms
    unfolded, accents dropped, case folded. ASCII text is only lower-cased (same length).
    """
    if text.isascii():
        return text.lower()
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text)).casefold()


def words_of(text: str) -> list[str]:
    """The searchable words of a text, folded, in order (repeats kept)."""
    return TOKEN_RE.findall(fold_text(text))


STATUS_VALUES = ("unread", "reading", "read", "starred")
HAS_VALUES = ("code", "links", "note", "tags")
_KEYS = {"tag": "tag", "is": "is", "has": "has", "venue": "venue"}
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


def _parse_term(raw: str, quoted: bool, key_hint: str | None, errors: list[str]) -> Term | None:
    """One alternative -> a Term, or None when there is nothing to match yet."""
    negated = raw.startswith("!")
    text = raw[1:] if negated else raw
    key: str | None = None
    value = text
    if text.startswith("'"):
        value = fold_text(text[1:])
        return Term("exact", value, negated) if value.strip() else None
    if text.startswith("^"):
        value = fold_text(text[1:]).lstrip()
        return Term("prefix", value, negated) if value else None
    if text.startswith("#"):
        key, value = "tag", text[1:]
    else:
        match = _KEY_RE.fullmatch(text)
        if match and match.group(1).lower() in _KEYS:
            key, value = _KEYS[match.group(1).lower()], match.group(2)
        elif key_hint is not None and text and not quoted:
            key = key_hint  # `is:read|reading`: a bare alternative repeats the key
    if key is None:
        value = fold_text(text)
        if not value.strip():
            return None
        if quoted and any(ch.isspace() for ch in value.strip()):
            return Term("exact", value, negated)  # a quoted phrase is matched as written
        tokens = tuple(TOKEN_RE.findall(value))
        if not tokens:
            return Term("exact", value.strip(), negated)  # punctuation only: `$`, `---`
        return Term("word", value, negated, tokens)
    value = value.strip()
    if not value:
        return None
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


def _key_hint(term: Term | None) -> str | None:
    return term.kind if term is not None and term.kind in ("tag", "is", "has", "venue") else None


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
                hint = _key_hint(term) or hint
        if not terms:
            continue
        count += 1
        if join_next and clauses:
            clauses[-1] = clauses[-1] + tuple(terms)
        else:
            clauses.append(tuple(terms))
        join_next = False
    return Query(text, tuple(clauses), tuple(errors), truncated)
