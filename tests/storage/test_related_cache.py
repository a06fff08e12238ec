"""`related-index.bin`: a loaded index answers like a built one; a stale, short, damaged or
foreign file is never trusted; a stale cache is rebuilt and replaced."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import tempfile
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import papershelf.storage.related.cache as related_cache
from papershelf.storage.caches.frame import CacheFile
from papershelf.storage.ingest.parse import paper_id, read_file
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.related.cache import RELATED_CACHE, load, load_or_build, save
from papershelf.storage.related.index import BUILD_FINGERPRINT, RelatedIndex

EXCERPT = Path(__file__).resolve().parent.parent / "fixtures" / "related" / "excerpt.jsonl"
KEY = (1_700_000_000_123_456_789, 123_456, 42)
HEADER_SIZE = related_cache._FILE.header.size


def make(name: str, abstract: str, title: str | None = None) -> Paper:
    return Paper(
        id=paper_id(abstract), name=name, title=title, abstract=abstract, venue=None, sources=()
    )


@pytest.fixture(scope="module")
def papers() -> Sequence[Paper]:
    return read_file(EXCERPT).papers


@pytest.fixture(scope="module")
def built(papers: Sequence[Paper]) -> RelatedIndex:
    return RelatedIndex(papers)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, built: RelatedIndex) -> bytes:
    """The bytes `save` writes for the excerpt's index under `KEY`."""
    root = tmp_path_factory.mktemp("saved")
    assert save(root, KEY, built)
    return (root / RELATED_CACHE).read_bytes()


def assert_same_answers(loaded: RelatedIndex, built: RelatedIndex) -> None:
    """Every query and every explanation of the two indexes is the same, to the last bit."""
    ids = [paper.id for paper in built.papers]
    assert [paper.id for paper in loaded.papers] == ids
    assert len(loaded) == len(built)
    assert dict(loaded.idf) == dict(built.idf)
    assert dict(loaded.postings) == dict(built.postings)
    for first in ids:
        assert loaded.related(first, k=len(ids)) == built.related(first, k=len(ids))
        for second in ids:
            assert loaded.shared_terms(first, second, 50) == built.shared_terms(first, second, 50)


def load_bytes(data: bytes, papers: Sequence[Paper], key: tuple[int, int, int] = KEY) -> object:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, RELATED_CACHE).write_bytes(data)
        return load(Path(tmp), key, papers)


# -- a loaded index is the built one --------------------------------------------------------


def test_a_loaded_index_answers_exactly_like_the_built_one(tmp_path, papers, built):
    assert save(tmp_path, KEY, built)
    loaded = load(tmp_path, KEY, papers)
    assert loaded is not None
    assert_same_answers(loaded, built)
    assert loaded.related(papers[0].id, k=5)  # the excerpt's papers do have neighbours


def test_query_terms_apply_to_a_loaded_index(tmp_path, papers):
    narrow = RelatedIndex(papers, query_terms=3)
    assert save(tmp_path, KEY, RelatedIndex(papers))
    loaded = load(tmp_path, KEY, papers, query_terms=3)
    assert loaded is not None and loaded.query_terms == 3
    for paper in papers:
        assert loaded.related(paper.id) == narrow.related(paper.id)


WORDS = [
    "kernel",
    "kernels",
    "graph",
    "diffusion",
    "bandit",
    "regret",
    "policy",
    "policies",
    "protein",
    "token",
    "sparse",
    "attention",
    "the",
    "we",
    "2025",
    r"\mathcal",
    "https://github.com/a/b",
    "Schrödinger",
    "x",
]
TEXTS = st.lists(st.sampled_from(WORDS), min_size=1, max_size=15).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    corpus=st.lists(st.tuples(TEXTS, st.one_of(st.none(), TEXTS)), min_size=1, max_size=10),
    query_terms=st.integers(min_value=1, max_value=8),
)
def test_any_small_corpus_round_trips(corpus, query_terms):
    made = [make(f"p{i}", f"{text} n{i}", title) for i, (text, title) in enumerate(corpus)]
    papers = list({paper.id: paper for paper in made}.values())
    index = RelatedIndex(papers, query_terms=query_terms)
    with tempfile.TemporaryDirectory() as tmp:
        assert save(Path(tmp), KEY, index)
        loaded = load(Path(tmp), KEY, papers, query_terms=query_terms)
    assert loaded is not None
    assert_same_answers(loaded, index)


# -- what is never trusted --------------------------------------------------------------------


def test_no_file_or_no_key_loads_nothing_and_no_key_saves_nothing(tmp_path, papers, built):
    assert load(tmp_path, KEY, papers) is None
    assert not save(tmp_path, None, built)
    assert not (tmp_path / RELATED_CACHE).exists()
    assert save(tmp_path, KEY, built)
    assert load(tmp_path, None, papers) is None


