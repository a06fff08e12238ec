"""BibTeX of a selection (`to_bibtex`): one entry per paper, in the selection's order.

Entry type: the one the paper came as (`Paper.kind`); else `@inproceedings` when it has a
venue and a year (the record's, else the venue's own: `ICML 2025`); else `@misc`. A paper with
nothing but its text (no authors, year, venue, identifier or page) gets a `note`
(`ABSTRACT_ONLY_NOTE`), so a reader of the bibliography knows why the entry is bare.

Fields, in this order: title (the paper's name when it has no title), author (`and`-joined),
year, the venue (`journal` for an article, `school` for a thesis, `institution` for a report,
`howpublished` for misc, else `booktitle`), doi, eprint and archiveprefix (arXiv), url,
abstract, note, then `Paper.extra` as it came (a field of the same name as one above is
written once, from the record). A month is written as its macro (`month = dec`, what styles
expect), an en dash in `pages` as `--` (`123--130` comes back as written). Keys:
`citekeys.cite_keys`; text: `bibtex_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from papershelf.storage.export.bibtex_text import (
    bibtex_name,
    bibtex_text,
    raw_value,
    verbatim_value,
)
from papershelf.storage.export.citekeys import cite_keys, year_of
from papershelf.storage.ingest.bibtex_record import MONTHS, VERBATIM_FIELDS, month_macro
from papershelf.storage.model import Paper

__all__ = ["ABSTRACT_ONLY_NOTE", "entry_type", "to_bibtex"]

ABSTRACT_ONLY_NOTE = "Abstract only: papershelf knows no authors, year, venue or identifier"

_KIND = re.compile(r"[a-z]{1,32}")
_FIELD_NAME = re.compile(r"[a-z][a-z0-9_:.+-]{0,63}")
_VENUE_FIELD = {
    "article": "journal",
    "phdthesis": "school",
    "mastersthesis": "school",
    "thesis": "school",
    "techreport": "institution",
    "report": "institution",
    "misc": "howpublished",
    "unpublished": "howpublished",
    "online": "howpublished",
}


def entry_type(paper: Paper) -> str:
    """`Paper.kind` when it is a usable type name, else `inproceedings` (venue and year,
    `citekeys.year_of`) or `misc`."""
    if paper.kind is not None and _KIND.fullmatch(paper.kind.casefold()):
        return paper.kind.casefold()
    if paper.venue and paper.venue.strip() and year_of(paper) is not None:
        return "inproceedings"
    return "misc"


def _abstract_only(paper: Paper) -> bool:
    return not (
        paper.authors
        or paper.year is not None
        or (paper.venue or "").strip()
        or paper.doi
        or paper.arxiv_id
        or paper.openreview_id
        or paper.url
        or paper.extra
    )


def _fields(paper: Paper, kind: str) -> list[tuple[str, str]]:
    """(name, value as written between the braces), empty values left out."""
    authors = [name for name in map(bibtex_name, paper.authors) if name]
    fields = [
        ("title", bibtex_text(paper.title or paper.name, protect_case=True)),
        ("author", " and ".join(authors)),
        ("year", str(year) if (year := year_of(paper)) is not None else ""),
        (_VENUE_FIELD.get(kind, "booktitle"), bibtex_text(paper.venue or "")),
        ("doi", raw_value(paper.doi or "")),
    ]
    if paper.arxiv_id and raw_value(paper.arxiv_id):
        fields += [("eprint", raw_value(paper.arxiv_id)), ("archiveprefix", "arXiv")]
    fields += [
        ("url", raw_value(paper.url or "")),
        # Not a standard field, but the one the importer (and JabRef, Zotero) reads a PDF from.
        ("pdf", raw_value(paper.pdf_url or "")),
        ("abstract", bibtex_text(paper.abstract)),
    ]
    extra = [(name.casefold(), text) for name, text in paper.extra]
    if _abstract_only(paper) and not any(name == "note" for name, _ in extra):
        fields.append(("note", bibtex_text(ABSTRACT_ONLY_NOTE)))
    written = [(name, value) for name, value in fields if value]
    present = {name for name, _ in written}
    for name, text in extra:
        value = _extra_value(name, text)
        if _FIELD_NAME.fullmatch(name) and name not in present and value:
            written.append((name, value))
            present.add(name)
    return written


def _extra_value(name: str, text: str) -> str:
    """A field of `Paper.extra` as written between the braces (a month: its bare macro)."""
    if name in VERBATIM_FIELDS:
        return verbatim_value(text)
    if name == "month" and (macro := month_macro(text)):
        return macro
    value = bibtex_text(text)
    if name == "pages":
        # The importer reads `123--130` as an en dash; BibTeX's way to write one is `--`.
        value = value.replace("\u2013", "--")
    return value


def _line(name: str, value: str) -> str:
    if name == "month" and value in MONTHS:
        return f"  month = {value},"  # the macro, as styles expect (`month = dec`)
    return f"  {name} = {{{value}}},"


def _entry(paper: Paper, key: str) -> str:
    kind = entry_type(paper)
    lines = [f"@{kind}{{{key},"]
    lines += [_line(name, value) for name, value in _fields(paper, kind)]
    lines.append("}")
    return "\n".join(lines)


def to_bibtex(papers: Iterable[Paper]) -> str:
    """The entries of `papers` (each once, first place kept), UTF-8 text ending in a newline;
    "" for no papers."""
    unique: dict[str, Paper] = {}
    for paper in papers:
        unique.setdefault(paper.id, paper)
    keys = cite_keys(unique.values())
    return "\n".join(_entry(paper, keys[pid]) + "\n" for pid, paper in unique.items())
