"""Bytes to Papers: the plain-text abstract lists and JSON / JSON Lines records (DESIGN §3), and
the dispatch to the other formats (`bibtex`: `.bib` files, or text that starts with `@type{`;
`atom`: arXiv feeds; `openreview`: OpenReview's notes), told apart by content.

A file either imports whole or raises `IngestError` and imports nothing. Limits, so that any
input is bounded work: files over `MAX_FILE_BYTES` are refused from their size, and a paragraph
(or JSON abstract) over `MAX_ABSTRACT_CHARS` is refused as too long for an abstract, naming its
line: a 50 MB single-line file is refused, not parsed.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest import json_record
from papershelf.storage.ingest.decode import (
    MAX_FILE_BYTES,
    decode,
    open_regular,
    read_held,
    source_name,
)
from papershelf.storage.ingest.merge import MatchIndex, merge_papers, record_id, unique_id
from papershelf.storage.ingest.naming import Draft, draft, named
from papershelf.storage.ingest.paragraphs import (
    Paragraph,
    dedupe_key,
    paper_id,
    paragraphs,
    venue_from_header,
)
from papershelf.storage.model import Paper, utc_now
from papershelf.storage.names.derive import derive_name
from papershelf.storage.text import identifiers
from papershelf.storage.text.clean import clean_line, clean_name, clean_text
from papershelf.storage.text.urls import canonical

__all__ = [
    "MAX_ABSTRACT_CHARS",
    "MAX_FILE_BYTES",
    "Collector",
    "JsonError",
    "ParseResult",
    "clean_name",
    "clean_text",
    "dedupe_key",
    "loads_json",
    "looks_like_xml",
    "merge_papers",
    "paper_id",
    "parse_bytes",
    "parse_json_records",
    "parse_paragraphs",
    "read_file",
    "source_name",
]

MAX_ABSTRACT_CHARS = 20_000
"""Longer paragraphs are not abstracts: the file is refused, naming the paragraph's line."""

_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson")
_XML_SUFFIXES = (".xml", ".atom", ".rss")
_XML_START = re.compile(r"\s*(?:<\?xml|<feed|<rss)")
"""How an arXiv feed (`ingest.atom`) is told from an abstract list: by name or first bytes."""
_TABLE_SUFFIXES = (".csv", ".tsv")
_OUR_CSV_HEADER = re.compile(r"\s*id,name,title,authors,")
"""A table (ours, from `export --format csv`, or a spreadsheet's) read as an abstract list would
make one junk paper per row: it is refused instead, by its name or by our header."""


@dataclass(frozen=True)
class ParseResult:
    """What one file holds."""

    source: str
    """File name (basename) used in Paper.sources."""
    venue: str | None
    """From the header, or the venue argument (which wins)."""
    papers: list[Paper]
    """Unique within this file, in file order, ids set, sources=(source,)."""
    duplicates: int
    """Abstracts repeated inside this file (merged)."""
    skipped: int
    """Section headers and other non-paper paragraphs or records."""
    notes: tuple[str, ...] = ()
    """One line each, what the import had to make of the file (`3 entries used undefined macros
    ...`); clean text, without the file's name."""