def test_a_cache_of_another_papers_json_or_other_papers_is_stale(saved, papers):
    assert load_bytes(saved, papers) is not None
    mtime_ns, size, inode = KEY
    for other in ((mtime_ns + 1, size, inode), (mtime_ns, size + 1, inode), (mtime_ns, size, 7)):
        assert load_bytes(saved, papers, other) is None
    assert load_bytes(saved, papers[:-1]) is None
    assert load_bytes(saved, list(reversed(papers))) is None
    extra = make("extra", "A paper the cache has never seen, about graph kernels.")
    assert load_bytes(saved, [*papers, extra]) is None


def test_another_format_or_build_is_not_trusted(saved, papers, monkeypatch):
    payload = saved[HEADER_SIZE:]
    for fmt in (related_cache.FORMAT - 1, related_cache.FORMAT + 1):
        frame = CacheFile(related_cache.MAGIC, fmt, key_size=28)
        other = frame.pack_header(related_cache._key(KEY), [payload]) + payload
        assert load_bytes(other, papers) is None
    assert load_bytes(sealed(payload), papers) is not None  # the same payload, this format
    monkeypatch.setattr(related_cache, "BUILD_FINGERPRINT", BUILD_FINGERPRINT ^ 1)
    assert load_bytes(saved, papers) is None


def test_the_build_fingerprint_is_the_same_in_every_process():
    # The stop words are a frozenset: a fingerprint of its iteration order would change with
    # the hash seed, and every new process would rebuild.
    code = "import papershelf.storage.related.index as r; print(r.BUILD_FINGERPRINT)"
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert int(out.stdout) == BUILD_FINGERPRINT


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_file_cut_short_or_grown_is_not_trusted(saved, papers, data):
    cut = data.draw(st.integers(min_value=0, max_value=len(saved) - 1))
    assert load_bytes(saved[:cut], papers) is None
    tail = data.draw(st.binary(min_size=1, max_size=16))
    assert load_bytes(saved + tail, papers) is None


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_changed_byte_anywhere_is_not_trusted(saved, papers, data):
    at = data.draw(st.integers(min_value=0, max_value=len(saved) - 1))
    flip = data.draw(st.integers(min_value=1, max_value=255))
    damaged = bytearray(saved)
    damaged[at] ^= flip
    assert load_bytes(bytes(damaged), papers) is None


@pytest.mark.parametrize(
    "data", [b"", b"PSRELATD", b'{"format": "papershelf-settings"}', bytes(range(256)) * 40]
)
def test_a_foreign_file_is_not_trusted(papers, data):
    assert load_bytes(data, papers) is None


def sealed(payload: bytes, key: tuple[int, int, int] = KEY) -> bytes:
    """`payload` under a header that matches it: only the payload's own checks can refuse it."""
    return related_cache._FILE.pack_header(related_cache._key(key), [payload]) + payload


def parts_of(saved: bytes) -> list[Any]:
    return list(marshal.loads(saved[HEADER_SIZE:]))


def test_the_sealing_helper_makes_a_trusted_file_from_good_parts(saved, papers, built):
    loaded = load_bytes(sealed(marshal.dumps(tuple(parts_of(saved)))), papers)
    assert isinstance(loaded, RelatedIndex)
    assert_same_answers(loaded, built)


def _array(code: str, data: bytes) -> array:
    values = array(code)
    values.frombytes(data)
    return values


def _set_position(parts: list[Any], index: int, value: int) -> None:
    docs = _array("i", parts[4])
    docs[index] = value
    parts[4] = docs.tobytes()


def _swap_offsets(parts: list[Any]) -> None:
    starts = _array("q", parts[3])
    starts[1], starts[2] = starts[2], starts[1]
    parts[3] = starts.tobytes()


def _duplicate_term(parts: list[Any]) -> None:
    terms = list(parts[2])
    terms[1] = terms[0]
    parts[2] = tuple(terms)


def _foreign_term(parts: list[Any]) -> None:
    parts[2] = ("not-in-the-idf-table", *parts[2][1:])


def _int_idf(parts: list[Any]) -> None:
    idf = dict(parts[1])
    idf[next(iter(idf))] = 1
    parts[1] = idf


