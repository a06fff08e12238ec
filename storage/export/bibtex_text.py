"""Text as BibTeX field values: LaTeX that `bibtex`, biber and a LaTeX-decoding parser
(bibtexparser 2 with pylatexenc) all read back as the text it came from.

A stored field is plain text (the importers decode LaTeX; abstract lists are written as people
type), except inline math, `$...$`, which papershelf shows as math and so keeps as math: a
span whose inside is safe LaTeX math (below) is written as it is, everything else is escaped
character by character:

- `& % $ # _` → `\\&` ...; `\\` → `\\textbackslash{}`; `~` → `\\textasciitilde{}`;
  `^` → `\\textasciicircum{}`;
- `{` `}` → `\\{` `\\}` when they pair up (BibTeX counts every brace, escaped or not, so a
  lone one would end the field early or never), a lone one → `\\lbrace{}` / `\\rbrace{}`;
- the ligatures TeX makes of `--`, `---`, two quotes, `?``, `!``, `<<`, `>>`, `,,` are
  broken with `{}` (`-{}-`), so the hyphens and quotes stay what they were;
- whitespace runs become one space (BibTeX does that anyway) and control characters go.

Non-ASCII text is written as UTF-8, unchanged: biber and TeX Live's `bibtex`/`bibtex8` read it
(the README says so). Link fields (`url`, `doi`, `eprint`) are verbatim in biblatex and are
written raw (`raw_value`).
"""

from __future__ import annotations

import re

from papershelf.storage.ingest.bibtex_record import name_parts
from papershelf.storage.text.clean import clean_line

__all__ = ["balanced", "bibtex_name", "bibtex_text", "kept_whole", "raw_value"]

_SIMPLE = {
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
}
# What is escaped: TeX's specials, braces, and the first character of a pair TeX makes a
# ligature of (`--` is an en dash in TeX and in pylatexenc; `<<` a guillemet in T1 fonts).
_ESCAPED = re.compile(r"[&%$#_\\~^{}]|-(?=-)|'(?=')|`(?=`)|[?!](?=`)|<(?=<)|>(?=>)|,(?=,)")
_BRACE = re.compile(r"[{}]")
# Inside math: no comment, alignment or parameter character, no second `$`, no environment
# or verbatim command (an unclosed \begin stops a LaTeX decoder), and at least one character.
_UNSAFE_MATH = re.compile(r"[%&#$\n]|\\(?:begin|end|verb|url|par)(?![A-Za-z])")
_CASED = re.compile(r".+[A-Z]")


