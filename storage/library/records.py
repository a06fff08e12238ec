"""papers.json and state.json as records: checking what was read, and turning it into Papers
and Entries (or naming why it cannot be), and the `meta` table every file carries.

A file that is another program's or a newer papershelf's raises `LibraryError` and is left
untouched; one that is damaged raises `CorruptFileError` for the caller to move aside
(`storage.library.quarantine`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any

from papershelf.storage.caches.columns import paper_column_checks, valid_columns
from papershelf.storage.errors import LibraryError
from papershelf.storage.files.jsonstore import AtomicJSONStorage, CorruptFileError
from papershelf.storage.files.layout import (
    ENTRY_PAPER_FIELD,
    KEYED_BY_PAPER_SCHEMA,
    META_ID,
    SCHEMA_VERSION,
    check_document_ids,
    entries_from_records,
    meta_problem,
    schema_of,
)
from papershelf.storage.model import Entry, Paper

__all__ = [
    "REMOVED_TABLE",
    "entries_of",
    "entry_records",
    "meta",
    "paper_records",
    "papers_of",
    "read_checked",
    "removed_of",
    "removed_records",
    "table",
]

REMOVED_TABLE = "removed"
"""papers.json's table of removed papers (`Library.remove`): each document is the paper's record
plus `removed_at`, so an import knows it (by id, identifier or title) and skips it. A table of
its own, so a stock TinyDB reads it and a papershelf without removal ignores it."""

_PAPER_FIELDS = tuple(field.name for field in fields(Paper))
_PAPER_CHECKS = paper_column_checks()


def meta(kind: str) -> dict[str, dict[str, Any]]:
    """The `meta` table of a papers or state file this papershelf writes."""
    return {META_ID: {"schema": SCHEMA_VERSION, "kind": kind, "app": "papershelf"}}


def table(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A table as schema 2 stores it: TinyDB documents with ids "1", "2", ... in this order."""
    listed = list(records)
    return dict(zip(map(str, range(1, len(listed) + 1)), listed, strict=True))


