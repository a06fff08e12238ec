"""listing.cache (`storage.search.listing`): the same search results as the full path, or nothing.

The listing is trusted only while papers.json is the file it was made from, and a damaged part
is never read as data: `load` returns None, or a late read raises `ListingUnusable`.
"""

from __future__ import annotations

import itertools
import marshal
import os
import shutil
import struct
import zlib
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import papershelf.storage.search.index_file as index_file
import papershelf.storage.search.listing as listing
from papershelf.storage.caches import papers_layout
from papershelf.storage.files.layout import PAPERS_CACHE, read_entries
from papershelf.storage.library.library import Library
from papershelf.storage.search.engine import SearchEngine
from papershelf.storage.search.index import INDEXED_FIELDS, SearchIndex
from papershelf.storage.search.listing import ListedPaper, ListingUnusable
from papershelf.storage.search.parse import fold_text
from papershelf.storage.search.postings import FieldPostings
from papershelf.storage.text.titles import shown_text

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "search" / "abstracts.jsonl"
SEEDS = sorted((REPO / "seeds").glob("*.txt"))

# Every kind of term of the query language, alone and combined.
QUERIES = [
    "",
    "diffusion",
    "difusion",
    "trasnformer",
    "graph neural network",
    "reinforcment lerning",
    "gnn",
    "rel",
    "d",
    "'diffusion",
    "'diffusion planning",
    '"language model"',
    "^mitig",
    "^rel",
    "!diffusion",
    "!diffusion image generation",
    "!'learning",
    "graph|hypergraph",
    "'policy|^safe",
    "#to-read",
    "#graph|deep",
    "tag:deep-rl",
    "is:unread",
    "is:reading",
    "is:read",
    "is:starred",
    "is:read|reading",
    "has:code",
    "has:links",
    "has:note",
    "has:tags",
    "has:code transformer",
    "venue:icml2025",
    "venue:icml graph",
    "venue:iclr !transformer",
    "note",
    "transformers note",
    "zzzzqx",
    "gpt-4",
]


def build_library(root: Path) -> Library:
    """The search fixture and the seeds, with entries of every kind."""
    library = Library.open(root, seed=False)
    reports = library.import_files([FIXTURE, *SEEDS])
    assert not any(report.error for report in reports)
    ids = [paper.id for paper in library.papers()]
    library.tag(ids[:40], add=["to-read"])
    library.tag(ids[10:20], add=["graph", "deep-rl"])
    library.set_status(ids[5:30], "reading")
    library.set_status(ids[30:50], "read")
    library.set_starred(ids[::7], True)
    library.set_note(ids[3], "a note on diffusion transformers")
    library.set_note(ids[60], "Notes: graph ideas")
    return library


def write_listing(library: Library) -> None:
    listing.open_engine(
        library.root, library.papers_key, library.papers(), places=library.abstract_places
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("listing") / "lib"
    write_listing(build_library(root))
    return root


@pytest.fixture
def root(built: Path, tmp_path: Path) -> Path:
    """A private copy of the built library, for tests that change or damage files."""
    copy = tmp_path / "lib"
    shutil.copytree(built, copy)
    # A copy is a new papers.json (new inode): re-key the listing to it, as a full open would.
    write_listing(Library.open(copy, seed=False))
    return copy


@pytest.fixture(scope="module")
def engines(built: Path) -> Iterator[tuple[SearchEngine, SearchEngine, dict]]:
    """(the full path's engine, the listing's engine, the entries), for the whole module."""
    library = Library.open(built, seed=False)
    full = SearchEngine(library.papers())
    shelf = listing.load(built)
    assert shelf is not None
    entries = read_entries(built / "state.json")
    assert entries == dict(library.entries())
    with shelf:
        yield full, shelf.engine(), entries


def results(engine: SearchEngine, query: str, entries: dict) -> list[tuple[str, float, str]]:
    return [(hit.paper_id, hit.score, hit.field) for hit in engine.results(query, entries)]


@pytest.mark.parametrize("query", QUERIES)
def test_listing_finds_what_the_full_path_finds(engines, query: str) -> None:
    full, listed, entries = engines
    expected = results(full, query, entries)
    assert results(listed, query, entries) == expected
    if query in ("diffusion", "'diffusion", "is:starred"):
        assert expected, "the fixture must exercise this query"


WORDS = ["diffusion", "graph", "learning", "model", "transformer", "policy", "rel", "gnn", "safe"]


@st.composite
def queries(draw: st.DrawFn) -> str:
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        word = draw(st.sampled_from(WORDS) | st.text("abcdefgilmnoprst", min_size=1, max_size=9))
        if len(word) > 4 and draw(st.booleans()):
            i = draw(st.integers(0, len(word) - 2))
            word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]  # a typo
        marker = draw(st.sampled_from(["", "", "", "'", "^", "!", "#", "venue:", "is:", "has:"]))
        if draw(st.booleans()) and marker == "":
            word += "|" + draw(st.sampled_from(WORDS))
        terms.append(marker + word)
    return " ".join(terms)