class Collector:
    """Keeps one file's papers unique (`merge.MatchIndex`: by abstract, identifier or title), in
    first-seen order, counting merged duplicates. Every importer collects through one."""

    def __init__(self) -> None:
        self.papers: dict[str, Paper] = {}
        self.duplicates = 0
        self.skipped = 0
        self._index = MatchIndex(self.papers)
        self._venues: set[str | None] = set()

    def result(self, source: str, venue: str | None, notes: tuple[str, ...] = ()) -> ParseResult:
        """What the file held: the papers collected, in order, with the counts and `notes`; its
        venue is `venue`, else the one venue every record added had (None when they differ)."""
        if venue is None and len(self._venues) == 1:
            (venue,) = self._venues
        return ParseResult(
            source=source,
            venue=venue,
            papers=list(self.papers.values()),
            duplicates=self.duplicates,
            skipped=self.skipped,
            notes=notes,
        )

    def add(self, paper: Paper | None) -> None:
        """Keep `paper`, or merge it into the paper of this file it is a record of; None (a
        record that makes no paper) is counted as skipped."""
        if paper is None:
            self.skipped += 1
            return
        self._venues.add(paper.venue)
        found = self._index.find(paper)
        if found is None:
            # Another paper of this title that it contradicts may hold its id already.
            paper = unique_id(paper, self.papers)
            self.papers[paper.id] = paper
        else:
            paper = self.papers[found] = merge_papers(self.papers[found], paper)
            self.duplicates += 1
        self._index.added(paper)


def _check_length(abstract: str, source: str, line: int) -> None:
    if len(abstract) > MAX_ABSTRACT_CHARS:
        raise IngestError(
            source,
            f"paragraph of {len(abstract):,} characters is too long for an abstract "
            f"(the limit is {MAX_ABSTRACT_CHARS:,})",
            line,
        )


def _parse_text(text: str, source: str, venue: str | None, now: str) -> ParseResult:
    return parse_paragraphs(paragraphs(text), source, venue, now)


def parse_paragraphs(
    found: Iterable[Paragraph], source: str, venue: str | None, now: str
) -> ParseResult:
    """The papers of an abstract list's paragraphs (given whole, or streamed a line at a time:
    `ingest.stream`); the first one may be the list's title, naming its venue."""
    collector = Collector()
    header_venue: str | None = None

    def drafts() -> Iterator[Draft]:
        nonlocal header_venue
        for index, paragraph in enumerate(found):
            _check_length(paragraph.text, source, paragraph.line)
            if paragraph.is_header:
                if index == 0:
                    # The collection's title: it names the venue; it is not a skipped paragraph.
                    header_venue = venue_from_header(paragraph.text)
                else:
                    collector.skipped += 1
                continue
            yield draft(paragraph.text)

    # Named a chunk at a time (`ingest.naming`); the header, if any, is read before the first.
    for made, name in named(drafts(), Draft.name_args):
        collector.add(made.paper(name, source, venue or header_venue, now))
    return collector.result(source, venue or header_venue)


def _one_line(value: Any) -> str | None:
    """A JSON string field as one clean line, or None when missing or empty."""
    if not isinstance(value, str):
        return None
    text = clean_line(value)
    return text or None


