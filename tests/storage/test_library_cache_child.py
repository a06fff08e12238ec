"""`storage.library.cache_child`: the related index built and saved by a child process,
loaded only when it is the papers' (a stale key, a cancel or a missing library save nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from papershelf.storage.files.layout import SEARCH_CACHE
from papershelf.storage.library.cache_child import build_in_child
from papershelf.storage.library.library import Library
from papershelf.storage.related.cache import RELATED_CACHE, load
from papershelf.storage.related.index import RelatedIndex
from papershelf.storage.search import warm_cache
from papershelf.storage.search.engine import SearchEngine

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


@pytest.fixture
def library(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "library", seed=False)
    library.import_files(sorted(SEEDS.glob("*.txt")))
    assert library.papers_key is not None and len(library.papers()) > 10
    return library


def test_the_child_saves_the_index_the_papers_would_build(library: Library) -> None:
    heard: list[tuple[int, int]] = []
    key = library.papers_key
    assert key is not None
    assert build_in_child(
        "related", library.root, key, lambda done, total: heard.append((done, total))
    )
    loaded = load(library.root, key, library.papers())
    assert loaded is not None
    here = RelatedIndex(library.papers())
    for paper in library.papers():
        assert loaded.related(paper.id) == here.related(paper.id)
    assert heard and heard[-1][0] == heard[-1][1]  # its progress, to the end


def test_a_child_asked_for_another_papers_json_saves_nothing(library: Library) -> None:
    key = library.papers_key
    assert key is not None
    stale = (key[0] - 1, key[1], key[2])  # papers.json replaced since these papers were read
    assert not build_in_child("related", library.root, stale)
    assert not (library.root / RELATED_CACHE).exists()


def test_a_cancelled_child_is_ended_before_it_saves(library: Library) -> None:
    key = library.papers_key
    assert key is not None
    assert not build_in_child("related", library.root, key, cancelled=lambda: True)
    assert not (library.root / RELATED_CACHE).exists()


def test_a_child_on_a_directory_without_a_library_saves_nothing(tmp_path: Path) -> None:
    assert not build_in_child("related", tmp_path, (1, 2, 3))
    assert list(tmp_path.iterdir()) == []


def test_a_warm_child_saves_the_tables_the_engine_would_make(library: Library) -> None:
    key = library.papers_key
    assert key is not None
    papers = library.papers()
    SearchEngine(papers).save(library.root / SEARCH_CACHE)
    heard: list[tuple[int, int]] = []
    assert build_in_child("warm", library.root, key, lambda d, t: heard.append((d, t)))
    assert heard[-1] == (1, 1)
    here = SearchEngine(papers)
    here.warm_tables(abstracts=True)
    cache_key = warm_cache.cache_key(key, here.fingerprint)
    assert cache_key is not None
    parts = warm_cache.load(library.root / warm_cache.WARM_CACHE, cache_key, len(papers))
    assert parts is not None
    made = here.warm_parts()
    assert made is not None
    assert parts.letters == made.letters and parts.size == made.size
    adopter = SearchEngine(papers)
    assert adopter.adopt_warm(parts)
    for query in ("'di", "'tion", "'e", "^dif", "'model"):
        assert [h.paper_id for h in adopter.search(query, {})] == [
            h.paper_id for h in here.search(query, {})
        ]


def test_a_warm_child_without_the_papers_search_index_saves_nothing(library: Library) -> None:
    key = library.papers_key
    assert key is not None
    assert not build_in_child("warm", library.root, key)  # no search-index.bin: not its job
    assert not (library.root / warm_cache.WARM_CACHE).exists()
    assert not (library.root / SEARCH_CACHE).exists()


def test_an_unknown_kind_is_refused(library: Library) -> None:
    key = library.papers_key
    assert key is not None
    with pytest.raises(ValueError):
        build_in_child("listing", library.root, key)
