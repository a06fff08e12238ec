"""One `$...$` math span to Unicode text: symbols, fonts, accents, sub/superscripts.

Symbol and font tables come from `unicodeit` (a maintained LaTeX-to-Unicode table); the
parsing is ours, because unicodeit works by string replacement and leaves groups, accents over
macros and unknown commands half-converted. Any input either converts or raises `MathError`,
and the caller then shows the span as written.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from unicodeit.data import COMBININGMARKS, REPLACEMENTS, SUBSUPERSCRIPTS


class MathError(ValueError):
    """The span is not LaTeX we can show faithfully."""


_SYMBOLS: dict[str, str] = {}
_FONT_CHARS: dict[tuple[str, str], str] = {}
# String tests, not a regex per entry: `papershelf list` imports this module for the first title
# with math it prints, and 4,000 `re.fullmatch` calls were most of the import's time.
for _latex, _char in REPLACEMENTS:
    if _latex[:1] != "\\":
        continue
    _name = _latex[1:]
    if _name.isascii() and _name.isalpha():  # `\\alpha`
        _SYMBOLS.setdefault(_name, _char)
    elif len(_latex) >= 5 and _latex[-3] == "{" and _latex[-1] == "}":  # `\\mathbb{R}`
        _font_name = _latex[1:-3]
        if _font_name.isascii() and _font_name.isalpha():
            _FONT_CHARS.setdefault((_font_name, _latex[-2]), _char)

# Where unicodeit's choice is not what a reader expects (or is missing).
_SYMBOLS.update(
    {
        "epsilon": "ε",
        "varepsilon": "ε",
        "star": "⋆",
        "dots": "…",
        "lVert": "‖",
        "rVert": "‖",
        "Vert": "‖",
        "lvert": "|",
        "rvert": "|",
        "vert": "|",
        "colon": ":",
        "lbrace": "{",
        "rbrace": "}",
        "backslash": "\\",
        "dag": "†",
        "ddag": "‡",
        "S": "§",
        "P": "¶",
        "copyright": "©",
        "textdegree": "°",
        "degree": "°",
        "textemdash": "—",
        "textendash": "\u2013",
    }
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FUNCTIONS = _words(
    "log ln lg exp sin cos tan cot sec csc sinh cosh tanh arcsin arccos arctan max min sup inf "
    "lim liminf limsup arg argmax argmin det dim ker deg gcd hom Pr mod bmod exp sgn tr "
    "diag rank softmax"
)
_FONTS = {
    "mathcal": "mathcal",
    "mathscr": "mathcal",
    "mathbb": "mathbb",
    "mathds": "mathbb",
    "mathbf": "mathbf",
    "boldsymbol": "mathbf",
    "bm": "mathbf",
    "mathfrak": "mathfrak",
    "mathsf": "mathsf",
    "mathit": "mathit",
}
# Their argument is text: shown as written (styles, if any, are applied by the caller).
TEXT_MACROS = _words(
    "text textrm textit textbf texttt textsf textnormal textup textsc mathrm mathtt "
    "operatorname mbox emph hbox"
)
# Old-style font switches: they style the rest of their group (`{\cal O}`, `$\rm E(3)$`).
# `\bf` is shown plain: bold letters would also bold a `\textrm{}` inside its group.
_SWITCHES = {"rm": None, "it": None, "tt": None, "sf": None, "bf": None, "cal": "mathcal"}
# What a command whose braces were lost may start with (`\mathcalO`, `\textttMoE`, `\sqrtT`:
# some corpora strip every brace): the rest of the letters is its argument.
_GLUED = re.compile(
    r"(mathcal|mathscr|mathbb|mathbf|boldsymbol|mathfrak|mathsf|mathit|mathrm|mathtt"
    r"|textrm|textit|textbf|texttt|textsf|textnormal|text|operatorname|emph|sqrt)([A-Za-z]+)"
)
_IGNORED = _words(
    "left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr middle displaystyle "
    "textstyle scriptstyle limits nolimits nonumber label"
)
_SPACES = {"quad": " ", "qquad": " ", "enspace": " ", "thinspace": "", ",": "", ";": " "}
_SPACES.update({":": " ", " ": " ", "!": "", ">": " "})
_ESCAPES = {"%": "%", "&": "&", "#": "#", "$": "$", "_": "_", "{": "{", "}": "}", "|": "‖"}
_ESCAPES["\\"] = " "
_ACCENTS = {name[1:]: mark for name, mark in COMBININGMARKS}
_ACCENTS.update(
    {
        "widetilde": "\u0303",
        "widehat": "\u0302",
        "check": "\u030c",
        "mathring": "\u030a",
        "overrightarrow": "\u20d7",
        "underbar": "\u0332",
    }
)

_SUPER: dict[str, str] = {}
_SUB: dict[str, str] = {}
for _pattern, _char in SUBSUPERSCRIPTS:
    (_SUPER if _pattern[0] == "^" else _SUB)[_pattern[1:]] = _char
# unicodeit maps ^V to a Hangul letter and ^. to a syllabics mark; use real modifier letters.
_SUPER.update({"V": "\u2c7d", "\u03b1": "\u1d45", "\u03b8": "\u1dbf", "\u03b5": "\u1d4b"})
_SUPER.update({"\u03b9": "\u1da5", "\u2032": "\u2032", "*": "*"})  # iota, prime
_SUPER.pop(".", None)
_SUPER.update({" ": "", "\u2212": "\u207b"})  # minus sign
_SUB.update({" ": "", "\u2212": "\u208b"})


def _script(text: str, table: dict[str, str], mark: str) -> str:
    """Unicode super/subscript when every character has one, else `^x` / `^(...)`."""
    text = text.strip()
    if not text:
        return ""
    if all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return f"{mark}{text}" if len(text) == 1 else f"{mark}({text})"


def _accent(text: str, mark: str) -> str:
    """Put a combining accent on each character, on its plain letter so it can compose."""
    out = []
    for ch in text:
        if ch.isspace():
            continue
        # Script O + tilde has no precomposed form and renders badly; O + tilde composes to Õ.
        plain = unicodedata.normalize("NFKC", ch)
        out.append((plain if len(plain) == 1 else ch) + mark)
    return unicodedata.normalize("NFC", "".join(out))


def _font(text: str, font: str) -> str:
    return "".join(_FONT_CHARS.get((font, ch), ch) for ch in text)


_SIMPLE = re.compile(r"[\w.\u2032]+|\(.*\)")


def _wrap(text: str) -> str:
    """Parenthesise a fraction part unless it is a single symbol or number."""
    return text if _SIMPLE.fullmatch(text) else f"({text})"


_SPECIAL = re.compile(r"[\\{}^_~]")
"""The characters the parser does not copy as they are (whitespace aside)."""
_PLAIN_RUN = re.compile(r"[^\\{}^_~]+")
_WHITESPACE = re.compile(r"\s")
_MACRO = re.compile(r"\\([A-Za-z]+|.?)")
_TEXT_ESCAPE = re.compile(r"\\([%&#$_{}])")


class _Parser:
    """Recursive descent over one math span."""

    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.depth = 0
        self.closing: str | None = None
        """What ends the group being parsed (None: the span's end); a switch styles up to it."""

    def parse(self) -> str:
        out = self.sequence(closing=None)
        if self.i != len(self.s):
            raise MathError("unbalanced braces")
        return " ".join(out.split())

    def sequence(self, closing: str | None) -> str:
        outer, self.closing = self.closing, closing
        try:
            return self._sequence(closing)
        finally:
            self.closing = outer

    def _sequence(self, closing: str | None) -> str:
        out: list[str] = []
        while self.i < len(self.s):
            ch = self.s[self.i]
            if ch == closing:
                return "".join(out)
            if ch == "}":
                raise MathError("unbalanced braces")
            plain = _PLAIN_RUN.match(self.s, self.i)
            if plain is not None:
                # A run of characters atom() copies one by one (whitespace as a space): at once.
                self.i = plain.end()
                out.append(_WHITESPACE.sub(" ", plain.group()))
                continue
            out.append(self.atom(out))
        if closing is not None:
            raise MathError("unclosed group")
        return "".join(out)

    def atom(self, out: list[str]) -> str:
        ch = self.s[self.i]
        if ch == "{":
            return self.group()
        if ch == "^" or ch == "_":
            self.i += 1
            table, mark = (_SUPER, "^") if ch == "^" else (_SUB, "_")
            return _script(self.argument(), table, mark)
        if ch == "\\":
            return self.macro(out)
        if ch == "~":
            self.i += 1
            return " "
        self.i += 1
        return " " if ch.isspace() else ch

    def group(self) -> str:
        self.depth += 1
        if self.depth > 50:
            raise MathError("nested too deeply")
        self.i += 1
        inner = self.sequence(closing="}")
        self.i += 1
        self.depth -= 1
        return inner

    def skip_spaces(self) -> bool:
        start = self.i
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1
        return self.i > start

    def argument(self) -> str:
        """The next argument: a group, a macro or one character."""
        self.skip_spaces()
        if self.i >= len(self.s) or self.s[self.i] in "}^_":
            raise MathError("missing argument")
        if self.s[self.i] == "{":
            return self.group()
        if self.s[self.i] == "\\":
            return self.macro([])
        self.i += 1
        return self.s[self.i - 1]

    def raw_argument(self) -> str:
        """A text argument, as written (nested braces kept balanced, not interpreted)."""
        self.skip_spaces()
        if self.i >= len(self.s) or self.s[self.i] != "{":
            return self.argument()
        depth, start = 0, self.i
        while self.i < len(self.s):
            ch = self.s[self.i]
            depth += (ch == "{") - (ch == "}")
            self.i += 1
            if depth == 0:
                text = self.s[start + 1 : self.i - 1]
                return _TEXT_ESCAPE.sub(r"\1", text).replace("{", "").replace("}", "")
        raise MathError("unclosed group")

    def macro(self, out: list[str]) -> str:
        match = _MACRO.match(self.s, self.i)
        assert match is not None
        name = match.group(1)
        self.i = match.end()
        if not name:
            raise MathError("lone backslash")
        if not name.isalpha():
            if name in _SPACES:
                return _SPACES[name]
            if name in _ESCAPES:
                return _ESCAPES[name]
            raise MathError(f"unknown escape \\{name}")
        spaced = self.skip_spaces()
        if name in _SWITCHES:
            rest = self.sequence(self.closing)
            font = _SWITCHES[name]
            return _font(rest, font) if font else rest
        if name in TEXT_MACROS:
            return self.raw_argument()
        if name in _FONTS:
            return _font(self.argument(), _FONTS[name])
        if name in _ACCENTS:
            return _accent(self.argument(), _ACCENTS[name])
        if name in _IGNORED:
            if name in ("left", "right", "middle") and self.s.startswith(".", self.i):
                self.i += 1
            return ""
        if name in _SPACES:
            return _SPACES[name]
        if name in ("frac", "dfrac", "tfrac", "cfrac"):
            top, bottom = self.argument(), self.argument()
            return f"{_wrap(top)}/{_wrap(bottom)}"
        if name == "sqrt":
            if self.s.startswith("[", self.i):
                end = self.s.find("]", self.i)
                if end < 0:
                    raise MathError("unclosed root index")
                self.i = end + 1
            inner = self.argument()
            return "√" + (inner if len(inner) == 1 else f"({inner})")
        if name == "not":
            return _accent(self.argument(), "\u0338")
        if name in _FUNCTIONS:
            return name + (" " if spaced else "")
        symbol = _SYMBOLS.get(name)
        if symbol is None:
            glued = _GLUED.fullmatch(name)
            if glued is None:
                raise MathError(f"unknown command \\{name}")
            # `\mathcalNP` was `\mathcal{NP}`: put the braces back and parse it so.
            command, argument = glued.groups()
            start = match.start()
            self.s = f"{self.s[:start]}\\{command}{{{argument}}}{self.s[match.end() :]}"
            self.i = start
            return self.macro(out)
        if unicodedata.category(symbol) == "Sm" and len(symbol) == 1:
            # Relations and operators: spaced when the author spaced either side, else tight.
            before = bool(out) and out[-1].endswith(" ")
            if before or spaced:
                return f" {symbol} "
        return symbol


@lru_cache(maxsize=4096)
def math_to_unicode(source: str) -> str:
    """Convert the inside of one math span; raises MathError when it cannot be shown faithfully."""
    if len(source) > 2000:
        raise MathError("math span too long")
    if not _SPECIAL.search(source):
        # Plain characters stand for themselves: what the parser returns, without parsing.
        return " ".join(source.split())
    return _Parser(source).parse()
