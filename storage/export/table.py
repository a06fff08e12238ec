"""A selection as a table: CSV for spreadsheets, JSON for scripts (`to_csv`, `to_json`).

One row (CSV) or object (JSON) per paper, in the selection's order, with the columns of
`COLUMNS`. JSON uses the names and value forms of `papershelf show --json` where the two
overlap (`title` as shown, LaTeX as Unicode; `tags` sorted; `starred` true/false) and keeps
lists as lists. CSV joins lists into one cell (`authors` and `tags` with `; `, `code_urls`
with a space), writes `starred` as `yes`/`no`, and guards against formula injection: a cell
that would start with `=`, `+`, `-`, `@` or a tab starts with `'`, which
spreadsheets show as text instead of running the cell as a formula (OWASP's advice). JSON,
read by programs, holds the text unchanged.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable

from papershelf.storage.model import Entry, Paper
from papershelf.storage.text.titles import display_title

__all__ = ["COLUMNS", "JSON_KEYS", "rows", "to_csv", "to_json"]

COLUMNS = (
    "id",
    "name",
    "title",
    "authors",
    "year",
    "venue",
    "doi",
    "arxiv_id",
    "url",
    "pdf_url",
    "code_urls",
    "tags",
    "status",
    "starred",
    "note",
)
JSON_KEYS = (
    *COLUMNS,
    "title_as_imported",
    "openreview_id",
    "kind",
    "cite_key",
    "extra",
    "links",
    "abstract",
)
"""A JSON record's keys, in order: the columns, then the rest of the record (`_record_rest`)."""
_FORMULA_START = ("=", "+", "-", "@", "\t")
# What json.dumps leaves raw that a terminal or a UTF-8 file cannot take as it is: DEL and C1
# controls, bidi controls, line separators, the BOM, lone surrogates. Escaped as \uXXXX.
_UNSAFE_JSON = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]"
)


def rows(items: Iterable[tuple[Paper, Entry]]) -> list[dict[str, object]]:
    """One dict per paper (each once, first place kept), keys in `COLUMNS` order."""
    seen: set[str] = set()
    found: list[dict[str, object]] = []
    for paper, entry in items:
        if paper.id in seen:
            continue
        seen.add(paper.id)
        found.append(
            {
                "id": paper.id,
                "name": paper.name,
                "title": display_title(paper.title) or None,
                "authors": list(paper.authors),
                "year": paper.year,
                "venue": paper.venue,
                "doi": paper.doi,
                "arxiv_id": paper.arxiv_id,
                "url": paper.url,
                "pdf_url": paper.pdf_url,
                "code_urls": list(paper.code_urls),
                "tags": sorted(entry.tags),
                "status": entry.status,
                "starred": entry.starred,
                "note": entry.note,
            }
        )
    return found


def _record_rest(paper: Paper) -> dict[str, object]:
    """What JSON adds to the table's columns so that an import gets the whole record back (the
    keys `list --json` uses): the title as written, the rest of the record, the abstract."""
    return {
        "title_as_imported": paper.title,
        "openreview_id": paper.openreview_id,
        "kind": paper.kind,
        "cite_key": paper.cite_key,
        "extra": dict(paper.extra),
        "links": list(paper.links_with_page),
        "abstract": paper.abstract,
    }


def to_json(items: Iterable[tuple[Paper, Entry]]) -> str:
    """The rows, each with the rest of its record and the abstract last (so that `papershelf
    import` reads the file back as the same papers, record and all), as an indented JSON list,
    ending in a newline."""
    listed = list(items)
    papers = {paper.id: paper for paper, _ in listed}
    records = [{**row, **_record_rest(papers[str(row["id"])])} for row in rows(listed)]
    dumped = json.dumps(records, ensure_ascii=False, indent=2)
    return _UNSAFE_JSON.sub(lambda match: f"\\u{ord(match[0]):04x}", dumped) + "\n"


def _cell(value: object, column: str) -> str:
    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, list):
        text = (" " if column == "code_urls" else "; ").join(str(item) for item in value)
    else:
        text = str(value)
    # A lone carriage return would end the row for many readers (the writer quotes only
    # cells holding a `\n`): line breaks in a cell are written as `\n`.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        # Lone surrogates cannot be written as UTF-8: each becomes U+FFFD.
        text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return "'" + text if text.startswith(_FORMULA_START) else text


def to_csv(items: Iterable[tuple[Paper, Entry]]) -> str:
    """A header row and one row per paper; fields quoted where needed, lines ending in `\\n`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows(items):
        writer.writerow([_cell(row[column], column) for column in COLUMNS])
    return out.getvalue()
