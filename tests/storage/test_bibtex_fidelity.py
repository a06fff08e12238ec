"""BibTeX fidelity gaps of issue 13 (found by an attacker pass): months as macros, page ranges,
DOIs with brackets and semicolons, each through import -> export -> import; undefined macros and
entries without a key, said once in the import report; author structure (corporate, von, Jr)
read back alike by bibtexparser and the real `bibtex`; caps on hostile titles and author lists."""

from __future__ import annotations

import json
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
from cli_helpers import run

from papershelf.storage.export.bibtex import to_bibtex
from papershelf.storage.ingest.bibtex import parse_bibtex
from papershelf.storage.ingest.limits import (
    MAX_AUTHORS,
    MAX_TITLE_CHARS,
    capped_authors,
    cut_at_word,
)
from papershelf.storage.ingest.parse import read_file
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import SearchEngine, field_text
from papershelf.storage.text.authors import authors_short, authors_text, family_name
from papershelf.storage.text.clean import clean_line
from papershelf.storage.text.latex_fields import field_text as latex_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bibtex"
NOW = "2026-01-01T00:00:00Z"
SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0"


def imported(text: str) -> list[Paper]:
    return list(parse_bibtex(text, "refs.bib", None, NOW).papers)


def one(text: str) -> Paper:
    (paper,) = imported(text)
    return paper


def field_lines(bib: str) -> dict[str, str]:
    """`name = value` of each field line of a one-entry export, the value as written."""
    found = {}
    for line in bib.splitlines()[1:-1]:
        name, _, value = line.strip().partition(" = ")
        found[name] = value.removesuffix(",")
    return found


@pytest.mark.parametrize("month", ["dec", "Dec", "{December}", '"December"', "12", "{Dec.}"])
def test_a_month_reads_alike_however_written_and_exports_as_the_macro(month: str) -> None:
    paper = one(f"@article{{a, title={{T}}, year=2020, month={month}}}")
    assert dict(paper.extra)["month"] == "December"
    bib = to_bibtex([paper])
    assert field_lines(bib)["month"] == "dec"
    assert one(bib).extra == paper.extra


def test_a_month_that_is_no_month_is_kept_as_text() -> None:
    paper = one("@article{a, title={T}, month={Winter}}")
    assert field_lines(to_bibtex([paper]))["month"] == "{Winter}"


@pytest.mark.parametrize(
    ("pages", "written"),
    [("{123--130}", "{123--130}"), ('"5-7"', "{5-7}"), ("{e1001}", "{e1001}"), ("12", "{12}")],
)
def test_page_ranges_come_back_as_written(pages: str, written: str) -> None:
    paper = one(f"@article{{a, title={{T}}, pages={pages}}}")
    bib = to_bibtex([paper])
    assert field_lines(bib)["pages"] == written
    again = to_bibtex(imported(bib))
    assert again == bib


@pytest.mark.parametrize(
    "doi",
    [
        SICI,
        "10.1000/abc{1}",
        "10.1000/x;y<z>",
        "10.1007/978-3-540-74958-5_{14}",
        "10.1002/(SICI)1096-8644(199808)106:4<483::AID-AJPA4>3.0.CO;2-K",
    ],
)
def test_a_doi_with_brackets_exports_as_stored_and_reads_back_the_same(doi: str) -> None:
    paper = one(f"@article{{a, title={{T}}, doi={{{doi}}}}}")
    assert paper.doi == doi.lower()
    bib = to_bibtex([paper])
    assert field_lines(bib)["doi"] == "{" + doi.lower() + "}"
    assert one(bib).doi == paper.doi


def test_a_doi_url_with_encoded_brackets_is_the_doi() -> None:
    url = "https://doi.org/" + SICI.replace("<", "%3C").replace(">", "%3E")
    assert one(f"@article{{a, title={{T}}, url={{{url}}}}}").doi == SICI.lower()


def test_a_lone_brace_in_a_doi_survives_the_round_trip() -> None:
    """BibTeX cannot hold a brace without its partner: the export writes `%7B`, read back."""
    paper = Paper(
        id="a" * 12, name="T", title="T", abstract="", venue=None, sources=(), doi="10.1000/a{b"
    )
    bib = to_bibtex([paper])
    assert field_lines(bib)["doi"] == "{10.1000/a%7Bb}"
    assert one(bib).doi == "10.1000/a{b"


