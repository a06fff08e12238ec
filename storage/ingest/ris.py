"""RIS to Papers: the tagged format Zotero, Mendeley, EndNote, Web of Science and publishers'
"Export citation" buttons write (`TY  - JOUR` ... `ER  - `), read with rispy.

rispy (a small, maintained, dependency-free reader) knows the tags' meanings and their aliases
(`TI`/`T1`, `AU`/`A1`, `PY`/`Y1`, `AB`/`N2`, `JO`/`JF`/`T2`, repeated `UR` and `KW`); this module
maps its records onto `Paper`s like the BibTeX importer: title, abstract, authors (as written,
`Vaswani, Ashish`), year, venue (the conference or journal name), DOI, the first URL as the
paper's page (an arXiv one also gives the arXiv id), the entry type as its BibTeX kind
(`JOUR` -> `article`, `CONF` -> `inproceedings`, ...), `ID` as citation key, and pages
(`5998--6008` read as BibTeX would: an en dash), volume, issue, publisher, ISBN/ISSN and keywords
in `extra`, so a BibTeX export writes them.
"""

from __future__ import annotations

import re
from typing import Any

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, Collector, ParseResult
from papershelf.storage.ingest.record import bibliographic_paper, one_line, web_url, year_in
from papershelf.storage.model import Paper
from papershelf.storage.text import identifiers
from papershelf.storage.text.urls import is_code_url

__all__ = ["is_ris", "parse_ris"]

# A RIS file starts (past blank lines and a BOM) with a type tag: `TY  - JOUR`.
_LOOKS_LIKE = re.compile(r"\s*TY  - ")
_KINDS = {
    "JOUR": "article",
    "EJOUR": "article",
    "JFULL": "article",
    "MGZN": "article",
    "CONF": "inproceedings",
    "CPAPER": "inproceedings",
    "BOOK": "book",
    "EBOOK": "book",
    "CHAP": "incollection",
    "ECHAP": "incollection",
    "THES": "phdthesis",
    "RPRT": "techreport",
    "UNPB": "unpublished",
    "MANSCPT": "unpublished",
}
# rispy's key -> the BibTeX field `extra` keeps it as.
_EXTRA = {
    "volume": "volume",
    "number": "number",
    "publisher": "publisher",
    "issn": "issn",
    "edition": "edition",
    "place_published": "address",
    "language": "language",
}


def is_ris(text: str, source: str) -> bool:
    """Whether to read the file as RIS: a `.ris` name, or text starting with a `TY  - ` line."""
    return source.lower().endswith(".ris") or _LOOKS_LIKE.match(text) is not None


def parse_ris(text: str, source: str, venue: str | None, now: str) -> ParseResult:
    """The papers of a RIS file; IngestError (one line) when it holds none."""
    import rispy  # only a RIS file needs it

    try:
        records = rispy.loads(text)
    except Exception as error:  # a bug in the reader must not become a traceback
        raise IngestError(source, f"could not be read as RIS: {type(error).__name__}") from None
    if not records:
        raise IngestError(source, "holds no RIS records (no `TY  - ` ... `ER  - ` blocks)")
    collector = Collector()
    for record in records:
        collector.add(_paper(record, source, venue, now))
    return collector.result(source, venue)


def _first(record: dict[str, Any], *keys: str) -> str | None:
    """The first of `keys` the record has as text (a list: its first item), as one line."""
    for key in keys:
        value = record.get(key)
        if isinstance(value, list):
            value = next((item for item in value if isinstance(item, str) and item.strip()), None)
        if (text := one_line(value)) is not None:
            return text
    return None


def _names(record: dict[str, Any]) -> tuple[str, ...]:
    found: list[str] = []
    for key in ("first_authors", "authors"):
        value = record.get(key)
        for name in value if isinstance(value, list) else ():
            text = one_line(name)
            if text and text not in found:
                found.append(text)
    return tuple(found)


def _paper(record: dict[str, Any], source: str, venue: str | None, now: str) -> Paper | None:
    abstract = _first(record, "abstract", "notes_abstract") or ""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(source, f"an abstract of {len(abstract):,} characters is too long")
    url = web_url(_first(record, "urls", "url", "link_to_pdf"))
    doi_text = _first(record, "doi")
    doi = identifiers.doi(doi_text) if doi_text else None
    arxiv = identifiers.arxiv_id(url) if url else None
    kind = _KINDS.get((_first(record, "type_of_reference") or "").upper(), "misc")
    record_venue = _first(record, "custom3", "secondary_title", "journal_name", "alternate_title3")
    return bibliographic_paper(
        abstract=abstract,
        title=_first(record, "title", "primary_title", "short_title"),
        source=source,
        venue=venue or record_venue,
        now=now,
        authors=_names(record),
        url=url,
        year=year_in(_first(record, "year", "publication_year", "date")),
        doi=doi,
        arxiv_id=arxiv or (identifiers.arxiv_from_doi(doi) if doi else None),
        pdf_url=web_url(_first(record, "file_attachments1", "link_to_pdf")),
        kind=kind,
        cite_key=_first(record, "id"),
        extra=_extra(record),
        code_url=url if url is not None and is_code_url(url) else None,
    )


def _extra(record: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    pairs: list[tuple[str, str]] = []
    start, end = _first(record, "start_page"), _first(record, "end_page")
    if start:
        pairs.append(("pages", f"{start}\u2013{end}" if end and end != start else start))
    for key, name in _EXTRA.items():
        if (text := _first(record, key)) is not None:
            pairs.append((name, text))
    keywords = [one_line(word) for word in record.get("keywords") or () if isinstance(word, str)]
    if words := [word for word in keywords if word]:
        pairs.append(("keywords", ", ".join(words)))
    return tuple(pairs)
