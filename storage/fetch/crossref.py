"""Crossref's REST API: one work by DOI (`/works/DOI`, JSON), its JATS abstract as plain text."""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import quote

from papershelf.storage.fetch.client import Client, Malformed, Unknown, endpoint, host_of
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS
from papershelf.storage.ingest.record import bibliographic_paper, one_line, web_url
from papershelf.storage.model import Paper
from papershelf.storage.text.identifiers import doi as canonical_doi

__all__ = ["CROSSREF_API", "CROSSREF_VARIABLE", "fetch_crossref", "jats_text", "work_paper"]

CROSSREF_VARIABLE = "PAPERSHELF_CROSSREF_API"
CROSSREF_API = "https://api.crossref.org"

# Crossref's work types as BibTeX entry types (the others are `misc`).
_KINDS = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "book-chapter": "incollection",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "dissertation": "phdthesis",
    "report": "techreport",
    "posted-content": "misc",
}
_JATS_TITLE = re.compile(r"<(?:jats:)?title\b[^>]*>.*?</(?:jats:)?title>", re.DOTALL)
# Block elements end a sentence's run of text; inline ones (italic, sup) sit inside a word.
_BLOCK_TAG = re.compile(r"</?(?:jats:)?(?:p|sec|list|list-item|label|break)\b[^>]{0,500}>")
_TAG = re.compile(r"<[^>]{0,500}>")


def fetch_crossref(doi: str, client: Client, source: str, now: str) -> Paper:
    """The work `doi` names; a FetchError when Crossref has none or answers something else."""
    url = f"{endpoint(CROSSREF_VARIABLE, CROSSREF_API)}/works/{quote(doi, safe='/')}"
    host = host_of(url)
    body = client.get(url, "application/json", "JSON")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Malformed(f"{host} sent a malformed response: not JSON") from None
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict):
        raise Malformed(f"{host} sent a malformed response: no work in it")
    paper = work_paper(message, source, now)
    if paper is None or paper.doi != doi:
        raise Unknown(f"no such work at {host}")
    return paper


def jats_text(value: str) -> str:
    """A JATS abstract (`<jats:p>...</jats:p>`, a leading `<jats:title>Abstract`) as one line."""
    text = _TAG.sub("", _BLOCK_TAG.sub(" ", _JATS_TITLE.sub(" ", value)))
    return one_line(html.unescape(text)) or ""


def _first(value: Any) -> str | None:
    """The first text of a Crossref list field (`title`, `container-title`), which Crossref
    writes as HTML (`Knowledge Discovery &amp; Data Mining`, `<i>in vivo</i>`)."""
    items = value if isinstance(value, list) else [value]
    texts = (jats_text(item) for item in items if isinstance(item, str))
    return next((text for text in texts if text), None)


def _person(author: Any) -> str | None:
    if not isinstance(author, dict):
        return None
    given, family = one_line(author.get("given")), one_line(author.get("family"))
    if family:
        return f"{given} {family}" if given else family
    return one_line(author.get("name"))  # an organisation


def _year(message: dict[str, Any]) -> int | None:
    for key in ("issued", "published", "published-print", "published-online", "created"):
        date = message.get(key)
        parts = date.get("date-parts") if isinstance(date, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if type(year) is int and 1000 < year < 3000:
                return year
    return None


def _pdf(message: dict[str, Any]) -> str | None:
    links = message.get("link")
    for link in links if isinstance(links, list) else ():
        if isinstance(link, dict) and link.get("content-type") == "application/pdf":
            url = web_url(one_line(link.get("URL")))
            if url:
                return url
    return None


def work_paper(message: dict[str, Any], source: str, now: str) -> Paper | None:
    """The Paper of one Crossref work (the API's `message`), or None without a DOI."""
    doi = canonical_doi(one_line(message.get("DOI")) or "")
    if doi is None:
        return None
    raw = message.get("abstract")
    abstract = jats_text(raw) if isinstance(raw, str) else ""
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise Malformed(f"the abstract of {doi} is too long ({len(abstract):,} characters)")
    authors = message.get("author")
    people = (_person(author) for author in (authors if isinstance(authors, list) else ()))
    extra = tuple(
        (name, text)
        for name, key in (
            ("publisher", "publisher"),
            ("volume", "volume"),
            ("number", "issue"),
            ("pages", "page"),
        )
        if (text := one_line(message.get(key)))
    )
    kind = message.get("type")
    return bibliographic_paper(
        abstract=abstract,
        title=_first(message.get("title")),
        source=source,
        venue=_first(message.get("container-title")),
        now=now,
        authors=tuple(person for person in people if person),
        url=f"https://doi.org/{doi}",
        year=_year(message),
        doi=doi,
        pdf_url=_pdf(message),
        kind=_KINDS.get(kind, "misc") if isinstance(kind, str) else None,
        extra=extra,
    )
