"""arXiv feeds to Papers: the API's Atom (`export.arxiv.org/api/query`), and the announcement
feeds (rss.arxiv.org's Atom and RSS 2.0), saved to a file or fetched by `papershelf add`.

The XML is parsed with defusedxml, which refuses DTDs and entity declarations outright: a feed
never needs them, and they are how XML bombs and external-entity reads get in. Each entry gives
its title, abstract (`summary`, the announcement prefix `arXiv:ID Announce Type: new Abstract:`
dropped), authors, year (`published`), arXiv id without version, DOI (`arxiv:doi`), PDF link,
abs page as URL, `journal_ref` (else "arXiv") as venue and the primary category as `primaryclass`.
HTML in a title or abstract (arXiv's RSS puts `<p>` around each abstract) becomes plain text
(`text.html_text`): an RSS description always, an Atom field when typed `html`/`xhtml` or when
it holds a tag or `&amp;`-style reference.
An entry the API reports an error with (its id under `arxiv.org/api/errors`) fails the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, Collector, ParseResult
from papershelf.storage.ingest.record import bibliographic_paper, one_line, web_url, year_in
from papershelf.storage.model import Paper
from papershelf.storage.text.html_text import html_text, looks_like_html
from papershelf.storage.text.identifiers import arxiv_id, doi

__all__ = ["API_ERROR", "parse_feed"]

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_ANNOUNCE = re.compile(r"^arXiv:\S+\s+Announce Type:\s*\S+\s*Abstract:\s*", re.IGNORECASE)
_OAI = "oai:arxiv.org:"
API_ERROR = "arxiv.org/api/errors"
"""What the id of an entry the arXiv API reports an error with contains."""


def parse_feed(text: str, source: str, venue: str | None, now: str) -> ParseResult:
    """The papers of an arXiv Atom or RSS feed; IngestError (one line) for anything else."""
    root = _parse_xml(text, source)
    if root.tag == f"{_ATOM}feed":
        records = (_atom_entry(entry, source) for entry in root.iter(f"{_ATOM}entry"))
    elif root.tag == "rss":
        records = (_rss_item(item) for item in root.iter("item"))
    else:
        name = root.tag.rpartition("}")[2][:40]
        raise IngestError(source, f"not an arXiv Atom or RSS feed (the document is <{name}>)")
    collector = Collector()
    for fields in records:
        collector.add(_paper(fields, source, venue, now))
    return collector.result(source, venue)


def _parse_xml(text: str, source: str) -> Element:
    try:
        return fromstring(text, forbid_dtd=True)
    except ParseError as error:
        line = error.position[0] if error.position else None
        reason = str(error).split(":", 1)[0]  # expat's message, without its own position
        raise IngestError(source, f"not valid XML: {reason}", line) from None
    except DefusedXmlException:
        raise IngestError(source, "refused: the XML declares a DTD or entities") from None


def _text(element: Element, tag: str) -> str | None:
    found = element.find(tag)
    return one_line(found.text) if found is not None else None


def _prose(element: Element, tag: str, *, html: bool = False) -> str | None:
    """A title's or an abstract's text, as one line: HTML (`<p>`, `<em>`, `&amp;`) read as
    plain text when the field is HTML (`html`, an Atom `type="html"`) or looks like it; the
    children of an XHTML field are its text."""
    found = element.find(tag)
    if found is None:
        return None
    kind = (found.get("type") or "").lower()
    if kind == "xhtml":
        return one_line("".join(found.itertext()))
    text = found.text or ""
    if html or kind == "html" or looks_like_html(text):
        text = html_text(text)
    return one_line(text)


def _texts(element: Element, tag: str) -> Iterator[str]:
    for found in element.iter(tag):
        text = one_line(found.text)
        if text:
            yield text


def _split_names(text: str | None) -> tuple[str, ...]:
    """`A. One, B. Two and C. Three` (a `dc:creator` line) as three names."""
    if not text:
        return ()
    names = re.split(r",\s*|\s+and\s+", text)
    return tuple(name.strip() for name in names if name.strip())


@dataclass(frozen=True, slots=True)
class _Fields:
    """One entry's fields, as the feed writes them (cleaned to one line each)."""

    id: str
    title: str | None
    abstract: str | None
    authors: tuple[str, ...]
    date: str | None
    doi: str | None
    journal: str | None
    pdf: str | None
    category: str | None


def _atom_entry(entry: Element, source: str) -> _Fields:
    entry_id = _text(entry, f"{_ATOM}id") or ""
    if API_ERROR in entry_id:
        message = _text(entry, f"{_ATOM}summary") or "error"
        raise IngestError(source, f"the arXiv API answered: {message[:200]}")
    links = entry.findall(f"{_ATOM}link")
    pdf = next(
        (
            link.get("href")
            for link in links
            if link.get("title") == "pdf" or link.get("type") == "application/pdf"
        ),
        None,
    )
    primary = entry.find(f"{_ARXIV}primary_category")
    category = primary if primary is not None else entry.find(f"{_ATOM}category")
    authors = tuple(_texts(entry, f"{_ATOM}name")) or _split_names(_text(entry, f"{_DC}creator"))
    return _Fields(
        id=entry_id,
        title=_prose(entry, f"{_ATOM}title"),
        abstract=_prose(entry, f"{_ATOM}summary"),
        authors=authors,
        date=_text(entry, f"{_ATOM}published") or _text(entry, f"{_ATOM}updated"),
        doi=_text(entry, f"{_ARXIV}doi") or _text(entry, f"{_ARXIV}DOI"),
        journal=_text(entry, f"{_ARXIV}journal_ref") or _text(entry, f"{_ARXIV}journal_reference"),
        pdf=pdf,
        category=category.get("term") if category is not None else None,
    )


def _rss_item(item: Element) -> _Fields:
    category = item.find("category")
    return _Fields(
        id=_text(item, "guid") or _text(item, "link") or "",
        title=_prose(item, "title"),
        abstract=_prose(item, "description", html=True),  # RSS descriptions are HTML
        authors=_split_names(_text(item, f"{_DC}creator")),
        date=_text(item, "pubDate"),
        doi=_text(item, f"{_ARXIV}DOI") or _text(item, f"{_ARXIV}doi"),
        journal=_text(item, f"{_ARXIV}journal_reference"),
        pdf=None,
        category=one_line(category.text) if category is not None else None,
    )


def _paper(fields: _Fields, source: str, venue: str | None, now: str) -> Paper | None:
    raw_id = fields.id
    if raw_id.lower().startswith(_OAI):
        raw_id = raw_id[len(_OAI) :]
    identifier = arxiv_id(raw_id)
    abstract = _ANNOUNCE.sub("", fields.abstract or "")
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(source, f"an abstract of {len(abstract):,} characters is too long")
    return bibliographic_paper(
        abstract=abstract,
        title=fields.title,
        source=source,
        venue=venue or fields.journal or "arXiv",
        now=now,
        authors=fields.authors,
        url=f"https://arxiv.org/abs/{identifier}" if identifier else None,
        year=year_in(fields.date),
        doi=doi(fields.doi) if fields.doi else None,
        arxiv_id=identifier,
        pdf_url=web_url(fields.pdf),
        extra=(("primaryclass", fields.category),) if fields.category else (),
    )