def balanced(text: str) -> bool:
    """Whether every brace pairs up, counting escaped braces too (as BibTeX does)."""
    depth = 0
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _unescaped_balanced(math: str) -> bool:
    """Whether the braces LaTeX sees as groups (not `\\{`) pair up."""
    depth = 0
    index = 0
    while index < len(math):
        char = math[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
        index += 1
    return depth == 0


def _math_end(text: str, start: int) -> int | None:
    """The index of the `$` closing the math opened at `text[start]`, when the span is safe
    to write as it is; else None."""
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "$":
            inner = text[start + 1 : index]
            if (
                inner.strip()
                and not _UNSAFE_MATH.search(inner)
                and balanced(inner)
                and _unescaped_balanced(inner)
            ):
                return index
            return None
        index += 1
    return None


def _segments(text: str) -> list[tuple[bool, str]]:
    """`text` cut into (is_math, piece): the safe `$...$` spans and the text around them."""
    pieces: list[tuple[bool, str]] = []
    plain_from = 0
    index = text.find("$")
    while index != -1:
        end = _math_end(text, index)
        if end is None:
            index = text.find("$", index + 1)
            continue
        if index > plain_from:
            pieces.append((False, text[plain_from:index]))
        pieces.append((True, text[index : end + 1]))
        plain_from = end + 1
        index = text.find("$", plain_from)
    if plain_from < len(text):
        pieces.append((False, text[plain_from:]))
    return pieces


def _paired_braces(pieces: list[tuple[bool, str]]) -> set[tuple[int, int]]:
    """(piece, offset) of every brace in the plain pieces that has a partner there."""
    paired: set[tuple[int, int]] = set()
    opened: list[tuple[int, int]] = []
    for number, (is_math, piece) in enumerate(pieces):
        if is_math or ("{" not in piece and "}" not in piece):
            continue
        for match in _BRACE.finditer(piece):
            if match.group() == "{":
                opened.append((number, match.start()))
            elif opened:
                paired.add(opened.pop())
                paired.add((number, match.start()))
    return paired


def _escape_plain(piece: str, number: int, paired: set[tuple[int, int]]) -> str:
    """One plain piece escaped (a regex pass: abstracts are long and mostly need nothing)."""

    def escaped(match: re.Match[str]) -> str:
        char = match.group()
        if char in "{}":
            if (number, match.start()) in paired:
                return "\\" + char
            return "\\lbrace{}" if char == "{" else "\\rbrace{}"
        return _SIMPLE.get(char) or char + "{}"  # else the first of a ligature pair

    return _ESCAPED.sub(escaped, piece)


def _protect_words(latex: str) -> str:
    """Brace each word with a capital past its first letter (`{BERT}`, `{ImageNet}`), so
    that styles that lower-case titles keep it; words holding braces or starting with a
    command are left alone (a brace group that starts with `\\` is an accent to BibTeX)."""
    words = latex.split(" ")
    return " ".join(
        f"{{{word}}}"
        if _CASED.match(word) and "{" not in word and "}" not in word and word[:1] != "\\"
        else word
        for word in words
    )


def bibtex_text(text: str, *, protect_case: bool = False) -> str:
    """The value of a text field (without its enclosing braces): one line, escaped as the
    module says; "" for text with nothing to write. `protect_case` braces capitalised words
    (titles)."""
    line = clean_line(text)
    pieces = _segments(line)
    paired = _paired_braces(pieces)
    out: list[str] = []
    for number, (is_math, piece) in enumerate(pieces):
        if is_math:
            out.append(piece)
            continue
        escaped = _escape_plain(piece, number, paired)
        out.append(_protect_words(escaped) if protect_case else escaped)
    return "".join(out)


def kept_whole(author: str) -> bool:
    """Whether `bibtex_name` braces the name whole, as BibTeX would otherwise read it as more
    than one name or a broken one (an `and` inside, more than two commas, a comma at an end)."""
    line = clean_line(author)
    return (
        any(word.casefold() == "and" for word in line.split(" "))
        or line.count(",") > 2
        or line.endswith(",")
        or line.startswith(",")
    )


def bibtex_name(author: str) -> str:
    """One author for the `and`-joined `author` field, in BibTeX's unambiguous
    `von {Last}, Jr, First` form (`King, Jr., Martin Luther`, `van der Maaten, Laurens`,
    `de {Ávila Souza}, Maria`), so that `bibtex` and bibtexparser read the parts
    `ingest.bibtex_record.name_parts` reads (a given name first would be misread by `bibtex`
    when it starts with a letter it does not know, `Émile`). A name braced whole stays so (a
    corporate author, `{Google DeepMind}`); one BibTeX would misread as a list (an `and`
    inside, more than two commas, a comma at an end) is braced whole; one with braces or
    backslashes in its text is written escaped, as it is."""
    line = clean_line(author)
    if kept_whole(line):
        value = bibtex_text(line)
        return f"{{{value}}}" if value else ""
    parts = name_parts(line)
    if parts is None or not parts[2]:
        return _split_off(bibtex_text(line))
    first, von, last, jr = (bibtex_text(part) for part in parts)
    if not (first or von or jr) and (" " in last or "," in last):
        return f"{{{last}}}"  # a corporate name, read as one last name
    # The last name braced when it is more than a word: BibTeX then never reads one of its
    # words as a von part or a given name, whatever its case.
    head = " ".join(part for part in (von, f"{{{last}}}" if " " in last else last) if part)
    if jr:
        return _split_off(f"{head}, {jr}, {first}")
    return _split_off(f"{head}, {first}" if first else head)


def _split_off(value: str) -> str:
    """A name that starts with a command right after ` and ` is not split off by bibtexparser
    (it skips the character after a backslash): an empty group first is read alike by both."""
    return "{}" + value if value.startswith("\\") else value


def verbatim_value(text: str) -> str:
    """A field the importer keeps as written (`file`, `isbn`, `urldate`, ...) back as written:
    one line, only a brace that would not pair up percent-encoded."""
    line = clean_line(text)
    if balanced(line):
        return line
    return line.replace("{", "%7B").replace("}", "%7D")


def raw_value(text: str) -> str:
    """A link field (`url`, `doi`, `eprint`) as it is, for biblatex's verbatim fields: one
    line, and a brace that would not pair up or a space percent-encoded (`%7B`, `%20`)."""
    line = clean_line(text)
    if balanced(line) and " " not in line:
        return line
    return line.replace(" ", "%20").replace("{", "%7B").replace("}", "%7D")
