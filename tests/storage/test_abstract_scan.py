"""`search.abstract_scan`: exact terms find the same abstracts through the index as a scan of
every abstract's folded text did, without keeping that text for the plain ones; and so does a
scan loaded from the warm-tables cache (`search.warm_cache`)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper, stored_abstract
from papershelf.storage.search import warm_cache
from papershelf.storage.search.abstract_scan import AbstractScan
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.index import SearchIndex
from papershelf.storage.search.parse import fold_text
from papershelf.storage.text.titles import shown_text

# Abstracts whose shown text differs from what is written, next to plain ones that share words.
EXTRA = [
    "We join foo_bar_baz into one word when shown, and keep diffusion-based models apart.",
    r"Our $\alpha$-divergence bound uses K$^2$IE and \textbf{bold} claims about diffusion.",
    "**Emphasis** and *stars* --- with a dash --- around diffusion models.",
    "Déjà vu: Łukasz and Søren's œuvre on diffusion; naïve Bayes, ﬁne ligatures.",
    "Plain text about diffusion models, score matching and the model's (sub)spaces.",
    "Numbers 3.5x and 2026 models, a URL https://example.org/diffusion?x=1 and e-mail.",
]


def extra_papers() -> list[Paper]:
    return [
        Paper(
            id=f"extra{i:07d}", name=f"Extra{i}", title=None, abstract=text, venue=None, sources=()
        )
        for i, text in enumerate(EXTRA)
    ]


@pytest.fixture(scope="module")
def papers(tmp_path_factory: pytest.TempPathFactory) -> list[Paper]:
    """The bundled seeds and the extras, in a library, opened again so that their abstracts
    are read from papers.json (`caches.abstracts`)."""
    root = tmp_path_factory.mktemp("scan") / "lib"
    Library.open(root).import_papers(extra_papers(), "extra.txt")
    loaded = list(Library.open(root, seed=False).papers())
    assert all(stored_abstract(paper) is not None for paper in loaded)
    return loaded


@pytest.fixture(scope="module")
def scans(papers: list[Paper], tmp_path_factory: pytest.TempPathFactory) -> dict[str, AbstractScan]:
    """One scan of `papers` (building an index per example would take a minute), as read from
    the abstracts and as loaded from the warm-tables cache it was saved to."""
    index = SearchIndex.build(papers)
    engine = SearchEngine(papers, index)
    engine.warm()
    parts = engine.warm_parts()
    key = warm_cache.cache_key((1, 2, 3), engine.fingerprint)
    assert parts is not None and key is not None
    path = tmp_path_factory.mktemp("warm") / warm_cache.WARM_CACHE
    assert warm_cache.save(path, key, parts)
    loaded = warm_cache.load(path, key, len(papers))
    assert loaded is not None
    return {
        "read": engine.abstract_scan(),
        "loaded": AbstractScan.restored(papers, index, loaded.scan),
    }


def reference(papers: list[Paper], value: str) -> list[int]:
    """What the folded copy of every abstract answered."""
    return [i for i, p in enumerate(papers) if value in fold_text(shown_text(p.abstract))]


def pieces_of(papers: list[Paper]) -> list[str]:
    """Pieces of the abstracts as an exact term sees them: words, word parts, word pairs,
    punctuation and spaces."""
    found: set[str] = set()
    for paper in papers[:: max(1, len(papers) // 12)] + papers[-len(EXTRA) :]:
        text = fold_text(shown_text(paper.abstract))
        for start in range(0, len(text), 17):
            for length in (1, 2, 3, 5, 9, 14):
                found.add(text[start : start + length])
    return sorted(found)


@pytest.mark.parametrize("made", ["read", "loaded"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_scan_answers_like_every_abstract_folded(
    papers: list[Paper], scans: dict[str, AbstractScan], made: str, data
) -> None:
    scan = scans[made]
    value = data.draw(st.sampled_from(pieces_of(papers)) | st.text(max_size=4))
    expected = reference(papers, value)
    assert scan.ids(value) == expected
    # Narrowed to a shorter value's papers (typing one key at a time), the answer is the same.
    if len(value) > 1:
        assert scan.ids(value, reference(papers, value[:-1])) == expected
        assert scan.ids(value, reference(papers, value[1:])) == expected


@pytest.mark.parametrize(
    "value",
    [
        "diffusion",
        "foobarbaz",
        "k2ie",
        "alpha",
        "deja",
        "lukasz",
        "fine",
        "diffusion model",
        "-",
        "'s",
        "divergence",
        "bold",
        "emphasis",
        "stars",
        "3.5x",
        "?x=1",
        "",
        "zzzz",
    ],
)
def test_values_whose_shown_text_differs(papers: list[Paper], value: str) -> None:
    scan = AbstractScan(papers, SearchIndex.build(papers))
    assert scan.ids(value) == reference(papers, value)


def test_plain_abstracts_are_not_kept(papers: list[Paper]) -> None:
    scan = AbstractScan(papers, SearchIndex.build(papers))
    plain = [i for i, p in enumerate(papers) if not scan.is_marked(i)]
    assert plain  # most of them
    assert all(
        "_" in p.abstract
        or "$" in p.abstract
        or "*" in p.abstract
        or "\\" in p.abstract
        or "---" in p.abstract
        for i, p in enumerate(papers)
        if scan.is_marked(i)
    )


@pytest.mark.parametrize(
    "query",
    [
        "'diffusion",
        "'diffusion model",
        "'bar",
        "'k2ie",
        "'de",
        "'s",
        "abstract:'divergence",
        "'-",
        "'lukasz 'fine",
    ],
)
def test_the_engine_searches_alike_both_ways(papers: list[Paper], query: str) -> None:
    """The engine over the library's papers uses the scan; with every abstract folded (the
    listing's way) it gives the same hits in the same order."""
    scanned = SearchEngine(papers)
    assert scanned._scans_abstracts()
    folded = SearchEngine(papers)
    folded._lower("abstract")
    assert not folded._scans_abstracts()
    assert [h.paper_id for h in scanned.search(query, {})] == [
        h.paper_id for h in folded.search(query, {})
    ]
    assert scanned.search(query, {})  # each query finds something