def test_undefined_macros_keep_their_names_and_the_report_counts_the_entries() -> None:
    result = read_file(FIXTURES / "undefined.bib")
    venues = {paper.title: paper.venue for paper in result.papers}
    assert venues["Nets of Nets"] == "nips"
    assert venues["Graphs Without Edges"] == "International Conference on Machine Learning"
    graphs = next(paper for paper in result.papers if paper.cite_key == "chen2021graphs")
    assert dict(graphs.extra)["publisher"] == "pmlr Press"
    # One line for all of them, not one per entry.
    assert [note for note in result.notes if "macro" in note] == [
        "3 entries used undefined macros (jmlr, nips, pmlr), kept as their names"
    ]


def test_an_entry_without_a_key_gets_one_and_the_export_never_writes_an_empty_key() -> None:
    result = read_file(FIXTURES / "undefined.bib")
    keys = [paper.cite_key for paper in result.papers]
    assert keys == ["lee2020nets", "chen2021graphs", "vaswani2017attention", "keyless"]
    assert "2 entries had no citation key; made vaswani2017attention, keyless" in result.notes
    bib = to_bibtex(result.papers)
    assert "{," not in bib
    assert [paper.cite_key for paper in imported(bib)] == keys


def test_a_made_key_is_unlike_every_key_in_the_file() -> None:
    papers = imported(
        "@misc{, title = {Keyless}}\n@misc{keyless, title = {Other}}\n"
        "@misc{, title = {Keyless Again}}\n@misc{keylessa, title = {Third}}\n"
    )
    keys = [str(paper.cite_key) for paper in papers]
    assert keys == ["keylessb", "keyless", "keylessc", "keylessa"]


def test_a_file_of_good_entries_has_no_notes() -> None:
    assert read_file(FIXTURES / "zotero.bib").notes == ()


def test_cli_import_says_what_it_made_of_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "--db", tmp_path / "lib", "import", FIXTURES / "undefined.bib")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "undefined.bib: 4 added, 0 duplicates, 0 skipped",
        "undefined.bib: 2 entries had no citation key; made vaswani2017attention, keyless",
        "undefined.bib: 3 entries used undefined macros (jmlr, nips, pmlr), kept as their names",
        "4 new papers; the library holds 4 papers.",
    ]
    code, out, _ = run(capsys, "--db", tmp_path / "lib", "export", "--format", "bibtex")
    assert code == 0 and "@article{vaswani2017attention," in out and "{," not in out


# -- author structure ----------------------------------------------------------------------------

NAMES_BIB = FIXTURES / "names.bib"
BIBTEX = shutil.which("bibtex")


def parts_read(author_field: str) -> list[tuple[str, ...]]:
    """Each name of an `author` field as bibtexparser splits it: first, von, last, jr (LaTeX
    decoded, braces dropped)."""
    return [
        tuple(
            clean_line(latex_text(" ".join(words)))
            for words in (parts.first, parts.von, parts.last, parts.jr)
        )
        for person in split_multiple_persons_names(author_field)
        for parts in [parse_single_name_into_parts(person, strict=False)]
    ]


def author_field(bib: str) -> str:
    """The (first) entry's author field, as written."""
    (entry,) = bibtexparser.parse_string(bib).entries
    return entry.fields_dict["author"].value