@given(queries())
def test_listing_finds_what_the_full_path_finds_for_any_query(engines, query: str) -> None:
    full, listed, entries = engines
    assert results(listed, query, entries) == results(full, query, entries)


def test_listed_papers_hold_the_papers_fields(built: Path) -> None:
    library = Library.open(built, seed=False)
    with listing.load(built) as shelf:
        assert len(shelf.papers) == len(library.papers())
        for listed, paper in zip(shelf.papers, library.papers(), strict=True):
            for field in listing.FIELDS:
                assert getattr(listed, field) == getattr(paper, field)
        # The abstracts are read on first use only, then hold the papers' own as exact terms
        # compare them: as shown, folded.
        assert shelf.abstracts is None
        shown = [fold_text(shown_text(p.abstract)) for p in library.papers()]
        assert [p.abstract for p in shelf.papers] == shown
        assert isinstance(shelf.papers[0], ListedPaper)
        assert repr(shelf.papers[0]).startswith("ListedPaper(")


def test_the_listing_reads_the_abstracts_from_papers_json(root: Path) -> None:
    """The listing holds only the folded abstracts that are not the lower case of the
    abstract (the others are read from papers.json at papers.cache's places), and answers
    exactly the folded text of every abstract; without the places it is not written."""
    library = Library.open(root, seed=False)
    places = library.abstract_places
    assert places is not None and len(places) == len(library.papers())
    shown = [fold_text(shown_text(p.abstract)) for p in library.papers()]
    with listing.load(root) as shelf:
        assert list(shelf.engine().papers[n].abstract for n in range(len(shown))) == shown
    key = library.papers_key
    assert key is not None
    index = SearchIndex.build(library.papers())
    assert listing.save(root, key, library.papers(), index) is False  # no places


def test_an_abstract_changed_in_papers_json_makes_the_listing_unusable(root: Path) -> None:
    papers_json = root / "papers.json"
    info = os.stat(papers_json)
    data = bytearray(papers_json.read_bytes())
    at = data.index(b"diffusion")
    data[at : at + 9] = b"DIFFUSION"
    papers_json.write_bytes(bytes(data))
    os.utime(papers_json, ns=(info.st_atime_ns, info.st_mtime_ns))
    with listing.load(root) as shelf, pytest.raises(ListingUnusable):
        shelf.papers[0].abstract  # noqa: B018 - the read is the test


def test_a_word_search_reads_no_abstract_and_an_exact_phrase_does(built: Path) -> None:
    with listing.load(built) as shelf:
        engine = shelf.engine()
        assert len(engine.results("diffusion graph", {})) > 0
        assert shelf.abstracts is None
        # An exact word is answered from the index (its tokens' postings): still no abstract.
        assert len(engine.results("'diffusion", {})) > 0
        assert len(engine.results("'iffusio", {})) > 0
        assert shelf.abstracts is None
        # A phrase reads the abstracts of the papers holding its words.
        assert len(engine.results('"diffusion model"', {})) > 0
        assert shelf.abstracts is not None


