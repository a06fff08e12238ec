"""BibTeX import (storage/ingest/bibtex.py): the shapes Zotero, Google Scholar, DBLP, OpenReview
and JabRef write, wrong-shape files, bounded work on hostile ones, and merging with abstract lists
through the real Library and the CLI."""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from pathlib import Path

import pytest
from cli_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.bibtex import MAX_BLOCK_CHARS
from papershelf.storage.ingest.merge import record_id
from papershelf.storage.ingest.parse import MAX_ABSTRACT_CHARS, ParseResult, parse_bytes, read_file
from papershelf.storage.library.library import FileReport, Library
from papershelf.storage.model import Paper

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bibtex"
NOW = "2025-01-01T00:00:00Z"
VASWANI_ABSTRACT = (
    "The dominant sequence transduction models are based on complex recurrent or convolutional "
    "neural networks. We propose a new simple network architecture, the Transformer, based solely "
    "on attention mechanisms, dispensing with recurrence and convolutions entirely. Experiments on "
    "two machine translation tasks show these models to be superior in quality while being more "
    "parallelizable and requiring significantly less time to train."
)


def parse(text: str, name: str = "refs.bib") -> ParseResult:
    return parse_bytes(text.encode(), name, now=NOW)


def fixture(name: str) -> ParseResult:
    return read_file(FIXTURES / name)


def by_key(result: ParseResult) -> dict[str | None, Paper]:
    return {paper.cite_key: paper for paper in result.papers}


def error_of(text: str, name: str = "refs.bib") -> str:
    with pytest.raises(IngestError) as caught:
        parse(text, name)
    message = str(caught.value)
    assert "\n" not in message
    return message


# -- real-shaped files ---------------------------------------------------------------------------


def test_zotero_export_decodes_braces_accents_and_keeps_every_field() -> None:
    result = fixture("zotero.bib")
    assert (result.duplicates, result.skipped) == (0, 0)
    vaswani, muller = result.papers
    assert vaswani.title == "Attention is All you Need"
    assert vaswani.abstract == VASWANI_ABSTRACT
    assert vaswani.id == record_id(VASWANI_ABSTRACT)  # an abstract gives the id, as in lists
    assert vaswani.authors[:2] == ("Ashish Vaswani", "Noam Shazeer")
    assert "Łukasz Kaiser" in vaswani.authors and "Aidan N. Gomez" in vaswani.authors
    assert (vaswani.kind, vaswani.cite_key, vaswani.year) == (
        "inproceedings",
        "vaswani_attention_2017",
        2017,
    )
    assert vaswani.venue == (
        "Proceedings of the 31st International Conference on Neural Information Processing Systems"
    )
    assert vaswani.doi == "10.5555/3295222.3295349"
    assert (vaswani.url, vaswani.arxiv_id) == ("https://arxiv.org/abs/1706.03762", "1706.03762")
    extra = dict(vaswani.extra)
    assert [name for name, _ in vaswani.extra] == [
        "address",
        "series",
        "isbn",
        "urldate",
        "publisher",
        "month",
        "pages",
        "file",
    ]
    assert extra["series"] == "NIPS'17"
    assert extra["month"] == "December"  # the `dec` macro
    assert extra["pages"] == "6000\u20136010"
    assert extra["file"].endswith("Attention is all you need.pdf:application/pdf")

    assert muller.title == (
        "Schrödinger Bridges for Über-fast Sampling: $\\mathcal{O}(\\log n)$ steps & beyond"
    )
    assert muller.authors == ("Jörg Müller", "François René", "Tomáš Kočiský")
    assert muller.abstract.startswith("We introduce SB-Fast, a sampler that runs Schrödinger")
    assert "$\\mathcal{O}(\\log n)$ steps, 50% faster" in muller.abstract
    assert muller.name == "SB-Fast"
    assert muller.code_urls == ("https://github.com/example/sb-fast",)
    assert muller.openreview_id == "aBcD3fGh1J"
    assert dict(muller.extra)["shorttitle"] == "Schrödinger Bridges"