def bibtex_parts(bib: str, folder: Path) -> list[tuple[str, ...]]:
    """The names of the (one) entry as the real `bibtex` splits them (fixtures/bibtex/names.bst)."""
    if BIBTEX is None:
        if os.environ.get("CI"):
            pytest.fail("bibtex is not installed, but CI must run the BibTeX tests")
        pytest.skip("bibtex is not installed (apt-get install texlive-binaries)")
    (folder / "refs.bib").write_text(bib, encoding="utf-8")
    shutil.copy(FIXTURES / "names.bst", folder / "names.bst")
    (folder / "job.aux").write_text("\\citation{*}\n\\bibstyle{names}\n\\bibdata{refs}\n")
    env = {**os.environ, "BSTINPUTS": ".", "BIBINPUTS": "."}
    done = subprocess.run([BIBTEX, "job"], cwd=folder, env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, (folder / "job.blg").read_text(errors="replace")
    lines = (folder / "job.bbl").read_text(encoding="utf-8").splitlines()[1:]
    return [
        tuple(" ".join(latex_text(part.replace("~", " ")).split()) for part in line.split("|"))
        for line in lines
    ]


def test_author_structure_survives_import_and_export() -> None:
    original = NAMES_BIB.read_text(encoding="utf-8")
    (paper,) = read_file(NAMES_BIB).papers
    assert paper.authors == (
        "{Google DeepMind}",
        "Laurens van der Maaten",
        "Juan de la Cruz",
        "King, Jr., Martin Luther",
        "Smith, III, John",
        "Garcia Lopez, Maria",
        "Maria de Ávila Souza",
        "Łukasz Kaiser",
        "Geoffrey E. Hinton",
        "others",
    )
    bib = to_bibtex([paper])
    assert field_lines(bib)["author"] == (
        "{{Google DeepMind} and van der Maaten, Laurens and de la Cruz, Juan and "
        "King, Jr., Martin Luther and Smith, III, John and {Garcia Lopez}, Maria and "
        "de {Ávila Souza}, Maria and Kaiser, Łukasz and Hinton, Geoffrey E. and others}"
    )
    assert parts_read(author_field(bib)) == parts_read(author_field(original))
    assert one(bib).authors == paper.authors


def test_the_real_bibtex_reads_the_exported_names_as_the_file_gave_them(tmp_path: Path) -> None:
    (paper,) = read_file(NAMES_BIB).papers
    expected = parts_read(author_field(NAMES_BIB.read_text(encoding="utf-8")))
    assert bibtex_parts(to_bibtex([paper]), tmp_path) == expected


def test_stored_names_show_and_search_as_names(tmp_path: Path) -> None:
    (paper,) = read_file(NAMES_BIB).papers
    assert authors_short(paper.authors) == "Google DeepMind, van der Maaten, … +8"
    assert [family_name(name) for name in paper.authors[:6]] == [
        "Google DeepMind",
        "van der Maaten",
        "de la Cruz",
        "King",
        "Smith",
        "Garcia Lopez",
    ]
    assert authors_text(paper.authors).startswith("Google DeepMind, Laurens van der Maaten, ")
    engine = SearchEngine([paper])
    for query in ("author:deepmind", "author:^google", 'author:"garcia lopez"', "author:maaten"):
        (hit,) = engine.search(query, {})
        text = field_text(paper, Entry(), "authors")
        assert text == authors_text(paper.authors)
        assert all(text[a:b].strip() for a, b in hit.spans["authors"])


# -- caps on hostile records ---------------------------------------------------------------------


def test_a_huge_title_and_author_list_are_capped_and_round_trip() -> None:
    title = " ".join(f"Word{n}" for n in range(1_000))  # ~6,900 characters
    names = " and ".join(f"Author{n} Person{n}" for n in range(5_000))
    paper = one(f"@article{{big, title = {{{title}}}, author = {{{names}}}, year = 2024}}")
    assert paper.title is not None and len(paper.title) <= MAX_TITLE_CHARS
    assert paper.title.endswith("…") and title.startswith(paper.title[:-1])
    assert paper.title[:-1].split(" ")[-1] in title.split(" ")  # cut at a word
    assert len(paper.authors) == MAX_AUTHORS + 1
    assert paper.authors[0] == "Author0 Person0" and paper.authors[-1] == "others"
    assert authors_short(paper.authors) == "Person0, Person1, … +499"
    again = one(to_bibtex([paper]))
    assert (again.title, again.authors) == (paper.title, paper.authors)


def test_a_json_record_is_capped_alike(tmp_path: Path) -> None:
    source = tmp_path / "list.jsonl"
    record = {
        "title": "A " * 3_000 + "title",
        "abstract": "An abstract about nothing in particular, long enough to be one.",
        "authors": [f"Ann {n}" for n in range(600)] + ["Bo " + "x" * 1_000],
    }
    source.write_text(json.dumps(record) + "\n", encoding="utf-8")
    (paper,) = read_file(source).papers
    assert paper.title is not None and len(paper.title) <= MAX_TITLE_CHARS
    assert paper.authors[-1] == "others" and len(paper.authors) == MAX_AUTHORS + 1


def test_cut_at_word_keeps_short_text_and_never_exceeds_the_limit() -> None:
    assert cut_at_word("short", 10) == "short"
    assert cut_at_word("one two three four", 10) == "one two…"
    assert cut_at_word("x" * 30, 10) == "x" * 9 + "…"
    assert capped_authors(["a"] * 3) == ("a", "a", "a")
