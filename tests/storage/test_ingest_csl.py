"""CSL JSON import (storage/ingest/csl.py): Zotero's CSL JSON export, names with their parts kept
for a BibTeX export, told apart from papershelf's own JSON records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.storage.errors import IngestError
from papershelf.storage.export.bibtex import to_bibtex
from papershelf.storage.ingest.parse import parse_bytes, read_file
from papershelf.storage.text.authors import authors_short, authors_text

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "csl" / "zotero.json"
NOW = "2026-01-01T00:00:00Z"


def test_a_zotero_csl_json_file_gives_each_record_with_its_fields() -> None:
    vaswani, koala = read_file(FIXTURE).papers
    assert vaswani.title == "Attention Is All You Need"
    assert vaswani.authors == (
        "Ashish Vaswani",
        "Laurens van der Maaten",
        "King, Jr., Martin Luther",
        "{Google DeepMind}",
    )
    assert (
        authors_short(vaswani.authors, limit=4) == "Vaswani, van der Maaten, King, Google DeepMind"
    )
    assert authors_text(vaswani.authors).endswith(", Google DeepMind")
    assert (vaswani.year, vaswani.venue, vaswani.kind) == (
        2017,
        "Advances in Neural Information Processing Systems",
        "inproceedings",
    )
    assert (vaswani.doi, vaswani.arxiv_id, vaswani.cite_key) == (
        "10.5555/3295222.3295349",
        "1706.03762",
        "vaswani2017",
    )
    assert dict(vaswani.extra) == {
        "pages": "5998\u20136008",
        "volume": "30",
        "publisher": "Curran Associates, Inc.",
    }
    # No abstract: kept, like a BibTeX entry, named by its title.
    assert (koala.abstract, koala.year, koala.kind) == ("", 2020, "article")
    assert koala.name == "Koala Attention"


def test_the_bibtex_export_writes_the_csl_names_as_bibtex_reads_them() -> None:
    vaswani = read_file(FIXTURE).papers[0]
    assert (
        "  author = {Vaswani, Ashish and van der Maaten, Laurens and King, Jr., Martin Luther"
        " and {Google DeepMind}},\n"
    ) in to_bibtex([vaswani])


def test_papershelf_json_records_are_not_csl() -> None:
    record = {"title": "T", "abstract": "An abstract long enough to be one.", "authors": ["A B"]}
    (paper,) = parse_bytes(json.dumps([record]).encode(), "mine.json", now=NOW).papers
    assert paper.authors == ("A B",)
    assert paper.kind is None  # read as papershelf's own record, not CSL


def test_a_csl_record_that_is_no_object_is_one_line() -> None:
    text = json.dumps([{"type": "article-journal", "title": "T", "DOI": "10.1/x"}, 3])
    with pytest.raises(IngestError) as caught:
        parse_bytes(text.encode(), "refs.json", now=NOW)
    assert str(caught.value) == "refs.json: CSL JSON record 2 is not an object"
