"""Display text: LaTeX math to Unicode and Markdown emphasis to style spans (DESIGN §3).

This is a view of an abstract, never a change to the stored text. It never raises: a math span
that cannot be shown faithfully is shown as written, `$` signs included, and a lone `$`
("$5 million") is not math.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from papershelf.storage.text.scan import finditer_at, literal_starts, paired_matches

Style = Literal["bold", "italic", "code"]


@dataclass(frozen=True)
class Display:
    """Text to show and its style spans."""

    text: str
    styles: tuple[tuple[int, int, str], ...]
    """(start, end, "bold"|"italic"|"code"), offsets into `text`, sorted by start."""


@dataclass(frozen=True, slots=True)
class _Piece:
    """A part of the source replaced as a unit (math, a text command, a URL)."""

    start: int
    end: int
    text: str
    style: str | None = None


_MATH_STYLE = re.compile(r"\s*\\(textbf|mathbf|textit|emph|texttt|mathtt)\s*\{([^{}]*)\}\s*")
_STYLE_OF = {
    "textbf": "bold",
    "mathbf": "bold",
    "textit": "italic",
    "emph": "italic",
    "texttt": "code",
    "mathtt": "code",
}
_COMMANDS = "textbf|textit|emph|texttt|textsc|textrm|textsf|underline"
# One command inside another: "\\underline{\\textbf{L}}earnable" marks a letter, a common way
# to show which letters make an acronym (the outer command would be left in the text otherwise).
_NESTED_TEXT = r"\\(?:" + _COMMANDS + r")\s*\{[^{}$]*\}"
_NESTED = re.compile(r"\\(" + _COMMANDS + r")\s*\{([^{}$]*)\}")
# Text-mode LaTeX outside math: escapes, styled text, the em dash; URLs are kept verbatim
# (so `_` or `*` inside them is never emphasis).
_TEXT = re.compile(
    r"(?P<url>\b(?:https?://|www\.)[^\s<>\"]+)"
    r"|\\(?P<cmd>" + _COMMANDS + r")\s*\{(?P<arg>(?:[^{}$\\]|" + _NESTED_TEXT + r"|\\)*)\}"
    r"|\\(?P<esc>[%&#_$])"
    r"|(?<=\S)(?P<dash>---)(?=\S)"
    r"|\\(?P<word>textemdash|textendash)\b(?:\{\})?"
    # Accents: `Schr\"{o}dinger`, `Nystr{\"o}m`, `\'e`; a grave only braced (`\`word'` is an
    # escaped quote).
    r"|(?P<open>\{)?\\(?P<accent>[\"'`^~=.])\s*"
    r"(?:\{(?P<braced>[A-Za-z])\}|(?<!`)(?P<letter>[A-Za-z]))(?(open)\})"
)
# Every _TEXT match begins with one of these (the pattern is case-sensitive).
_TEXT_STARTS = ("http", "www.", "\\", "---", "{\\")
_TEXT_WORDS = {"textemdash": "—", "textendash": "\u2013"}
_TEXT_ACCENTS = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
}
_PROSE = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}\s+[A-Za-z]{3,}(?![A-Za-z])")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}(?![A-Za-z])")
_TEXT_ARG = re.compile(r"\\(?:text\w*|math(?:rm|tt|bf|sf|it)|operatorname|mbox|emph)\s*\{[^{}]*\}")
MAX_MATH = 500
_PAREN_MATH = re.compile(r"\\\((.{1,500}?)\\\)")


def _is_math(content: str, after: str) -> bool:
    """Whether `$content$` is math rather than two dollar amounts ("$5 and $10")."""
    if not content.strip() or len(content) > MAX_MATH or "\n\n" in content:
        return False
    bare = _TEXT_ARG.sub(" ", content)
    if _PROSE.search(bare):
        return False
    # Amounts: "$5 million", "$5 and $10"; math that starts with a digit has no words in it.
    return not (content.lstrip()[:1].isdigit() and (after[:1].isdigit() or _WORD.search(bare)))


def _math_to_unicode(content: str) -> str:
    return _math_converter()(content)


@cache
def _math_converter() -> Callable[[str], str]:
    # Imported on first use: its tables cost ~25 ms, and `papershelf list` prints titles with
    # `_` or `*` (no math) through `display_text` too. Bound once: an import statement in the
    # function called for every math span cost ~1.5 us each.
    from papershelf.storage.text.latex_math import math_to_unicode

    return math_to_unicode


def _math_piece(start: int, end: int, content: str, raw: str) -> _Piece:
    styled = _MATH_STYLE.fullmatch(content)
    try:
        text = _math_to_unicode(content)
    except ValueError:  # latex_math.MathError
        # Not LaTeX we understand: show it exactly as written.
        return _Piece(start, end, raw)
    return _Piece(start, end, text, _STYLE_OF[styled.group(1)] if styled else None)


def _math_pieces(text: str) -> list[_Piece]:
    """Math spans: `$...$`, `$$...$$`, `\\(...\\)`; escaped `\\$` is a dollar sign."""
    pieces: list[_Piece] = []
    i = 0
    while True:
        i = text.find("$", i)
        if i < 0:
            break
        if i > 0 and text[i - 1] == "\\":
            i += 1
            continue
        delimiter = "$$" if text.startswith("$$", i) else "$"
        j = i + len(delimiter)
        while True:
            j = text.find(delimiter, j)
            if j < 0 or text[j - 1] != "\\":
                break
            j += 1
        if j < 0:
            break
        content = text[i + len(delimiter) : j]
        end = j + len(delimiter)
        if _is_math(content, text[end : end + 1]):
            pieces.append(_math_piece(i, end, content, text[i:end]))
            i = end
        else:
            i += 1
    for match in _PAREN_MATH.finditer(text):
        if not any(p.start <= match.start() < p.end for p in pieces):
            pieces.append(_math_piece(match.start(), match.end(), match.group(1), match.group()))
    return pieces


def _pieces(text: str) -> list[_Piece]:
    """Every unit replacement in the text, sorted and non-overlapping."""
    # A one-character test (memchr) before each longer one (a pass of the text): most
    # abstracts have no backslash, more than half no colon.
    pieces = _math_pieces(text) if "$" in text or ("\\" in text and "\\(" in text) else []
    if (
        "\\" not in text
        and "---" not in text
        and (":" not in text or "://" not in text)
        and "www." not in text
    ):
        return sorted(pieces, key=lambda piece: piece.start)
    taken = sorted((p.start, p.end) for p in pieces)
    for match in finditer_at(_TEXT, text, literal_starts(text, _TEXT_STARTS)):
        if any(start < match.end() and match.start() < end for start, end in taken):
            continue
        if match.group("url"):
            pieces.append(_Piece(match.start(), match.end(), match.group()))
        elif match.group("cmd"):
            style, arg = _STYLE_OF.get(match.group("cmd")), match.group("arg")
            if "\\" in arg:
                whole = _NESTED.fullmatch(arg)
                if whole and style is None:  # "\\underline{\\textbf{L}}": the inner style
                    style = _STYLE_OF.get(whole.group(1))
                arg = _NESTED.sub(lambda inner: inner.group(2), arg)
            pieces.append(_Piece(match.start(), match.end(), arg, style))
        elif match.group("esc"):
            pieces.append(_Piece(match.start(), match.end(), match.group("esc")))
        elif match.group("word"):
            pieces.append(_Piece(match.start(), match.end(), _TEXT_WORDS[match.group("word")]))
        elif match.group("accent"):
            letter = match.group("braced") or match.group("letter")
            accented = unicodedata.normalize("NFC", letter + _TEXT_ACCENTS[match.group("accent")])
            pieces.append(_Piece(match.start(), match.end(), accented))
        else:
            pieces.append(_Piece(match.start(), match.end(), "—"))
    pieces.sort(key=lambda piece: piece.start)
    return pieces


def latex_to_unicode(text: str) -> str:
    """Convert math spans (and text-mode escapes like `\\%`, `\\textbf{}`); the rest untouched."""
    try:
        out, last = [], 0
        for piece in _pieces(text):
            out.append(text[last : piece.start])
            out.append(piece.text)
            last = piece.end
        out.append(text[last:])
        return "".join(out)
    except Exception:  # a display helper must never break the reader
        return text


_HOLE = "\ufffc"  # one character standing for a piece while emphasis is found
_BOLD = re.compile(r"(\*\*|__)(?=[^\s*_])(.+?)(?<=[^\s*_])\1")
# A single `*` opens and closes as CommonMark's flanking rules say: `*` before punctuation
# opens only after a space or punctuation, and `*` after punctuation closes only before one,
# so `ToolChain*, an A* method` keeps both stars (it lost them to an italic ", an A") while
# `*D*istributional` (a letter of an acronym marked inside a word) is still emphasis.
# ASCII punctuation, general punctuation (dashes, quotes, ellipsis), CJK and full-width marks.
_PUNCT = (
    r"!-/:-@\[-`{-~\u00a1\u00a7\u00ab\u00b6\u00b7\u00bb\u00bf\u2010-\u2027\u2030-\u205e"
    r"\u3001-\u3003\u3008-\u3011\uff01-\uff0f\uff1a-\uff20"
)
_STAR_OPEN = rf"(?<!\*)\*(?!\*)(?=\S)(?:(?![{_PUNCT}])|(?<=^\*)|(?<=[\s{_PUNCT}]\*))"
_STAR_CLOSE = rf"(?<=[^\s*])(?:(?<![{_PUNCT}])|(?=\*(?:$|[\s{_PUNCT}])))\*(?!\*)"
_STAR = re.compile(rf"{_STAR_OPEN}(.+?){_STAR_CLOSE}")
_UNDERSCORE = re.compile(r"(?<![\w\\])_(?=[^\s_])(.+?)(?<=[^\s_])_(?!\w)")
# Where each pattern's lazy `.+?` may stop, by opening marker (see paired_matches).
_BOLD_CLOSERS = {"**": re.compile(r"(?<=[^\s*_])\*\*"), "__": re.compile(r"(?<=[^\s*_])__")}
_STAR_CLOSERS = {"*": re.compile(_STAR_CLOSE)}
_UNDERSCORE_CLOSERS = {"_": re.compile(r"(?<=[^\s_])_(?!\w)")}


def _emphasis(masked: str) -> tuple[set[int], list[tuple[int, int, str]]]:
    """Marker positions to delete and (start, end, style) spans, in masked-string offsets."""
    deleted: set[int] = set()
    spans: list[tuple[int, int, str]] = []
    if "*" not in masked and "_" not in masked:
        return deleted, spans  # every marker is one of them
    for match in paired_matches(_BOLD, _BOLD_CLOSERS, masked):
        if match.group(1) == "__" and (
            (match.start() > 0 and masked[match.start() - 1].isalnum())
            or (match.end() < len(masked) and masked[match.end()].isalnum())
        ):
            continue  # `__` inside a word (dunder names) is not emphasis
        deleted.update((match.start(), match.start() + 1, match.end() - 2, match.end() - 1))
        spans.append((match.start() + 2, match.end() - 2, "bold"))
    # Removed markers must not pair up again as italics.
    working = _blanked(masked, deleted)
    for pattern, closers in ((_STAR, _STAR_CLOSERS), (_UNDERSCORE, _UNDERSCORE_CLOSERS)):
        for match in paired_matches(pattern, closers, working):
            deleted.update((match.start(), match.end() - 1))
            spans.append((match.start() + 1, match.end() - 1, "italic"))
        working = _blanked(working, deleted)
    return deleted, spans


def _blanked(text: str, positions: set[int]) -> str:
    """The text with the characters at these positions replaced by \x01."""
    out: list[str] = []
    last = 0
    for position in sorted(positions):
        out.append(text[last:position])
        out.append("\x01")
        last = position + 1
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=2048)
def display_text(abstract: str) -> Display:
    """Math to Unicode, `**bold**`/`*italic*`/`_italic_` to styles with the markers removed."""
    return _shown(abstract)


def _shown(source: str) -> Display:
    text = _cleaner()(source).replace("\t", " ")
    try:
        return _display(text)
    except Exception:  # never break the reader: show the cleaned text unstyled
        return Display(text, ())


@cache
def _cleaner() -> Callable[[str], str]:
    # Imported on first use: a title (`title_text`, which `papershelf list` may print) is not
    # cleaned. Bound once: an import statement per abstract cost ~1.5 us.
    from papershelf.storage.text.clean import clean_text

    return clean_text


@lru_cache(maxsize=16384)
def title_text(title: str) -> str:
    """A title with its math as Unicode and its emphasis markers dropped: use
    `papershelf.storage.text.titles.display_title`, which spares plain titles this module's import.

    Unlike `display_text`, nothing else changes (no cleaning): a control character stays for
    the screen to show as a visible stand-in. Cached apart from `display_text`: the list draws
    titles of 10k papers, which must not push the abstracts out of that cache.
    """
    try:
        return _display(title).text
    except Exception:  # a display helper must never break the list
        return title


def _filled(text: str, pieces: list[_Piece]) -> Display:
    """`_display` when there is no emphasis: each piece's text in its place."""
    out: list[str] = []
    styles: list[tuple[int, int, str]] = []
    length, last = 0, 0
    for piece in pieces:
        plain = text[last : piece.start].replace(_HOLE, " ")
        out.append(plain)
        length += len(plain)
        if piece.style and piece.text:
            styles.append((length, length + len(piece.text), piece.style))
        out.append(piece.text)
        length += len(piece.text)
        last = piece.end
    out.append(text[last:].replace(_HOLE, " "))
    styles.sort()
    return Display("".join(out), tuple(styles))


