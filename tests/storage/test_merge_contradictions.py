"""A shared title joins two records only when nothing else they give contradicts it.

Two workshop papers called "Introduction", or two `.bib` entries of one title with different
DOIs, years or first authors, are two papers (an attacker pass found them merged into one).
Through the real Library (`import_papers`, what every importer hands over) and the real
`MatchIndex`.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.ingest.merge import MatchIndex, contradicts, merge_papers, record_id
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper

ABSTRACT = "We propose Falcon, a scalable planner for long-horizon tasks."
TITLE = "Falcon: Planning at Scale"


def record(abstract: str = "", *, title: str | None = TITLE, **fields: object) -> Paper:
    """A record as an importer makes it: its id from the abstract, else an identifier, else
    the title (`merge.record_id`)."""
    paper = replace(
        Paper(id="", name=title or "x", title=title, abstract=abstract, venue=None, sources=()),
        **fields,  # type: ignore[arg-type]
    )
    return replace(paper, id=record_id(abstract, paper.identifiers, title))


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"doi": "10.1/a"}, {"doi": "10.1/b"}),
        ({"arxiv_id": "2501.01234"}, {"arxiv_id": "2501.09999"}),
        ({"openreview_id": "abc"}, {"openreview_id": "xyz"}),
        ({"year": 2023}, {"year": 2024}),
        ({"year": 2024, "arxiv_id": "2401.00001"}, {"year": 2023}),  # a preprint comes first
        ({"authors": ("Ada Lovelace",)}, {"authors": ("Grace Hopper",)}),
        ({"authors": ("Lovelace, Ada", "B")}, {"authors": ("Hopper, Grace", "B")}),
    ],
)
def test_same_title_with_a_contradiction_is_two_papers(
    tmp_path: Path, first: dict[str, object], second: dict[str, object]
) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([record(**first)], source="a.bib")
    report = library.import_papers([record(**second)], source="b.bib")
    assert report.added == 1
    assert len(Library.open(tmp_path / "lib", seed=False, read_only=True).papers()) == 2


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({"doi": "10.1/a"}, {"arxiv_id": "2501.01234"}),  # different schemes: no conflict
        ({"year": 2024}, {}),
        ({"authors": ("Vaswani, Ashish",)}, {"authors": ("Ashish Vaswani", "Noam Shazeer")}),
        ({"authors": ("Jürgen Müller",)}, {"authors": ("J. Muller",)}),  # accents folded
        ({"doi": "10.1/a", "year": 2024}, {"doi": "10.1/a", "year": 2024}),
        # The preprint of a later publication (DBLP's CoRR entry and the proceedings).
        ({"arxiv_id": "1810.04805", "year": 2018}, {"doi": "10.18653/v1/n19-1423", "year": 2019}),
    ],
)
def test_same_title_without_a_contradiction_is_one_paper(
    tmp_path: Path, first: dict[str, object], second: dict[str, object]
) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([record(ABSTRACT, sources=("a.jsonl",), **first)])
    report = library.import_papers([record(sources=("b.bib",), **second)])
    assert (report.added, report.duplicates) == (0, 1)
    (paper,) = Library.open(tmp_path / "lib", seed=False, read_only=True).papers()
    assert paper.sources == ("a.jsonl", "b.bib")


def test_a_file_with_two_entries_of_one_title_keeps_both(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@inproceedings{a2023intro, title = {Introduction}, author = {Lovelace, Ada},"
        " year = {2023}}\n"
        "@inproceedings{h2024intro, title = {Introduction}, author = {Hopper, Grace},"
        " year = {2024}}\n",
        encoding="utf-8",
    )
    library = Library.open(tmp_path / "lib", seed=False)
    (report,) = library.import_files([bib])
    assert (report.added, report.duplicates, report.error) == (2, 0, None)
    assert {paper.cite_key for paper in library.papers()} == {"a2023intro", "h2024intro"}


SCHEMES = ("doi", "arxiv_id", "openreview_id")
VALUES = {"doi": ("10.1/a", "10.1/b"), "arxiv_id": ("2501.00001", "2501.00002")}
VALUES["openreview_id"] = ("abc", "xyz")


@st.composite
def contradicting_pair(draw: st.DrawFn) -> tuple[Paper, Paper]:
    """Two records of one title (written differently), at most one with an abstract, that
    contradict each other in one field and share no identifier."""
    titles = st.sampled_from([TITLE, "falcon planning at scale", "{Falcon}: Planning at Scale"])
    field = draw(st.sampled_from([*SCHEMES, "year", "authors"]))
    if field in SCHEMES:
        one, other = {field: VALUES[field][0]}, {field: VALUES[field][1]}
    elif field == "year":
        one, other = {"year": 2023}, {"year": draw(st.integers(1990, 2022))}
    else:
        one = {"authors": ("Lovelace, Ada",)}
        other = {"authors": (draw(st.sampled_from(["Grace Hopper", "Hopper, G.", "Turing"])),)}
    # Any other field given on both sides agrees; given on one side only, it says nothing.
    for name in SCHEMES:
        # (An arXiv id on the earlier record explains a year: a preprint; tested above.)
        if name != field and not (field == "year" and name == "arxiv_id") and draw(st.booleans()):
            (one if draw(st.booleans()) else other)[name] = VALUES[name][0]
    abstracts = draw(st.sampled_from([("", ""), (ABSTRACT, ""), ("", ABSTRACT)]))
    first = record(abstracts[0], title=draw(titles), **one)
    second = record(abstracts[1], title=draw(titles), **other)
    return first, second


@settings(max_examples=150, deadline=None)
@given(contradicting_pair(), st.lists(st.sampled_from(["before", "after"]), max_size=3))
def test_records_with_contradicting_fields_never_merge(
    pair: tuple[Paper, Paper], others: list[str]
) -> None:
    """Whatever else the index holds (other papers of the same title), the second record is
    never merged into the first."""
    first, second = pair
    assert contradicts(first, second) and contradicts(second, first)
    papers: dict[str, Paper] = {}
    index = MatchIndex(papers)
    extra = [record(title=TITLE, doi=f"10.9/{n}") for n in range(len(others))]
    for paper in [*(p for p, w in zip(extra, others, strict=True) if w == "before"), first]:
        found = index.find(paper)
        stored = paper if found is None else merge_papers(papers[found], paper)
        papers[stored.id] = stored
        index.added(stored)
    first_id = index.find(first)
    assert first_id is not None
    assert index.find(second) != first_id
