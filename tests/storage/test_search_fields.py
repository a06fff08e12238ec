"""Field search in the engine: `author:`, `title:`, `name:`, `abstract:` and `year:` over a small
library whose papers have authors and years (tests/fixtures/search/authors.jsonl)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from search_reference import ReferenceTypos

from papershelf.storage.ingest.parse import read_file
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import (
    AUTHOR_SEPARATOR,
    SearchEngine,
    author_spans,
    field_text,
    paper_year,
    parse_query,
)
from papershelf.storage.search.index import SearchIndex, tokenize

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "search" / "authors.jsonl"


def _papers() -> list[Paper]:
    papers = list(read_file(FIXTURE).papers)
    # A paper whose own year differs from its venue's: its own counts.
    dit = "Diffusion Transformers at Scale"
    return [replace(p, year=2023) if p.title == dit else p for p in papers]


PAPERS = _papers()
TYPOS = ReferenceTypos(PAPERS)
BY_TITLE = {paper.title: paper for paper in PAPERS}
ATTENTION = BY_TITLE["Attention Is All You Need"].id
MOE = BY_TITLE["Outrageously Large Neural Networks: The Sparsely-Gated Mixture-of-Experts Layer"].id
SCORE = BY_TITLE["Score-Based Generative Modeling through Stochastic Differential Equations"].id
MCTD = BY_TITLE["Monte Carlo Tree Diffusion for System 2 Planning"].id
RATCHET = BY_TITLE["Neural Processes for Müller's Ratchet"].id
DIT = BY_TITLE["Diffusion Transformers at Scale"].id
GAT = BY_TITLE["Graph Attention Networks"].id
WOMBAT = BY_TITLE[None].id
ENGINE = SearchEngine(PAPERS)


def ids(query: str, entries: dict[str, Entry] | None = None) -> list[str]:
    return [hit.paper_id for hit in ENGINE.search(query, entries or {})]


def test_the_fixture_is_what_the_tests_say() -> None:
    assert len(PAPERS) == 8
    assert BY_TITLE[None].authors == ()
    # A "Family, Given; ..." string is split into people.
    assert BY_TITLE[
        "Score-Based Generative Modeling through Stochastic Differential Equations"
    ].authors == ("Song, Yang", "Sohl-Dickstein, Jascha", "Kingma, Diederik P.")


def test_author_finds_a_paper_by_any_of_its_authors() -> None:
    assert ids("author:vaswani") == [ATTENTION]
    assert set(ids("author:shazeer")) == {ATTENTION, MOE}
    assert set(ids("author:bengio")) == {MCTD, GAT}
    assert ids("author:kingma") == [SCORE]
    assert ids("author:sohl-dickstein") == [SCORE]


def test_a_bare_word_does_not_look_in_the_authors() -> None:
    # Vaswani is named in two abstracts; only author: finds the paper he wrote.
    assert set(ids("vaswani")) == {MCTD, WOMBAT}
    assert ATTENTION not in ids("vaswani")
    assert ids("author:vaswani") == [ATTENTION]


def test_author_is_folded_like_every_search() -> None:
    # Exact (Müller) before prefix (Müllerová); accents and case do not matter either way.
    assert ids("author:muller") == [RATCHET, DIT]
    assert ids("author:MÜLLER") == [RATCHET, DIT]
    assert ids("author:lio") == [GAT]  # Liò
    assert ids("author:lukasz") == [ATTENTION]  # Łukasz: a stroke, not an accent, to NFKD
    assert ids("author:velickovic") == [GAT]  # Veličković
    assert ids("author:garcia-lopez") == [RATCHET]


def test_author_tolerates_typos_and_prefixes_like_any_word() -> None:
    assert ids("author:vaswsni") == [ATTENTION]  # one typo
    assert ids("author:polosukin") == [ATTENTION]  # a letter dropped
    assert ids("author:vasw") == [ATTENTION]  # a prefix
    hits = ENGINE.search("author:vaswsni", {})
    assert hits[0].terms == ("Vaswani",)


def test_author_exact_prefix_and_phrase() -> None:
    assert ids("author:'garcia") == [RATCHET]
    assert ids('author:"noam shazeer"') == [ATTENTION, MOE]
    assert ids('author:"shazeer noam"') == []
    # ^ is where the authors start: the first author's name.
    assert ids("author:^noam") == [MOE]
    assert ids("author:^ashish") == [ATTENTION]


def test_author_negation_and_alternatives() -> None:
    everyone = {paper.id for paper in PAPERS}
    assert set(ids("!author:shazeer")) == everyone - {ATTENTION, MOE}
    assert set(ids("author:!shazeer")) == everyone - {ATTENTION, MOE}
    assert set(ids("author:vaswani|kingma")) == {ATTENTION, SCORE}
    assert set(ids("author:vaswani | abstract:wombat")) == {ATTENTION, WOMBAT}
    assert ids("author:shazeer !author:vaswani") == [MOE]


def test_author_with_other_words_ranks_by_the_sum() -> None:
    # Both by Bengio; "graph" is in one's title, "diffusion" in the other's.
    assert ids("author:bengio graph") == [GAT]
    assert ids("author:bengio diffusion") == [MCTD]
    hits = ENGINE.search("author:shazeer attention", {})
    assert [hit.paper_id for hit in hits] == [ATTENTION]
    assert hits[0].field == "name"  # the best field of the match (the name is the title)


def test_title_looks_in_the_title_and_the_name_only() -> None:
    assert set(ids("title:attention")) == {ATTENTION, GAT}
    assert SCORE in ids("attention")  # its abstract says "Attention is not needed"
    assert ids("title:wombat") == []  # only in an abstract
    # A paper without a title is found by its name (the heading the list shows).
    assert BY_TITLE[None].name.startswith("An abstract-only record")
    assert ids("title:record") == [WOMBAT]
    assert ids("title:^monte") == [MCTD]
    assert ids("title:'tree diffusion") == [MCTD]


def test_name_looks_in_the_name_only() -> None:
    assert BY_TITLE["Monte Carlo Tree Diffusion for System 2 Planning"].name == (
        "Monte Carlo Tree Diffusion"
    )
    assert ids("name:carlo") == [MCTD]
    assert ids("title:planning") == [MCTD]
    assert ids("name:planning") == []  # in the title, not the name


def test_abstract_looks_in_the_abstract_only() -> None:
    assert set(ids("abstract:attention")) == {ATTENTION, SCORE, GAT}
    assert ids("abstract:outrageously") == []  # a title word
    assert ids("abstract:'tree search") == [MCTD]
    assert ids("abstract:^the") == [ATTENTION, MOE]  # where the abstract starts


def test_year_matches_a_year_a_range_and_open_ranges() -> None:
    assert set(ids("year:2017")) == {ATTENTION, MOE}
    assert set(ids("year:2021..2024")) == {SCORE, RATCHET, DIT}
    assert set(ids("year:2024..")) == {MCTD, RATCHET}
    assert set(ids("year:..2017")) == {ATTENTION, MOE}
    assert set(ids("year:201")) == {ATTENTION, MOE, GAT}  # 2010..2019
    assert set(ids("year:2017|2025")) == {ATTENTION, MOE, MCTD}


def test_a_paper_s_own_year_wins_over_its_venue_s() -> None:
    dit = BY_TITLE["Diffusion Transformers at Scale"]
    assert dit.venue == "ICLR 2024" and dit.year == 2023
    assert paper_year(dit) == 2023
    assert DIT in ids("year:2023") and DIT not in ids("year:2024")


def test_a_paper_without_a_year_matches_no_year_but_every_negated_one() -> None:
    assert paper_year(BY_TITLE[None]) is None
    assert WOMBAT not in ids("year:..9999")
    assert WOMBAT in ids("!year:2017")
    assert set(ids("!year:..2020")) == {SCORE, MCTD, RATCHET, DIT, WOMBAT}


@pytest.mark.parametrize(
    ("venue", "year"),
    [("ICML 2024", 2024), ("NeurIPS'23 and 2025", 2025), ("Workshop", None), ("W 12024", None)],
)
def test_the_year_of_a_venue(venue: str, year: int | None) -> None:
    paper = replace(PAPERS[0], venue=venue, year=None)
    assert paper_year(paper) == year


def test_an_invalid_year_matches_nothing_and_says_so() -> None:
    query = parse_query("year:20x4 author:vaswani")
    assert len(query.errors) == 1
    assert ENGINE.search(query, {}) == []
    assert ENGINE.search("!year:20x4", {}) != []  # not a year: its negation is everything


def test_field_and_year_terms_combine_with_filters_on_entries() -> None:
    entries = {MOE: Entry(tags=frozenset({"moe"})), ATTENTION: Entry(status="read")}
    assert ids("author:shazeer #moe", entries) == [MOE]
    assert ids("author:shazeer is:read year:2017", entries) == [ATTENTION]


def test_author_spans_index_into_the_authors_text() -> None:
    (hit,) = ENGINE.search("author:muller year:2024", {})
    paper = BY_TITLE["Neural Processes for Müller's Ratchet"]
    text = field_text(paper, Entry(), "authors")
    assert text == "Jörg Müller, Zoé Garcia-Lopez"
    assert hit.field == "authors"
    assert [text[a:b] for a, b in hit.spans["authors"]] == ["Müller"]
    assert [text[a:b] for a, b in hit.spans_in("authors")] == ["Müller"]
    # The title has Müller too, but the term looked in the authors only.
    assert "title" not in hit.spans and "abstract" not in hit.spans
    assert hit.terms == ("Müller",)


def test_a_field_word_highlights_only_its_fields() -> None:
    (hit,) = [h for h in ENGINE.search("title:diffusion", {}) if h.paper_id == DIT]
    assert "title" in hit.spans and "abstract" not in hit.spans
    (hit,) = [h for h in ENGINE.search("diffusion", {}) if h.paper_id == DIT]
    assert "title" in hit.spans and "abstract" in hit.spans
    (hit,) = ENGINE.search("author:^jorg", {})
    text = field_text(BY_TITLE["Neural Processes for Müller's Ratchet"], Entry(), "authors")
    assert [text[a:b] for a, b in hit.spans["authors"]] == ["Jörg"]


def test_author_spans_are_spans_in_each_author_s_name() -> None:
    paper = BY_TITLE["Attention Is All You Need"]
    hits = ENGINE.search('author:shazeer|kaiser|"llion jon"', {})
    assert [h.paper_id for h in hits] == [ATTENTION, MOE]  # equal best alternatives: in order
    hit = hits[0]
    per_author = author_spans(paper.authors, hit.spans["authors"])
    assert len(per_author) == len(paper.authors)
    shown = {
        name: [name[a:b] for a, b in spans]
        for name, spans in zip(paper.authors, per_author, strict=True)
        if spans
    }
    assert shown == {
        "Noam Shazeer": ["Shazeer"],
        "Llion Jones": ["Llion Jon"],
        "Łukasz Kaiser": ["Kaiser"],
    }


names = st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=5)


@given(names, st.data())
def test_author_spans_cut_any_span_of_the_joined_text_at_the_names(authors, data) -> None:
    text = AUTHOR_SEPARATOR.join(authors)
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    per_author = author_spans(authors, ((a, b),))
    # Every character of the span that is in a name is in that name's spans, and nothing else.
    covered = "".join(
        name[x:y] for name, spans in zip(authors, per_author, strict=True) for x, y in spans
    )
    starts = [sum(len(n) + len(AUTHOR_SEPARATOR) for n in authors[:k]) for k in range(len(authors))]
    inside = "".join(
        text[max(a, s) : min(b, s + len(n))] for s, n in zip(starts, authors, strict=True)
    )
    assert covered == inside


# -- the index keeps up with authors ------------------------------------------------------------


def test_a_saved_index_is_not_used_once_a_paper_gains_authors(tmp_path: Path) -> None:
    # An import may merge a record's authors into a stored paper and keep its id.
    bare = [replace(paper, authors=()) for paper in PAPERS]
    path = tmp_path / "search-index.bin"
    assert SearchIndex.build(bare).save(path)
    assert SearchIndex.load(path, bare) is not None
    assert SearchIndex.load(path, PAPERS) is None
    assert [h.paper_id for h in SearchEngine.load(path, PAPERS).search("author:vaswani", {})] == [
        ATTENTION
    ]


def test_update_reindexes_when_authors_change() -> None:
    engine = SearchEngine([replace(paper, authors=()) for paper in PAPERS])
    assert engine.search("author:vaswani", {}) == []
    engine.update(PAPERS)
    assert [hit.paper_id for hit in engine.search("author:vaswani", {})] == [ATTENTION]


# -- properties --------------------------------------------------------------------------------

AUTHOR_TOKENS = sorted({token for paper in PAPERS for token in tokenize(", ".join(paper.authors))})


def typo(word: str, kind: int, at: int) -> str:
    """Drop, double or replace one letter, or keep a prefix, or none."""
    i = at % max(1, len(word) - 1)
    if kind == 0:
        return word[:i] + word[i + 1 :]
    if kind == 1:
        return word[:i] + word[i] + word[i:]
    if kind == 2:
        return word[:i] + "x" + word[i + 1 :]
    if kind == 3:
        return word[: max(1, i)]
    return word


typed = st.builds(typo, st.sampled_from(AUTHOR_TOKENS), st.integers(0, 4), st.integers(0, 20))


@given(typed)
def test_author_agrees_with_brute_force_over_the_authors_tokens(word: str) -> None:
    tokens = tokenize(word)
    expected = {
        paper.id
        for paper in PAPERS
        if all(any(TYPOS.quality(t, a) for a in tokenize(", ".join(paper.authors))) for t in tokens)
    }
    assert set(ids(f"author:{word}")) == expected


@given(st.sampled_from(["title", "abstract", "name"]), typed)
def test_a_field_word_finds_a_subset_of_the_bare_word(key: str, word: str) -> None:
    assert set(ids(f"{key}:{word}")) <= set(ids(word))
