"""Every word a person can read is findable: emphasis, `_`, LaTeX, folded forms (issue 11)."""

# The expected values are Unicode on purpose.
# ruff: noqa: RUF001, RUF003

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import SearchEngine, field_text, highlight_spans
from papershelf.storage.text.latex import display_text

ABSTRACT = (
    "We propose a novel _lifting_ method for snake_case_words, with *emphasis*, **bold** and "
    "`code` spans, \\textit{slanted} words, $\\alpha$-blending and the Déjà trick."
)
PAPER = Paper(
    id="abcdef000001",
    name="K²IE",
    title="K$^2$IE: Kernel $\\rm E(3)$-Equivariant Maps",
    abstract=ABSTRACT,
    venue="Hand 2025",
    sources=("hand.jsonl",),
)
OTHER = Paper(
    id="abcdef000002",
    name="Plain",
    title="A plain title",
    abstract="Nothing to see here but ordinary text.",
    venue="Hand 2025",
    sources=("hand.jsonl",),
)
ENGINE = SearchEngine([PAPER, OTHER])
ENTRY = Entry()


def shown_matches(query: str) -> tuple[list[str], list[str]]:
    """The abstract's and the title's text the reader highlights for the query's first hit."""
    hits = ENGINE.search(query, {})
    assert [hit.paper_id for hit in hits] == [PAPER.id], query
    hit = hits[0]
    shown = display_text(PAPER.abstract).text
    in_abstract = [shown[s:e] for s, e in highlight_spans(shown, hit.terms)]
    title = field_text(PAPER, ENTRY, "title")
    in_title = [title[s:e] for s, e in hit.spans_in("title")]
    return in_abstract, in_title


@pytest.mark.parametrize(
    ("query", "highlighted"),
    [
        ("lifting", "lifting"),
        ("'lifting", "lifting"),
        ('\'"lifting method"', "lifting method"),
        ("case", "case"),
        ("words", "words"),
        ("'snake_case", "snake_case"),
        ("emphasis", "emphasis"),
        ("'emphasis", "emphasis"),
        ("bold", "bold"),
        ('\'"bold and"', "bold and"),
        ("code", "code"),
        ("slanted", "slanted"),
        ("'slanted", "slanted"),
        ("α", "α"),
        ("deja", "Déjà"),
        ("'deja", "Déjà"),
        ("'déjà", "Déjà"),
    ],
)
def test_a_word_as_read_is_found_and_highlighted(query: str, highlighted: str) -> None:
    in_abstract, _ = shown_matches(query)
    assert highlighted in in_abstract


def test_a_word_only_the_source_has_is_still_found() -> None:
    # `alpha` is how a person types `$\alpha$` (shown α): found, and named as the match.
    hits = ENGINE.search("alpha", {})
    assert [hit.paper_id for hit in hits] == [PAPER.id]
    assert hits[0].terms == ("alpha",)


@pytest.mark.parametrize("query", ["k2ie", "K²IE", "^k2ie", "^K²IE", "'k²ie", "'k2ie", "e(3)"])
def test_a_converted_title_is_found_and_its_spans_index_the_shown_title(query: str) -> None:
    _, in_title = shown_matches(query)
    assert field_text(PAPER, ENTRY, "title") == "K²IE: Kernel E(3)-Equivariant Maps"
    assert in_title[0] in ("K²IE", "E")


def test_a_title_word_in_underscores_is_found_from_its_start() -> None:
    titled = Paper(
        id="abcdef000003",
        name="Wombats",
        title="_Lifting_ Wombats: A Study",
        abstract="Wombats dig.",
        venue=None,
        sources=(),
    )
    engine = SearchEngine([titled, OTHER])
    for query in ("^lifting", "^lifting wombats", "'lifting", "lifting"):
        hits = engine.search(query, {})
        assert [hit.paper_id for hit in hits] == [titled.id], query
        title = field_text(titled, ENTRY, "title")
        assert title == "Lifting Wombats: A Study"
        assert title[slice(*hits[0].spans_in("title")[0])] in ("Lifting", "Lifting Wombats")


# --- every visible word, whatever wraps it ----------------------------------------------------

WORDS = st.text("abcdefghijklmnopqrstuvwxyzé", min_size=3, max_size=8)
WRAPPERS = st.sampled_from(
    ["{}", "_{}_", "*{}*", "**{}**", "__{}__", "`{}`", "\\textit{{{}}}", "\\emph{{{}}}", "({})"]
)


@st.composite
def abstracts(draw: st.DrawFn) -> tuple[str, list[str]]:
    words = draw(st.lists(WORDS, min_size=1, max_size=8))
    wrapped = [draw(WRAPPERS).format(word) for word in words]
    return " ".join(wrapped) + ".", words


@settings(max_examples=150, deadline=None)
@given(abstracts())
def test_every_visible_word_is_found_exactly_and_highlighted(built: tuple[str, list[str]]) -> None:
    abstract, words = built
    paper = Paper(
        id="abcdef000009", name="X", title=None, abstract=abstract, venue=None, sources=()
    )
    engine = SearchEngine([paper, OTHER])
    shown = display_text(abstract).text
    for word in words:
        assert word in shown  # the word is visible: the markers around it are gone
        for query in (f"'{word}", word):
            hits = engine.search(query, {})
            assert paper.id in [hit.paper_id for hit in hits], (query, abstract)
            hit = next(hit for hit in hits if hit.paper_id == paper.id)
            covered = highlight_spans(shown, hit.terms)
            start = shown.find(word)
            assert any(s <= start and start + len(word) <= e for s, e in covered), (
                query,
                abstract,
                hit.terms,
            )
