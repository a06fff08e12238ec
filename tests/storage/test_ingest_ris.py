"""RIS import (storage/ingest/ris.py, through rispy): the fields Zotero and publishers write,
detection by content, wrong shapes in one line, merging with a `.bib` of the same paper, and a
BibTeX export of what was read."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.export.bibtex import to_bibtex
from papershelf.storage.ingest.parse import parse_bytes, read_file
from papershelf.storage.library.library import Library
from papershelf.storage.text.authors import authors_short

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ris" / "zotero.ris"
NOW = "2026-01-01T00:00:00Z"


def test_a_zotero_ris_file_gives_each_record_with_its_fields() -> None:
    result = read_file(FIXTURE)
    assert (len(result.papers), result.skipped) == (3, 1)
    vaswani, koala, report = result.papers
    assert vaswani.title == "Attention Is All You Need"
    assert vaswani.abstract.startswith("The dominant sequence transduction models")
    assert vaswani.authors == ("Vaswani, Ashish", "Shazeer, Noam", "van der Maaten, Laurens")
    assert authors_short(vaswani.authors) == "Vaswani, Shazeer, van der Maaten"
    assert (vaswani.year, vaswani.venue) == (
        2017,
        "Advances in Neural Information Processing Systems",
    )
    assert (vaswani.doi, vaswani.arxiv_id) == ("10.5555/3295222.3295349", "1706.03762")
    assert vaswani.url == "https://arxiv.org/abs/1706.03762"
    assert (vaswani.kind, vaswani.cite_key) == ("inproceedings", "vaswani2017")
    assert dict(vaswani.extra) == {
        "pages": "5998\u20136008",
        "publisher": "Curran Associates, Inc.",
        "keywords": "attention, transformers",
    }
    assert (koala.kind, koala.venue, koala.year) == (
        "article",
        "Journal of Marsupial Learning",
        2020,
    )
    assert koala.code_urls == ("https://github.com/koala/attention",)
    assert dict(koala.extra) == {
        "pages": "11\u201342",
        "volume": "3",
        "number": "2",
        "issn": "1234-5678",
    }
    assert (report.title, report.kind, report.year) == ("A Title-Only Report", "techreport", 2021)
    assert report.authors == ("Smith, Jr., John",)


def test_the_bibtex_export_of_a_ris_record_writes_its_fields() -> None:
    vaswani = read_file(FIXTURE).papers[0]
    bib = to_bibtex([vaswani])
    assert bib.startswith("@inproceedings{vaswani2017,\n")
    assert "  author = {Vaswani, Ashish and Shazeer, Noam and van der Maaten, Laurens},\n" in bib
    assert "  pages = {5998--6008},\n" in bib and "  eprint = {1706.03762},\n" in bib


def test_ris_is_recognised_by_content_and_wrong_shapes_get_one_line() -> None:
    text = FIXTURE.read_bytes()
    assert len(parse_bytes(text, "export.txt", now=NOW).papers) == 3
    with pytest.raises(IngestError) as caught:
        parse_bytes(b"Just some notes about papers.\n", "refs.ris", now=NOW)
    assert str(caught.value) == ("refs.ris: holds no RIS records (no `TY  - ` ... `ER  - ` blocks)")


@given(st.text(alphabet=st.sampled_from(list("TYAUERIBDO -\n\r\tx1é\x00")), max_size=300))
@settings(max_examples=150)
def test_any_text_parses_as_ris_or_raises_one_line(text: str) -> None:
    try:
        result = parse_bytes(("TY  - JOUR\n" + text).encode(), "any.ris", now=NOW)
    except IngestError as error:
        assert "\n" not in str(error)
    else:
        assert all(paper.id for paper in result.papers)


def test_a_ris_record_and_a_bib_entry_of_one_paper_are_one_paper(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{vaswani2017attention, title = {Attention Is All You Need},\n"
        "  doi = {10.5555/3295222.3295349}, year = {2017}}\n",
        encoding="utf-8",
    )
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files([bib, FIXTURE])
    papers = library.papers()
    assert len(papers) == 3
    merged = papers[0]
    assert merged.sources == ("refs.bib", "zotero.ris")
    assert merged.abstract.startswith("The dominant sequence transduction models")


def test_cli_imports_a_ris_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--db", tmp_path / "lib", "import", FIXTURE)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "zotero.ris: 3 added, 0 duplicates, 1 skipped"
