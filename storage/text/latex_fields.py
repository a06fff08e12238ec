"""LaTeX in BibTeX fields to Unicode text: `Schr{\\"o}dinger` is `Schrödinger`, `{{BERT}}` is
`BERT`, `1--10` has an en dash; math (`$...$`, `$$...$$`) stays as written, as papershelf stores it
(the screens show it through `storage.text.latex`).

Hand-written rather than pylatexenc's `LatexNodes2Text` (which bibtexparser's decoding middleware
uses), measured on this machine: it took 17 ms per 1,200-character abstract (3 minutes for a
10,000-entry `.bib`), 47 s for one 1 MB field, raised RecursionError at 1,000 nested braces and
IndexError on `\\href{a}`, read a bare `%` as a comment that swallows the rest of the field, and
dropped a closing `''`. This is one regex pass, linear in the text, with no recursion: a brace
is dropped wherever it is, so nesting costs nothing.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["field_text"]

# Everything that can change; text without any of these is returned as it is.
_NEEDS_WORK = re.compile(r"[\\{}~]|--|``|''")

_ACCENT_TARGET = r"(?:\\[ij](?![A-Za-z])|[A-Za-z])"
_TOKEN = re.compile(
    # Math is kept verbatim, braces and all. An unclosed `$` is scanned to the end once only:
    # the scan stops at the next `$`, which then closes it. (`\(...\)` is not looked for: an
    # unclosed one would be scanned again from every `\(`, and BibTeX files write `$`.)
    r"(?P<math>\$\$(?:[^$\\]|\\.)*\$\$|\$(?:[^$\\]|\\.)*\$)"
    r"|\\(?P<escape>[&%$#_{}])"
    # `\"u`, `\"{u}`, `\'\i`, `\v{c}`, `\c c` (a letter accent needs a non-letter after it).
    r"|\\(?P<accent>[\"'`^~=.]|[uvHckrdb](?![A-Za-z]))\s*"
    rf"(?:\{{\s*(?P<braced>{_ACCENT_TARGET})\s*\}}|(?P<bare>{_ACCENT_TARGET}))"
    # A control word eats the spaces after it, as TeX does; `\LaTeX{}` ends with an empty group.
    r"|\\(?P<word>[A-Za-z]+)(?P<space>\s*)(?P<group>\{\}|(?=\{))?"
    r"|\\(?P<symbol>.)"
    r"|(?P<dash>---?)"
    r"|(?P<quote>``|'')"
    r"|(?P<tie>~)"
    r"|(?P<brace>[{}])",
    re.DOTALL,
)

_ACCENTS = {
    '"': "\u0308",
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
_WORDS = {
    # Letters
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "l": "ł",
    "L": "Ł",
    "i": "\u0131",  # dotless i
    "j": "\u0237",  # dotless j
    "dh": "ð",
    "DH": "Ð",
    "th": "þ",
    "TH": "Þ",
    "ng": "ŋ",
    "NG": "Ŋ",
    "dj": "đ",
    "DJ": "Đ",
    # Symbols
    "textbackslash": "\\",
    # What the BibTeX export writes for a brace without a partner (BibTeX counts every brace).
    "lbrace": "{",
    "rbrace": "}",
    "textendash": "\u2013",
    "textemdash": "\u2014",
    "textquoteleft": "\u2018",
    "textquoteright": "\u2019",
    "textquotedblleft": "\u201c",
    "textquotedblright": "\u201d",
    "textquotedbl": '"',
    "ldots": "\u2026",
    "dots": "\u2026",
    "textellipsis": "\u2026",
    "textregistered": "®",
    "texttrademark": "™",
    "copyright": "©",
    "textcopyright": "©",
    "S": "§",
    "P": "¶",
    "dag": "†",
    "ddag": "‡",
    "textdegree": "°",
    "pounds": "£",
    "textsterling": "£",
    "euro": "€",
    "texteuro": "€",
    "textasciitilde": "~",
    "textasciicircum": "^",
    "textunderscore": "_",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "guillemotleft": "«",
    "guillemotright": "»",
    "textperiodcentered": "·",
    "quad": " ",
    "qquad": " ",
    "relax": "",
    # Names that are words
    "LaTeX": "LaTeX",
    "TeX": "TeX",
    "BibTeX": "BibTeX",
    "LaTeXe": "LaTeX2e",
}
# Commands whose argument is the text (their braces go like any others).
_WRAPPERS = frozenset(
    [
        "textbf",
        "textit",
        "emph",
        "texttt",
        "textsc",
        "textrm",
        "textsf",
        "textup",
        "textmd",
        "textsl",
        "textnormal",
        "text",
        "mbox",
        "hbox",
        "url",
        "NoCaseChange",
        "enquote",
        "uline",
        "underline",
    ]
)
_SYMBOLS = {"\\": " ", " ": " ", ",": " ", ";": " ", ":": " ", "!": "", "-": "", "/": "", "@": ""}
_HREF_TARGET = re.compile(r"\s*\{[^{}]*\}")


def _accented(match: re.Match[str]) -> str:
    letter = match.group("braced") or match.group("bare")
    # `\'\i`: the dotless i (or j) is written so that the accent replaces the dot.
    letter = letter.removeprefix("\\")
    return unicodedata.normalize("NFC", letter + _ACCENTS[match.group("accent")])


def field_text(value: str) -> str:
    """A BibTeX field's LaTeX as the Unicode text it prints: accents, escapes and named symbols
    resolved, `--`/`---` as dashes, ties as spaces, text commands and every brace outside math
    dropped. Math and unknown commands without an argument (`\\alpha`) stay as written."""
    if not _NEEDS_WORK.search(value):
        return value
    out: list[str] = []
    last = 0
    skip_to = 0
    for match in _TOKEN.finditer(value):
        start = match.start()
        if start < skip_to:
            continue  # inside an `\href` target, already dropped
        out.append(value[last:start])
        last = match.end()
        kind = match.lastgroup
        if kind == "math":
            out.append(match.group())
        elif kind == "escape":
            out.append(match.group("escape"))
        elif kind in ("braced", "bare", "accent"):
            out.append(_accented(match))
        elif match.group("word") is not None:
            out.append(_command(match, value))
            if match.group("word") == "href" and (target := _HREF_TARGET.match(value, last)):
                skip_to = last = target.end()  # the link's address; its text is printed
        elif kind == "symbol":
            symbol = match.group("symbol")
            out.append(_SYMBOLS.get(symbol, match.group()))
        elif kind == "dash":
            out.append("\u2014" if match.group() == "---" else "\u2013")
        elif kind == "quote":
            out.append("\u201c" if match.group() == "``" else "\u201d")
        elif kind == "tie":
            out.append(" ")
        # a brace: dropped
    out.append(value[last:])
    return "".join(out)


def _command(match: re.Match[str], value: str) -> str:
    """What a control word prints: a symbol, nothing (a text command: its argument follows),
    or the command as written (one papershelf does not know, without an argument)."""
    word = match.group("word")
    if word in _WORDS:
        return _WORDS[word]
    if word in _WRAPPERS or word == "href":
        return ""
    if match.group("group") is not None:
        return ""  # an unknown command with an argument: the argument is the text
    # Unknown and bare (`\alpha` outside math): as written, with the spaces after it.
    return match.group()
