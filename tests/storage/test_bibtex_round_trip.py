"""BibTeX → library → BibTeX: papershelf's own importer reads an export back to the same fields,
and a second export of what it read is the first one again (issue 13's round trip).

Runs once `storage/ingest/bibtex.py` (the importer, written on another branch) is in the tree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.storage.export.bibtex import to_bibtex
from papershelf.storage.export.citekeys import year_of
from papershelf.storage.ingest.parse import read_file
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.text.authors import family_name
from papershelf.storage.text.clean import clean_line

ingest = pytest.importorskip("papershelf.storage.ingest.bibtex")

RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "record_fields.jsonl"
HOSTILE = Paper(
    id="f" * 12,
    name="Hostile",
    title="R&D 100% $5 #1 a_b ~ ^ \\x {a} } { -- ``q'' $\\alpha$ Müller {BERT}",
    abstract="Braces { and } alone, \\emph{x} as typed, $x^{2}$ as math, 50% off & more.",
    venue="ICML 2024",
    sources=("t.jsonl",),
    authors=("Simon and Schuster", "Lee, Ann", "\\relax Bob", "Jörg Müller"),
    extra=(("pages", "1--10"), ("publisher", "A & B")),
)


def import_bib(text: str) -> list[Paper]:
    result = ingest.parse_bibtex(text, "export.bib", None, "2026-01-01T00:00:00Z")
    return list(result.papers)


def test_an_export_imports_back_to_the_same_fields() -> None:
    papers = [*read_file(RECORDS).papers, HOSTILE]
    back = {paper.title: paper for paper in import_bib(to_bibtex(papers))}
    assert len(back) == len(papers)
    for paper in papers:
        got = back[clean_line(paper.title or paper.name)]
        assert got.abstract == clean_line(paper.abstract)
        # The importer writes names given name first; the family names are the same.
        assert [family_name(a) for a in got.authors] == [family_name(a) for a in paper.authors]
        assert (got.year, got.venue) == (year_of(paper), paper.venue)
        assert (got.doi, got.arxiv_id, got.url) == (paper.doi, paper.arxiv_id, paper.url)
        assert got.extra == paper.extra


def test_a_second_export_of_the_imported_papers_is_the_first() -> None:
    first = to_bibtex(import_bib(to_bibtex([*read_file(RECORDS).papers, HOSTILE])))
    assert to_bibtex(import_bib(first)) == first


def test_a_field_kept_as_written_comes_back_as_written(tmp_path: Path) -> None:
    """A Zotero `file` path (backslashes) or an ISBN is not LaTeX: the importer keeps it as
    written, and the export must give it back so, not grow `\\textbackslash{}` each round."""
    source = tmp_path / "a.bib"
    source.write_text(
        "@inproceedings{vaswani2017attention, title={Attention Is All You Need}, year={2017},\n"
        "  abstract={We propose the Transformer, based solely on attention.},\n"
        "  file = {C:\\Users\\x\\My Papers\\a.pdf}, isbn = {978-1-5108-6096-4}}\n",
        encoding="utf-8",
    )
    first = tmp_path / "one"
    for _ in range(2):
        library = Library.open(first, seed=False)
        library.import_files([source])
        (paper,) = library.papers()
        assert dict(paper.extra)["file"] == "C:\\Users\\x\\My Papers\\a.pdf"
        assert dict(paper.extra)["isbn"] == "978-1-5108-6096-4"
        source = tmp_path / "out.bib"
        source.write_text(to_bibtex([paper]), encoding="utf-8")
        first = tmp_path / "two"
