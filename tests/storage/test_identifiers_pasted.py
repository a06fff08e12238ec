"""Identifiers as people paste them, each in its one canonical form (storage.text.identifiers)."""

from __future__ import annotations

import pytest

from papershelf.storage.text.identifiers import Identifier, identify


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("arXiv:2501.01234", Identifier("arxiv", "2501.01234")),
        ("2501.01234v3", Identifier("arxiv", "2501.01234")),
        ("https://arxiv.org/abs/2501.01234v2", Identifier("arxiv", "2501.01234")),
        ("http://export.arxiv.org/pdf/hep-th/9901001v1.pdf", Identifier("arxiv", "hep-th/9901001")),
        # Copied from a browser's address bar, which hides the scheme.
        ("arxiv.org/abs/2501.01234", Identifier("arxiv", "2501.01234")),
        ("www.arxiv.org/pdf/2501.01234", Identifier("arxiv", "2501.01234")),
        ("openreview.net/forum?id=Xq7pB3kFzL", Identifier("openreview", "Xq7pB3kFzL")),
        ("www.openreview.net/pdf?id=Xq7pB3kFzL", Identifier("openreview", "Xq7pB3kFzL")),
        ("https://openreview.net/forum?id=Xq7pB3kFzL", Identifier("openreview", "Xq7pB3kFzL")),
        ("openreview:Xq7pB3kFzL", Identifier("openreview", "Xq7pB3kFzL")),
        ("10.1145/3292500.3330701", Identifier("doi", "10.1145/3292500.3330701")),
        ("doi.org/10.1145/ABC.", Identifier("doi", "10.1145/abc")),
        (
            "https://dx.doi.org/10.48550/arXiv.2501.01234",
            Identifier("doi", "10.48550/arxiv.2501.01234"),
        ),
    ],
)
def test_identifiers_people_paste(text: str, expected: Identifier) -> None:
    assert identify(text) == expected


@pytest.mark.parametrize(
    "text",
    ["wombat", "Xq7pB3kFzL", "openreview.net/group?id=ICLR.cc", "example.org/abs/2501.01234", ""],
)
def test_what_is_no_identifier(text: str) -> None:
    assert identify(text) is None
