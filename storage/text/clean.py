"""Cleaning text from files and users: NFC, line breaks, no control or bidi characters, one
line when a field must be one. Fast on text that is clean already (most text)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import suppress

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

_ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, clearing the screen
    r"|\x1b[\]P^_][^\x07\x1b]{0,512}(?:\x07|\x1b\\)"  # OSC (titles, links), DCS, ...: ended
    r"|\x1b[()*+#%][0-~]"  # charset switches
)
"""A terminal escape sequence, removed whole: stripping only its ESC would leave `[31m` or
`]0;title` behind as junk text. Only ESC-led forms: a stray C1 byte (mis-decoded text) or an
unended OSC is stripped alone, never eating the text after it."""

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
        if "\x1b" in text:
            text = _ESCAPE_SEQUENCE.sub("", text)
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


def single_spaced(text: str) -> bool:
    """Whether text with no whitespace but the space has no run of two and none at an end."""
    return "  " not in text and not text.startswith(" ") and not text.endswith(" ")


def squash_spaces(text: str) -> str:
    """`" ".join(text.split())`: whitespace runs to one space, none at the ends.

    Cheap for text that is that already (every cleaned abstract): in printable ASCII the only
    whitespace is the space, and the checks cost a fraction of splitting into words.
    """
    if _printable_ascii(text) and single_spaced(text):
        return text
    return " ".join(text.split())


def clean_line(text: str) -> str:
    """`squash_spaces(clean_text(text))`: a field of a record as one clean line."""
    if _printable_ascii(text):
        # Nothing to clean, and the space is the only whitespace.
        return text if single_spaced(text) else " ".join(text.split())
    return squash_spaces(clean_text(text))
