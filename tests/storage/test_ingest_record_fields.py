"""A JSON record's bibliographic fields on import: year, DOI, arXiv and OpenReview ids, PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.ingest.parse import parse_bytes
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.text import identifiers

FIXTURE = Path(__file__).parent.parent / "fixtures" / "record_fields.jsonl"


def one(record: dict[str, object]) -> Paper:
    result = parse_bytes(json.dumps(record).encode(), "records.jsonl")
    (paper,) = result.papers
    return paper


def test_the_fixture_imports_every_field_canonical() -> None:
    papers = parse_bytes(FIXTURE.read_bytes(), FIXTURE.name).papers
    attention = papers[0]
    assert attention.authors[:2] == ("Ashish Vaswani", "Noam Shazeer")
    assert attention.year == 2017
    assert attention.doi == "10.48550/arxiv.1706.03762"  # no resolver, lower case
    assert attention.arxiv_id == "1706.03762"  # no version
    assert attention.pdf_url == "https://arxiv.org/pdf/1706.03762v7"
    assert attention.openreview_id is None
    review = papers[1]
    assert review.year == 2019
    assert review.openreview_id == "B1ElR4cgg"  # from its forum URL
    assert review.pdf_url == "https://openreview.net/pdf?id=B1ElR4cgg"
    assert (review.doi, review.arxiv_id) == (None, None)


@pytest.mark.parametrize(
    ("record", "fields"),
    [
        ({"year": 2024}, {"year": 2024}),
        ({"year": "2024"}, {"year": 2024}),
        ({"year": "2024-06-12"}, {"year": 2024}),
        ({"arxiv": "arXiv:2501.01234v2"}, {"arxiv_id": "2501.01234"}),
        ({"arxiv_id": "https://arxiv.org/abs/hep-th/9901001"}, {"arxiv_id": "hep-th/9901001"}),
        ({"arxiv": 1706.03762}, {"arxiv_id": "1706.03762"}),  # a number to JSON
        ({"doi": "doi:10.1145/3292500.3330701."}, {"doi": "10.1145/3292500.3330701"}),
        ({"openreview": "openreview:B1ElR4cgg"}, {"openreview_id": "B1ElR4cgg"}),
        ({"openreview_id": "B1ElR4cgg"}, {"openreview_id": "B1ElR4cgg"}),
        ({"pdf": "example.org/paper.pdf"}, {"pdf_url": "https://example.org/paper.pdf"}),
        # The first name wins; the second is read only when the first is missing.
        ({"arxiv_id": "2501.01234", "arxiv": "2401.00001"}, {"arxiv_id": "2501.01234"}),
    ],
)
def test_each_field_in_the_forms_people_write(
    record: dict[str, object], fields: dict[str, object]
) -> None:
    paper = one({"abstract": "We propose Wombat, a burrow counter.", **record})
    empty = {"year": None, "doi": None, "arxiv_id": None, "openreview_id": None, "pdf_url": None}
    shown = {name: getattr(paper, name) for name in empty}
    assert shown == {**empty, **fields}


@pytest.mark.parametrize(
    "record",
    [
        {"year": True},
        {"year": 12},
        {"year": "next year"},
        {"year": 20245},
        {"year": [2024]},
        {"doi": "not a doi"},
        {"doi": 10.1},
        {"arxiv": "attention"},
        {"openreview": "no"},
        {"pdf": "not a url"},
        {"pdf": {"href": "https://example.org"}},
        {"doi": "\x1b[31m10.1/x"},
    ],
)
def test_a_field_that_is_not_what_it_says_is_left_out(record: dict[str, object]) -> None:
    paper = one({"abstract": "We propose Wombat, a burrow counter.", **record})
    assert (paper.year, paper.doi, paper.arxiv_id, paper.openreview_id, paper.pdf_url) == (
        None,
        None,
        None,
        None,
        None,
    )


def test_two_records_with_one_arxiv_id_are_one_paper() -> None:
    records = [
        {"title": "Attention", "abstract": "The models are recurrent.", "arxiv": "1706.03762"},
        {"title": "Attention", "abstract": "A new abstract of it.", "arxiv": "1706.03762v5"},
    ]
    data = "".join(json.dumps(record) + "\n" for record in records).encode()
    result = parse_bytes(data, "twice.jsonl")
    assert len(result.papers) == 1 and result.duplicates == 1


def test_show_json_imports_back_with_the_same_record(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files([FIXTURE])
    from papershelf.cli.papers import paper_json

    rows = [paper_json(paper, library.entry(paper.id), None) for paper in library.papers()]
    again = tmp_path / "again.json"
    again.write_text(json.dumps(rows), encoding="utf-8")
    papers = parse_bytes(again.read_bytes(), again.name).papers
    fields = ("authors", "year", "doi", "arxiv_id", "openreview_id", "pdf_url", "url")
    assert [[getattr(p, f) for f in fields] for p in papers] == [
        [getattr(p, f) for f in fields] for p in library.papers()
    ]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)
FIELDS = ("year", "doi", "arxiv_id", "arxiv", "openreview_id", "openreview", "pdf_url", "pdf")


@given(
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES | st.sampled_from(["2017", "1706.03762"]))
)
def test_any_json_in_the_record_fields_imports_or_is_left_out(record: dict[str, object]) -> None:
    paper = one({"abstract": "We propose Wombat, a burrow counter.", **record})
    assert paper.year is None or 1000 <= paper.year <= 9999
    for value in (paper.doi, paper.arxiv_id, paper.openreview_id, paper.pdf_url):
        assert value is None or (value == value.strip() and value.isprintable())
    assert paper.doi is None or identifiers.doi(paper.doi) == paper.doi
    assert paper.arxiv_id is None or identifiers.arxiv_id(paper.arxiv_id) == paper.arxiv_id
