"""The search engine: every operator, combinations, ranking, spans, helpers, update and cache."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import papershelf.storage.search.engine as query_module
from papershelf.storage.errors import QueryError
from papershelf.storage.model import Entry, Paper
from papershelf.storage.search.engine import (
    Hit,
    SearchEngine,
    field_text,
    highlight_spans,
    parse_query,
    snippet,
)
from papershelf.storage.search.postings import bits_to_ids, ids_to_bits


def paper(pid: str, name: str, title: str | None, abstract: str, **kw) -> Paper:
    kw.setdefault("venue", None)
    return Paper(id=pid, name=name, title=title, abstract=abstract, sources=("t.txt",), **kw)


PAPERS = [
    paper(
        "p0",
        "MCTD",
        "Monte Carlo Tree Diffusion for System 2 Planning",
        "We propose Monte Carlo Tree Diffusion, combining diffusion models with tree search.",
        venue="ICML 2025",
        code_urls=("https://github.com/a/mctd",),
    ),
    paper(
        "p1",
        "RelGNN",
        "RelGNN: Composite Message Passing for Relational Deep Learning",
        "Relational deep learning encodes databases as graphs; a transformer baseline is weaker.",
        venue="ICML 2025",
    ),
    paper(
        "p2",
        "Vision Transformers",
        None,
        "Vision transformers need registers. We mask tokens with [MASK] and study [/] artifacts.",
        venue="ICLR 2024",
        links=("https://example.org",),
    ),
    paper(
        "p3",
        "SafeDiffCon",
        "Safe Diffusion Control",
        "A physics-constrained controller; planning under uncertainty for robots.",
        venue="NeurIPS 2024",
    ),
    paper(
        "p4",
        "Plain paper",
        "Learning rates for stochastic gradient descent",
        "We analyse step sizes. Nothing about generative models here.",
        venue=None,
    ),
]

ENTRIES = {
    "p1": Entry(tags=frozenset({"graphs", "to-read"}), status="reading"),
    "p2": Entry(status="read", starred=True, note="registers explain the attention artefacts"),
    "p4": Entry(tags=frozenset({"optimisation"})),
}


@pytest.fixture(scope="module")
def engine() -> SearchEngine:
    return SearchEngine(PAPERS)


def ids(engine: SearchEngine, query: str, entries=None) -> list[str]:
    return [hit.paper_id for hit in engine.search(query, ENTRIES if entries is None else entries)]


# --- plain words -----------------------------------------------------------------------------


def test_empty_and_blank_queries_list_every_paper_in_library_order(engine):
    for query in ("", "   ", "\t\n", "!", "'", "^ #"):
        hits = engine.search(query, ENTRIES)
        assert [h.paper_id for h in hits] == [p.id for p in PAPERS]
        assert {h.score for h in hits} == {0.0}
        assert {h.field for h in hits} == {""}


def test_words_are_anded_in_any_order(engine):
    assert ids(engine, "diffusion tree") == ["p0"]
    assert ids(engine, "tree diffusion") == ["p0"]
    assert set(ids(engine, "diffusion")) == {"p0", "p3"}


def test_typos_match(engine):
    assert ids(engine, "difusion tree") == ["p0"]
    assert "p1" in ids(engine, "trasnformer")  # transposition
    assert "p2" in ids(engine, "trasnformer")
    assert ids(engine, "plannign robots") == ["p3"]


def test_typo_hit_reports_the_papers_word(engine):
    hit = engine.search("difusion", {})[0]
    assert "Diffusion" in hit.terms or "diffusion" in hit.terms
    assert all("difusion" not in term.lower() for term in hit.terms)


def test_prefixes_match_while_typing(engine):
    for typed in ("d", "di", "dif", "diff", "diffu", "diffusion"):
        assert {"p0", "p3"} <= set(ids(engine, typed)), typed


def test_short_words_need_no_typo_tolerance(engine):
    # Below four letters no typo; four letters only when no word starts so (then a typo is
    # likelier than nothing: `tred` is "tree"); a word that starts one (`mont`) has none.
    assert ids(engine, "tre") == ["p0"]
    assert ids(engine, "tred") == ["p0"]
    assert ids(engine, "mont") == ["p0"]
    assert ids(engine, "stpe") == ["p4"]  # steps
    assert ids(engine, "mdel") == ["p0", "p4"]  # models
    assert ids(engine, "xree") == []  # never the first letter


def test_word_inside_a_name_matches(engine):
    # `gnn` inside RelGNN, `diffcon` inside SafeDiffCon (infix in name/title).
    assert ids(engine, "gnn")[0] == "p1"
    assert ids(engine, "diffcon") == ["p3"]


def test_tags_and_notes_are_searched_as_words(engine):
    assert ids(engine, "attention") == ["p2"]  # note only
    assert ids(engine, "optimisation") == ["p4"]  # tag only
    assert ids(engine, "attention", {}) == []  # entries come from the mapping passed in
    assert engine.search("attention", ENTRIES)[0].field == "note"


def test_punctuated_word_needs_each_part(engine):
    assert ids(engine, "physics-constrained") == ["p3"]
    assert ids(engine, "physics-unknownword") == []


# --- operators -------------------------------------------------------------------------------


def test_exact_substring(engine):
    assert ids(engine, "'former") == ["p2", "p1"]  # inside transformer(s); p2's name first
    assert ids(engine, "'difusion") == []  # exact: no typo tolerance
    assert ids(engine, "'[mask]") == ["p2"]
    assert ids(engine, "'GRADIENT descent") == ["p4"]


def test_quoted_phrase_is_exact(engine):
    assert ids(engine, '"tree search"') == ["p0"]
    assert ids(engine, '"search tree"') == []


def test_negation(engine):
    assert set(ids(engine, "!diffusion")) == {"p1", "p2", "p4"}
    assert ids(engine, "diffusion !planning") == []
    assert set(ids(engine, "!'former")) == {"p0", "p3", "p4"}
    assert ids(engine, "!#graphs transformer") == ["p2"]


def test_name_or_title_prefix(engine):
    assert ids(engine, "^rel") == ["p1"]
    assert ids(engine, "^safe diffusion") == ["p3"]
    assert ids(engine, "^relational") == []  # in the abstract, not at the start of name/title
    assert ids(engine, '^"monte carlo"') == ["p0"]


def test_alternatives(engine):
    assert set(ids(engine, "registers|robots")) == {"p2", "p3"}
    assert set(ids(engine, "registers | robots")) == {"p2", "p3"}
    assert ids(engine, "registers|robots planning") == ["p3"]


def test_tag_filter_by_equality_or_prefix(engine):
    assert ids(engine, "#graphs") == ["p1"]
    assert ids(engine, "tag:to-read") == ["p1"]
    assert ids(engine, "#to") == ["p1"]  # prefix, as while typing
    assert ids(engine, "#TO-READ") == ["p1"]  # normalised like stored tags
    assert ids(engine, "#graph|optimisation") == ["p1", "p4"]  # bare alternative keeps the key
    assert ids(engine, "#nosuchtag") == []


def test_status_filters(engine):
    assert ids(engine, "is:reading") == ["p1"]
    assert ids(engine, "is:read") == ["p2"]
    assert ids(engine, "is:starred") == ["p2"]
    assert ids(engine, "is:unread") == ["p0", "p3", "p4"]  # missing ids are default entries
    assert ids(engine, "is:read|reading") == ["p1", "p2"]
    assert ids(engine, "is:s") == ["p2"]  # a unique prefix is enough
    assert ids(engine, "!is:unread") == ["p1", "p2"]


def test_has_filters(engine):
    assert ids(engine, "has:code") == ["p0"]
    assert ids(engine, "has:links") == ["p2"]
    assert ids(engine, "has:note") == ["p2"]
    assert ids(engine, "has:tags") == ["p1", "p4"]
    assert ids(engine, "!has:code diffusion") == ["p3"]


def test_venue_filter_ignores_case_and_spaces(engine):
    for query in ("venue:icml", "venue:ICML2025", 'venue:"icml 2025"', "venue:2025"):
        assert ids(engine, query) == ["p0", "p1"], query
    assert ids(engine, "venue:neurips|iclr") == ["p2", "p3"]
    assert ids(engine, "venue:aaai") == []


def test_combination_of_every_kind(engine):
    query = "diffusion|transformer !'registers venue:icml has:code ^monte is:unread"
    assert ids(engine, query) == ["p0"]


def test_unknown_values_are_reported_and_match_nothing(engine):
    query = parse_query("is:bogus diffusion")
    assert query.errors and "bogus" in query.errors[0]
    assert engine.search(query, ENTRIES) == []
    with pytest.raises(QueryError, match="bogus"):
        query.check()
    assert parse_query("has:code").check().errors == ()
    assert parse_query("#" + "x" * 100).errors  # too long for a tag


def test_unknown_key_is_a_plain_word(engine):
    assert parse_query("arxiv:2401").clauses[0][0].kind == "word"


# --- ranking ---------------------------------------------------------------------------------


def test_name_and_title_hits_rank_above_abstract_hits():
    papers = [
        paper("a", "Other", "Something else", "We use a diffusion model somewhere in here."),
        paper("b", "Diffusion", "Diffusion Everywhere", "Nothing more."),
        paper("c", "Third", "Difusion typo title", "Irrelevant text."),
    ]
    engine = SearchEngine(papers)
    hits = engine.search("diffusion", {})
    assert [h.paper_id for h in hits] == ["b", "c", "a"]
    assert [h.field for h in hits] == ["name", "title", "abstract"]
    assert hits[0].score > hits[1].score > hits[2].score


def test_exact_word_ranks_above_typo_and_ties_keep_library_order():
    papers = [
        paper("a", "n1", "Planning", "x"),
        paper("b", "n2", "Planing", "x"),
        paper("c", "n3", "Planning again", "x"),
    ]
    hits = SearchEngine(papers).search("planning", {})
    assert [h.paper_id for h in hits] == ["a", "c", "b"]


def test_more_fields_matching_more_words_rank_first(engine):
    hits = engine.search("diffusion planning", ENTRIES)
    assert [h.paper_id for h in hits] == ["p0", "p3"]  # both words in p0's title


def test_no_cap_on_results():
    papers = [
        paper(f"x{i}", f"n{i}", None, "graph learning" if i < 5000 else "other topic")
        for i in range(6000)
    ]
    engine = SearchEngine(papers)
    hits = engine.search("graph", {})
    assert len(hits) == 5000
    assert len({h.paper_id for h in hits}) == 5000
    assert len(engine.search("", {})) == 6000


# --- spans, terms, highlight, snippet --------------------------------------------------------


def test_spans_index_into_the_field_text_and_cover_the_matched_word(engine):
    hit = engine.search("difusion tree", ENTRIES)[0]
    p0 = PAPERS[0]
    for field, spans in hit.spans.items():
        text = field_text(p0, ENTRIES.get(p0.id, Entry()), field)
        for start, end in spans:
            assert text[start:end].lower() in {"diffusion", "tree"}
    title_spans = hit.spans["title"]
    assert [p0.title[s:e] for s, e in title_spans] == ["Tree", "Diffusion"]
    assert hit.field == "title"


def test_spans_for_exact_prefix_tag_and_note(engine):
    hit = engine.search("'former ^rel", ENTRIES)[0]
    assert hit.paper_id == "p1"
    abstract = PAPERS[1].abstract
    assert [abstract[s:e] for s, e in hit.spans["abstract"]] == ["former"]
    assert [PAPERS[1].name[s:e] for s, e in hit.spans["name"]] == ["Rel"]
    hit = engine.search(
        "artefacts graphs", {**ENTRIES, "p2": Entry(tags=frozenset({"graphs"}), note="artefacts")}
    )[0]
    assert hit.spans["note"] == ((0, 9),)
    assert hit.spans["tags"] == ((0, 6),)


def test_negated_words_are_not_highlighted(engine):
    hit = engine.search("transformer !registers", ENTRIES)[0]
    assert "registers" not in [t.lower() for t in hit.terms]


def test_hit_is_immutable_and_comparable():
    hit = Hit("p0", 1.0, "title", ("Tree",), {"title": ((0, 4),)})
    assert hit.terms == ("Tree",)
    assert hit.spans == {"title": ((0, 4),)}
    assert hit == Hit("p0", 1.0, "title", ("Tree",), {"title": ((0, 4),)})
    assert hit != Hit("p0", 1.0, "title")
    with pytest.raises(AttributeError):
        hit.score = 2.0  # type: ignore[misc]


def test_highlight_spans_on_other_text():
    display = "K²IE beats Diffusion-based planners; DIFFUSION again, diffusions"
    spans = highlight_spans(display, ["diffusion", "K²IE"])
    assert [display[s:e] for s, e in spans] == ["K²IE", "Diffusion", "DIFFUSION", "diffusion"]
    assert highlight_spans("banana", ["ana"]) == [(1, 6)]  # overlapping occurrences join
    assert highlight_spans("anything", []) == []
    assert highlight_spans("a.b", ["."]) == [(1, 2)]  # terms are literal, not patterns


def test_snippet_shows_context_with_ellipses():
    text = "We study " + "filler words " * 10 + "diffusion planning for robots " + "tail " * 20
    start = text.index("diffusion")
    result = snippet(text, (start, start + 9), width=40)
    assert "diffusion planning" in result
    assert result.startswith("…") and result.endswith("…")
    assert len(result) <= 40
    assert snippet("short text", (0, 5), width=60) == "short text"
    assert snippet("line one\nline two", (0, 4)) == "line one line two"
    long_match = "x" * 100
    assert len(snippet(long_match, (0, 100), width=20)) <= 20


# --- update and the index cache --------------------------------------------------------------


def test_update_after_an_import_finds_new_papers(engine):
    local = SearchEngine(PAPERS)
    assert local.search("holography", {}) == []
    added = paper("n1", "HoloNet", "Neural Holography", "Holography with neural networks.")
    local.update([*PAPERS, added])
    assert [h.paper_id for h in local.search("holography", {})] == ["n1"]
    assert [h.paper_id for h in local.search("holografy", {})] == ["n1"]  # typo, new token
    assert ids(local, "difusion tree") == ["p0"]  # old papers still found
    # A changed library (not an append) is rebuilt.
    local.update([added, PAPERS[0]])
    assert [h.paper_id for h in local.search("", {})] == ["n1", "p0"]
    assert ids(local, "diffusion", {}) == ["p0"]


def test_incremental_update_equals_rebuild():
    extra = [
        paper(f"e{i}", f"Extra{i}", f"Graph diffusion {i}", "transformers again") for i in range(40)
    ]
    grown = SearchEngine(PAPERS)
    grown.update([*PAPERS, *extra])
    fresh = SearchEngine([*PAPERS, *extra])
    for query in ("diffusion", "graph", "trasnformers", "extra1", "^extra", "'again", "tree"):
        assert [(h.paper_id, h.score) for h in grown.search(query, {})] == [
            (h.paper_id, h.score) for h in fresh.search(query, {})
        ], query


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "search-index.bin"
    first = SearchEngine.load(path, PAPERS)  # builds and saves
    assert path.exists()
    second = SearchEngine.load(path, PAPERS)
    for query in ("difusion", "graphs", "'former", "^rel"):
        assert [h.paper_id for h in first.search(query, ENTRIES)] == [
            h.paper_id for h in second.search(query, ENTRIES)
        ]


def test_stale_or_corrupt_cache_is_rebuilt(tmp_path):
    path = tmp_path / "search-index.bin"
    SearchEngine.load(path, PAPERS[:2])
    engine = SearchEngine.load(path, PAPERS)  # different papers: the old cache is not used
    assert ids(engine, "robots") == ["p3"]
    path.write_bytes(b"not an index")
    assert ids(SearchEngine.load(path, PAPERS), "robots") == ["p3"]


def test_unwritable_cache_is_not_an_error(tmp_path):
    path = tmp_path / "missing-dir" / "search-index.bin"
    assert ids(SearchEngine.load(path, PAPERS), "robots") == ["p3"]


def test_kept_results_follow_changes_to_the_entries_mapping():
    engine = SearchEngine(PAPERS)
    entries: dict[str, Entry] = {}
    assert ids(engine, "is:starred", entries) == []
    entries["p3"] = Entry(starred=True)  # changed in place, same mapping object
    assert ids(engine, "is:starred", entries) == ["p3"]
    hits = engine.search("diffusion", entries)
    hits.clear()  # the caller's list is its own
    assert len(engine.search("diffusion", entries)) == 2


# --- compact results -------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "diffusion", "difusion tree", "'former", "graph|plan"])
def test_results_are_the_search_hits_without_making_them_up_front(engine, query):
    results = engine.results(query, ENTRIES)
    hits = engine.search(query, ENTRIES)
    assert list(results) == hits
    assert results == hits
    assert len(results) == len(hits)
    assert [results[i] for i in range(len(results))] == hits
    assert results[1:3] == hits[1:3]
    if hits:
        assert results[-1] == hits[-1]
        assert results[0].spans_in("title") == hits[0].spans.get("title", ())
    for i, hit in enumerate(hits):
        assert results.paper_id(i) == hit.paper_id
        assert results.position(hit.paper_id) == i
        assert results.contains(hit.paper_id)
    missing = {p.id for p in PAPERS} - {hit.paper_id for hit in hits}
    for paper_id in [*missing, "no-such-id"]:
        assert not results.contains(paper_id)
        assert results.position(paper_id) is None
    with pytest.raises(IndexError):
        results[len(hits)]


@given(st.sets(st.integers(min_value=0, max_value=999)), st.integers(min_value=0, max_value=24))
def test_bitsets_round_trip_sparse_and_dense(ids, extra):
    size = 1000 + extra
    for form in (sorted(ids), ids, iter(sorted(ids))):
        bits = ids_to_bits(form, size)
        assert bits == sum(1 << i for i in ids)
        assert bits_to_ids(bits) == sorted(ids)


def test_venue_and_code_flags_are_made_only_when_a_filter_needs_them(engine, monkeypatch):
    # `papershelf list` builds an engine per process: a plain query skips the pass over every
    # paper that venue:/has: need.
    # The shared engine's answers first: it may make its own flags (when this test runs alone).
    wanted = {q: ids(engine, q) for q in ("diffusion", "has:code", "venue:icml has:code")}
    made: list[int] = []
    real = query_module._PaperFlags.of
    monkeypatch.setattr(
        query_module._PaperFlags,
        "of",
        lambda papers, pause=None: made.append(len(papers)) or real(papers, pause),
    )
    fresh = SearchEngine(engine.papers)
    assert ids(fresh, "diffusion") == wanted["diffusion"]
    assert made == []
    assert ids(fresh, "has:code") == wanted["has:code"]
    assert ids(fresh, "venue:icml has:code") == wanted["venue:icml has:code"]
    assert made == [len(engine.papers)]  # made once, then kept


def test_a_query_keeps_its_first_max_query_terms_terms() -> None:
    from papershelf.storage.search.parse import MAX_QUERY_TERMS

    words = [f"w{i}" for i in range(MAX_QUERY_TERMS + 10)]
    query = parse_query(" ".join(words))
    assert query.truncated
    assert query.notice == f"query cut to its first {MAX_QUERY_TERMS} words"
    assert [clause[0].value for clause in query.clauses] == words[:MAX_QUERY_TERMS]
    # A word's alternatives count as one word (the cache sweep query holds ~40 of them).
    alternatives = parse_query("|".join(words))
    assert not alternatives.truncated and len(alternatives.clauses[0]) == len(words)
    exact = parse_query(" ".join(words[:MAX_QUERY_TERMS]))
    assert not exact.truncated and exact.notice is None
    assert len(exact.clauses) == MAX_QUERY_TERMS