def test_google_scholar_entries_without_abstracts_are_kept() -> None:
    result = fixture("scholar.bib")
    papers = by_key(result)
    bert = papers["devlin2018bert"]
    assert bert.abstract == ""
    assert bert.arxiv_id == "1810.04805"  # from `journal={arXiv preprint arXiv:1810.04805}`
    assert bert.id == record_id("", ("arxiv:1810.04805",), bert.title)
    assert bert.name == "Bert"
    assert bert.authors == ("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova")
    resnet = papers["he2016deep"]
    assert resnet.id == record_id("", (), "Deep residual learning for image recognition")
    assert resnet.venue == (
        "Proceedings of the IEEE conference on computer vision and pattern recognition"
    )
    # `and others` stays BibTeX's way of saying the list goes on.
    assert papers["brown2020language"].authors[-2:] == ("Prafulla Dhariwal", "others")


def test_dblp_preprint_and_proceedings_of_one_paper_are_one_paper() -> None:
    result = fixture("dblp.bib")
    assert (len(result.papers), result.duplicates) == (1, 1)
    (bert,) = result.papers
    assert bert.title == (
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding"
    )
    assert bert.authors[1] == "Ming-Wei Chang"  # `Ming{-}Wei`
    assert bert.doi == "10.18653/v1/n19-1423"
    assert bert.arxiv_id == "1810.04805"  # from the CoRR entry, merged in
    extra = dict(bert.extra)
    assert extra["editor"] == "Jill Burstein and Christy Doran and Thamar Solorio"
    assert extra["biburl"] == "https://dblp.org/rec/conf/naacl/DevlinCLT19.bib"
    assert "volume" not in extra  # `abs/1810.04805` is the arXiv id, not a volume
    assert "eprint" not in extra and "eprinttype" not in extra


def test_openreview_export_with_the_key_on_its_own_line() -> None:
    (paper,) = fixture("openreview.bib").papers
    assert paper.cite_key == "ho2024flowlet"
    assert paper.openreview_id == "Xy7Kp2QwZr"
    assert paper.title == "FlowLet: Rectified Flows for \\emph-Free Wavelet Generation"
    assert paper.authors == ("Mei Ho", "Jonas O'Neil", "Ana de la Cruz")
    assert paper.year == 2024
    assert paper.extra == ()


def test_arxiv_and_semantic_scholar_shapes_give_the_arxiv_id() -> None:
    result = parse(
        "@misc{vaswani2023attention,\n"
        "      title={Attention Is All You Need}, \n"
        "      author={Ashish Vaswani and Noam Shazeer},\n"
        "      year={2023},\n"
        "      eprint={1706.03762v7},\n"
        "      archivePrefix={arXiv},\n"
        "      primaryClass={cs.CL},\n"
        "      url={https://arxiv.org/abs/1706.03762}, \n"
        "}\n"
        "@article{Vaswani2017AttentionIA,\n"
        "  title={Attention is All you Need},\n"
        "  author={Ashish Vaswani and Noam M. Shazeer},\n"
        "  journal={ArXiv},\n"
        "  year={2017},\n"
        "  volume={abs/1706.03762},\n"
        "}\n"
    )
    (paper,) = result.papers  # one paper: the same arXiv id (and title)
    assert result.duplicates == 1
    assert (paper.arxiv_id, paper.year, paper.cite_key) == (
        "1706.03762",
        2023,
        "vaswani2023attention",
    )
    assert paper.extra == (("primaryclass", "cs.CL"),)
    assert paper.venue == "ArXiv"


def test_strings_concatenation_months_and_blocks_that_are_not_papers() -> None:
    result = fixture("macros.bib")
    assert (len(result.papers), result.duplicates, result.skipped) == (1, 0, 1)
    (paper,) = result.papers
    assert paper.title == "Sparse Mixture-of-Experts at Scale"
    assert paper.venue == "Proceedings of the 40th International Conference on Machine Learning"
    assert result.venue == paper.venue
    assert paper.authors == ("Jane Smith", "Pieter van der Berg", "Smith, Jr., John")
    assert paper.year == 2023
    assert dict(paper.extra) == {
        "publisher": "PMLR Press",
        "month": "July 23",
        "note": "Oral, top 2%",
    }


def test_the_venue_argument_wins_and_the_field_is_kept() -> None:
    result = parse_bytes(
        (FIXTURES / "scholar.bib").read_bytes(), "scholar.bib", venue="My Reading", now=NOW
    )
    resnet = by_key(result)["he2016deep"]
    assert resnet.venue == "My Reading"
    assert dict(resnet.extra)["booktitle"].startswith("Proceedings of the IEEE")


