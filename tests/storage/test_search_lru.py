"""The engine's per-query caches stay bounded however many distinct queries are typed
(`search.lru.Lru`, used by the engine, the index and the vocabulary)."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.model import Paper
from papershelf.storage.search import engine as engine_module
from papershelf.storage.search import index as index_module
from papershelf.storage.search import vocabulary as vocabulary_module
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.lru import Lru

operations = st.lists(
    st.tuples(st.sampled_from(["put", "get"]), st.integers(0, 12), st.integers(0, 40)),
    max_size=80,
)


@given(operations, st.integers(0, 100), st.integers(1, 6))
def test_lru_keeps_the_most_recent_values_within_its_bounds(
    ops: list[tuple[str, int, int]], max_bytes: int, max_entries: int
) -> None:
    """Against a plain model: the most recently used values that fit, oldest dropped first."""
    cache: Lru[int, int] = Lru(max_bytes, max_entries, lambda value: value)
    model: OrderedDict[int, int] = OrderedDict()
    for op, key, value in ops:
        if op == "put":
            assert cache.put(key, value) == value
            model.pop(key, None)
            if value <= max_bytes:
                model[key] = value
                while sum(model.values()) > max_bytes or len(model) > max_entries:
                    model.popitem(last=False)
        else:
            assert cache.get(key) == model.get(key)
            if key in model:
                model.move_to_end(key)
        assert cache.nbytes == sum(model.values()) <= max_bytes
        assert len(cache) == len(model) <= max_entries
        assert all(key in cache for key in model)


WORDS = [
    "graph",
    "diffusion",
    "transformer",
    "kernel",
    "spectral",
    "bayesian",
    "sparse",
    "robust",
    "causal",
    "neural",
    "attention",
    "federated",
    "quantum",
    "tensor",
    "manifold",
    "contrastive",
    "reinforcement",
    "latent",
]


def _papers(count: int) -> list[Paper]:
    papers = []
    for i in range(count):
        words = [WORDS[(i * k + k) % len(WORDS)] for k in range(1, 6)]
        papers.append(
            Paper(
                id=f"p{i:05d}",
                name=f"{words[0].title()}Net{i}",
                title=" ".join(words[:3]) + f" {i}",
                abstract=" ".join(words) + f" models of order {i % 97}, with $\\alpha_{i % 5}$.",
                venue="ICML 2025",
                sources=(),
            )
        )
    return papers


def _queries(count: int) -> list[str]:
    """Distinct queries of every kind: words (and typos), exact terms, prefixes, several words."""
    queries = []
    for i in range(count):
        word = WORDS[i % len(WORDS)]
        other = WORDS[(i * 7 + 3) % len(WORDS)]
        cut = 1 + i % len(word)
        queries += [
            f"{word[:cut]}{i}",
            f"'{word[: 1 + i % 4]}{i % 10}",
            f"^{word[:cut]}",
            f"{word} {other[: 1 + i % 5]} order{i}",
            f"'{other[i % 3 :]}",
            f"'{word[: 1 + i % 3]}-{i % 10}",  # not one run of letters: names and titles read
        ]
    return queries


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets small enough that a few hundred papers' bitsets reach them."""
    monkeypatch.setattr(engine_module, "_RESULT_CACHE_BYTES", 8 << 10)
    monkeypatch.setattr(engine_module, "_SUBSTRING_CACHE_BYTES", 4 << 10)
    monkeypatch.setattr(index_module, "_WORD_CACHE_BYTES", 16 << 10)
    monkeypatch.setattr(index_module, "_CONTAINING_CACHE_BYTES", 4 << 10)
    monkeypatch.setattr(index_module, "_GROUP_CACHE_BYTES", 4 << 10)
    monkeypatch.setattr(vocabulary_module, "_CONTAINING_CACHE_BYTES", 1 << 10)


def _caches(engine: SearchEngine) -> dict[str, Lru[object, object]]:
    index = engine._index
    return {
        "results": engine._results,
        "substrings": engine._substrings,
        "scanned": engine._scanned,
        "word parts": engine._word_parts,
        "words": index._words,
        "containing": index._containing,
        "groups": index._group_cache,
        "vocabulary": index.vocabulary._containing,
    }


def test_the_engines_caches_stay_bounded_by_bytes(small_budgets: None) -> None:
    engine = SearchEngine(_papers(1500))
    engine.warm()
    caches = _caches(engine)
    peak = dict.fromkeys(caches, 0)
    for query in _queries(120):
        hits = engine.results(query, {})
        list(hits)  # every group listed: the results as large as they get
        for name, cache in caches.items():
            assert cache.nbytes <= cache.max_bytes, (name, query)
            assert len(cache) <= cache.max_entries, (name, query)
            peak[name] = max(peak[name], cache.nbytes)
    # Each cache was used, and was full at some point (the bound is what held it).
    for name, cache in caches.items():
        assert peak[name] > cache.max_bytes // 2, name


def test_the_engines_caches_stay_bounded_by_entries() -> None:
    engine = SearchEngine(_papers(300))
    caches = _caches(engine)
    for query in _queries(300):
        engine.results(query, {})
    for name, cache in caches.items():
        assert len(cache) <= cache.max_entries, name
        assert cache.nbytes <= cache.max_bytes, name
    # Many more distinct searches and words than these caches keep: full, not grown.
    assert len(caches["results"]) == caches["results"].max_entries
    assert len(caches["words"]) == caches["words"].max_entries


def test_answers_do_not_depend_on_what_the_caches_kept(small_budgets: None) -> None:
    """A search answered after its cached tables were dropped is the same search."""
    papers = _papers(600)
    bounded = SearchEngine(papers)
    queries = _queries(40)
    first = {query: [hit.paper_id for hit in bounded.results(query, {})] for query in queries}
    for query in reversed(queries):  # most of them dropped from the caches by now
        assert [hit.paper_id for hit in bounded.results(query, {})] == first[query], query
    fresh = SearchEngine(papers)
    for query in queries[::7]:
        fresh.clear_caches()
        assert [hit.paper_id for hit in fresh.results(query, {})] == first[query], query