BAD_PARTS: dict[str, Callable[[list[Any]], None]] = {
    "a part missing": lambda parts: parts.pop(),
    "a part too many": lambda parts: parts.append(b""),
    "other ids": lambda parts: parts.__setitem__(0, tuple(reversed(parts[0]))),
    "ids as a list": lambda parts: parts.__setitem__(0, list(parts[0])),
    "idf not a dict": lambda parts: parts.__setitem__(1, list(parts[1])),
    "an int idf": _int_idf,
    "terms as a list": lambda parts: parts.__setitem__(2, list(parts[2])),
    "a duplicate term": _duplicate_term,
    "a term without idf": _foreign_term,
    "offsets short of one": lambda parts: parts.__setitem__(3, parts[3][:-8]),
    "offsets cut mid-item": lambda parts: parts.__setitem__(3, parts[3][:-3]),
    "offsets going back": _swap_offsets,
    "positions as a str": lambda parts: parts.__setitem__(4, "abcd"),
    "a position past the papers": lambda parts: _set_position(parts, -1, len(parts[0])),
    "a negative position": lambda parts: _set_position(parts, 0, -1),
    "a weight missing": lambda parts: parts.__setitem__(5, parts[5][:-8]),
}


@pytest.mark.parametrize("damage", BAD_PARTS.values(), ids=BAD_PARTS.keys())
def test_a_payload_that_save_cannot_have_written_is_not_trusted(saved, papers, damage):
    parts = parts_of(saved)
    damage(parts)
    assert load_bytes(sealed(marshal.dumps(tuple(parts))), papers) is None


def test_a_position_past_the_papers_inside_a_posting_crashes_nothing(saved, papers, built):
    """Damage that the checksum missed by chance (resealed here) in the middle of a posting,
    where `load` does not look: every query still answers, naming only the papers."""
    parts = parts_of(saved)
    starts = _array("q", parts[3])
    docs = _array("i", parts[4])
    # The longest posting of a term the first paper queries, so the changed position is read
    # and is neither of its ends.
    queried = {term for term, _ in built._query(papers[0].id)}
    spans = [
        (start, end)
        for term, start, end in zip(parts[2], starts, starts[1:], strict=False)
        if term in queried
    ]
    start, end = max(spans, key=lambda pair: pair[1] - pair[0])
    assert end - start >= 3
    for value in (len(papers), len(papers) + 1000, -len(papers) - 1, -1):
        damaged = array("i", docs)
        damaged[(start + end) // 2] = value
        parts[4] = damaged.tobytes()
        loaded = load_bytes(sealed(marshal.dumps(tuple(parts))), papers)
        if loaded is None:
            continue  # refused outright: fine too
        assert isinstance(loaded, RelatedIndex)
        known = {paper.id for paper in papers}
        for paper in papers:
            found = loaded.related(paper.id, k=len(papers))
            assert {pid for pid, _ in found} <= known - {paper.id}
        assert len(loaded.related(papers[0].id, k=len(papers))) >= 2


def test_a_payload_that_is_not_marshal_or_not_a_tuple_is_not_trusted(papers):
    assert load_bytes(sealed(b"\xff not marshal"), papers) is None
    assert load_bytes(sealed(marshal.dumps([1, 2, 3, 4, 5, 6])), papers) is None


# -- load_or_build, and a stale cache rebuilt ----------------------------------------------------


class Builds:
    """A `build` that counts its calls."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, papers: Sequence[Paper]) -> RelatedIndex:
        self.count += 1
        return RelatedIndex(papers)


def test_load_or_build_builds_once_then_loads(tmp_path, papers, built):
    builds = Builds()
    first, loaded = load_or_build(tmp_path, KEY, papers, build=builds)
    assert (builds.count, loaded) == (1, False)
    second, loaded = load_or_build(tmp_path, KEY, papers, build=builds)
    assert (builds.count, loaded) == (1, True)
    assert_same_answers(second, built)


def test_a_cache_that_cannot_be_written_is_ignored(tmp_path, papers, built):
    missing = tmp_path / "no-such-directory"
    assert not save(missing, KEY, built)
    index, loaded = load_or_build(missing, KEY, papers)
    assert not loaded
    assert index.related(papers[0].id) == built.related(papers[0].id)
    assert not missing.exists()


def test_a_stale_cache_is_rebuilt_and_replaced_after_an_import(tmp_path, papers):
    root = tmp_path / "library"
    library = Library.open(root, seed=False)
    library.import_files([EXCERPT])
    builds = Builds()
    before, loaded = load_or_build(root, library.papers_key, library.papers(), build=builds)
    assert not loaded and len(before) == 30
    old_key = library.papers_key

    source = papers[0]
    twin = make("Twin", source.abstract + " A close twin of it, imported later.")
    Library.open(root, seed=False).import_papers([twin], "later.jsonl")
    library = Library.open(root, seed=False)
    assert library.papers_key != old_key and len(library.papers()) == 31

    after, loaded = load_or_build(root, library.papers_key, library.papers(), build=builds)
    assert (builds.count, loaded) == (2, False)
    assert after.related(source.id, k=1)[0][0] == twin.id
    # The file now holds the new papers' index: loaded for them, refused for the old key.
    again = load(root, library.papers_key, library.papers())
    assert again is not None and again.related(source.id, k=1)[0][0] == twin.id
    assert load(root, old_key, before.papers) is None
