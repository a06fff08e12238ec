"""CSL JSON to Papers: the records Zotero ("Export > CSL JSON"), Mendeley, pandoc-citeproc and
Crossref's `application/vnd.citationstyles.csl+json` write, told from papershelf's own JSON
records by their CSL keys (`author` as a list of name objects, `issued`, `container-title`).

Read with the standard library's json (by `ingest.parse`): CSL JSON is JSON with documented keys,
so no library is needed. Names keep their structure: CSL gives `given`, `non-dropping-particle`
(von), `family` and `suffix` apart, and `bibtex_record.stored_name` keeps them so that a BibTeX
export writes them as BibTeX reads them; a `literal` name (`Google DeepMind`) is one name. Each
record gives its title, abstract, authors, year (`issued`), venue (`container-title`), DOI, URL
(an arXiv one also gives the arXiv id), type as a BibTeX kind, `id` as citation key, and page,
volume, issue, publisher, ISSN and ISBN in `extra`. Records without an abstract are kept, like
BibTeX entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.bibtex_record import stored_name
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, Collector, ParseResult
from papershelf.storage.ingest.record import bibliographic_paper, one_line, web_url
from papershelf.storage.model import Paper
from papershelf.storage.text import identifiers
from papershelf.storage.text.urls import is_code_url

__all__ = ["is_csl", "parse_csl"]

_KINDS = {
    "article-journal": "article",
    "article": "article",
    "article-magazine": "article",
    "paper-conference": "inproceedings",
    "book": "book",
    "chapter": "incollection",
    "thesis": "phdthesis",
    "report": "techreport",
    "manuscript": "unpublished",
}
_EXTRA = {
    "page": "pages",
    "volume": "volume",
    "issue": "number",
    "publisher": "publisher",
    "ISSN": "issn",
    "ISBN": "isbn",
}
_CSL_KEYS = ("issued", "container-title", "DOI", "URL")


def is_csl(records: Sequence[tuple[int, Any]]) -> bool:
    """Whether JSON records are CSL JSON: one has an `author` list of name objects, or a CSL
    `type` with a CSL key (`issued`, `container-title`, `DOI`, `URL`)."""
    for _, record in records:
        if not isinstance(record, dict):
            continue
        authors = record.get("author")
        if isinstance(authors, list) and any(isinstance(name, dict) for name in authors):
            return True
        if isinstance(record.get("type"), str) and any(key in record for key in _CSL_KEYS):
            return True
    return False


def parse_csl(
    records: Sequence[tuple[int, Any]], source: str, venue: str | None, now: str
) -> ParseResult:
    """The papers of CSL JSON records; IngestError (one line) for a record that is no object."""
    collector = Collector()
    for position, record in records:
        if not isinstance(record, dict):
            raise IngestError(source, f"CSL JSON record {position} is not an object")
        collector.add(_paper(record, source, venue, now))
    return collector.result(source, venue)


def _text(record: dict[str, Any], key: str) -> str | None:
    value = record.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, list):  # a few writers give a list of strings
        value = next((item for item in value if isinstance(item, str)), None)
    return one_line(value)


def _name(name: object) -> str | None:
    if isinstance(name, str):
        return one_line(name)
    if not isinstance(name, dict):
        return None
    if (literal := _text(name, "literal")) is not None:
        return stored_name("", "", literal, "")
    family = _text(name, "family") or ""
    if not family:
        return _text(name, "given")
    particle = " ".join(
        part for key in ("dropping-particle", "non-dropping-particle") if (part := _text(name, key))
    )
    return stored_name(_text(name, "given") or "", particle, family, _text(name, "suffix") or "")


def _year(record: dict[str, Any]) -> int | None:
    for key in ("issued", "published-print", "published-online", "created"):
        date = record.get(key)
        parts = date.get("date-parts") if isinstance(date, dict) else None
        first = parts[0] if isinstance(parts, list) and parts else None
        year = first[0] if isinstance(first, list) and first else None
        if isinstance(year, str) and year.isdigit():
            year = int(year)
        if isinstance(year, int) and not isinstance(year, bool) and 0 < year < 10_000:
            return year
    return None


def _paper(record: dict[str, Any], source: str, venue: str | None, now: str) -> Paper | None:
    abstract = _text(record, "abstract") or ""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(source, f"an abstract of {len(abstract):,} characters is too long")
    names = record.get("author")
    authors = tuple(
        found for name in (names if isinstance(names, list) else ()) if (found := _name(name))
    )
    url = web_url(_text(record, "URL"))
    doi_text = _text(record, "DOI")
    doi = identifiers.doi(doi_text) if doi_text else None
    arxiv = (identifiers.arxiv_id(url) if url else None) or (
        identifiers.arxiv_from_doi(doi) if doi else None
    )
    extra = tuple(
        (name, "\u2013".join(text.split("-", 1)) if name == "pages" else text)
        for key, name in _EXTRA.items()
        if (text := _text(record, key)) is not None
    )
    return bibliographic_paper(
        abstract=abstract,
        title=_text(record, "title"),
        source=source,
        venue=venue or _text(record, "container-title") or _text(record, "event-title"),
        now=now,
        authors=authors,
        url=url,
        year=_year(record),
        doi=doi,
        arxiv_id=arxiv,
        kind=_KINDS.get(_text(record, "type") or "", "misc"),
        cite_key=_text(record, "id"),
        extra=extra,
        code_url=url if url is not None and is_code_url(url) else None,
    )
