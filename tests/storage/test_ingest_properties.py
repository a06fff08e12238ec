"""Hypothesis properties of ingest: totality, determinism, cleaning, dedupe keys."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.paragraphs import dedupe_key
from papershelf.storage.ingest.parse import parse_bytes
from papershelf.storage.text.clean import clean_text

FRAGMENTS = st.sampled_from(
    [
        "ICML 2025 Papers\n\n",
        "We propose FooNet, a method.",
        "\n\n",
        "\n---\n",
        "$K^2$IE",
        "$\\frac{",
        "https:// x.io.",
        "**bold**",
        "[MASK]",
        "{",
        "[",
        "\r\n",
        "\x00",
        "\u202e",
        "Oral Session 3\n\n",
    ]
)
TEXTISH = st.lists(st.one_of(FRAGMENTS, st.text(max_size=30)), max_size=12).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=400), TEXTISH.map(lambda text: text.encode())))
def test_any_bytes_parse_or_raise_ingest_error(data: bytes) -> None:
    try:
        result = parse_bytes(data, "fuzz.txt", now="t")
    except IngestError as error:
        assert str(error).startswith("fuzz.txt")
        assert "\n" not in str(error)
        return
    ids = [paper.id for paper in result.papers]
    assert len(ids) == len(set(ids))
    assert all(paper.name.strip() for paper in result.papers)
    assert all(paper.abstract for paper in result.papers)


@settings(max_examples=60, deadline=None)
@given(TEXTISH)
def test_parsing_is_deterministic(text: str) -> None:
    def run() -> object:
        try:
            return parse_bytes(text.encode(), "same.txt", now="t")
        except IngestError as error:
            return str(error)

    assert run() == run()


@given(st.text())
def test_clean_text_has_no_controls_and_is_idempotent(text: str) -> None:
    cleaned = clean_text(text)
    bad = [ch for ch in cleaned if unicodedata.category(ch) == "Cc" and ch not in "\n\t"]
    assert bad == []
    assert "\r" not in cleaned and "\u202e" not in cleaned and "\u2066" not in cleaned
    assert clean_text(cleaned) == cleaned


@given(st.text())
def test_dedupe_key_is_idempotent(text: str) -> None:
    key = dedupe_key(text)
    assert dedupe_key(key) == key


@given(st.text(min_size=1), st.sampled_from([" ", "  ", "\n", "\t "]))
def test_dedupe_key_ignores_whitespace_and_case(text: str, space: str) -> None:
    words = text.split()
    assert dedupe_key(space.join(words).upper()) == dedupe_key(" ".join(words).lower())
    assert dedupe_key(f"  {text}  ") == dedupe_key(text)