def paper_records(data: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The records of papers.json's data (as `papers_of` accepted it) by paper id: what a save
    reuses for papers it did not change. A record carries its id in either schema."""
    records = (data or {}).get("papers", {})
    return {record["id"]: record for record in records.values()}


def entry_records(data: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The records of state.json's data (as `entries_of` accepted it) by paper id, each with
    its `paper_id` field as schema 2 stores it: what a save reuses for entries it did not
    change (a schema-1 record gains the field, so the first save migrates it)."""
    if data is None:
        return {}
    records = data.get("entries", {})
    if schema_of(data) <= KEYED_BY_PAPER_SCHEMA:
        return {key: {ENTRY_PAPER_FIELD: key, **record} for key, record in records.items()}
    return {record[ENTRY_PAPER_FIELD]: record for record in records.values()}


def read_checked(store: AtomicJSONStorage, kind: str) -> dict[str, Any] | None:
    """Read one file (None: there is none); `CorruptFileError` when it is damaged,
    `LibraryError` when it is another program's or a newer papershelf's."""
    data = store.read()
    if data is not None:
        _check_meta(data, kind, store.path)
        table = data.get(kind if kind == "papers" else "entries", {})
        if not isinstance(table, dict):
            reason = f"its {kind} table is not an object"
            raise CorruptFileError(store.path, reason, store.loaded_key)
    return data


def _check_meta(data: dict[str, Any], kind: str, path: Path) -> None:
    problem = meta_problem(data, kind)
    if problem == "foreign":
        raise LibraryError(
            f"{path} is not a papershelf {kind} file; it was left untouched "
            "(choose another data directory with --db, or move the file away)"
        )
    if problem == "newer":
        schema = data["meta"][META_ID]["schema"]
        raise LibraryError(
            f"{path} was written by a newer papershelf (schema {schema}; this version reads "
            f"up to {SCHEMA_VERSION}); it was left untouched: upgrade papershelf to open it"
        )


def papers_of(data: dict[str, Any] | None, store: AtomicJSONStorage) -> dict[str, Paper]:
    """The papers of papers.json's data by id; `CorruptFileError` when a record is invalid."""
    try:
        if data is None:
            return {}
        return _papers_from_records(data.get("papers", {}), schema_of(data))
    except (TypeError, ValueError, AttributeError) as error:
        raise CorruptFileError(store.path, str(error), store.loaded_key) from None


def removed_of(data: dict[str, Any] | None, store: AtomicJSONStorage) -> dict[str, Paper]:
    """The removed papers of papers.json's data by id (in the order they were removed);
    `CorruptFileError` when the table or a record is invalid."""
    records = (data or {}).get(REMOVED_TABLE, {})
    try:
        if not isinstance(records, dict):
            raise ValueError(f"its {REMOVED_TABLE} table is not an object")
        if not records:
            return {}
        return _papers_from_records(records, schema_of(data))  # type: ignore[arg-type]
    except (TypeError, ValueError, AttributeError) as error:
        raise CorruptFileError(store.path, str(error), store.loaded_key) from None


def removed_records(data: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The records of papers.json's removed table (as `removed_of` accepted it) by paper id."""
    records = (data or {}).get(REMOVED_TABLE, {})
    return {record["id"]: record for record in records.values()}


def entries_of(data: dict[str, Any] | None, store: AtomicJSONStorage) -> dict[str, Entry]:
    """The entries of state.json's data by id; `CorruptFileError` when one is invalid."""
    try:
        if data is None:
            return {}
        return entries_from_records(data.get("entries", {}), schema_of(data))
    except (TypeError, ValueError, AttributeError) as error:
        reason = f"an entry is invalid: {error}"
        raise CorruptFileError(store.path, reason, store.loaded_key) from None


def _paper_from_record(record: Any) -> Paper:
    """Fast path for records papershelf wrote itself; `Paper.from_dict` for anything else.

    The list fields must be lists (a text would split into letters); the other fields' types
    are checked column by column afterwards (`_papers_from_records`).
    """
    try:
        sources, code_urls = record["sources"], record["code_urls"]
        links, authors = record["links"], record["authors"]
        lists = type(sources) is list and type(code_urls) is list
        if lists and type(links) is list and type(authors) is list:
            return Paper(
                record["id"],
                record["name"],
                record["title"],
                record["abstract"],
                record["venue"],
                tuple(sources),
                tuple(code_urls),
                tuple(links),
                record["imported_at"],
                tuple(authors),
                record["url"],
                record.get("year"),
                record.get("doi"),
                record.get("arxiv_id"),
                record.get("openreview_id"),
                record.get("pdf_url"),
                record.get("kind"),
                record.get("cite_key"),
                _pairs(record.get("extra")),
            )
    except (KeyError, TypeError):
        pass
    return Paper.from_dict(record)


def _pairs(value: Any) -> tuple[tuple[str, str], ...]:
    """`extra` as stored (a list of [name, value] lists) as tuples; anything else is left for
    the column check to refuse."""
    if value is None:
        return ()
    if type(value) is list and all(type(item) is list and len(item) == 2 for item in value):
        return tuple(map(tuple, value))  # type: ignore[return-value]
    raise TypeError("extra is not a list of pairs")  # the slow path names the field


def _papers_from_records(records: dict[str, Any], schema: int) -> dict[str, Paper]:
    """papers.json's `papers` table (of that `schema`) as Papers by id; `ValueError` (naming
    the paper) when a record is not one papershelf could have written, is filed under another
    paper's id (schema 1), or under a document id TinyDB cannot read or twice (schema 2)."""
    if schema > KEYED_BY_PAPER_SCHEMA:
        check_document_ids(records)
    try:
        papers = list(map(_paper_from_record, records.values()))
    except ValueError as error:
        raise ValueError(f"a paper record is invalid: {error}") from None
    # Types checked a column at a time, in C (a Python check per field would cost more than
    # building the papers).
    columns = [tuple(map(attrgetter(name), papers)) for name in _PAPER_FIELDS]
    if not valid_columns(tuple(columns), _PAPER_CHECKS):
        for paper in papers:
            Paper.from_dict(paper.to_dict())  # names the first bad field
        raise ValueError("a paper record is invalid")
    if schema > KEYED_BY_PAPER_SCHEMA:
        loaded = {paper.id: paper for paper in papers}
        if len(loaded) != len(papers):
            raise ValueError("a paper is recorded twice")
        return loaded
    loaded = dict(zip(records, papers, strict=True))
    for key, paper in loaded.items():
        if key != paper.id:
            raise ValueError(f"the record filed as {key[:20]!r} is paper {paper.id[:20]!r}")
    return loaded