def _display(text: str) -> Display:
    pieces = _pieces(text)
    if not pieces and "*" not in text and "_" not in text:
        return Display(text, ())
    masked = _masked(text, pieces)
    deleted, spans = _emphasis(masked)
    if not deleted:
        return _filled(text, pieces)  # the common case, without the offset mapping
    return _assembled(masked, pieces, deleted, spans)


def _masked(text: str, pieces: list[_Piece]) -> str:
    """The text with each piece replaced by one _HOLE (and any _HOLE already there by a space)."""
    masked_parts, last = [], 0
    for piece in pieces:
        masked_parts.append(text[last : piece.start].replace(_HOLE, " "))
        masked_parts.append(_HOLE)
        last = piece.end
    masked_parts.append(text[last:].replace(_HOLE, " "))
    return "".join(masked_parts)


def _assembled(
    masked: str, pieces: list[_Piece], deleted: set[int], spans: list[tuple[int, int, str]]
) -> Display:
    """Holes filled with the pieces' text, deleted markers dropped, spans moved to match."""
    # Events: a deleted marker or a hole filled by a piece's text; plain runs between them
    # are copied as slices, and offsets are mapped with a running shift.
    holes: list[int] = []
    index = masked.find(_HOLE)
    while index >= 0:
        holes.append(index)
        index = masked.find(_HOLE, index + 1)
    events = sorted([(index, None) for index in deleted] + list(zip(holes, pieces, strict=True)))
    out: list[str] = []
    styles: list[tuple[int, int, str]] = []
    positions = [0]  # masked offset of each event, then the output shift after it
    shifts = [0]
    shift, last = 0, 0
    for index, piece in events:
        out.append(masked[last:index])
        if piece is not None:
            if piece.style and piece.text:
                styles.append((index + shift, index + shift + len(piece.text), piece.style))
            out.append(piece.text)
            shift += len(piece.text) - 1
        else:
            shift -= 1
        last = index + 1
        positions.append(index + 1)
        shifts.append(shift)
    out.append(masked[last:])

    def mapped(offset: int) -> int:
        return offset + shifts[bisect_right(positions, offset) - 1]

    for start, end, style in spans:
        if mapped(end) > mapped(start):
            styles.append((mapped(start), mapped(end), style))
    styles.sort()
    return Display("".join(out), tuple(styles))