def _authors(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        names = [_one_line(item) for item in value]
    elif isinstance(value, str):
        cleaned = _one_line(value) or ""
        # "Smith, John; Doe, Jane" separates people by ";" (commas are inside names then).
        mark = ";" if ";" in cleaned else ","
        names = [part.strip() for part in cleaned.replace(" and ", mark).split(mark)]
    else:
        return ()
    return tuple(name for name in names if name)


def _first_field(record: dict[str, Any], *names: str) -> str | None:
    """The first of `names` the record holds as text (or a number: `"arxiv": 1706.03762` is
    one to JSON), as one clean line."""
    for name in names:
        value = record.get(name)
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if (text := _one_line(value)) is not None:
            return text
    return None


_YEAR = re.compile(r"\s*(\d{4})(?!\d)")


def _year(value: Any) -> int | None:
    """A year from `2017`, `"2017"` or `"2017-06-12"`; None for anything else (a bad year is not
    worth refusing the file)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 1000 <= value <= 9999 else None
    match = _YEAR.match(value) if isinstance(value, str) else None
    return int(match.group(1)) if match else None


def _record_fields(record: dict[str, Any]) -> dict[str, Any]:
    """The bibliographic fields of a JSON record that carries them (`year`, `doi`,
    `arxiv_id`/`arxiv`, `openreview_id`/`openreview`, `pdf_url`/`pdf`), identifiers in their
    canonical form: what `list --json` prints imports back the same. Fields that are not what
    they say (a DOI that is no DOI) are left out."""
    fields: dict[str, Any] = {}
    if (year := _year(record.get("year"))) is not None:
        fields["year"] = year
    if (text := _first_field(record, "doi")) and (value := identifiers.doi(text)):
        fields["doi"] = value
    if (text := _first_field(record, "arxiv_id", "arxiv")) and (
        value := identifiers.arxiv_id(text)
    ):
        fields["arxiv_id"] = value
    if (text := _first_field(record, "openreview_id", "openreview")) and (
        value := identifiers.openreview_id(text) or identifiers.openreview_note_id(text)
    ):
        fields["openreview_id"] = value
    if (text := _first_field(record, "pdf_url", "pdf")) and (value := canonical(text)):
        fields["pdf_url"] = value
    return fields


def loads_json(text: str, line: int) -> Any:
    """`json.loads`, with every way it can fail as a `JsonError` at `line`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonError(error.msg, line + error.lineno - 1, syntax=True) from None
    except RecursionError:
        raise JsonError("nested too deeply", line) from None
    except ValueError:
        # Python's limit on int(str) (4,300 digits): JSON itself sets none.
        raise JsonError("a number has too many digits", _long_number_line(text, line)) from None


def _long_number_line(text: str, line: int) -> int:
    """The line of the first run of more than 4,300 digits (the one json.loads refused)."""
    match = _LONG_NUMBER.search(text)
    return line if match is None else line + text.count("\n", 0, match.start())


_LONG_NUMBER = re.compile(r"(?<!\d)\d{4301,}")  # the lookbehind keeps the search linear


def _records(text: str, source: str) -> list[tuple[int, Any]]:
    """JSON array or JSON Lines records with their line numbers; raises JsonError if neither."""
    stripped = text.lstrip()
    if stripped.startswith("["):
        data = loads_json(text, 1)
        if not isinstance(data, list):
            raise JsonError("expected a JSON array of records", 1)
        # Line numbers are not kept by json; report the record's position instead.
        return [(index + 1, item) for index, item in enumerate(data)]
    records: list[tuple[int, Any]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append((number, loads_json(line, number)))
        except JsonError as error:
            if not error.syntax:
                raise
            try:
                # A whole-file JSON object (pretty-printed record or {"papers": [...]}).
                whole = loads_json(text, 1)
            except JsonError as whole_error:
                # The line's own error, unless the whole file got further (a deep or long
                # number further on).
                raise (error if whole_error.syntax else whole_error) from None
            if isinstance(whole, dict) and isinstance(whole.get("papers"), list):
                return [(index + 1, item) for index, item in enumerate(whole["papers"])]
            return [(1, whole)]
    return records


class JsonError(ValueError):
    def __init__(self, message: str, line: int, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.syntax = syntax
        """A syntax error (the text may be another kind of JSON, or not JSON at all)."""


def parse_json_records(
    records: Iterable[tuple[int, Any]], source: str, venue: str | None, now: str
) -> ParseResult:
    """The papers of JSON records, each with its line (or position): a whole file's, or a JSON
    Lines file's streamed a line at a time (`ingest.stream`)."""
    collector = Collector()

    def drafts() -> Iterator[tuple[dict[str, Any], Draft]]:
        for line, record in records:
            if not isinstance(record, dict):
                raise IngestError(source, "a JSON record must be an object", line)
            raw = record.get("abstract")
            abstract = clean_line(raw) if isinstance(raw, str) else ""
            _check_length(abstract, source, line)
            url = _one_line(record.get("url"))
            yield (
                record,
                draft(
                    abstract,
                    title=json_record.title_of(record),
                    authors=_authors(record.get("authors")),
                    url=canonical(url) if url else None,
                ),
            )

    # Named a chunk at a time, in worker processes for a large file (`ingest.naming`).
    for (record, made), name in named(drafts(), lambda item: item[1].name_args()):
        collector.add(_json_paper(record, made, name, source, venue, now))
    return collector.result(source, venue)


def _json_paper(
    record: dict[str, Any], made: Draft, name: str, source: str, venue: str | None, now: str
) -> Paper | None:
    """A JSON record's paper, or None when it makes none (no abstract, title or identifier)."""
    fields = {**_record_fields(record), **json_record.bib_fields(record)}
    paper = made.paper(name, source, venue or _one_line(record.get("venue")), now, **fields)
    paper = json_record.record_links(paper, record)
    if not made.abstract:
        # A reading list may start from a title or an identifier (as a `.bib` entry
        # does); a record with none of the three is no paper.
        title = json_record.title_of(record)
        new_id = record_id("", paper.identifiers, title)
        if not new_id:
            return None
        named = derive_name("", title=paper.title, code_urls=paper.code_urls) if title else None
        paper = replace(paper, id=new_id, name=named or paper.cite_key or paper.identifiers[0])
    return json_record.own_identity(paper, record)


def parse_bytes(
    data: bytes, source: str, venue: str | None = None, *, now: str | None = None
) -> ParseResult:
    """Parse one file's bytes; raises IngestError (and imports nothing) when it cannot."""
    source = clean_name(source)
    text = clean_text(decode(data, source))
    if not text.strip():
        raise IngestError(source, "empty file")
    venue = _one_line(venue) if venue is not None else None
    now = now or utc_now()
    # Imported here: bibtex imports this module (Collector, ParseResult).
    from papershelf.storage.ingest import bibtex

    if bibtex.is_bibtex(text, source):
        return bibtex.parse_bibtex(text, source, venue, now)
    from papershelf.storage.ingest import ris

    if ris.is_ris(text, source):
        return ris.parse_ris(text, source, venue, now)
    if looks_like_xml(text, source):
        from papershelf.storage.ingest.atom import parse_feed  # loads defusedxml: only here

        return parse_feed(text, source, venue, now)
    if text.lstrip()[:1] in ("[", "{"):
        try:
            records = _records(text, source)
        except JsonError as error:
            # Plain text may begin with "[MASK]": only a JSON file name makes this an error.
            if source.lower().endswith(_JSON_SUFFIXES):
                raise IngestError(source, f"not valid JSON: {error.message}", error.line) from None
        else:
            from papershelf.storage.ingest import openreview

            if (notes := openreview.notes_of(records)) is not None:
                return openreview.parse_notes(notes, source, venue, now)
            from papershelf.storage.ingest import csl

            if csl.is_csl(records):
                return csl.parse_csl(records, source, venue, now)
            return parse_json_records(records, source, venue, now)
    if source.lower().endswith(_TABLE_SUFFIXES) or _OUR_CSV_HEADER.match(text):
        raise IngestError(
            source,
            "a CSV table, not an abstract list (papershelf reads back its own JSON and"
            " BibTeX exports: export with --format json)",
        )
    return _parse_text(text, source, venue, now)


def read_file(path: Path, venue: str | None = None) -> ParseResult:
    """Read and parse one file; directories, FIFOs, devices, binary files are refused, and so
    are files over MAX_FILE_BYTES unless they can be read a line at a time (`ingest.stream`:
    JSON Lines, abstract lists)."""
    path = Path(path)
    source = source_name(path)
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_FILE_BYTES:
            from papershelf.storage.ingest.stream import parse_stream

            venue = _one_line(venue) if venue is not None else None
            return parse_stream(handle, source, size, venue)
        data = read_held(handle, source)
    return parse_bytes(data, source, venue)


def looks_like_xml(text: str, source: str) -> bool:
    """Whether to read the file as a feed (`ingest.atom`): by its name or its first bytes."""
    return source.lower().endswith(_XML_SUFFIXES) or _XML_START.match(text) is not None