def test_a_bib_file_is_never_one_nonsense_paper() -> None:
    # Before BibTeX import this file was one paper named `@inproceedings{vaswani_attention_2017`.
    result = fixture("zotero.bib")
    assert all(not paper.name.startswith("@") for paper in result.papers)
    assert all("@inproceedings" not in paper.abstract for paper in result.papers)


def test_year_that_is_not_a_number_stays_in_extra_and_date_gives_one() -> None:
    result = parse(
        "@misc{a, title = {One}, year = {in press}}\n"
        "@online{b, title = {Two}, date = {2021-06-12}}\n"
    )
    one, two = result.papers
    assert (one.year, dict(one.extra)) == (None, {"year": "in press"})
    assert (two.year, dict(two.extra)) == (2021, {"date": "2021-06-12"})


def test_entries_without_a_key_are_not_the_same_key() -> None:
    result = parse("@misc{, title = {One}}\n@misc{, title = {Two}}\n")
    assert [(paper.title, paper.cite_key) for paper in result.papers] == [
        ("One", "one"),
        ("Two", "two"),
    ]
    assert result.notes == ("2 entries had no citation key; made one, two",)


def test_same_paper_twice_in_one_file_is_one_paper_with_its_fields_merged() -> None:
    result = parse(
        "@article{a, title = {One Title}, doi = {10.1000/XYZ}}\n"
        "@inproceedings{b, title = {Another spelling}, doi = {https://doi.org/10.1000/xyz},"
        " abstract = {We study one thing.}}\n"
    )
    assert (len(result.papers), result.duplicates) == (1, 1)
    (paper,) = result.papers
    assert (paper.title, paper.cite_key) == ("One Title", "a")
    assert paper.abstract == "We study one thing."


# -- which files are BibTeX ------------------------------------------------------------------------


def test_content_makes_a_text_file_bibtex() -> None:
    text = "% exported by hand\n%\n\n@Article{k1, title = {From A Text File}}\n"
    (paper,) = parse(text, "refs.txt").papers
    assert (paper.title, paper.kind) == ("From A Text File", "article")


def test_a_text_file_that_mentions_bibtex_is_an_abstract_list() -> None:
    text = "We propose CiteNet, which reads entries such as @article{k, title={x}} in prose.\n"
    (paper,) = parse(text, "abstracts.txt").papers
    assert paper.abstract == text.strip()
    assert paper.kind is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Just an abstract list.\n\nWe propose X.\n", "refs.bib: holds no BibTeX entries"),
        ('[{"abstract": "We propose X."}]\n', "refs.bib: holds no BibTeX entries"),
        ("@comment{only a comment}\n@string{a = {b}}\n", "refs.bib: holds no BibTeX entries"),
        ("\n\n", "refs.bib: empty file"),
        (
            "@article{a,\n  title = {One},\n}\n\n@article{b,\n  title = {Two\n",
            "refs.bib, line 5: BibTeX block is broken: Unexpectedly reached end of file.",
        ),
        (
            "@article{a,\n  title = {One}\n\n@article{b, title = {Two}}\n",
            "refs.bib, line 1: BibTeX block is broken: Unexpected block start: `@article`.",
        ),
        (
            "@article{a, title = {One}}\n@misc{b, title = {Two}}\n@book{A, title = {Three}}\n",
            "refs.bib, line 3: citation key 'A' is used twice (first on line 1)",
        ),
        (
            "@article{k, title = {One}} @misc{K, title = {Two}}\n",
            "refs.bib, line 1: citation key 'K' is used twice (first on line 1)",
        ),
        (
            "\n@article{a, title = {One}, title = {Two}}\n",
            "refs.bib, line 2: entry 'a' gives the field title twice",
        ),
        (
            "@article{a, Title = {One}, title = {Two}}\n",
            "refs.bib, line 1: entry 'a' gives the field title twice",
        ),
        (
            "@article{a, title = {One}, abstract = {" + "x" * (MAX_ABSTRACT_CHARS + 1) + "}}",
            f"refs.bib, line 1: abstract of {MAX_ABSTRACT_CHARS + 1:,} characters is too long",
        ),
    ],
)
def test_wrong_shapes_get_one_line(text: str, message: str) -> None:
    assert error_of(text).startswith(message)


