"""Streamed imports: JSON Lines and abstract lists read a line at a time, at any size.

`parse.read_file` holds a whole file in memory (its bytes, its text, its records) and so refuses
files over `MAX_FILE_BYTES`. Two formats need no whole file: a JSON Lines record and a text
paragraph are complete on their own lines. A file over the limit in one of them is read here, a
line at a time, so memory grows with the papers found, never with the file's size; formats that
must be held whole (a JSON array or object, BibTeX, XML, UTF-16/32 text) are still refused
from their size.

The results are the ones `parse.parse_bytes` gives for the same bytes: each line is decoded and
cleaned (`clean_text`) on its own, which is what cleaning the whole text does, since no rule of
it reaches across a line break; line numbers are counted the same way (a lone CR ends a line).
Two differences, both refusals: a line over `LINE_MAX_BYTES` is refused (no record or paragraph
is that long), and a JSON Lines file mixing OpenReview notes and plain records is refused
(the whole-file reader decides from all records; a stream decides from the first).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.decode import (
    MAX_FILE_BYTES,
    SNIFF_BYTES,
    check_head,
    decode_error,
)
from papershelf.storage.ingest.paragraphs import paragraphs_of_lines
from papershelf.storage.ingest.parse import (
    MAX_ABSTRACT_CHARS,
    JsonError,
    ParseResult,
    loads_json,
    looks_like_xml,
    parse_json_records,
    parse_paragraphs,
)
from papershelf.storage.model import utc_now
from papershelf.storage.text.clean import clean_text

__all__ = ["LINE_MAX_BYTES", "parse_stream"]

LINE_MAX_BYTES = 4 * 1024 * 1024
"""A longer line is refused: no abstract, nor a JSON record holding one, is that long."""


def _too_large(source: str, size: int, what: str) -> IngestError:
    mib = 1024 * 1024
    return IngestError(
        source,
        f"file too large ({size / mib:.1f} MiB; the limit for {what} is "
        f"{MAX_FILE_BYTES / mib:.1f} MiB: only JSON Lines and abstract lists import at any size)",
    )


class _Lines:
    """The cleaned lines of a UTF-8 file, with their numbers, read one at a time."""

    def __init__(self, handle: BinaryIO, source: str, skip: int) -> None:
        self._handle = handle
        self._source = source
        self._skip = skip
        self.content = False
        """Whether a line with more than white space was seen."""

    def __iter__(self) -> Iterator[tuple[int, str]]:
        handle, source = self._handle, self._source
        handle.seek(self._skip)
        number = 0  # as parse_bytes counts: after cleaning, where a lone CR ends a line too
        raw_number = 0  # as a decoding error is reported: newlines in the bytes
        while raw := handle.readline(LINE_MAX_BYTES + 1):
            raw_number += 1
            if len(raw) > LINE_MAX_BYTES:
                raise IngestError(
                    source,
                    f"a line of over {LINE_MAX_BYTES // (1024 * 1024)} MiB is too long "
                    "for a record or an abstract",
                    number + 1,
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                where = decode_error(error, raw, "utf-8", source)
                raise IngestError(source, where.reason, raw_number) from None
            text = clean_text(text)
            if text.endswith("\n"):
                text = text[:-1]
            for line in text.split("\n"):
                number += 1
                if not self.content and line.strip():
                    self.content = True
                yield number, line


def _records(lines: _Lines, source: str) -> Iterator[tuple[int, Any]]:
    """The JSON Lines records with their line numbers; a line that is not JSON is refused."""
    for number, line in lines:
        if not line.strip():
            continue
        try:
            yield number, loads_json(line, number)
        except JsonError as error:
            raise IngestError(source, f"not valid JSON: {error.message}", error.line) from None


def _is_note(record: Any) -> bool:
    return isinstance(record, dict) and isinstance(record.get("content"), dict)


def _is_csl(record: Any) -> bool:
    from papershelf.storage.ingest import csl

    return csl.is_csl([(0, record)])


def _plain(records: Iterator[tuple[int, Any]], source: str) -> Iterator[tuple[int, Any]]:
    # Imported once here, not in `_is_csl` per record: an import statement costs ~1.5 us.
    from papershelf.storage.ingest import csl

    for number, record in records:
        if _is_note(record):
            raise IngestError(
                source,
                "an OpenReview note among plain JSON records; import notes and records "
                "from separate files",
                number,
            )
        if csl.is_csl([(0, record)]):
            raise IngestError(
                source,
                "a CSL JSON item among plain JSON records; import CSL items and records "
                "from separate files",
                number,
            )
        yield number, record


def _first_content(lines: _Lines) -> str:
    """The first line with more than white space, stripped ("" when there is none): what tells
    JSON from an abstract list, however much white space comes first."""
    for _, line in lines:
        if line.strip():
            return line.strip()
    return ""


def _first_line_is_json(lines: _Lines) -> bool:
    """Whether the first line with content is one JSON value on its own (JSON Lines), not the
    start of a value that spans lines (a JSON document, which must be read whole)."""
    for number, line in lines:
        if line.strip():
            try:
                loads_json(line, number)
            except JsonError:
                return False
            return True
    return False


def parse_stream(
    handle: BinaryIO, source: str, size: int, venue: str | None, *, now: str | None = None
) -> ParseResult:
    """The papers of an open file too large to hold (`size` bytes), read a line at a time;
    `IngestError` (and nothing imported) when it cannot be, or is not JSON Lines or a list."""
    handle.seek(0)
    head = handle.read(SNIFF_BYTES)
    encoding, skip = check_head(head, source)
    if encoding != "utf-8":
        raise _too_large(source, size, f"{encoding.upper()} text")
    sniffed = head[skip:].decode("utf-8", errors="ignore")
    named = source.lower().endswith((".bib", ".ris")) or looks_like_xml("", source)
    if sniffed.lstrip()[:1] == "[" and not named:
        # Told before the other readers are even loaded: a huge array is refused at once.
        raise _too_large(source, size, "a JSON array or object")
    from papershelf.storage.ingest import bibtex

    if bibtex.is_bibtex(sniffed, source):
        raise _too_large(source, size, "BibTeX")
    from papershelf.storage.ingest import ris

    if ris.is_ris(sniffed, source):
        raise _too_large(source, size, "RIS")
    if looks_like_xml(sniffed, source):
        raise _too_large(source, size, "XML")
    now = now or utc_now()
    lines = _Lines(handle, source, skip)
    # From the head, unless it is all white space: a first line too long to read is still
    # refused by what it starts with.
    start = sniffed.lstrip()[:1] or _first_content(lines)[:1]
    if start == "[" or (start == "{" and not _first_line_is_json(lines)):
        raise _too_large(source, size, "a JSON array or object")
    if start == "{":
        records = _records(lines, source)
        first = next(records, None)
        if first is not None and _is_note(first[1]):
            from papershelf.storage.ingest import openreview

            notes = _chain(first, records)
            return openreview.parse_notes(notes, source, venue, now)
        if first is not None and _is_csl(first[1]):
            raise _too_large(source, size, "CSL JSON")
        found = _plain(_chain(first, records) if first else records, source)
        return parse_json_records(found, source, venue, now)
    text = (line for _, line in lines)
    result = parse_paragraphs(paragraphs_of_lines(text, MAX_ABSTRACT_CHARS), source, venue, now)
    if not lines.content:
        raise IngestError(source, "empty file")
    return result


def _chain(first: tuple[int, Any], rest: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    yield first
    yield from rest
