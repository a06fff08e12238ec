"""Records of one paper from several sources become one paper, under the id it was first stored as.

Through the real Library: papers are imported with `import_papers` (what every importer and
`papershelf add` hand over) and read back from a reopened library.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.ingest.merge import (
    MatchIndex,
    contradicts,
    merge_papers,
    record_id,
    title_key,
    unique_id,
)
from papershelf.storage.ingest.paragraphs import paper_id
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper

ABSTRACT = "We propose Falcon, a scalable planner for long-horizon tasks."


def _paper(
    abstract: str = "",
    *,
    title: str | None = None,
    source: str = "a.txt",
    **fields: object,
) -> Paper:
    identifiers = [
        f"{scheme}:{fields[name]}"
        for scheme, name in (("doi", "doi"), ("arxiv", "arxiv_id"), ("openreview", "openreview_id"))
        if fields.get(name)
    ]
    paper = Paper(
        id=record_id(abstract, identifiers, title),
        name=title or "x",
        title=title,
        abstract=abstract,
        venue=None,
        sources=(source,),
    )
    return replace(paper, **fields)  # type: ignore[arg-type]


def _library(tmp_path: Path) -> Library:
    return Library.open(tmp_path / "lib", seed=False)


def _stored(tmp_path: Path) -> list[Paper]:
    return list(Library.open(tmp_path / "lib", seed=False, read_only=True).papers())


def test_a_record_id_comes_from_the_abstract_then_an_identifier_then_the_title() -> None:
    assert record_id(ABSTRACT, ["doi:10.1/x"], "T") == paper_id(ABSTRACT)
    by_doi = record_id("", ["doi:10.1/x"], "T")
    assert by_doi == record_id("", ["doi:10.1/x"], "Another title")
    assert by_doi != record_id("", ["doi:10.1/y"], "T")
    assert record_id("", [], "{BERT}: Pre-training") == record_id("", [], "BERT: pre-training")
    assert record_id("", [], "") == record_id("", [], "?!") == ""


def test_an_abstract_list_and_a_bib_entry_with_its_abstract_are_one_paper(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.import_papers([_paper(ABSTRACT)])
    bib = _paper(ABSTRACT, title="Falcon", source="refs.bib", doi="10.1/falcon", year=2025)
    report = library.import_papers([bib])
    assert (report.added, report.duplicates) == (0, 1)
    (paper,) = _stored(tmp_path)
    assert paper.id == paper_id(ABSTRACT)
    assert paper.sources == ("a.txt", "refs.bib")
    assert (paper.doi, paper.year, paper.title) == ("10.1/falcon", 2025, "Falcon")


def test_a_title_only_entry_gains_its_abstract_and_keeps_its_id(tmp_path: Path) -> None:
    library = _library(tmp_path)
    first = _paper(title="Falcon: Planning", source="refs.bib", arxiv_id="2501.01234")
    library.import_papers([first])
    library.tag([first.id], add=["to-read"])
    # The same paper from an arXiv feed: now with its abstract, matched by the arXiv id.
    feed = _paper(ABSTRACT, title="Falcon: Planning", source="feed.xml", arxiv_id="2501.01234")
    library.import_papers([feed])
    (paper,) = _stored(tmp_path)
    assert paper.id == first.id and paper.abstract == ABSTRACT
    assert paper.sources == ("refs.bib", "feed.xml")
    assert Library.open(tmp_path / "lib", seed=False).entry(first.id).tags == {"to-read"}
    # And the abstract alone (a plain abstract list) still finds it.
    report = library.import_papers([_paper(ABSTRACT, source="list.txt")])
    assert (report.added, report.duplicates) == (0, 1)
    assert len(_stored(tmp_path)) == 1


def test_a_title_alone_joins_only_when_one_side_has_no_abstract(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.import_papers([_paper(ABSTRACT, title="Attention Is All You Need")])
    other = "A different study that happens to share the famous title."
    library.import_papers([_paper(other, title="Attention is all you need")])
    assert len(_stored(tmp_path)) == 2
    report = library.import_papers([_paper(title="{Attention} Is All You Need", source="b.bib")])
    assert (report.added, report.duplicates) == (0, 1)
    assert len(_stored(tmp_path)) == 2


def test_different_identifiers_are_different_papers(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.import_papers(
        [_paper(title="Survey", doi="10.1/a"), _paper(title="Survey 2", doi="10.1/b")]
    )
    assert sorted(paper.doi or "" for paper in _stored(tmp_path)) == ["10.1/a", "10.1/b"]


def test_merge_keeps_the_first_value_and_unites_lists() -> None:
    old = _paper(title="T", doi="10.1/a", extra=(("pages", "1--9"),), authors=("A",))
    new = _paper(
        ABSTRACT, title="U", doi="10.1/b", year=2024, extra=(("pages", "2"), ("volume", "3"))
    )
    merged = merge_papers(old, new)
    assert (merged.id, merged.title, merged.doi, merged.year) == (old.id, "T", "10.1/a", 2024)
    assert merged.extra == (("pages", "1--9"), ("volume", "3"))
    assert merged.abstract == ABSTRACT and merged.authors == ("A",)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", ABSTRACT, "Another abstract entirely."]),
            st.sampled_from([None, "Title one", "Title two"]),
            st.sampled_from([None, "10.1/a", "10.1/b"]),
        ),
        max_size=8,
    )
)
def test_a_matched_record_always_lands_on_a_stored_paper(records: list) -> None:
    """Whatever arrives, in whatever order: each record is new or merges into a stored paper,
    and a record with an abstract or an identifier is findable again afterwards."""
    papers: dict[str, Paper] = {}
    index = MatchIndex(papers)
    for abstract, title, doi in records:
        paper = _paper(abstract, title=title, doi=doi)
        if not paper.id:
            continue
        found = index.find(paper)
        if found is None:
            assert paper.id not in papers
            papers[paper.id] = paper
        else:
            assert found in papers
            papers[found] = merge_papers(papers[found], paper)
        index.added(papers[found or paper.id])
        again = index.find(paper)
        assert again is not None and again in papers


def test_title_key_folds_case_braces_and_punctuation() -> None:
    assert title_key("{BERT}: Pre-Training of Deep") == title_key("bert pre training of deep")


def test_find_takes_an_identifier_or_the_imported_citation_key(tmp_path: Path) -> None:
    library = _library(tmp_path)
    falcon = _paper(
        ABSTRACT,
        title="Falcon",
        arxiv_id="2501.01234",
        doi="10.1234/falcon",
        cite_key="lee2025falcon",
    )
    other = _paper(title="Other", doi="10.1234/other")
    library.import_papers([falcon, other])
    for ref in (
        "arXiv:2501.01234v2",
        "https://arxiv.org/abs/2501.01234",
        "https://doi.org/10.1234/FALCON",
        "lee2025falcon",
    ):
        assert library.find(ref).id == falcon.id
    assert library.find("10.1234/other").id == other.id


@settings(max_examples=120, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", ABSTRACT, "Another abstract entirely."]),
            st.sampled_from([None, "Title one", "Title  ONE", "Title two"]),
            st.sampled_from([None, "10.1/a", "10.1/b"]),
            st.sampled_from([None, 2020, 2021]),
        ),
        max_size=10,
    )
)
def test_an_index_kept_up_to_date_answers_as_one_built_afresh(records: list) -> None:
    """The index remembers the last record's keys and skips the title look-up while every
    paper has an abstract: it finds what an index built from the same papers finds, and a
    record it calls new shares its title with no paper it could join (no abstract, nothing
    contradicting)."""
    papers: dict[str, Paper] = {}
    index = MatchIndex(papers)
    for abstract, title, doi, year in records:
        paper = _paper(abstract, title=title, doi=doi, year=year)
        if not paper.id:
            continue
        found = index.find(paper)
        assert found == MatchIndex(dict(papers)).find(paper)
        if found is None and paper.abstract and paper.title:
            assert not any(
                stored.title
                and title_key(stored.title) == title_key(paper.title)
                and not stored.abstract
                and not contradicts(stored, paper)
                for stored in papers.values()
            )
        # As `parse.Collector` keeps them: a new record under an id no paper holds.
        stored = unique_id(paper, papers) if found is None else merge_papers(papers[found], paper)
        papers[stored.id] = stored
        index.added(stored)


def test_the_keys_remembered_are_the_same_record_s_not_an_equal_one_s() -> None:
    """`find` then `added` of another record: the index files the other record's keys."""
    papers: dict[str, Paper] = {}
    index = MatchIndex(papers)
    first = _paper(title="Falcon", doi="10.1/a")
    assert index.find(first) is None
    other = _paper(title="Falcon", doi="10.1/b")
    papers[other.id] = other
    index.added(other)
    # Records whose ids are their abstract's: found by identifier alone.
    assert index.find(_paper(ABSTRACT, title="Other", doi="10.1/b")) == other.id
    assert index.find(_paper(ABSTRACT, title="Other", doi="10.1/a")) is None