def test_an_error_names_no_control_characters() -> None:
    message = error_of("@article{a\x1b[31m, title = {One}, title = {Two}}\n")
    assert "\x1b" not in message


# -- bounded work ----------------------------------------------------------------------------------


def test_a_64_mb_one_entry_file_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "huge.bib"
    size = 64 * 1024 * 1024 - 100
    body = "@article{huge,\n  abstract = {" + "word, " * (size // 6) + "}\n}\n"
    path.write_text(body)
    started = time.perf_counter()
    with pytest.raises(IngestError) as caught:
        read_file(path)
    assert time.perf_counter() - started < 10.0
    assert str(caught.value).startswith("huge.bib, line 1: a BibTeX block of ")
    assert f"(the limit is {MAX_BLOCK_CHARS:,})" in str(caught.value)


def test_text_after_the_last_entry_is_bounded_too() -> None:
    message = error_of("@misc{a, title = {One}}\n" + "prose " * (MAX_BLOCK_CHARS // 5))
    assert message.startswith("refs.bib, line 1: a BibTeX block of ")


@pytest.mark.parametrize(
    "title",
    [
        "{" * 40_000 + "Deep" + "}" * 40_000,
        "\\(" * 40_000,
        '\\"' * 40_000,
        "$" + "\\$" * 40_000,
        "\\href" * 30_000,
    ],
    ids=["nested-braces", "open-parens", "accents-without-letters", "unclosed-math", "hrefs"],
)
def test_pathological_fields_parse_quickly(title: str) -> None:
    text = "@misc{a, title = {" + title + "}}\n"
    started = time.perf_counter()
    with contextlib.suppress(IngestError):
        parse(text)  # refused is fine: not hanging, and no other exception, is the point
    assert time.perf_counter() - started < 5.0


def test_nested_braces_are_stripped_whatever_their_depth() -> None:
    (paper,) = parse("@misc{a, title = {" + "{" * 5_000 + "Deep" + "}" * 5_000 + "}}").papers
    assert paper.title == "Deep"


# -- merging with abstract lists, through the Library ---------------------------------------------


def test_bib_and_abstract_list_of_one_paper_are_one_paper_with_both_sources(tmp_path: Path) -> None:
    listing = tmp_path / "neurips.txt"
    listing.write_text("NeurIPS 2017 Papers\n\n" + VASWANI_ABSTRACT + "\n")
    scholar = tmp_path / "records.jsonl"
    scholar.write_text(
        json.dumps(
            {
                "title": "Deep Residual Learning for Image Recognition",
                "abstract": "We present a residual learning framework to ease the training of "
                "networks that are substantially deeper than those used previously.",
            }
        )
        + "\n"
    )
    library = Library.open(tmp_path / "lib", seed=False)
    assert library.import_files([listing, scholar]) == [
        FileReport("neurips.txt", added=1),
        FileReport("records.jsonl", added=1),
    ]
    stored = {paper.title or paper.name: paper.id for paper in library.papers()}
    reports = library.import_files([FIXTURES / "zotero.bib", FIXTURES / "scholar.bib"])
    assert reports == [
        FileReport("zotero.bib", added=1, duplicates=1),
        FileReport("scholar.bib", added=2, duplicates=1),
    ]
    assert len(library.papers()) == 5
    vaswani = next(p for p in library.papers() if p.abstract == VASWANI_ABSTRACT)
    assert vaswani.sources == ("neurips.txt", "zotero.bib")
    assert (vaswani.title, vaswani.doi, vaswani.cite_key) == (
        "Attention is All you Need",
        "10.5555/3295222.3295349",
        "vaswani_attention_2017",
    )
    # The abstract-less Scholar entry matched the JSON record by title and kept its id.
    resnet = library.get(stored["Deep Residual Learning for Image Recognition"])
    assert resnet.sources == ("records.jsonl", "scholar.bib")
    assert (resnet.cite_key, resnet.year) == ("he2016deep", 2016)
    # Importing the files again changes nothing.
    again = library.import_files([FIXTURES / "zotero.bib", FIXTURES / "scholar.bib"])
    assert [report.added for report in again] == [0, 0]


def test_an_abstract_list_later_gives_a_title_only_entry_its_abstract(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    bib = tmp_path / "refs.bib"
    bib.write_text("@inproceedings{v17, title = {Attention is {All} you {Need}}, year = 2017}\n")
    (report,) = library.import_files([bib])
    assert report == FileReport("refs.bib", added=1)
    (before,) = library.papers()
    records = tmp_path / "list.jsonl"
    records.write_text(
        json.dumps({"title": "Attention Is All You Need", "abstract": VASWANI_ABSTRACT}) + "\n"
    )
    assert library.import_files([records]) == [FileReport("list.jsonl", duplicates=1)]
    (after,) = library.papers()
    assert after.id == before.id  # tags and notes stay with it
    assert (after.abstract, after.year, after.cite_key) == (VASWANI_ABSTRACT, 2017, "v17")
    assert after.sources == ("refs.bib", "list.jsonl")


# -- the command ---------------------------------------------------------------------------------


def test_cli_import_of_bib_files_reports_counts(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "notes.bib"
    bad.write_text("Some notes, not BibTeX.\n")
    code, out, err = run(
        capsys,
        "--db",
        tmp_path / "lib",
        "import",
        FIXTURES / "zotero.bib",
        FIXTURES / "dblp.bib",
        FIXTURES / "macros.bib",
        bad,
    )
    assert code == 1  # one file failed
    assert out.splitlines() == [
        "zotero.bib: 2 added, 0 duplicates, 0 skipped",
        "dblp.bib: 1 added, 1 duplicates, 0 skipped",
        "macros.bib: 1 added, 0 duplicates, 1 skipped",
        "4 new papers; the library holds 4 papers.",
    ]
    assert err.strip() == (
        "papershelf: notes.bib: holds no BibTeX entries (no @article{...}, @misc{...}, ...)"
    )
    code, out, _ = run(capsys, "--db", tmp_path / "lib", "show", "SB-Fast")
    assert code == 0
    assert "Jörg Müller, François René, Tomáš Kočiský" in out


# -- properties ------------------------------------------------------------------------------------

BIB_PIECES = st.sampled_from(
    [
        "@article{",
        "@string{x = ",
        "@comment{",
        "@preamble{",
        "k1,",
        " title = ",
        " author = ",
        " abstract = ",
        " year = ",
        " doi = ",
        "{",
        "}",
        '"',
        " # ",
        ",",
        "=",
        "\n",
        "\\",
        '{\\"u}',
        "$x^2$",
        "jan",
        "10.1000/x",
        " and ",
        "%",
        "@",
        "(",
        ")",
    ]
)
BIBLIKE = st.lists(st.one_of(BIB_PIECES, st.text(max_size=12)), max_size=30).map("".join)


@settings(max_examples=300, deadline=None)
@given(BIBLIKE)
def test_any_text_parses_as_bibtex_or_raises_ingest_error(text: str) -> None:
    try:
        result = parse(text)
    except IngestError as error:
        assert str(error).startswith("refs.bib")
        assert "\n" not in str(error)
        return
    ids = [paper.id for paper in result.papers]
    assert len(ids) == len(set(ids))
    for paper in result.papers:
        assert paper.name.strip()
        assert paper.title or paper.abstract or paper.identifiers
        assert all(text.isprintable() for text in (paper.name, *paper.authors))


ENTRY_TEXT = st.lists(
    st.sampled_from(
        [
            "@misc{k1, title = {Deep Nets}}\n",
            "@misc{k2, title = {Deep nets}, abstract = {We propose DeepNet.}}\n",
            "@misc{k3, abstract = {We propose DeepNet.}, doi = {10.1000/a}}\n",
            "@misc{k4, title = {Other}, doi = {10.1000/A}, eprint = {2501.01234},"
            " archiveprefix = {arXiv}}\n",
            "@article{k5, journal = {arXiv preprint arXiv:2501.01234}, title = {Deep Nets}}\n",
            "@misc{k6, title = {Wide Nets}, abstract = {We propose WideNet.}}\n",
            "@misc{k7, url = {https://openreview.net/forum?id=abcdef123}}\n",
        ]
    ),
    min_size=1,
    max_size=6,
    unique=True,
).map("".join)


@settings(max_examples=40, deadline=None)
@given(st.one_of(BIBLIKE, ENTRY_TEXT))
def test_a_second_import_of_any_bib_changes_nothing(text: str) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "fuzz.bib"
        path.write_text(text)
        library = Library.open(Path(directory) / "lib", seed=False)
        (first,) = library.import_files([path])
        if first.error is not None:
            assert first.error.startswith("fuzz.bib") and "\n" not in first.error
            assert library.papers() == ()
            return
        assert first.added == len(library.papers())
        papers = library.papers()
        (again,) = library.import_files([path])
        assert again == FileReport(
            "fuzz.bib", duplicates=first.added + first.duplicates, skipped=first.skipped
        )
        assert library.papers() == papers


WORDS = st.text(
    alphabet=st.sampled_from(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüłçÅß0123456789"
    ),
    min_size=1,
    max_size=10,
)
NAME_WORDS = WORDS.filter(lambda word: word.casefold() != "and")
PHRASES = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
ENTRIES = st.fixed_dictionaries(
    {
        "title": PHRASES,
        "abstract": PHRASES.map(lambda text: f"We propose {text}."),
        # BibTeX reads a bare `and` (any case) between names as the separator, so a name part
        # `AND` cannot be written unbraced; papershelf then keeps `AND, 0` so that it reads back.
        "authors": st.lists(st.tuples(NAME_WORDS, NAME_WORDS), min_size=1, max_size=4),
        "year": st.integers(min_value=1900, max_value=2100),
        "pages": st.tuples(st.integers(1, 999), st.integers(1, 999)),
    }
)


@settings(max_examples=60, deadline=None)
@given(st.lists(ENTRIES, min_size=1, max_size=5, unique_by=lambda entry: entry["abstract"].lower()))
def test_entries_written_by_bibtexparser_read_back_with_the_same_fields(entries: list) -> None:
    from bibtexparser import Library as BibLibrary
    from bibtexparser import model, write_string

    bib = BibLibrary()
    for number, entry in enumerate(entries):
        people = " and ".join(f"{last}, {first}" for first, last in entry["authors"])
        fields = [
            model.Field("title", entry["title"]),
            model.Field("author", people),
            model.Field("abstract", entry["abstract"]),
            model.Field("year", str(entry["year"])),
            model.Field("pages", "{}--{}".format(*entry["pages"])),
        ]
        bib.add(model.Entry("inproceedings", f"key{number}", fields))
    result = parse(write_string(bib))
    assert len(result.papers) == len(entries)
    for number, (paper, entry) in enumerate(zip(result.papers, entries, strict=True)):
        assert paper.title == entry["title"]
        assert paper.abstract == entry["abstract"]
        assert paper.authors == tuple(f"{first} {last}" for first, last in entry["authors"])
        assert paper.year == entry["year"]
        assert (paper.kind, paper.cite_key) == ("inproceedings", f"key{number}")
        assert paper.extra == (("pages", "{}\u2013{}".format(*entry["pages"])),)


def test_a_title_only_entry_that_gained_an_abstract_is_found_by_that_abstract(
    tmp_path: Path,
) -> None:
    # merge.MatchIndex once indexed a paper's abstract only when it had identifiers: a title-only
    # entry (id from its title) that took its abstract from a JSON record was not found by that
    # abstract, and the same abstract in a plain list became a second paper.
    library = Library.open(tmp_path / "lib", seed=False)
    bib = tmp_path / "refs.bib"
    bib.write_text("@inproceedings{v17, title = {Attention is {All} you {Need}}}\n")
    records = tmp_path / "list.jsonl"
    records.write_text(
        json.dumps({"title": "Attention Is All You Need", "abstract": VASWANI_ABSTRACT}) + "\n"
    )
    listing = tmp_path / "neurips.txt"
    listing.write_text("NeurIPS 2017 Papers\n\n" + VASWANI_ABSTRACT + "\n")
    assert library.import_files([bib, records]) == [
        FileReport("refs.bib", added=1),
        FileReport("list.jsonl", duplicates=1),
    ]
    assert library.import_files([listing]) == [FileReport("neurips.txt", duplicates=1)]
    (paper,) = library.papers()
    assert paper.sources == ("refs.bib", "list.jsonl", "neurips.txt")
    # The same within one file.
    both = parse(
        "@misc{a, title = {Only A Title}}\n"
        "@misc{b, title = {Only a title}, abstract = {We study one thing.}}\n"
        "@misc{c, abstract = {We study one thing.}}\n"
    )
    assert (len(both.papers), both.duplicates) == (1, 2)


def test_a_dblp_doi_given_as_the_url_is_the_paper_doi_and_its_arxiv_id(tmp_path: Path) -> None:
    """DBLP writes arXiv's DOI as the url; `show` finds the paper by that DOI or the id."""
    source = tmp_path / "dblp.bib"
    source.write_text(
        "@article{DBLP:journals/corr/abs-2401-00001,\n"
        "  title = {Some Preprint},\n  journal = {CoRR},\n  year = {2024},\n"
        "  url = {https://doi.org/10.48550/arXiv.2401.00001}\n}\n",
        encoding="utf-8",
    )
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files([source])
    (paper,) = library.papers()
    assert paper.doi == "10.48550/arxiv.2401.00001" and paper.arxiv_id == "2401.00001"
    for ref in (
        "10.48550/arXiv.2401.00001",
        "arXiv:2401.00001",
        "https://doi.org/10.48550/arXiv.2401.00001",
    ):
        assert library.find(ref).id == paper.id


CROSSREF_BIB = """@inproceedings{DBLP:conf/icml/Child20,
  author = {J{\\"o}rg M{\\"u}ller},
  title = {Child Paper},
  crossref = {DBLP:conf/icml/2020},
  abstract = {A paper whose venue and year live in its proceedings entry, as DBLP writes.},
}
@inproceedings{sibling,
  title = {Sibling Paper},
  booktitle = {Its Own Booktitle},
  year = {2019},
  crossref = {dblp:conf/icml/2020},
  doi = {10.1000/sibling},
}
@inproceedings{orphan,
  title = {Orphan Paper},
  crossref = {nowhere},
}
@proceedings{DBLP:conf/icml/2020,
  title = {Proceedings of the 37th International Conference on Machine Learning},
  year = {2020},
  publisher = {PMLR},
  doi = {10.1000/proceedings},
  url = {https://proceedings.mlr.press/v119/},
}
"""


def test_crossref_children_inherit_venue_and_year_but_not_identifiers() -> None:
    """Found by attack13: a DBLP crossref child came in with no venue and no year. As BibTeX
    does, a field the child lacks comes from its parent (the parent's title as booktitle, as
    biblatex does), the parent's DOI and URL never: two children would merge as one paper."""
    papers = {paper.cite_key: paper for paper in parse(CROSSREF_BIB).papers}
    child = papers["DBLP:conf/icml/Child20"]
    assert child.venue == "Proceedings of the 37th International Conference on Machine Learning"
    assert child.year == 2020
    assert child.doi is None and child.url is None
    assert dict(child.extra).get("publisher") == "PMLR"
    assert "crossref" not in dict(child.extra)  # resolved: an export must not cite a volume
    sibling = papers["sibling"]  # its own fields win; the key matches ignoring case
    assert (sibling.venue, sibling.year, sibling.doi) == (
        "Its Own Booktitle",
        2019,
        "10.1000/sibling",
    )
    assert dict(sibling.extra).get("publisher") == "PMLR"
    orphan = papers["orphan"]  # a crossref to no entry is kept as written
    assert orphan.venue is None and dict(orphan.extra).get("crossref") == "nowhere"


def test_a_proceedings_volume_its_papers_cite_is_no_paper_of_its_own() -> None:
    """Found by attack13: the `@proceedings` parent of DBLP crossref children came in as a
    title-only paper named after the volume. It is where its children appeared: not imported,
    not counted as skipped. A `@proceedings` entry nothing cites stays a paper."""
    result = parse(CROSSREF_BIB)
    assert "DBLP:conf/icml/2020" not in {paper.cite_key for paper in result.papers}
    assert len(result.papers) == 3 and result.skipped == 0
    alone = CROSSREF_BIB.split("@proceedings", 1)[1]
    assert [paper.cite_key for paper in parse("@proceedings" + alone).papers] == [
        "DBLP:conf/icml/2020"
    ]
