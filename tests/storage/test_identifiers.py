"""Identifiers as people write them: one canonical form each, and None for anything else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.text.identifiers import (
    Identifier,
    arxiv_from_doi,
    arxiv_id,
    doi,
    identifiers_of,
    identify,
    openreview_id,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.1145/3292500.3330701", "10.1145/3292500.3330701"),
        ("doi:10.18653/V1/N19-1423", "10.18653/v1/n19-1423"),
        ("DOI: 10.1000/xyz123", "10.1000/xyz123"),
        ("https://doi.org/10.48550/arXiv.1706.03762", "10.48550/arxiv.1706.03762"),
        ("http://dx.doi.org/10.1109/5.771073", "10.1109/5.771073"),
        ("doi.org/10.1109/5.771073.", "10.1109/5.771073"),
        ("(10.1109/5.771073)", None),
        ("10.11/x", None),  # a registrant has at least four digits
        ("11.1145/3292500", None),
        ("not a doi", None),
        ("", None),
    ],
)
def test_doi(text: str, expected: str | None) -> None:
    assert doi(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2501.01234", "2501.01234"),
        ("arXiv:2501.01234v3", "2501.01234"),
        ("ARXIV: 1706.03762", "1706.03762"),
        ("0704.0001", "0704.0001"),
        ("https://arxiv.org/abs/1706.03762v7", "1706.03762"),
        ("https://arxiv.org/pdf/1706.03762v7.pdf", "1706.03762"),
        ("http://export.arxiv.org/abs/2501.01234", "2501.01234"),
        ("hep-th/9901001v2", "hep-th/9901001"),
        ("arXiv:math.GT/0309136", "math.gt/0309136"),
        ("1706.0376", None),
        ("https://example.org/abs/1706.03762", None),
        ("10.1145/3292500", None),
    ],
)
def test_arxiv_id(text: str, expected: str | None) -> None:
    assert arxiv_id(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://openreview.net/forum?id=rJ4km2R5t7", "rJ4km2R5t7"),
        ("https://openreview.net/pdf?id=rJ4km2R5t7", "rJ4km2R5t7"),
        ("https://api2.openreview.net/notes?id=abcDEF123_-", "abcDEF123_-"),
        ("openreview:rJ4km2R5t7", "rJ4km2R5t7"),
        ("https://openreview.net/group?id=ICML.cc/2025/Conference", None),
        ("https://evil.example/forum?id=rJ4km2R5t7", None),
        ("rJ4km2R5t7", None),  # a bare word is not taken for an id
        ("https://openreview.net/forum", None),
    ],
)
def test_openreview_id(text: str, expected: str | None) -> None:
    assert openreview_id(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arXiv:2501.01234", Identifier("arxiv", "2501.01234")),
        ("10.1145/3292500.3330701", Identifier("doi", "10.1145/3292500.3330701")),
        ("https://openreview.net/forum?id=rJ4km2R5t7", Identifier("openreview", "rJ4km2R5t7")),
        ("transformers", None),
    ],
)
def test_identify(text: str, expected: Identifier | None) -> None:
    assert identify(text) == expected


def test_an_identifier_prints_as_its_key() -> None:
    assert str(Identifier("doi", "10.1/x")) == "doi:10.1/x"


@given(st.text(max_size=80))
def test_canonical_forms_are_fixed_points(text: str) -> None:
    """What a recogniser returns is recognised again as itself, and holds no spaces."""
    for recognise in (doi, arxiv_id):
        value = recognise(text)
        if value is not None:
            assert recognise(value) == value
            assert not any(ch.isspace() for ch in value)
    found = identify(text)
    if found is not None:
        assert found.value and not any(ch.isspace() for ch in found.value)


def test_arxiv_own_doi_is_also_its_arxiv_id() -> None:
    assert arxiv_from_doi("https://doi.org/10.48550/arXiv.2401.00001") == "2401.00001"
    assert arxiv_from_doi("10.1145/3292500.3330701") is None
    assert identifiers_of("10.48550/arXiv.2401.00001") == [
        Identifier("doi", "10.48550/arxiv.2401.00001"),
        Identifier("arxiv", "2401.00001"),
    ]
