"""Ranking by bitsets (`search.rank`) and results listed when read (`Results.add_later`) give
exactly the ranking worked out paper by paper (the engine's former loops, kept here as the
reference)."""

from __future__ import annotations

from functools import partial
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.search.highlight import FIELDS
from papershelf.storage.search.hits import NO_DETAILS, Results
from papershelf.storage.search.postings import bits_to_flags, bits_to_ids, ids_to_bits
from papershelf.storage.search.quality import Tier
from papershelf.storage.search.rank import add_group, add_ranked, best_fields, score_groups

SIZE = 300
IDS = tuple(f"p{i}" for i in range(SIZE))
POSITION = {paper_id: i for i, paper_id in enumerate(IDS)}

bitsets = st.sets(st.integers(0, SIZE - 1), max_size=SIZE).map(lambda ids: ids_to_bits(ids, SIZE))
tiers = st.builds(
    Tier,
    weight=st.sampled_from([3, 5, 9, 18, 24, 30, 72, 80, 90, 100]),
    field=st.sampled_from(FIELDS),
    bits=bitsets,
)
units = st.lists(
    st.lists(tiers, min_size=1, max_size=5).map(lambda u: sorted(u, key=lambda t: -t.weight)),
    min_size=2,
    max_size=4,
)


def reference(result: int, units: list[list[Tier]]) -> list[tuple[int, float, str]]:
    """Per paper: the sum of each unit's first tier's weight, the best tier's field, then a
    stable sort by score (the loops `SearchRun.run` had)."""
    total = [0] * SIZE
    for unit in units:
        assigned = 0
        for tier in unit:
            fresh = tier.bits & result & ~assigned
            assigned |= fresh
            for i in bits_to_ids(fresh):
                total[i] += tier.weight
    order = {field: n for n, field in enumerate(FIELDS)}
    best = [""] * SIZE
    done = 0
    every = sorted((t for u in units for t in u), key=lambda t: (-t.weight, order[t.field]))
    for tier in every:
        fresh = tier.bits & result & ~done
        done |= fresh
        for i in bits_to_ids(fresh):
            best[i] = tier.field
    ids = bits_to_ids(result)
    ids.sort(key=total.__getitem__, reverse=True)
    return [(i, float(total[i]), best[i]) for i in ids]


def ranked(hits: Results) -> list[tuple[int, float, str]]:
    return [(POSITION[hit.paper_id], hit.score, hit.field) for hit in hits]


@settings(max_examples=200, deadline=None)
@given(result=bitsets, units=units)
def test_score_groups_rank_as_the_per_paper_sums(result: int, units: list[list[Tier]]) -> None:
    fields = best_fields(result, [t for u in units for t in u], FIELDS)
    for every in (None, result):  # the union counted here, or given by the caller
        hits = Results(IDS, POSITION, NO_DETAILS)
        add_ranked(hits, score_groups(result, units), fields, SIZE, every)
        assert len(hits) == result.bit_count()
        assert hits.bits == result
        assert ranked(hits) == reference(result, units)


@settings(max_examples=200, deadline=None)
@given(result=bitsets, units=units, reads=st.lists(st.integers(-SIZE, SIZE), max_size=6))
def test_results_listed_when_read_answer_like_results_listed_at_once(
    result: int, units: list[list[Tier]], reads: list[int]
) -> None:
    later = Results(IDS, POSITION, NO_DETAILS)
    fields = best_fields(result, [t for u in units for t in u], FIELDS)
    add_ranked(later, score_groups(result, units), fields, SIZE)
    expected = reference(result, units)
    # Rows read in any order first (each lists only the groups up to it), then everything.
    for index in reads:
        if -len(expected) <= index < len(expected):
            row = later[index]
            assert (POSITION[row.paper_id], row.score, row.field) == expected[index]
            assert later.paper_id(index) == IDS[expected[index][0]]
    assert later.bits == result  # without listing any pending group
    for paper_id in IDS[:20]:
        found = later.position(paper_id)
        listed = [i for i, _, _ in expected]
        assert found == (listed.index(POSITION[paper_id]) if later.contains(paper_id) else None)
    assert list(later.indices) == [i for i, _, _ in expected]
    assert ranked(later) == expected


