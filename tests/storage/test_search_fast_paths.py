"""The engine's fast paths answer exactly like the plain scans they replace: each letter's
papers made by the warm-up (`SearchEngine._letters`), the scan's common-tokens-first pieces
(`AbstractScan._containing`, both of its ways), the sparse postings ORed in one buffer
(`postings.views_to_bits`); and a cancelled search keeps nothing."""

from __future__ import annotations

from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_abstract_scan import extra_papers, reference

from papershelf.storage.model import Paper
from papershelf.storage.search import abstract_scan
from papershelf.storage.search.abstract_scan import AbstractScan
from papershelf.storage.search.engine import SearchCancelled, SearchEngine
from papershelf.storage.search.index import SearchIndex
from papershelf.storage.search.parse import fold_text
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits, views_to_bits
from papershelf.storage.text.authors import authors_text
from papershelf.storage.text.titles import display_title, marked_up, shown_text

LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789"


TITLES = [
    r"K$^2$IE: Fast $\alpha$-Divergence Nets",
    "The _lifting_ method for foo_bar_baz models",
    "**Bold** Ideas --- and *More* Diffusion",
    r"Learning \textbf{Sparse} Codes with $\mathbb{R}^d$ Priors",
]
"""Marked-up titles: read as shown and as written (`_forms`), not from the index."""


def titled_papers() -> list[Paper]:
    return [
        Paper(
            id=f"title{i:07d}",
            name=f"Titled{i}",
            title=title,
            abstract=f"An abstract about titles, number {i}.",
            venue=None,
            sources=(),
        )
        for i, title in enumerate(TITLES)
    ]


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> list[Paper]:
    """The seeds and the extras (marked-up and plain abstracts), read from papers.json."""
    from papershelf.storage.library.library import Library

    root = tmp_path_factory.mktemp("fast") / "lib"
    Library.open(root).import_papers(extra_papers() + titled_papers(), "extra.txt")
    return list(Library.open(root, seed=False).papers())


@pytest.fixture(scope="module")
def warmed(papers: list[Paper]) -> SearchEngine:
    engine = SearchEngine(papers)
    engine.warm()
    return engine


def forms(paper: Paper, field: str) -> str:
    """A field as an exact term reads it (the engine's `_forms`, written out again)."""
    if field == "name":
        return fold_text(paper.name)
    text = paper.title or ""
    if not marked_up(text):
        return fold_text(text)
    return fold_text(display_title(text)) + "\n" + fold_text(text)


@pytest.mark.parametrize("letter", LETTERS)
def test_each_letters_table_answers_like_the_scan(
    papers: list[Paper], warmed: SearchEngine, letter: str
) -> None:
    assert warmed._letters  # made by the warm-up
    for field in ("name", "title"):
        expected = [i for i, p in enumerate(papers) if letter in forms(p, field)]
        assert bits_to_ids(warmed.substring_bits(field, letter)) == expected
    assert bits_to_ids(warmed.abstract_bits(letter)) == reference(papers, letter)


@pytest.mark.parametrize(
    "query",
    [
        "'d",
        "'e",
        "'x",
        "'7",
        "title:'g",
        "'d graph",
        "'q|'z",
        # Words only some abstracts' LaTeX source holds: read from the scan's text once made.
        "'alpha",
        "'textbf",
        "'bold",
        "'divergence",
        "'k2ie",
        "'mathbb",
    ],
)
def test_a_warmed_engine_ranks_letters_like_a_cold_one(
    papers: list[Paper], warmed: SearchEngine, query: str
) -> None:
    cold = SearchEngine(papers)
    assert [h.paper_id for h in warmed.search(query, {})] == [
        h.paper_id for h in cold.search(query, {})
    ]


@pytest.fixture(scope="module")
def index(papers: list[Paper]) -> SearchIndex:
    return SearchIndex.build(papers)


def pieces(papers: list[Paper]) -> list[str]:
    """Runs of letters and digits of the abstracts, and their parts."""
    found: set[str] = set(LETTERS)
    for paper in papers:
        for word in fold_text(shown_text(paper.abstract)).split():
            for start in range(0, len(word), 3):
                found.add(word[start : start + 2])
                found.add(word[start : start + 5])
    return sorted(p for p in found if p.isalnum())


@settings(max_examples=200, deadline=None)
@given(data=st.data(), read_left=st.sampled_from([0, 3, abstract_scan._READ_LEFT]))
def test_a_piece_answers_like_every_plain_abstract_read(
    papers: list[Paper], index: SearchIndex, data, read_left: int
) -> None:
    # Both ways: the plain papers no common token covers read one by one (up to `_READ_LEFT`
    # of them), or every token holding the piece ORed.
    piece = data.draw(st.sampled_from(pieces(papers)) | st.text("abcdeilnorst019", min_size=1))
    scan = AbstractScan(papers, index)
    before = abstract_scan._READ_LEFT
    abstract_scan._READ_LEFT = read_left
    try:
        found = bits_to_ids(scan._containing(piece))
    finally:
        abstract_scan._READ_LEFT = before
    plain = [i for i, p in enumerate(papers) if not scan.is_marked(i)]
    assert found == [i for i in plain if piece in fold_text(papers[i].abstract)]
    # And the whole answer, marked-up abstracts too, is the full scan's.
    assert scan.ids(piece) == reference(papers, piece)


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(0, 300),
    postings=st.lists(st.lists(st.integers(0, 320), max_size=40), min_size=1, max_size=8),
)
def test_sparse_postings_or_like_a_set(size: int, postings: list[list[int]]) -> None:
    views = [memoryview(array("I", ids).tobytes()).cast("I") for ids in postings]
    every = {i for ids in postings for i in ids if i < size}
    assert views_to_bits(views, size) & ((1 << size) - 1) == ids_to_bits(sorted(every), size)


