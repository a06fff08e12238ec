"""The app on damaged caches (issue #10): papers.cache, search-index.bin or related-index.bin
changed in place (same size, mtime kept; a flipped bit, a changed character, a changed posting
or weight) change nothing the app shows, crash nothing, and the app's workers (the index and
the related index) write their caches anew."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cache_damage import (
    PAPERS_CACHE,
    RELATED,
    SEARCH,
    Damage,
    in_neighbour_weight,
    in_posting,
    in_section,
    in_text,
)
from keys import burst
from pilot_helpers import settle
from test_app import SIZE, first_ids

import papershelf.storage.library.papers_cache as papercache
import papershelf.storage.related.cache as related_cache
from papershelf.cli.main import main
from papershelf.storage.files.layout import SEARCH_CACHE, stat_key
from papershelf.storage.library.library import Library
from papershelf.storage.related.index import RelatedIndex
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.index import SearchIndex
from papershelf.tui.app import PapershelfApp

QUERIES = ("quokka", "wombat", "diffus", "'burrows", "has:code", "learning")

DAMAGES = [
    Damage(PAPERS_CACHE, "payload middle", "bit", in_section(PAPERS_CACHE, 0, 0.5)),
    Damage(PAPERS_CACHE, "a character", "char", in_text(PAPERS_CACHE, 0, b"ICML")),
    Damage(PAPERS_CACHE, "abstract places", "bit", in_section(PAPERS_CACHE, 2, 0.5)),
    Damage(SEARCH, "main middle", "bit", in_section(SEARCH, 0, 0.5)),
    Damage(SEARCH, "postings middle", "bit", in_section(SEARCH, 1, 0.5)),
    Damage(SEARCH, "posting of diffusion", "bit", in_posting(SEARCH, "diffusion", "data")),
    Damage(RELATED, "payload middle", "bit", in_section(RELATED, 0, 0.5)),
    Damage(RELATED, "a neighbour's weight", "byte", in_neighbour_weight),
]


def hits(engine: SearchEngine, query: str, library: Library) -> list[tuple[str, float]]:
    return [(hit.paper_id, hit.score) for hit in engine.results(query, library.entries())]


@pytest.mark.parametrize("damage", [pytest.param(d, id=f"{d.cache}:{d.where}") for d in DAMAGES])
async def test_the_app_answers_as_without_caches(library_root: Path, damage: Damage) -> None:
    root = library_root
    papers = Library.open(root, seed=False).papers()
    pid = papers[len(papers) // 2].id
    # Every cache written, then the answers they must not change.
    assert main(["--db", str(root), "list", "warm"]) == 0
    assert main(["--db", str(root), "related", pid]) == 0
    reference = Library.open(root, seed=False)
    fresh = SearchEngine(reference.papers())
    expected = {query: hits(fresh, query, reference) for query in QUERIES}
    related = RelatedIndex(reference.papers()).related(pid)
    assert related and any(expected.values())

    damage.apply(root, (root / damage.cache).read_bytes())
    library = Library.open(root, seed=False)
    assert [p.to_dict() for p in library.papers()] == [p.to_dict() for p in papers]
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        engine = app.search.engine
        assert engine is not None, "the index worker gave no engine"
        for query in QUERIES:
            assert hits(engine, query, library) == expected[query], query
        # What a user sees: a query typed in a burst lists the same papers.
        await burst(pilot, "slash", *"quokka|wombat")
        await settle(app, pilot)
        assert first_ids(app) == [pid for pid, _ in hits(fresh, "quokka|wombat", reference)]
        index = app.workflow.related_index
        assert index is not None
        assert index.related(pid) == related
        assert app.is_running
    # The workers wrote both caches anew: the next start loads them.
    key = stat_key(os.stat(root / "papers.json"))
    assert SearchIndex.load(root / SEARCH_CACHE, library.papers()) is not None
    assert related_cache.load(root, key, library.papers()) is not None
    cached = papercache.load(root / papercache.CACHE_FILE, key, root / "papers.json")
    assert cached is not None and cached[0] == list(library.papers())
