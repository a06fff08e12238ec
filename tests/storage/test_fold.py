"""Folding for search and name lookup (`storage.text.fold`): letters NFKD keeps whole are typed
as their base letters (`æ` as `ae`, `ß` as `ss`, `ł` as `l`), in the app's search, `author:`
and `papershelf show NAME` alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.library.library import Library, fold_name
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.highlight import field_text, folded_spans
from papershelf.storage.search.parse import fold_text
from papershelf.storage.text.fold import fold


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Æsop", "aesop"),
        ("Œuvre", "oeuvre"),
        ("Straße", "strasse"),
        ("STRAẞE", "strasse"),
        ("Søren", "soren"),
        ("Łukasz", "lukasz"),
        ("Þór", "thor"),
        ("Déjà K²IE", "deja k2ie"),
        ("plain ASCII", "plain ascii"),
    ],
)
def test_letters_fold_as_people_type_them(text: str, folded: str) -> None:
    assert fold(text) == folded
    assert fold_text(text) == folded
    assert fold_name(text) == folded


@given(st.text(max_size=40))
def test_folding_twice_changes_nothing(text: str) -> None:
    assert fold(fold(text)) == fold(text)


def paper(pid: str, name: str, authors: tuple[str, ...], abstract: str) -> Paper:
    return Paper(
        id=pid, name=name, title=None, abstract=abstract, venue=None, sources=(), authors=authors
    )


PAPERS = [
    paper("a" * 12, "ÆsopNet", ("Søren Kierkegaard", "Æsa Ørsted"), "Fables as a prior."),
    paper("b" * 12, "Plain", ("Łukasz Kaiser", "Jürgen Weiß"), "Straße networks for œdema."),
]


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("author:aesa", "a"),
        ("author:orsted", "a"),
        ("author:weiss", "b"),
        ("author:lukasz", "b"),
        ("aesopnet", "a"),
        ("strasse", "b"),
        ("oedema", "b"),
        ("'oedema", "b"),
    ],
)
def test_search_finds_folded_letters(query: str, found: str) -> None:
    (hit,) = SearchEngine(PAPERS).search(query, {})
    assert hit.paper_id == found * 12


def test_an_exact_term_highlights_the_whole_folded_letter() -> None:
    text = field_text(PAPERS[1], Entry(), "abstract")
    (span,) = folded_spans(text, "oedema")
    assert text[span[0] : span[1]] == "œdema"


def test_name_lookup_finds_a_folded_name(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    source = tmp_path / "papers.jsonl"
    source.write_text(
        '{"abstract": "We propose ÆsopNet, a model that tells fables as a prior for language."}\n',
        encoding="utf-8",
    )
    library.import_files([source])
    assert library.find("aesopnet").name == "ÆsopNet"


@given(st.text(st.characters() | st.sampled_from("łøđðħæœþŁØĐÐĦÆŒÞßé")))
def test_the_letters_are_replaced_only_where_some_are(text: str) -> None:
    # `fold` looks for them before translating (a fast path): the same as translating always.
    import re
    import unicodedata

    from papershelf.storage.text import fold as module

    if text.isascii():
        return
    plain = re.sub(module._COMBINING, "", unicodedata.normalize("NFKD", text)).casefold()
    assert fold(text) == plain.translate(module._LETTERS)
    assert set(module._STROKED.pattern[1:-1]) == set(map(chr, module._LETTERS))
