"""Text rules of ingest: cleaning, duplicate keys and ids, paragraphs, headers and venues."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass

# Bidi embeddings/overrides (U+202A-202E), isolates (U+2066-2069) and the invisible direction
# marks can reorder or hide what a terminal shows; a stray BOM inside the text is invisible too.
_INVISIBLE = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\ufeff"
_STRIP_TABLE: dict[int, int | None] = {
    **{code: None for code in range(0x00, 0x20) if code not in (0x09, 0x0A)},
    0x7F: None,
    **{code: None for code in range(0x80, 0xA0)},
    **{ord(ch): None for ch in _INVISIBLE},
    # Unicode line and paragraph separators are line breaks a terminal would not show as such.
    0x2028: 0x0A,
    0x2029: 0x0A,
    0x0D: 0x0A,  # a lone CR (old Mac line end) is a line break
    # Lone surrogates (JSON "\ud800" escapes, undecodable file names) cannot be encoded as
    # UTF-8: left in, they make saving papers.json fail.
    **{code: None for code in range(0xD800, 0xE000)},
}

_CHUNK = 2048
_SCAN = 1 << 16
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))
_ASCII_ALLOWED = _PRINTABLE_ASCII + b"\t\n"
"""The ASCII characters that _STRIP_TABLE keeps as they are."""
_NEEDS_STRIP = re.compile(
    "["
    + "".join(re.escape(chr(code)) for code in _STRIP_TABLE if not 0xD800 <= code < 0xE000)
    + "\ud800-\udfff]"
)
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


def _chunks(text: str) -> Iterator[str]:
    """The text in consecutive pieces of about _CHUNK characters, each cut before an ASCII one.

    ASCII is NFC, and no character composes with an ASCII character after it, so each piece
    can be normalised on its own. Slicing finds a piece's widest character in C, so
    `piece.isascii()` then costs nothing.
    """
    start, size = 0, len(text)
    while start < size:
        end = start + _CHUNK
        while end < size and not text[end].isascii():
            end += 1
        yield text[start:end]
        start = end


def _ascii_within(text: str, allowed: bytes) -> bool:
    """Whether ASCII text holds only the allowed characters.

    Deleting the allowed bytes leaves nothing: a C loop, 3 to 10 times faster than
    `isprintable()` or a regex. A long text is encoded a slice at a time, never copied whole.
    """
    if len(text) <= _SCAN:
        return not text.encode("ascii").translate(None, allowed)
    return not any(
        text[start : start + _SCAN].encode("ascii").translate(None, allowed)
        for start in range(0, len(text), _SCAN)
    )


def _nfc(text: str) -> str:
    """`unicodedata.normalize("NFC", text)`, skipping ASCII (whose quick check alone costs
    0.4 s on a 16 MB file)."""
    if text.isascii():  # O(1): CPython records whether a string is ASCII
        return text
    if len(text) <= _CHUNK:
        return unicodedata.normalize("NFC", text)
    return "".join(
        chunk if chunk.isascii() else unicodedata.normalize("NFC", chunk) for chunk in _chunks(text)
    )


def _clean_already(text: str) -> bool:
    """Whether long text has nothing to strip and is NFC; checked chunk by chunk, no copy."""
    for chunk in _chunks(text):
        if chunk.isascii():
            if not _ascii_within(chunk, _ASCII_ALLOWED):
                return False
        elif _NEEDS_STRIP.search(chunk) or not unicodedata.is_normalized("NFC", chunk):
            return False
    return True


def clean_text(text: str) -> str:
    """NFC; CRLF/CR to LF; strip C0/C1 controls (except newline and tab), DEL, bidi controls
    and lone surrogates."""
    # Clean ASCII text (most text, and all text cleaned before) is returned as it is.
    if text.isascii() and _ascii_within(text, _ASCII_ALLOWED):
        return text
    text = text.replace("\r\n", "\n")
    if len(text) > _CHUNK and _clean_already(text):
        return text  # a whole file, usually: one fast pass, and no copy of it
    # translate() with a large table is slow, and most text has nothing to strip.
    if _NEEDS_STRIP.search(text):
        text = text.translate(_STRIP_TABLE)
    return _nfc(text)


def clean_name(name: str) -> str:
    """A file name as one clean line, for reports and `Paper.sources`.

    A name that is not UTF-8 reaches Python with its bad bytes as lone surrogates
    (surrogateescape): they are shown as U+FFFD. Controls go (`clean_text`), and newlines and
    tabs become spaces, so that an error naming the file stays one line.
    """
    # A surrogate that no byte escaped cannot be encoded back: clean_text drops it.
    with suppress(UnicodeEncodeError):
        name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return clean_text(name).replace("\n", " ").replace("\t", " ")


def _printable_ascii(text: str) -> bool:
    """Whether every character is printable ASCII (the space is; tabs and newlines are not)."""
    return text.isascii() and _ascii_within(text, _PRINTABLE_ASCII)


def _single_spaced(text: str) -> bool:
    """Whether text with no whitespace but the space has no run of two and none at an end."""
    return "  " not in text and not text.startswith(" ") and not text.endswith(" ")


def squash_spaces(text: str) -> str:
    """`" ".join(text.split())`: whitespace runs to one space, none at the ends.

    Cheap for text that is that already (every cleaned abstract): in printable ASCII the only
    whitespace is the space, and the checks cost a fraction of splitting into words.
    """
    if _printable_ascii(text) and _single_spaced(text):
        return text
    return " ".join(text.split())


def clean_line(text: str) -> str:
    """`squash_spaces(clean_text(text))`: a field of a record as one clean line."""
    if _printable_ascii(text):
        # Nothing to clean, and the space is the only whitespace.
        return text if _single_spaced(text) else " ".join(text.split())
    return squash_spaces(clean_text(text))


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
        if "\t" in text or "\n" in text or not _single_spaced(text):
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
    lines: list[str] = []
    start = 0
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or _SEPARATOR.fullmatch(line):
            if lines:
                yield Paragraph(" ".join(lines), start, len(lines))
                lines = []
            continue
        if not lines:
            start = number
        lines.append(line)
    if lines:
        yield Paragraph(" ".join(lines), start, len(lines))


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
