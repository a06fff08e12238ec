"""BibTeX → library → BibTeX: papershelf's own importer reads an export back to the same fields,
and a second export of what it read is the first one again (issue 13's round trip).

Runs once `storage/ingest/bibtex.py` (the importer, written on another branch) is in the tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.export.bibtex import to_bibtex
from papershelf.storage.export.bibtex_text import kept_whole
from papershelf.storage.export.citekeys import year_of
from papershelf.storage.ingest.bibtex_record import month_macro
from papershelf.storage.ingest.parse import read_file
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.text.authors import display_name, family_name
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.latex_fields import field_text

ingest = pytest.importorskip("papershelf.storage.ingest.bibtex")

BIBTEX = shutil.which("bibtex")
BST = Path(__file__).resolve().parent.parent / "fixtures" / "bibtex" / "names.bst"
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
        # The importer writes names given name first; the family names are the same. A name
        # the export braced whole (`{Simon and Schuster}`) is one name, shown as it was.
        assert len(got.authors) == len(paper.authors)
        for back_name, name in zip(got.authors, paper.authors, strict=True):
            if kept_whole(name):
                assert display_name(back_name) == clean_line(name)
            else:
                assert family_name(back_name) == family_name(name)
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


# -- BibTeX -> library -> BibTeX for what BibTeX gives structure: names, months, pages -----------

GIVEN = ["Ashish", "Laurens", "Émile", "Łukasz", "Mary", "J.", "Jean-Luc", "Zoë"]
VON = ["van", "der", "de", "la", "von", "di", "du"]
FAMILY = ["Vaswani", "Maaten", "Cruz", "Ávila", "Souza", "García", "O'Neil", "Müller", "Lopez"]
SUFFIX = ["Jr.", "Sr.", "III", "II"]
MONTH_FORMS = ["jan", "feb", "Mar", "{April}", "{May}", '"June"', "7", "{08}", "{Sept.}", "oct"]
MONTH_FORMS += ["nov", "dec", "{Winter}", '"Spring 2021"']


@st.composite
def written_name(draw: st.DrawFn) -> str:
    """A name as a .bib file writes it: `First von Last`, `von Last, First`, `von Last, Jr,
    First`, or a corporate name braced whole."""
    words = st.lists
    last = draw(words(st.sampled_from(FAMILY), min_size=1, max_size=2))
    if len(last) > 1 and draw(st.booleans()):
        return "{" + " ".join(last) + "}"
    first = draw(words(st.sampled_from(GIVEN), min_size=1, max_size=2))
    von = draw(words(st.sampled_from(VON), max_size=2))
    suffix = draw(st.none() | st.sampled_from(SUFFIX))
    head = " ".join([*von, *last])
    if suffix is not None:
        return f"{head}, {suffix}, {' '.join(first)}"
    if draw(st.booleans()):
        return f"{head}, {' '.join(first)}"
    return " ".join([*first, *von, *last])


def name_reading(author_field: str) -> list[tuple[str, ...]]:
    """Each name of an `author` field as bibtexparser splits it (parts decoded, braces gone)."""
    found = []
    for person in split_multiple_persons_names(author_field):
        parts = parse_single_name_into_parts(person, strict=False)
        words = (parts.first, parts.von, parts.last, parts.jr)
        found.append(tuple(clean_line(field_text(" ".join(part))) for part in words))
    return found


def entry_fields(bib: str) -> dict[str, str]:
    """The one entry's fields as written (enclosing braces and quotes kept)."""
    (entry,) = bibtexparser.parse_string(bib, parse_stack=[]).entries
    return {field.key: field.value for field in entry.fields}