def test_authors_are_not_among_the_letters(warmed: SearchEngine, papers: list[Paper]) -> None:
    # `author:'d` reads the authors: no table of its own, the scan's answer.
    expected = [i for i, p in enumerate(papers) if "d" in fold_text(authors_text(p.authors))]
    assert list(warmed.substring_ids("authors", "d")) == expected


@settings(max_examples=60, deadline=None)
@given(
    query=st.sampled_from(["graph neural", "'di", "diffusion model", "'d graph", "trans|graph"]),
    after=st.integers(0, 8),
)
def test_a_cancelled_search_keeps_nothing(papers: list[Paper], query: str, after: int) -> None:
    # Given up after `after` of its steps, then searched again: the same hits as an engine that
    # never saw it.
    engine = SearchEngine(papers)
    asked = 0

    def cancelled() -> bool:
        nonlocal asked
        asked += 1
        return asked > after

    try:
        engine.results(query, {}, cancelled)
    except SearchCancelled:
        assert query not in engine._results
    again = [h.paper_id for h in engine.search(query, {})]
    assert again == [h.paper_id for h in SearchEngine(papers).search(query, {})]


def test_a_search_asks_between_its_steps(papers: list[Paper]) -> None:
    engine = SearchEngine(papers)
    with pytest.raises(SearchCancelled):
        engine.results("graph neural network", {}, lambda: True)
    asked: list[int] = []
    engine.results("graph neural network", {}, lambda: bool(asked.append(1)))
    assert len(asked) >= 4  # each term, and around the ranking


def test_the_warm_up_pauses_between_small_steps(papers: list[Paper]) -> None:
    paused: list[int] = []
    engine = SearchEngine(papers)
    engine.warm_tables(pause=lambda: paused.append(1))
    assert len(paused) > len(LETTERS)  # at least one step per letter, and the tables
    cold = SearchEngine(papers)
    for query in ("'d", "^gr", "title:'a", "'diffusion"):
        assert [h.paper_id for h in engine.search(query, {})] == [
            h.paper_id for h in cold.search(query, {})
        ]


def head_pieces(papers: list[Paper]) -> list[str]:
    """Runs of letters and digits of the names and titles (as shown and as written), and parts."""
    found: set[str] = set()
    for paper in papers:
        for field in ("name", "title"):
            for word in forms(paper, field).split():
                for start in range(0, len(word), 2):
                    for length in (2, 3, 6):
                        found.add(word[start : start + length])
    return sorted(p for p in found if len(p) > 1 and p.isalnum())


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_word_part_in_names_and_titles_answers_like_the_scan(
    papers: list[Paper], warmed: SearchEngine, data
) -> None:
    # From the index (marked-up titles read): the same papers as reading every name and title.
    value = data.draw(st.sampled_from(head_pieces(papers)) | st.text("abdeiklnorst2", min_size=2))
    for field in ("name", "title"):
        expected = [i for i, p in enumerate(papers) if value in forms(p, field)]
        assert bits_to_ids(warmed.substring_bits(field, value)) == expected
        assert list(warmed.substring_ids(field, value)) == expected  # the scan itself


def test_the_postings_left_in_the_file_name_the_same_common_tokens(
    papers: list[Paper], tmp_path
) -> None:
    # `papershelf list` reads postings in place (`FilePostings`): the same dense tokens, and the
    # same papers for a piece, as the postings held in memory.
    from papershelf.storage.search import index_file
    from papershelf.storage.search.index import INDEXED_FIELDS, fingerprint

    held = SearchIndex.build(papers)
    path = tmp_path / "search-index.bin"
    assert held.save(path)
    lazy = index_file.open_lazy(path, fingerprint(papers))
    assert lazy is not None
    try:
        for field in INDEXED_FIELDS:
            assert list(lazy.index.postings[field].dense_tids()) == list(
                held.postings[field].dense_tids()
            )
            tids = held.vocabulary.containing("di")
            assert lazy.index.tids_bits(field, tids) == held.tids_bits(field, tids)
        assert AbstractScan(papers, lazy.index).ids("di") == reference(papers, "di")
    finally:
        lazy.close()


def test_the_warm_up_converts_few_abstracts_between_two_pauses() -> None:
    """Converting a LaTeX abstract as shown is the warm-up's dearest step (~0.15 ms each at
    100k papers): at most `_PAUSE_EVERY_SHOWN` of them between two pauses, else a key typed
    meanwhile shares the interpreter with a 150 ms step. The flags' pass over every paper is
    paced too."""
    from papershelf.storage.ingest.parse import paper_id

    papers = [
        Paper(
            id=paper_id(text),
            name=f"P{i}",
            title=None,
            abstract=text,
            venue="ICML 2025",
            sources=(),
        )
        for i in range(300)
        for text in [f"We bound $x_{i}^2$ and \\alpha{i} in {'plain' if i % 3 else 'math'} {i}."]
    ]
    converted: list[int] = [0]
    gaps: list[int] = []
    real = abstract_scan.shown_text

    def counting(text: str) -> str:
        converted[0] += 1
        return real(text)

    def pause() -> None:
        gaps.append(converted[0])
        converted[0] = 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(abstract_scan, "shown_text", counting)
        engine = SearchEngine(papers)
        engine.warm_tables(pause=pause)
    assert sum(gaps) >= 300  # every abstract was converted while pausing
    assert max(gaps) <= abstract_scan._PAUSE_EVERY_SHOWN