def test_a_group_of_interleaved_fields_keeps_library_order_in_runs() -> None:
    hits = Results(IDS, POSITION, NO_DETAILS)
    title, abstract = ids_to_bits([1, 2, 5], SIZE), ids_to_bits([3, 4, 6, 9], SIZE)
    add_group(hits, title | abstract, 30.0, [("title", title), ("abstract", abstract)], SIZE)
    assert [(POSITION[h.paper_id], h.field) for h in hits] == [
        (1, "title"),
        (2, "title"),
        (3, "abstract"),
        (4, "abstract"),
        (5, "title"),
        (6, "abstract"),
        (9, "abstract"),
    ]


def test_a_pending_group_is_listed_once_and_only_when_read() -> None:
    calls: list[int] = []
    hits = Results(IDS, POSITION, NO_DETAILS)

    def fill(ids: list[int], results: Results) -> None:
        assert results is hits  # handed the Results: the callable need not hold it
        calls.append(len(ids))
        results.add(ids, 1.0, "name")

    hits.add_later(ids_to_bits([7, 8], SIZE), partial(fill, [7, 8]))
    hits.add_later(ids_to_bits([2], SIZE), partial(fill, [2]))
    assert len(hits) == 3 and calls == []
    assert hits[1].paper_id == "p8"
    assert calls == [2]  # the second group is still pending
    assert hits[2].paper_id == "p2"
    assert [h.paper_id for h in hits] == ["p7", "p8", "p2"]
    assert calls == [2, 1]


def test_a_search_is_freed_without_a_full_collection() -> None:
    """A search's Results with groups still pending is no reference cycle: dropping it frees
    it at once. The app holds full collections off while keys come, so a cycle kept every
    search's bitsets (hundreds of MB at 100k papers) until the user paused."""
    import gc
    import weakref

    from papershelf.storage.model import Paper
    from papershelf.storage.search.engine import SearchEngine

    # 300 papers with the word in the title, 300 with it in the abstract: the search lists
    # the first screen and leaves the abstract group pending.
    papers = [
        Paper(
            id=f"p{i}",
            name=f"Model{i}",
            title="graph learning" if i < 300 else "other things",
            abstract="we study a graph" if i >= 300 else "nothing here",
            venue=None,
            sources=(),
        )
        for i in range(600)
    ]
    engine = SearchEngine(papers)
    gc.disable()
    try:
        hits = engine.results("graph", {})
        assert len(hits) == 600 and hits._pending  # a group left to list when read
        engine.clear_caches()  # the engine keeps recent results: drop them too
        freed = weakref.ref(hits._explainer)  # the search, which only its Results holds
        del hits
        assert freed() is None
    finally:
        gc.enable()


@given(ids=st.sets(st.integers(0, 2000)), size=st.integers(0, 2001))
def test_bits_to_flags_has_one_byte_a_paper(ids: set[int], size: int) -> None:
    bits = ids_to_bits(ids, 2001)
    flags = bits_to_flags(bits, size)
    assert len(flags) == size
    assert [i for i, flag in enumerate(flags) if flag] == sorted(i for i in ids if i < size)
    assert set(flags) <= {0, 1}


@settings(max_examples=100, deadline=None)
@given(
    ids=st.sets(st.integers(0, 9999), min_size=0, max_size=300),
    extra=st.sets(st.integers(0, 9999), min_size=0, max_size=3),
)
def test_bits_to_ids_lists_few_and_many_bits_alike(ids: set[int], extra: set[int]) -> None:
    """Up to `_FEW` bits are found one by one, more through `bin`: both in ascending order."""
    for found in (ids, extra, ids | extra):
        assert bits_to_ids(ids_to_bits(found, 10_000)) == sorted(found)


@settings(max_examples=150, deadline=None)
@given(
    group=st.sets(st.integers(0, SIZE - 1), min_size=1, max_size=SIZE),
    field_of=st.lists(st.sampled_from(FIELDS), min_size=SIZE, max_size=SIZE),
)
def test_add_group_lists_runs_of_one_field_in_library_order(
    group: set[int], field_of: list[str]
) -> None:
    """A few papers (each field looked up) and many (field codes as bytes) give the same
    rows, one `add` per run of one field."""
    fields = []
    for field in FIELDS:
        bits = ids_to_bits([i for i in group if field_of[i] == field], SIZE)
        if bits:
            fields.append((field, bits))
    hits = Results(IDS, POSITION, NO_DETAILS)
    add_group(hits, ids_to_bits(group, SIZE), 7.0, fields, SIZE)
    order = sorted(group)
    assert [(POSITION[h.paper_id], h.score, h.field) for h in hits] == [
        (i, 7.0, field_of[i]) for i in order
    ]
    runs = 1 + sum(field_of[a] != field_of[b] for a, b in pairwise(order))
    assert len(hits._ends) == runs