def test_file_postings_equal_the_postings_in_memory(built: Path) -> None:
    library = Library.open(built, seed=False)
    memory = SearchIndex.build(library.papers())
    with listing.load(built) as shelf:
        assert shelf.index is not None
        assert shelf.index.vocab == memory.vocab
        assert list(shelf.index.head) == list(memory.head)
        joined, starts = shelf.index.vocabulary.head_table()  # read from the file, not rebuilt
        assert (joined, list(starts)) == memory.vocabulary.head_table()
        for field in INDEXED_FIELDS:
            mine, theirs = shelf.index.postings[field], memory.postings[field]
            assert isinstance(theirs, FieldPostings)
            count = len(memory.vocab)
            assert [ids(mine.get(t)) for t in range(count)] == [
                ids(theirs.get(t)) for t in range(count)
            ]
            for lo, hi in ((0, count), (5, 6), (100, 900), (count - 3, count), (7, 7)):
                assert [ids(p) for p in mine.many(range(lo, hi))] == [
                    ids(p) for p in theirs.many(range(lo, hi))
                ]
            picked = [count - 1, 3, 3, 0, count // 2]
            assert [ids(p) for p in mine.many(picked)] == [ids(p) for p in theirs.many(picked)]


def ids(posting: object) -> list[int] | None:
    if posting is None:
        return None
    if isinstance(posting, int):
        return [i for i in range(posting.bit_length()) if posting >> i & 1]
    return list(posting)  # type: ignore[call-overload]


# -- never a stale or damaged listing ------------------------------------------------------------


def test_a_listing_of_another_papers_json_is_not_used(root: Path, tmp_path: Path) -> None:
    assert listing.load(root) is not None
    extra = tmp_path / "extra.txt"
    extra.write_text("Extra Papers\n\nA brand new abstract about zebrafish swarms.\n")
    Library.open(root, seed=False).import_files([extra])
    assert listing.load(root) is None  # papers.json was replaced: the listing is stale


def test_a_touched_papers_json_makes_the_listing_stale(root: Path) -> None:
    papers = root / "papers.json"
    stat = os.stat(papers)
    os.utime(papers, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert listing.load(root) is None


def test_no_papers_json_no_listing(root: Path) -> None:
    (root / "papers.json").unlink()
    assert listing.load(root) is None


@pytest.mark.parametrize("other", [listing.FORMAT - 1, listing.FORMAT + 1])
def test_a_listing_of_another_format_is_not_used(root: Path, other: int) -> None:
    path = root / listing.LISTING_FILE
    data = bytearray(path.read_bytes())
    data[8:12] = struct.pack("<I", other)  # the format number, after the 8-byte tag
    path.write_bytes(bytes(data))
    assert listing.load(root) is None


def sections(root: Path, name: str = listing.LISTING_FILE) -> list[int]:
    """Where each section of the cache `name` starts, and where the file ends (listing.cache:
    main and abstracts; search-index.bin: main and postings; papers.cache: listed columns,
    other columns, places, lengths)."""
    frame = FRAMES[name]
    data = (root / name).read_bytes()
    fields = frame.header.unpack(data[: frame.header.size])[3:]
    starts = [frame.header.size]
    for length in fields[0::2]:
        starts.append(starts[-1] + length)
    return starts


FRAMES = {
    listing.LISTING_FILE: listing._FILE,
    listing.SEARCH_CACHE: index_file._FILE,
    PAPERS_CACHE: papers_layout.FILE,
}


def damage(root: Path, at: int, length: int, fill: bytes = b"\xff", name: str = "") -> None:
    path = root / (name or listing.LISTING_FILE)
    data = bytearray(path.read_bytes())
    data[at : at + length] = fill * length
    # Written in place: papers.json, and so the header's key, stay as they are.
    path.write_bytes(bytes(data))


def reseal(root: Path, name: str = listing.LISTING_FILE) -> None:
    """Make the checksums of the cache `name` match its (damaged) bytes again: what damage
    that a checksum misses by chance looks like, so only the reader's other checks can refuse
    it (search-index.bin: its postings' block checksums too)."""
    path = root / name
    data = path.read_bytes()
    starts = sections(root, name)
    parts = [data[a:b] for a, b in itertools.pairwise(starts)]
    if name == listing.SEARCH_CACHE:
        try:
            index_parts, layout, _, groups = marshal.loads(parts[0])
        except (ValueError, EOFError, TypeError):
            pass  # the main section itself is damaged: only the header's checksums are renewed
        else:
            postings, step = parts[1], listing.BLOCK
            crcs = [zlib.crc32(postings[at : at + step]) for at in range(0, len(postings), step)]
            table = array("I", crcs).tobytes()
            parts[0] = marshal.dumps((index_parts, layout, table, groups))
    frame = FRAMES[name]
    key = data[12 : 12 + frame.key_size]
    path.write_bytes(frame.pack_header(key, parts) + b"".join(parts))


@pytest.mark.parametrize("cut", [1, 1000])
def test_a_listing_cut_short_is_not_used(root: Path, cut: int) -> None:
    path = root / listing.LISTING_FILE
    data = path.read_bytes()
    path.write_bytes(data[:-cut])
    assert listing.load(root) is None


def test_a_listing_with_bytes_after_its_end_is_not_used(root: Path) -> None:
    path = root / listing.LISTING_FILE
    path.write_bytes(path.read_bytes() + b"\0")
    assert listing.load(root) is None


def test_a_damaged_header_is_not_used(root: Path) -> None:
    damage(root, 0, 8)  # the magic
    assert listing.load(root) is None


# Each damage twice: as it is (a checksum fails) and resealed (every checksum matches, as if
# by chance): the listing's own checks of offsets, ids and types must still refuse it.
SEALED = pytest.mark.parametrize("sealed", [False, True], ids=["checksum", "resealed"])


@SEALED
@pytest.mark.parametrize("fill", [b"\xff", b"\x00", b"x"])
@pytest.mark.parametrize("name", [listing.LISTING_FILE, listing.SEARCH_CACHE, PAPERS_CACHE])
def test_a_damaged_main_section_is_not_used(
    root: Path, fill: bytes, sealed: bool, name: str
) -> None:
    """The first section of each file the listing reads: its own main section (the index's
    fingerprint), search-index.bin's (the vocabulary, layout, block checksums) and
    papers.cache's (the columns `list` prints)."""
    main, end = sections(root, name)[:2]
    damage(root, main, end - main, fill, name)
    if sealed:
        reseal(root, name)
    assert listing.load(root) is None


@pytest.mark.parametrize("name", [listing.SEARCH_CACHE, PAPERS_CACHE])
def test_one_changed_byte_of_a_main_section_is_not_used(root: Path, name: str) -> None:
    main, end = sections(root, name)[:2]
    path = root / name
    data = bytearray(path.read_bytes())
    # A byte inside a token or a paper's text: it would still unmarshal and type-check.
    at = data.index(b"iffusion", main, end)
    data[at] ^= 0x01
    path.write_bytes(bytes(data))
    assert listing.load(root) is None


def test_a_changed_fingerprint_is_not_used(root: Path) -> None:
    """The listing names the index of its papers; resealed, it names another: not used."""
    main, end = sections(root)[:2]
    path = root / listing.LISTING_FILE
    data = bytearray(path.read_bytes())
    data[end - 1] ^= 0x01  # the fingerprint's last hex digit
    path.write_bytes(bytes(data))
    assert listing.load(root) is None
    reseal(root)
    assert listing.load(root) is None


@SEALED
def test_damaged_postings_raise_before_any_result(root: Path, sealed: bool) -> None:
    _, postings, end = sections(root, listing.SEARCH_CACHE)
    damage(root, postings, end - postings, b"\xff", listing.SEARCH_CACHE)  # offsets past data
    if sealed:
        reseal(root, listing.SEARCH_CACHE)
    with listing.load(root) as shelf, pytest.raises(ListingUnusable):
        shelf.engine().results("diffusion", {})


@SEALED
def test_postings_naming_papers_the_listing_lacks_raise(root: Path, sealed: bool) -> None:
    _, _, end = sections(root, listing.SEARCH_CACHE)
    # The end of the abstract field's ids (its postings come last): 0xffffffff.
    damage(root, end - 4000, 4000, b"\xff", listing.SEARCH_CACHE)
    if sealed:
        reseal(root, listing.SEARCH_CACHE)
    with listing.load(root) as shelf:
        assert shelf.index is not None
        column = shelf.index.postings["abstract"]
        with pytest.raises(ListingUnusable):
            list(column.many(range(len(shelf.index.vocab))))


@SEALED
def test_damaged_abstracts_raise_only_when_read(root: Path, sealed: bool) -> None:
    _, abstracts, end = sections(root)
    damage(root, abstracts, end - abstracts, b"\x00")
    if sealed:
        reseal(root)
    with listing.load(root) as shelf:
        engine = shelf.engine()
        assert len(engine.results("diffusion", {})) > 0  # no abstract needed
        assert len(engine.results("'diffusion", {})) > 0  # an exact word: from the index
        with pytest.raises(ListingUnusable):
            engine.results('"diffusion model"', {})


def test_one_changed_byte_of_the_abstracts_raises_when_read(root: Path) -> None:
    _, abstracts, end = sections(root)
    path = root / listing.LISTING_FILE
    data = bytearray(path.read_bytes())
    at = (abstracts + end) // 2  # compressed: any byte of the folded text
    data[at] ^= 0x20
    path.write_bytes(bytes(data))
    with listing.load(root) as shelf, pytest.raises(ListingUnusable):
        shelf.papers[0].abstract  # noqa: B018 (reading it is the test)


def test_damaged_places_in_papers_cache_are_not_used(root: Path) -> None:
    _, _, places, lengths, _ = sections(root, PAPERS_CACHE)
    path = root / PAPERS_CACHE
    data = bytearray(path.read_bytes())
    data[(places + lengths) // 2] ^= 0x5A
    path.write_bytes(bytes(data))
    assert listing.load(root) is None


def test_one_changed_bit_of_a_posting_block_raises_when_a_search_reads_it(root: Path) -> None:
    with listing.load(root) as shelf:
        expected = results(shelf.engine(), "diffusion", {})
    _, postings, end = sections(root, listing.SEARCH_CACHE)
    path = root / listing.SEARCH_CACHE
    data = bytearray(path.read_bytes())
    last_block = postings + (end - postings - 1) // listing.BLOCK * listing.BLOCK
    data[last_block + 1] ^= 0x10
    path.write_bytes(bytes(data))
    with listing.load(root) as shelf:
        engine = shelf.engine()
        assert results(engine, "diffusion", {}) == expected  # blocks it never reads
        assert shelf.index is not None
        column = shelf.index.postings["abstract"]
        with pytest.raises(ListingUnusable, match="damaged"):
            list(column.many(range(len(shelf.index.vocab))))


def test_a_search_reads_only_the_postings_blocks_it_needs(root: Path) -> None:
    """`list` stays lazy: a word reads a few blocks of the postings, not the section."""
    _, postings, end = sections(root, listing.SEARCH_CACHE)
    blocks = -(-(end - postings) // listing.BLOCK)
    with listing.load(root) as shelf:
        assert len(shelf.engine().results("diffusion", {})) > 0
        assert shelf.index is not None
        section = shelf.index.postings["abstract"]._section
        read = len(section._blocks)
        assert 0 < read < blocks / 4, (read, blocks)


def test_a_closed_listing_reads_nothing(root: Path) -> None:
    shelf = listing.load(root)
    assert shelf is not None
    engine = shelf.engine()
    shelf.close()
    with pytest.raises(ListingUnusable):
        engine.results("diffusion", {})


def test_an_open_listing_keeps_reading_its_own_version(root: Path, tmp_path: Path) -> None:
    """A writer replacing listing.cache meanwhile does not mix two versions into one search."""
    library = Library.open(root, seed=False)
    expected = [h.paper_id for h in SearchEngine(library.papers()).results("diffusion", {})]
    with listing.load(root) as shelf:
        extra = tmp_path / "extra.txt"
        extra.write_text("Extra\n\nDiffusion of zebrafish swarms, a diffusion study.\n")
        library.import_files([extra])
        write_listing(library)  # another process's full `list` replaces the file
        assert [h.paper_id for h in shelf.engine().results("diffusion", {})] == expected
    fresh = listing.load(root)
    assert fresh is not None
    with fresh:
        assert len(fresh.engine().results("diffusion", {})) == len(expected) + 1


# -- writing ---------------------------------------------------------------------------------


def test_no_listing_is_written_without_a_papers_key(root: Path) -> None:
    (root / listing.LISTING_FILE).unlink()
    library = Library.open(root, seed=False)
    listing.open_engine(root, None, library.papers())
    assert not (root / listing.LISTING_FILE).exists()


def test_a_file_backed_index_is_not_saved_again(root: Path) -> None:
    before = (root / listing.SEARCH_CACHE).read_bytes()
    with listing.load(root) as shelf:
        assert shelf.index.save(root / listing.SEARCH_CACHE) is False
    assert (root / listing.SEARCH_CACHE).read_bytes() == before


def test_an_unwritable_listing_is_not_an_error(root: Path) -> None:
    (root / listing.LISTING_FILE).unlink()
    (root / listing.LISTING_FILE).mkdir()  # cannot be replaced by a file
    library = Library.open(root, seed=False)
    engine = listing.open_engine(root, library.papers_key, library.papers())
    assert len(engine.results("diffusion", {})) > 0
    assert listing.load(root) is None


def test_a_locked_open_removes_temp_files_of_killed_cache_writers(root: Path) -> None:
    left = [
        root / ".listing.cache.123.abcd1234.tmp",
        root / ".search-index.bin.123.456.tmp",
    ]
    for path in left:
        path.write_bytes(b"half a cache")
    Library.open(root, read_only=True)  # a reader leaves them: a writer may own them
    assert all(path.exists() for path in left)
    Library.open(root)
    assert not any(path.exists() for path in left)
    assert listing.load(root) is not None  # the caches themselves stay


def test_saving_the_index_leaves_no_temp_file(root: Path) -> None:
    library = Library.open(root, seed=False)
    index = SearchIndex.build(library.papers())
    assert index.save(root / "search-index.bin") is True
    assert SearchIndex.load(root / "search-index.bin", library.papers()) is not None
    assert index.save(root / "missing" / "search-index.bin") is False  # never raises
    (root / "blocked").mkdir()
    (root / "blocked" / "search-index.bin").mkdir()  # a directory cannot be replaced by a file
    assert index.save(root / "blocked" / "search-index.bin") is False
    assert not list(root.rglob(".search-index.bin.*"))