@given(
    names=st.lists(written_name(), min_size=1, max_size=6),
    month=st.sampled_from(MONTH_FORMS),
    pages=st.sampled_from(["123--130", "5-7", "e1001", "12--", "iv--xii", "3"]),
)
@settings(max_examples=80, deadline=None)
def test_names_months_and_pages_come_back_the_same(names: list[str], month: str, pages: str):
    written = (
        f"@article{{k, title = {{T}}, author = {{{' and '.join(names)}}},\n"
        f"  month = {month}, pages = {{{pages}}}}}\n"
    )
    (paper,) = import_bib(written)
    exported = to_bibtex([paper])
    before, after = entry_fields(written), entry_fields(exported)
    assert name_reading(after["author"][1:-1]) == name_reading(before["author"][1:-1])
    assert after["pages"] == "{" + pages + "}"
    macro = month_macro(field_text(before["month"].strip('{}"')))
    assert after["month"] == (macro or "{" + before["month"].strip('{}"') + "}")
    (again,) = import_bib(exported)
    assert again.authors == paper.authors and again.extra == paper.extra
    assert to_bibtex([again]) == exported


@given(names=st.lists(written_name(), min_size=1, max_size=6))
@settings(max_examples=25, deadline=None)
def test_the_real_bibtex_reads_exported_names_as_the_file_gave_them(
    tmp_path_factory: pytest.TempPathFactory, names: list[str]
) -> None:
    """`bibtex` itself (not only bibtexparser) splits each exported name into the parts
    bibtexparser read from the file (`bibtex` reads `Émile Borel` as a von part, `Émile`: the
    export's `Borel, Émile` is read alike by both)."""
    if BIBTEX is None:
        if os.environ.get("CI"):
            pytest.fail("bibtex is not installed, but CI must run the BibTeX tests")
        pytest.skip("bibtex is not installed (apt-get install texlive-binaries)")
    (paper,) = import_bib(f"@article{{k, title = {{T}}, author = {{{' and '.join(names)}}}}}\n")
    folder = tmp_path_factory.mktemp("names")
    (folder / "refs.bib").write_text(to_bibtex([paper]), encoding="utf-8")
    shutil.copy(BST, folder / "names.bst")
    (folder / "job.aux").write_text("\\citation{*}\n\\bibstyle{names}\n\\bibdata{refs}\n")
    env = {**os.environ, "BSTINPUTS": ".", "BIBINPUTS": "."}
    done = subprocess.run([BIBTEX, "job"], cwd=folder, env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, (folder / "job.blg").read_text(errors="replace")
    lines = (folder / "job.bbl").read_text(encoding="utf-8").splitlines()[1:]
    read = [
        tuple(" ".join(field_text(p.replace("~", " ")).split()) for p in line.split("|"))
        for line in lines
    ]
    assert read == name_reading(" and ".join(names))


HOSTILE_NAME = st.lists(
    st.sampled_from(
        [
            *"abcXYZéÉłŁøØæ'-. ,{}\\&~%_^$",
            *("van ", "de ", "Jr.", " and ", "III", "others", '{\\"o}', "$x$", "\\&", "\\relax "),
        ]
    ),
    min_size=1,
    max_size=12,
).map("".join)


@given(HOSTILE_NAME)
@example(",}É")  # found by fuzzing: a name starting with a comma, braced on the first round
@example("Ø' and  &")  # `\& and`: bibtexparser does not split after a backslash
@example("é_ø,&}")  # a corporate name holding a comma
@settings(max_examples=200, deadline=None)
def test_any_author_text_is_a_fixpoint_from_the_second_export(name: str) -> None:
    """Whatever a `.bib` writes as a name, importing the export of what was read and exporting
    again changes nothing: no name splits, merges or loses its braces on a later round."""
    written = f"@article{{k, title = {{T}}, author = {{{name} and Ann Lee}}}}\n"
    try:
        (paper,) = import_bib(written)
    except IngestError:  # a file that is not BibTeX: another test's business
        return
    second = to_bibtex(import_bib(to_bibtex([paper])))
    (again,) = import_bib(second)
    assert to_bibtex([again]) == second
