"""The caches answer exactly like the papers.json they came from (issue #14, part 4).

For generated libraries (names, titles and abstracts of ML words, LaTeX, Markdown emphasis,
accents, URLs), written as the Library writes them: papers.cache gives back every paper field
for field as papers.json read with no cache does; `papershelf list`'s fast path (papers.cache's
listed columns, search-index.bin's postings left in the file, listing.cache's folded
abstracts) holds each paper's listed fields and finds, ranks and scores every query exactly as
an engine over the papers read from papers.json alone.
"""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import papershelf.storage.library.papers_cache as papercache
import papershelf.storage.search.listing as listing
from papershelf.storage.files.layout import LISTING_FILE, PAPERS_CACHE, SEARCH_CACHE
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.parse import fold_text
from papershelf.storage.text.titles import shown_text

WORDS = (
    "diffusion",
    "Diffusion",
    "graph",
    "transformer",
    "policy",
    "naïve",
    "Æther",
    "$\\alpha$",
    "$K^2$IE",
    "**Bold**",
    "_emph_",
    "x_1",
    "\\textbf{Net}",
    "model",
    "models",
    "—",
    "2025",
    "https://github.com/a/b",
)
QUERY_WORDS = ("diffusion", "difusion", "graph", "trans", "alpha", "k2ie", "aether", "net")

phrase = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)
paper = st.builds(
    Paper,
    id=st.text("0123456789abcdef", min_size=12, max_size=12),
    name=phrase,
    title=st.none() | phrase,
    abstract=phrase,
    venue=st.none() | st.sampled_from(["ICML 2025", "ICLR 2024"]),
    sources=st.just(("generated.jsonl",)),
    code_urls=st.lists(st.sampled_from(["https://github.com/a/b", "https://x.org/c"]), max_size=2)
    .map(dict.fromkeys)
    .map(tuple),
    links=st.lists(st.sampled_from(["https://example.org/p", "https://x.org/c"]), max_size=2)
    .map(dict.fromkeys)
    .map(tuple),
    url=st.none() | st.sampled_from(["https://example.org/p", "https://example.org/q"]),
    authors=st.lists(st.sampled_from(["Ada Lovelace", "Alan Turing", "Grace Hopper"]), max_size=3)
    .map(dict.fromkeys)
    .map(tuple),
    year=st.none() | st.integers(1990, 2030),
)
queries = st.lists(
    st.one_of(
        st.sampled_from(QUERY_WORDS),
        st.sampled_from(QUERY_WORDS).map(lambda word: "'" + word),
        st.sampled_from(QUERY_WORDS).map(lambda word: "^" + word[:3]),
        st.sampled_from(['"diffusion model"', "!graph", "has:code", "has:links", "d", "'d"]),
    ),
    min_size=1,
    max_size=3,
).map(" ".join)


def answers(engine: SearchEngine, query: str) -> list[tuple[str, float, str]]:
    return [(hit.paper_id, hit.score, hit.field) for hit in engine.results(query, {})]


@settings(max_examples=30)
@given(papers=st.lists(paper, min_size=1, max_size=12, unique_by=lambda p: p.id), data=st.data())
def test_the_caches_answer_like_papers_json(
    tmp_path_factory: pytest.TempPathFactory, papers: list[Paper], data: st.DataObject
) -> None:
    base = tmp_path_factory.mktemp("answers")
    root = base / "lib"
    library = Library.open(root, seed=False)
    library.import_papers(papers, "generated.jsonl")
    # The full `list` writes search-index.bin and listing.cache for papers.json as it is.
    reader = Library.open(root, seed=False, read_only=True)
    listing.open_engine(
        root, reader.papers_key, reader.papers(), places=reader.abstract_places
    ).results("x", {})

    # papers.json alone, read by a library that has no cache at all.
    bare = base / "bare"
    bare.mkdir()
    for name in ("papers.json", "state.json"):
        if (root / name).exists():
            shutil.copy2(root / name, bare / name)
    truth = list(Library.open(bare, seed=False, read_only=True).papers())
    assert not (bare / LISTING_FILE).exists() and not (bare / SEARCH_CACHE).exists()

    key = reader.papers_key
    assert key is not None
    cached = papercache.load(root / PAPERS_CACHE, key, root / "papers.json")
    assert cached is not None
    assert [p.to_dict() for p in cached[0]] == [p.to_dict() for p in truth]

    full = SearchEngine(truth)
    shelf = listing.load(root)
    assert shelf is not None
    with shelf:
        for mine, theirs in zip(shelf.papers, truth, strict=True):
            for field in (*listing.FIELDS, "links_with_page"):
                assert getattr(mine, field) == getattr(theirs, field), field
        fast = shelf.engine()
        for query in data.draw(st.lists(queries, min_size=1, max_size=4)):
            assert answers(fast, query) == answers(full, query), query
        assert [p.abstract for p in shelf.papers] == [
            fold_text(shown_text(p.abstract)) for p in truth
        ]
