"""A paper's own citation key, `vaswani2017attention`: the first author's family name, the year
(the venue's, `ICML 2025`, when the record has none) and the first significant word of the
title, ASCII-folded and lower case (what Google Scholar writes).

The BibTeX importer gives an entry without a key one of these, and the BibTeX export one to
every paper without a usable key of its own (`export.citekeys`, which keeps them unique).
"""

from __future__ import annotations

import re
import unicodedata

from papershelf.storage.model import Paper
from papershelf.storage.text.authors import family_name
from papershelf.storage.text.titles import display_title

__all__ = ["base_key", "fold_ascii", "key_suffix", "usable_key", "year_of"]

# The characters of the keys real .bib files use (`DBLP:conf/nips/VaswaniSPUJGKP17`,
# `10.1145/3292500`); BibTeX, biber and LaTeX's \cite take them all. A key with anything else
# (a space, a comma, a brace, `#`, `%`, non-ASCII) is replaced by a made one.
_USABLE_KEY = re.compile(r"[A-Za-z0-9_:./+\-]{1,128}")
# Letters NFKD does not take apart.
_FOLDS = str.maketrans(
    {"ß": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ł": "l",
     "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "þ": "th", "\u0131": "i"}
)  # fmt: skip
_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "on",
        "of",
        "in",
        "for",
        "to",
        "and",
        "or",
        "with",
        "without",
        "from",
        "by",
        "at",
        "via",
        "into",
        "onto",
        "towards",
        "toward",
        "is",
        "are",
        "be",
        "can",
        "do",
        "does",
        "how",
        "what",
        "when",
        "why",
        "which",
        "who",
        "we",
        "our",
        "your",
        "its",
        "it",
        "as",
        "not",
        "no",
    ]
)


# A venue as abstract lists name it, `ICML 2025`, `NeurIPS 2024 (oral)`: the year its last.
_VENUE_YEAR = re.compile(r"(?<![0-9])(1[89][0-9]{2}|2[0-9]{3})(?![0-9])")


def key_suffix(number: int) -> str:
    """What tells apart keys made from one base: "" for 0, then `a` ... `z`, `aa`, `ab`, ..."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def year_of(paper: Paper) -> int | None:
    """The paper's year; else the last year its venue names (`ICML 2025` → 2025), as an
    abstract list gives it; else None."""
    if paper.year is not None:
        return paper.year
    found = _VENUE_YEAR.findall(paper.venue or "")
    return int(found[-1]) if found else None


def usable_key(key: str) -> bool:
    """Whether `key` can be written as a BibTeX key as it is."""
    return _USABLE_KEY.fullmatch(key) is not None


def fold_ascii(text: str) -> str:
    """Lower-case ASCII letters and digits of `text`, accents dropped (`Müller` → `muller`)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLDS))
    return "".join(ch for ch in decomposed.casefold() if ch.isascii() and ch.isalnum())


_WORD_BREAK = re.compile("[\\s\\-\u2010\u2011\u2013\u2014/:]+")


def _title_word(title: str) -> str:
    """The first word of the title (as shown: LaTeX as Unicode) that is not a stop word,
    folded; words are split at spaces, dashes, `/` and `:` (`Pre-training` → `pre`)."""
    for chunk in _WORD_BREAK.split(display_title(title)):
        word = fold_ascii(chunk)
        if len(word) > 1 and word not in _STOP_WORDS:
            return word
    return ""


def base_key(paper: Paper) -> str:
    """`family` + `year` (`year_of`) + `titleword`, each left out when unknown (the title word
    comes from the paper's name when it has no title, as the entry's title does; without an
    author, `titleword` + `year`); `paper` when none is known."""
    family = fold_ascii(family_name(paper.authors[0])) if paper.authors else ""
    year_number = year_of(paper)
    year = str(year_number) if year_number is not None and 0 <= year_number <= 9999 else ""
    word = _title_word(paper.title or paper.name)
    # Without an author the word leads: `attention2017`, not `2017attention`.
    key = (family + year + word if family else word + year)[:64]
    if not key:
        key = fold_ascii(paper.name)[:32]
    return key or "paper"
