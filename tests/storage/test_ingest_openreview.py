"""OpenReview notes (API v2 and v1 JSON) read into Papers; notes of another shape refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import parse_bytes, read_file

OPENREVIEW = Path(__file__).resolve().parent.parent / "fixtures" / "openreview"


def test_a_v2_page_gives_the_submissions_and_skips_the_review() -> None:
    result = read_file(OPENREVIEW / "iclr2024-v2.json")
    assert result.skipped == 1  # the official review: no title, no abstract
    echidna, bilby = result.papers
    assert echidna.title == "Echidna: Spiny Regularisers for Robust Fine-Tuning"
    assert echidna.abstract.startswith("We present Echidna, a regulariser that grows spines")
    assert echidna.authors == ("Mary Somerville", "Srinivasa Ramanujan")
    assert echidna.venue == "ICLR 2024 poster"
    assert echidna.year == 2024  # the venue's year, not the submission's (cdate: 2023)
    assert echidna.openreview_id == "Xq7pB3kFzL"
    assert echidna.url == "https://openreview.net/forum?id=Xq7pB3kFzL"
    assert echidna.pdf_url == "https://openreview.net/pdf/0f3c2a9d1e.pdf"
    assert echidna.extra == (("keywords", "regularisation, fine-tuning, robustness"),)
    assert bilby.openreview_id == "Rp2mN8vQwA"
    assert result.venue is None  # poster and spotlight


def test_a_v1_page_reads_plain_values() -> None:
    (koala,) = read_file(OPENREVIEW / "iclr2020-v1.json").papers
    assert koala.title == "Koala Attention: Eucalyptus-Sparse Transformers"
    assert koala.authors == ("Sofia Kovalevskaya", "Henri Poincaré")
    assert koala.venue == "ICLR 2020"
    assert koala.year == 2020
    assert koala.openreview_id == "HkgB2TNYPS"
    assert koala.code_urls == ("https://github.com/koala/attention",)
    assert koala.pdf_url == "https://openreview.net/pdf/ab12cd34ef.pdf"


def test_notes_as_json_lines_are_found_by_their_content_object() -> None:
    notes = json.loads((OPENREVIEW / "iclr2024-v2.json").read_text(encoding="utf-8"))["notes"]
    lines = "".join(json.dumps(note) + "\n" for note in notes)
    result = parse_bytes(lines.encode("utf-8"), "notes.jsonl")
    assert [paper.openreview_id for paper in result.papers] == ["Xq7pB3kFzL", "Rp2mN8vQwA"]


def test_the_year_comes_from_pdate_when_the_venue_names_none() -> None:
    note = {
        "id": "Zz9yY8xX7w",
        "forum": "Zz9yY8xX7w",
        "cdate": 1672531200000,  # 2023-01-01
        "pdate": 1704067200000,  # 2024-01-01
        "content": {"title": {"value": "T"}, "abstract": {"value": "An abstract."}},
    }
    (paper,) = parse_bytes(json.dumps({"notes": [note]}).encode(), "page.json").papers
    assert paper.year == 2024


def test_a_note_of_the_wrong_shape_fails_the_file_in_one_line() -> None:
    with pytest.raises(IngestError) as caught:
        read_file(OPENREVIEW / "wrong-shape.json")
    assert str(caught.value) == (
        "wrong-shape.json: OpenReview note 1 is not an object with a content object"
    )


def test_plain_json_records_are_still_plain_records() -> None:
    record = {"title": "T", "abstract": "We propose a plain record.", "venue": "X 2025"}
    (paper,) = parse_bytes(json.dumps([record]).encode(), "records.json").papers
    assert paper.openreview_id is None and paper.venue == "X 2025"
