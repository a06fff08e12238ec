"""`search-index.bin`: saved with a checksum, never trusted without it, and never a crash even
when damage gets past the checksum by chance (resealed here: the checksum made to match)."""

from __future__ import annotations

import tempfile
from array import array
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.ingest.parse import read_file
from papershelf.storage.model import Paper
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.index import INDEXED_FIELDS, SearchIndex, fingerprint
from papershelf.storage.search.postings import FieldPostings, bitset_words

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "search" / "abstracts.jsonl"
QUERIES = ("diffusion", "graph", "transf", "difusion", "learning model", "gnn", "'policy")


@pytest.fixture(scope="module")
def papers() -> Sequence[Paper]:
    return read_file(FIXTURE).papers


@pytest.fixture(scope="module")
def saved(papers: Sequence[Paper], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("index") / "search-index.bin"
    assert SearchIndex.build(papers).save(path) is True
    return path.read_bytes()


def load_bytes(data: bytes, papers: Sequence[Paper]) -> SearchIndex | None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "search-index.bin"
        path.write_bytes(data)
        return SearchIndex.load(path, papers)


def results(engine: SearchEngine, query: str) -> list[tuple[str, float, str]]:
    return [(hit.paper_id, hit.score, hit.field) for hit in engine.results(query, {})]


def test_a_saved_index_loads_and_answers_like_a_built_one(saved, papers) -> None:
    loaded = load_bytes(saved, papers)
    assert loaded is not None
    built, from_file = SearchEngine(papers), SearchEngine(papers, loaded)
    for query in QUERIES:
        assert results(from_file, query) == results(built, query)


def test_other_papers_or_an_old_file_are_not_used(saved, papers) -> None:
    assert load_bytes(saved, papers[:-1]) is None
    assert load_bytes(saved, list(reversed(papers))) is None
    import marshal

    index = SearchIndex.build(papers)
    old = marshal.dumps((index.fingerprint, index.state()), 4)  # format 5: no checksum
    assert load_bytes(old, papers) is None


@settings(max_examples=120)
@given(data=st.data())
def test_a_changed_byte_anywhere_is_not_trusted(saved, papers, data) -> None:
    at = data.draw(st.integers(0, len(saved) - 1))
    flip = data.draw(st.integers(1, 255))
    damaged = bytearray(saved)
    damaged[at] ^= flip
    assert load_bytes(bytes(damaged), papers) is None


def test_saving_never_raises(tmp_path: Path, papers) -> None:
    index = SearchIndex.build(papers)
    assert index.save(tmp_path / "missing" / "search-index.bin") is False
    (tmp_path / "search-index.bin").mkdir()
    assert index.save(tmp_path / "search-index.bin") is False
    assert list(tmp_path.glob(".search-index.bin.*")) == []


# -- damage that a checksum missed by chance -------------------------------------------------


def resealed(papers: Sequence[Paper], change) -> SearchIndex | None:
    """The index of `papers` with `change` applied to its saved state, saved (so with a
    matching checksum) and loaded again: what a reader meets when the checksum fails to see
    damage."""
    index = SearchIndex.build(papers)
    parts, columns, groups = index.state()
    parts, columns = list(parts), [list(column) for column in columns]
    change(parts, columns, index)
    state = (tuple(parts), tuple(tuple(column) for column in columns), groups)
    sealed = SearchIndex.from_state(state, fingerprint(papers))
    if sealed is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "search-index.bin"
        assert sealed.save(path)
        return SearchIndex.load(path, papers)


def longest_sparse(index: SearchIndex, field: str) -> tuple[str, int]:
    """The token of `field` with the longest sparse posting (packed ids, not a bitset) of at
    least 5 letters, and where its posting starts in the field's data (in words)."""
    column = index.postings[field]
    assert isinstance(column, FieldPostings)
    dense = bitset_words(index.size)
    best = max(
        (
            (column.offsets[tid + 1] - column.offsets[tid], tid)
            for tid, token in enumerate(index.vocab)
            if len(token) >= 5 and column.offsets[tid + 1] - column.offsets[tid] != dense
        ),
    )
    assert best[0] >= 2
    return index.vocab[best[1]], column.offsets[best[1]]


@pytest.mark.parametrize("past", [0, 7, 100, 2**31, 2**32 - 1])
def test_a_paper_id_past_the_last_crashes_no_search(papers, past: int) -> None:
    field = "abstract"
    token, start = longest_sparse(SearchIndex.build(papers), field)

    def change(parts, columns, index) -> None:
        data = array("I")
        data.frombytes(columns[INDEXED_FIELDS.index(field)][1])
        data[start] = min(index.size + past, 2**32 - 1)
        columns[INDEXED_FIELDS.index(field)][1] = data.tobytes()

    loaded = resealed(papers, change)
    assert loaded is not None  # the ends of the buffers fit: only the ids are wrong
    engine = SearchEngine(papers, loaded)
    ids = {paper.id for paper in papers}
    for query in (token, token[:4], token[:-1], f"{token}|graph", "'" + token):
        found = results(engine, query)
        assert found and {pid for pid, _, _ in found} <= ids, query
    # An import extends the index (enough new papers with the token to make its posting a
    # bitset): the bad id is dropped, not carried into the new index as some paper.
    extra = [
        Paper(f"{n:012x}", f"Extra{n}", None, f"The {token} of zebrafish {n}.", None, ("x",))
        for n in range(12)
    ]
    engine.update([*papers, *extra])
    found = {pid for pid, _, _ in results(engine, token)}
    # The damage took one paper out of the token's posting; nothing else is lost or added.
    assert {paper.id for paper in extra} <= found
    assert found <= {pid for pid, _, _ in results(SearchEngine([*papers, *extra]), token)}


def test_a_bitset_with_bits_past_the_last_paper_finds_no_such_paper(papers) -> None:
    papers = papers[:317]  # not a multiple of 32: the last word of a bitset has spare bits

    def change(parts, columns, index) -> None:
        column = index.postings["abstract"]
        at = INDEXED_FIELDS.index("abstract")
        words = bitset_words(index.size)
        for tid in range(len(index.vocab)):
            start, end = column.offsets[tid], column.offsets[tid + 1]
            if end - start == words:
                data = bytearray(columns[at][1])
                data[4 * end - 1] |= 0x80  # the last padding bit of a dense posting
                columns[at][1] = bytes(data)
                return
        raise AssertionError("no dense posting")

    loaded = resealed(papers, change)
    assert loaded is not None
    for tid in range(len(loaded.vocab)):
        assert loaded.tids_bits("abstract", (tid,)) >> loaded.size == 0


def test_an_empty_token_is_not_trusted(papers) -> None:
    def change(parts, columns, index) -> None:
        parts[2] = ["", *parts[2][1:]]  # `warm` reads every token's first letter

    loaded = resealed(papers, change)
    if loaded is not None:
        loaded.warm()  # would raise IndexError on the empty token
    assert loaded is None


def test_a_name_table_without_tokens_is_not_trusted(papers) -> None:
    def change(parts, columns, index) -> None:
        parts[3] = b""  # no name or title tokens ...
        parts[5] = b""
        parts[4] = "\ndiffusion\n"  # ... yet text to find them in

    loaded = resealed(papers, change)
    if loaded is not None:
        SearchEngine(papers, loaded).results("fusion", {})  # an infix: IndexError
    assert loaded is None


# -- the prefix groups saved with the index (format 10+) --------------------------------------


def test_a_loaded_index_starts_with_the_prefix_groups_and_answers_as_built(
    tmp_path: Path, papers: Sequence[Paper]
) -> None:
    built = SearchIndex.build(papers)
    path = tmp_path / "search-index.bin"
    assert built.save(path)
    loaded = SearchIndex.load(path, papers)
    assert loaded is not None
    saved = dict(built._saved_groups)
    assert saved and loaded._saved_groups == saved  # every first letter's groups, at least
    fresh = SearchIndex.build(papers)  # nothing worked out: every group made from postings
    for word in ["d", "di", "co", "t", "tra", "graph", "x", "zz"]:
        assert loaded.match_word(word) == fresh.match_word(word), word


@pytest.mark.parametrize(
    "groups",
    [
        "not a tuple",
        (("title", 0, 1),),  # three parts, not four
        (("nowhere", 0, 1, b""),),  # no such field
        (("title", 5, 5, b""),),  # an empty range
        (("title", 0, 10**9, b""),),  # past the vocabulary
        (("title", 0, 1, b"\x01"),),  # not a bitset of the papers' size
    ],
)
def test_prefix_groups_that_do_not_fit_the_index_are_not_trusted(
    groups: object, papers: Sequence[Paper]
) -> None:
    index = SearchIndex.build(papers)
    parts, columns, _ = index.state()
    assert SearchIndex.from_state((parts, columns, ()), fingerprint(papers)) is not None
    assert SearchIndex.from_state((parts, columns, groups), fingerprint(papers)) is None
