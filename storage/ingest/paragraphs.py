"""Text rules of ingest: duplicate keys and ids, paragraphs, headers and venues."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from papershelf.storage.text.clean import clean_text, single_spaced

_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "`": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
    }
)
_HAS_QUOTE = re.compile("[" + "".join(re.escape(chr(code)) for code in _QUOTES) + "]")
# Trailing characters that differ between copies of one abstract (the corpus drops the final
# period; some lists add an ellipsis or a closing punctuation mark).
_TRAILING = ".,;:!?\u3002\uff0e\u2026 \t\n"

SENTENCE_END = (".", "!", "?", "\u3002", "\uff01", "\uff1f", "\u2026")
HEADER_MAX_CHARS = 100
"""A one-line paragraph without a sentence end and at most this long is a header, not a paper."""

_SEPARATOR = re.compile(r"[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*")
_MD_HEADING = re.compile(r"#{1,6}[ \t]+\S")
_PUNCT_AROUND = " :,-\u2013\u2014"  # hyphen, en and em dashes
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
# Words that name a list rather than a venue ("ICML 2025 Papers", "ICML 2025 论文列表").
_GENERIC = re.compile(
    r"(?:\s*(?:accepted|selected|oral|spotlight|poster|main|track|conference|papers?|"
    r"abstracts?|list|reading|论文列表|论文|列表|摘要)\s*)+$",
    re.IGNORECASE,
)


def dedupe_key(abstract: str) -> str:
    """The abstract normalised so that copies differing in whitespace, case, quotes or final
    punctuation compare equal."""
    text = clean_text(abstract)
    if text.isascii():
        # ASCII is NFKC and casefolds to ASCII (casefold is lower() there): no normalising;
        # the backtick is the one ASCII character _QUOTES maps.
        text = text.lower().replace("`", "'")
        # Cleaned ASCII is printable but for tabs and newlines: two fast checks, then the
        # cheap test of squash_spaces.
        if "\t" in text or "\n" in text or not single_spaced(text):
            text = " ".join(text.split())
        return text.rstrip(_TRAILING)
    text = unicodedata.normalize("NFKC", text).casefold()
    # casefold can leave text that is not NFKC (e.g. 'ǰ'), so normalise once more.
    text = unicodedata.normalize("NFKC", text)
    if _HAS_QUOTE.search(text):  # translate() looks up every character: skip it if it can
        text = text.translate(_QUOTES)
    return " ".join(text.split()).rstrip(_TRAILING)


def paper_id(abstract: str) -> str:
    """First 12 hex digits of sha1 of the dedupe key: stable across files and imports."""
    return hashlib.sha1(dedupe_key(abstract).encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A blank-line separated block of text: its lines joined with one space."""

    text: str
    line: int
    """1-based line number where the paragraph starts."""
    line_count: int

    @property
    def is_heading(self) -> bool:
        """A Markdown heading line (`## Oral Session 3`)."""
        return self.line_count == 1 and _MD_HEADING.match(self.text) is not None

    @property
    def is_header(self) -> bool:
        """One short line without a sentence end: a list title or section header."""
        if self.is_heading:
            return True
        text = self.text.rstrip("\"')]*_ ")
        return (
            self.line_count == 1
            and len(self.text) <= HEADER_MAX_CHARS
            and not text.endswith(SENTENCE_END)
        )


def paragraphs(text: str) -> Iterator[Paragraph]:
    """Split cleaned text on blank lines and `---`/`***` lines; join hard-wrapped lines."""
    return paragraphs_of_lines(text.split("\n"))


def paragraphs_of_lines(lines: Iterable[str], max_chars: int | None = None) -> Iterator[Paragraph]:
    """`paragraphs` of cleaned lines given one at a time (a streamed file).

    With `max_chars`, a paragraph is yielded as soon as its lines pass that many characters,
    unfinished, so that a file without blank lines is never gathered whole: the caller refuses
    it as too long (`parse._check_length`), naming its first line.
    """
    held: list[str] = []
    held_chars = 0
    start = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or _SEPARATOR.fullmatch(line):
            if held:
                yield Paragraph(" ".join(held), start, len(held))
                held = []
                held_chars = 0
            continue
        if not held:
            start = number
        held.append(line)
        held_chars += len(line) + (len(held) > 1)  # the length of the lines joined by spaces
        if max_chars is not None and held_chars > max_chars:
            yield Paragraph(" ".join(held), start, len(held))
            held = []
            held_chars = 0
    if held:
        yield Paragraph(" ".join(held), start, len(held))


def venue_from_header(header: str) -> str | None:
    """`ICML 2025 Papers` and `ICML 2025 论文列表` are both `ICML 2025`; None if no venue shows."""
    text = " ".join(header.lstrip("#").split()).strip(_PUNCT_AROUND)
    year = _YEAR.search(text)
    if year is not None:
        venue = text[: year.end()].strip(_PUNCT_AROUND)
        # A header that is just a year names no venue.
        return venue if venue != year.group() else None
    venue = _GENERIC.sub("", text).strip(_PUNCT_AROUND)
    # Without a year, accept only a short name that looks like a venue (`NeurIPS`, `ICLR`).
    words = venue.split()
    if 0 < len(words) <= 3 and any(sum(ch.isupper() for ch in word) >= 2 for word in words):
        return venue
    return None
