"""Which BibTeX field becomes which `Paper` attribute: authors (`stored_name`), the year, the
venue field, DOI, arXiv and OpenReview ids, the page and PDF links, and the rest as `extra`.

`ingest.bibtex` reads the file and builds the papers; this module reads one entry's fields
(macros resolved, braces and LaTeX still in them).
"""

from __future__ import annotations

import re

from papershelf.storage.text import identifiers
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.latex_fields import field_text
from papershelf.storage.text.urls import canonical

__all__ = [
    "MONTHS",
    "VERBATIM_FIELDS",
    "NameParts",
    "Record",
    "authors",
    "month_macro",
    "name_parts",
    "stored_name",
]

MONTHS = {
    "jan": "January",
    "feb": "February",
    "mar": "March",
    "apr": "April",
    "may": "May",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
"""BibTeX's month macros (every standard style defines them) and the names they stand for."""
_MONTH_NUMBERS = {str(number): macro for number, macro in enumerate(MONTHS, start=1)}

# Fields whose value is an address or a code, not LaTeX text: kept as written (and written back
# as kept by the BibTeX export, so a Windows path's backslashes survive a round trip).
VERBATIM_FIELDS = _VERBATIM = frozenset(
    [
        "url",
        "doi",
        "eprint",
        "file",
        "pdf",
        "biburl",
        "bibsource",
        "urldate",
        "timestamp",
        "isbn",
        "issn",
        "archiveprefix",
        "eprinttype",
        "primaryclass",
        "openreview",
        "crossref",
    ]
)
_YEAR = re.compile(r"\d{1,4}")
_DATE_YEAR = re.compile(r"(\d{4})(?:-|$)")
_SCHOLAR_ARXIV = re.compile(r"\barXiv:\s*(\S+)", re.IGNORECASE)
_CORR_VOLUME = re.compile(r"abs/(\S+)")
_ENCODED_BRACE = re.compile("%7[BD]", re.IGNORECASE)
_BRACES = {"%7B": "{", "%7D": "}"}


def month_macro(text: str) -> str | None:
    """The month macro (`dec`) of a month however a `.bib` writes it: `dec`, `Dec.`,
    `December`, `12`, `{December}` (braces already gone); None for anything else (`Winter`)."""
    word = text.strip().rstrip(".").casefold()
    if word in _MONTH_NUMBERS or word.lstrip("0") in _MONTH_NUMBERS:
        return _MONTH_NUMBERS[word.lstrip("0") or word]
    macro = word[:3]
    if macro in MONTHS and (word == macro or MONTHS[macro].casefold() == word):
        return macro
    if word == "sept":
        return "sep"
    return None


def authors(raw: str) -> tuple[str, ...]:
    """The names of an `and`-joined BibTeX name list, each as `stored_name` keeps it."""
    if not raw.strip():
        return ()
    from bibtexparser.middlewares.names import (
        parse_single_name_into_parts,
        split_multiple_persons_names,
    )

    names: list[str] = []
    for person in split_multiple_persons_names(raw):
        try:
            parts = parse_single_name_into_parts(person, strict=False)
        except Exception:  # a name bibtexparser cannot split is kept as written
            name = clean_line(field_text(person))
        else:
            name = stored_name(
                *(
                    clean_line(field_text(" ".join(words)))
                    for words in (parts.first, parts.von, parts.last, parts.jr)
                )
            )
        if name:
            names.append(name)
    return tuple(names)


NameParts = tuple[str, str, str, str]
"""A name as BibTeX splits it: first, von, last, jr (each its words joined by one space)."""


def stored_name(first: str, von: str, last: str, jr: str) -> str:
    """The one line papershelf keeps for a name BibTeX split into these parts, chosen so that
    `name_parts` reads the same parts back (and the export writes them): given names first
    when that reads back (`Laurens van der Maaten`), else BibTeX's `von Last, Jr, First`
    (`King, Jr., Martin Luther`, `Garcia Lopez, Maria`), else braced whole when it is all
    last name (`{Google DeepMind}`, a corporate author)."""
    target = (first, von, last, jr)
    candidates: list[str] = []
    head = " ".join(part for part in (von, last) if part)
    if not jr:
        candidates.append(" ".join(part for part in (first, von, last) if part))
        candidates.append(f"{head}, {first}" if first else head)
    elif first:
        candidates.append(f"{head}, {jr}, {first}")
    if last and not (first or von or jr):
        candidates.append(f"{{{last}}}")
    for candidate in candidates:
        if name_parts(candidate) == target:
            return candidate
    # Not expressible in plain text (LaTeX left in a part, a `Jr` without a given name):
    # given names first, as the name is read aloud.
    return " ".join(part for part in (first, von, last, jr) if part)


def name_parts(name: str) -> NameParts | None:
    """How BibTeX splits a stored name into (first, von, last, jr); a name braced whole is all
    last name. None for a name whose braces or backslashes are not plain text to BibTeX, or that
    BibTeX would not read as one name (an `and` inside, a comma at an end, more than two)."""
    text = clean_line(name)
    if len(text) > 2 and text[0] == "{" and text[-1] == "}":
        inner = text[1:-1]
        if "{" not in inner and "}" not in inner and inner.strip():
            return ("", "", clean_line(inner), "")
    if not text or "{" in text or "}" in text or "\\" in text:
        return None
    if (
        text.startswith(",")
        or text.endswith(",")
        or text.count(",") > 2
        or any(word.casefold() == "and" for word in text.split(" "))
    ):
        return None  # BibTeX reads it as no name, or as more than one: only braced whole
    from bibtexparser.middlewares.names import parse_single_name_into_parts

    try:
        parts = parse_single_name_into_parts(text, strict=False)
    except Exception:
        return None
    return (
        " ".join(parts.first),
        " ".join(parts.von),
        " ".join(parts.last),
        " ".join(parts.jr),
    )


class Record:
    """The entry's remaining fields: the ones taken into the Paper are removed as they are
    read, so that `extra` holds the rest."""

    def __init__(self, fields: dict[str, str]) -> None:
        self._fields = fields

    def _take(self, name: str) -> str | None:
        value = self._fields.get(name)
        return None if value is None else clean_line(value) or None

    def year(self) -> int | None:
        value = self._take("year")
        if value is not None:
            text = field_text(value).strip()
            if _YEAR.fullmatch(text):
                del self._fields["year"]
                return int(text)
            return None
        date = self._take("date")
        found = _DATE_YEAR.match(date) if date else None
        return int(found.group(1)) if found else None

    def venue_field(self) -> str | None:
        for name in ("booktitle", "journal"):
            if self._take(name):
                return name
        return None

    def doi(self) -> str | None:
        value = self._take("doi")
        if value:
            # A brace that pairs with nothing cannot be written in BibTeX: the export writes it
            # `%7B` / `%7D` (`export.bibtex_text.raw_value`), read back here.
            value = _ENCODED_BRACE.sub(lambda match: _BRACES[match.group().upper()], value)
        found = identifiers.doi(value) if value else None
        if found:
            del self._fields["doi"]
        return found

    def url(self) -> str | None:
        value = self._take("url")
        found = canonical(value) if value and " " not in value else None
        if found:
            del self._fields["url"]
        return found

    def pdf(self) -> str | None:
        value = self._take("pdf")
        found = canonical(value) if value and value.lower().startswith("http") else None
        if found:
            del self._fields["pdf"]
        return found

    def arxiv(self, url: str | None) -> str | None:
        eprint = self._take("eprint")
        prefix = (self._take("archiveprefix") or self._take("eprinttype") or "").lower()
        journal = self._take("journal") or ""
        scholar = _SCHOLAR_ARXIV.search(journal)
        corr = _CORR_VOLUME.fullmatch(self._take("volume") or "")
        found = None
        if eprint and prefix == "arxiv" and (found := identifiers.arxiv_id(eprint)):
            for name in ("eprint", "archiveprefix", "eprinttype"):
                self._fields.pop(name, None)
        found = (
            found
            or (scholar and identifiers.arxiv_id(scholar.group(1)))
            or (corr and journal.lower() in ("corr", "arxiv") and identifiers.arxiv_id(corr[1]))
            or (url and identifiers.arxiv_id(url))
            or None
        )
        if found and corr and identifiers.arxiv_id(corr[1]) == found:
            del self._fields["volume"]  # DBLP's `abs/1810.04805` is the arXiv id
        return found

    def openreview(self, url: str | None) -> str | None:
        value = self._take("openreview")
        if value and (found := identifiers.openreview_note_id(value)):
            del self._fields["openreview"]
            return found
        return identifiers.openreview_id(url) if url else None

    def extra(self) -> tuple[tuple[str, str], ...]:
        pairs: list[tuple[str, str]] = []
        for name, value in self._fields.items():
            text = clean_line(value if name in _VERBATIM else field_text(value))
            if name == "month" and (macro := month_macro(text)):
                text = MONTHS[macro]  # one spelling for `dec`, `12` and `{December}`
            if name and text:
                pairs.append((name, text))
        return tuple(pairs)
