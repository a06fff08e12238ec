"""A Paper from a bibliographic record (an arXiv entry, an OpenReview note, a Crossref work).

The importers of structured sources clean their fields and call `bibliographic_paper`, which
adds what every paper carries: links found in the abstract, a derived name and its id
(`merge.record_id`: from the abstract, else an identifier, else the title), and caps the title
and the authors (`ingest.limits`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from papershelf.storage.ingest.limits import capped_authors, capped_title
from papershelf.storage.ingest.merge import record_id
from papershelf.storage.model import Paper
from papershelf.storage.names.derive import derive_name
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.urls import canonical, split_urls

__all__ = ["bibliographic_paper", "one_line", "web_url", "year_in"]

_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")


def one_line(value: object) -> str | None:
    """A text field as one clean line (wrapped Atom titles join), or None when empty or not text."""
    if not isinstance(value, str):
        return None
    return clean_line(value) or None


def web_url(value: str | None) -> str | None:
    """An http(s) address in canonical form, or None for anything else (`javascript:`, junk)."""
    if not value or not value.lower().startswith(("http://", "https://")):
        return None
    return canonical(value)


def year_in(text: str | None) -> int | None:
    """The first plausible year written in `text` (`ICLR 2024 poster` -> 2024)."""
    match = _YEAR.search(text or "")
    return int(match.group(1)) if match else None


def bibliographic_paper(
    *,
    abstract: str,
    title: str | None,
    source: str,
    venue: str | None,
    now: str,
    authors: tuple[str, ...] = (),
    url: str | None = None,
    year: int | None = None,
    doi: str | None = None,
    arxiv_id: str | None = None,
    openreview_id: str | None = None,
    pdf_url: str | None = None,
    kind: str | None = None,
    cite_key: str | None = None,
    extra: tuple[tuple[str, str], ...] = (),
    code_url: str | None = None,
) -> Paper | None:
    """The Paper of one record, or None when it has neither abstract, identifier nor title.

    `code_url` is a repository the record names in a field of its own (OpenReview's `code`,
    a BibTeX `url` on GitHub). A record with neither abstract nor title is named by its
    citation key, else its first identifier.
    """
    title, authors = capped_title(title), capped_authors(authors)  # `ingest.limits`
    code_urls, links = split_urls(abstract)
    if code_url and code_url not in code_urls:
        code_urls = (*code_urls, code_url)
    paper = Paper(
        id="",
        name="",
        title=title,
        abstract=abstract,
        venue=venue,
        sources=(source,),
        code_urls=code_urls,
        links=links,
        imported_at=now,
        authors=authors,
        url=url,
        year=year,
        doi=doi,
        arxiv_id=arxiv_id,
        openreview_id=openreview_id,
        pdf_url=pdf_url,
        kind=kind,
        cite_key=cite_key,
        extra=extra,
    )
    paper_id = record_id(abstract, paper.identifiers, title)
    if not paper_id:
        return None
    if title or abstract:
        name = derive_name(abstract, title=title, code_urls=code_urls)
    else:
        name = cite_key or paper.identifiers[0]
    return replace(paper, id=paper_id, name=name)
