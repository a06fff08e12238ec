"""OpenReview's JSON of notes to Papers: what its API returns for a venue's papers (`/notes`).

API v2 wraps each content field in an object (`"title": {"value": "..."}`); API v1 gives plain
values (`"title": "..."`); both are read. A file is OpenReview's when it is one object with a
`notes` list, or records whose `content` is an object (`notes_of`). Each note gives its title,
abstract, authors, venue, code repository, forum id (the page `openreview.net/forum?id=`), PDF
link, keywords and year: the one its venue names (`ICLR 2024 poster`), else its publication
date (`pdate`), else its creation date (`cdate`). Notes without title or abstract (replies,
reviews) are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, Collector, ParseResult
from papershelf.storage.ingest.record import bibliographic_paper, one_line, web_url, year_in
from papershelf.storage.model import Paper
from papershelf.storage.text.identifiers import openreview_note_id

__all__ = ["PAGE", "notes_of", "parse_notes"]

PAGE = "https://openreview.net"
"""Where a note's forum page and its relative PDF path (`/pdf/...`) live."""


def notes_of(records: Sequence[tuple[int, Any]]) -> list[tuple[int, Any]] | None:
    """The notes (with their positions) when `records` are OpenReview's, else None."""
    if len(records) == 1 and isinstance(records[0][1], dict):
        notes = records[0][1].get("notes")
        if isinstance(notes, list):
            return [(index + 1, note) for index, note in enumerate(notes)]
    if any(isinstance(item, dict) and isinstance(item.get("content"), dict) for _, item in records):
        return list(records)
    return None


def parse_notes(
    notes: Iterable[tuple[int, Any]], source: str, venue: str | None, now: str
) -> ParseResult:
    """The papers of OpenReview notes; IngestError (one line) for a note of another shape."""
    collector = Collector()
    for position, note in notes:
        if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
            raise IngestError(
                source, f"OpenReview note {position} is not an object with a content object"
            )
        collector.add(note_paper(note, source, venue, now))
    return collector.result(source, venue)


def _value(content: dict[str, Any], key: str) -> Any:
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _names(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(name for name in (one_line(item) for item in value) if name)


def _date_year(value: Any) -> int | None:
    """The year of an OpenReview date (milliseconds since 1970), if it is one."""
    if type(value) is not int or not 0 < value < 10**14:
        return None
    return datetime.fromtimestamp(value / 1000, UTC).year


def note_paper(note: dict[str, Any], source: str, venue: str | None, now: str) -> Paper | None:
    """The Paper of one note, or None when it has neither title nor abstract (a reply)."""
    content: dict[str, Any] = note["content"]
    title = one_line(_value(content, "title"))
    abstract = one_line(_value(content, "abstract")) or ""
    if not title and not abstract:
        return None
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(source, f"an abstract of {len(abstract):,} characters is too long")
    forum = note.get("forum") if isinstance(note.get("forum"), str) else note.get("id")
    identifier = openreview_note_id(forum) if isinstance(forum, str) else None
    note_venue = one_line(_value(content, "venue"))
    pdf = one_line(_value(content, "pdf"))
    if pdf and pdf.startswith("/"):
        pdf = PAGE + pdf
    keywords = _names(_value(content, "keywords"))
    year = year_in(note_venue) or _date_year(note.get("pdate")) or _date_year(note.get("cdate"))
    return bibliographic_paper(
        abstract=abstract,
        title=title,
        source=source,
        venue=venue or note_venue,
        now=now,
        authors=_names(_value(content, "authors")),
        url=f"{PAGE}/forum?id={identifier}" if identifier else None,
        year=year,
        openreview_id=identifier,
        pdf_url=web_url(pdf),
        extra=(("keywords", ", ".join(keywords)),) if keywords else (),
        code_url=web_url(one_line(_value(content, "code"))),
    )
