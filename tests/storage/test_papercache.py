"""papers.cache: a marshalled copy of papers.json, used only while papers.json is unchanged."""

from __future__ import annotations

import itertools
import json
import marshal
import os
import struct
import subprocess
import sys
from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic import make_papers

import papershelf.storage.library.papers_cache as papercache
from papershelf.storage.caches.frame import CacheFile, stat_key_bytes
from papershelf.storage.caches.places import PlaceFinder, Places
from papershelf.storage.errors import LibraryError
from papershelf.storage.files.jsonstore import StatKey, dump_chunks, stat_key
from papershelf.storage.library import papers_file
from papershelf.storage.library.library import Library
from papershelf.storage.library.records import meta, table
from papershelf.storage.model import Paper, abstract_length, stored_abstract

REPO = Path(__file__).resolve().parents[2]

text = st.text(max_size=40)  # any code point, surrogates and control characters included
strings = st.lists(text, max_size=3).map(tuple)
papers_strategy = st.lists(
    st.builds(
        Paper,
        id=st.text("0123456789abcdef", min_size=12, max_size=12),
        name=text,
        title=st.none() | text,
        abstract=text,
        venue=st.none() | text,
        sources=strings,
        code_urls=strings,
        links=strings,
        imported_at=text,
        authors=strings,
        url=st.none() | text,
    ),
    max_size=8,
)


HEADER_SIZE = papercache.FILE.header.size


def write_papers_json(directory: Path, papers: list[Paper]) -> tuple[StatKey, Places | None]:
    """papers.json holding `papers`, written as the Library writes it, with its key and the
    places of its abstracts."""
    records = [paper.to_dict() for paper in papers]
    finder = PlaceFinder("papers", [record["abstract"] for record in records])
    data = {"meta": meta("papers"), "papers": table(records)}
    path = directory / "papers.json"
    path.write_bytes(b"".join(dump_chunks(data, finder.document)))
    return stat_key(os.stat(path)), finder.finished()


def save(path: Path, papers: list[Paper]) -> bool:
    """papers.json of `papers` beside `path`, and their cache at `path`."""
    key, places = write_papers_json(path.parent, papers)
    return papercache.save(path, key, papers, places)


def json_key(path: Path) -> StatKey:
    return stat_key(os.stat(path.parent / "papers.json"))


def load(path: Path, key: StatKey | None = None) -> list[Paper] | None:
    """The cache at `path` for the papers.json beside it (as it is now, or as `key`)."""
    found = papercache.load(path, key or json_key(path), path.parent / "papers.json")
    return None if found is None else found[0]


def sections_of(path: Path) -> tuple[bytes, bytes, bytes, bytes]:
    """The four sections of a cache file: the listed columns, the other columns, the places,
    the abstracts' lengths."""
    data = path.read_bytes()
    lengths = struct.unpack_from("<QIQIQIQI", data, 8 + 4 + 24)[0::2]
    starts = [HEADER_SIZE]
    for length in lengths:
        starts.append(starts[-1] + length)
    return tuple(data[a:b] for a, b in itertools.pairwise(starts))  # type: ignore[return-value]


def write_raw(
    path: Path,
    main: bytes,
    others: bytes,
    places: bytes,
    lengths: bytes,
    *,
    fmt: int = papercache.FORMAT,
) -> None:
    """A cache file with any sections behind a header that matches papers.json beside it and
    the sections (their lengths and checksums): only the sections' own checks can refuse it."""
    frame = CacheFile(papercache.MAGIC, fmt, key_size=24, sections=4)
    sections = [main, others, places, lengths]
    header = frame.pack_header(stat_key_bytes(json_key(path)), sections)
    path.write_bytes(header + b"".join(sections))


def payloads(fields: list[str], columns: list[list[object]]) -> tuple[bytes, bytes]:
    """The two column sections of `fields` and `columns` (of every field but the abstract),
    split where papers.cache splits them: the listed fields, then the others."""
    cut = len(papercache.LISTED_FIELDS)
    return (
        marshal.dumps((tuple(fields[:cut]), tuple(map(tuple, columns[:cut])))),
        marshal.dumps((tuple(fields[cut:]), tuple(map(tuple, columns[cut:])))),
    )


# -- the module on its own --------------------------------------------------------------------


@given(papers=papers_strategy)
def test_round_trip_gives_equal_papers(tmp_path_factory: pytest.TempPathFactory, papers) -> None:
    path = tmp_path_factory.mktemp("cache") / papercache.CACHE_FILE
    assert save(path, papers)
    loaded = load(path)
    assert loaded == papers
    assert all(type(paper) is Paper for paper in loaded)
    # Every field is really set (no slot left empty by the column-wise build).
    assert [paper.to_dict() for paper in loaded] == [paper.to_dict() for paper in papers]


def test_round_trip_of_an_empty_library(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, [])
    assert load(path) == []


def test_the_cache_holds_no_abstract(tmp_path: Path) -> None:
    papers = make_papers(5)
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, papers)
    cache = path.read_bytes()
    assert all(paper.abstract.encode() not in cache for paper in papers)
    assert len(cache) < (tmp_path / "papers.json").stat().st_size / 2


@pytest.mark.parametrize(
    "other",
    [
        (1, 0, 0),  # rewritten in place
        (0, 1, 0),  # grown
        (0, 0, 1),  # replaced by another file
    ],
)
def test_a_cache_of_another_papers_json_is_not_used(
    tmp_path: Path, other: tuple[int, int, int]
) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    key = json_key(path)
    moved = (key[0] + other[0], key[1] + other[1], key[2] + other[2])
    assert load(path, moved) is None
    assert load(path) == make_papers(3)


def test_a_replaced_papers_json_is_never_read_for_the_cache(tmp_path: Path) -> None:
    """The cache's key names papers.json's version: the abstracts are read only from that
    version, even when the key given says otherwise."""
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    key = json_key(path)
    write_papers_json(tmp_path, make_papers(3, prefix="other"))
    assert load(path, key) is None
    assert load(path) is None


def test_missing_cache_is_none(tmp_path: Path) -> None:
    write_papers_json(tmp_path, make_papers(1))
    assert load(tmp_path / "nothing.cache") is None


def test_missing_papers_json_is_none(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    key = json_key(path)
    (tmp_path / "papers.json").unlink()
    assert load(path, key) is None


@pytest.mark.parametrize("keep", [0, 7, HEADER_SIZE, -1, -100])
def test_truncated_cache_is_none(tmp_path: Path, keep: int) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(5))
    data = path.read_bytes()
    path.write_bytes(data[:keep])
    assert load(path) is None


def test_garbage_and_other_formats_are_none(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(2))
    main, others, places, lengths = sections_of(path)
    path.write_bytes(b"\x00" * 200)
    assert load(path) is None
    write_raw(path, main, others, places, lengths, fmt=papercache.FORMAT + 1)
    assert load(path) is None
    # The same bytes with this format's header: fine again.
    write_raw(path, main, others, places, lengths)
    assert load(path) == make_papers(2)
    path.write_bytes(b"NOTMAGIC" + path.read_bytes()[8:])
    assert load(path) is None


def test_garbled_payload_is_none(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(4))
    main, others, places, lengths = sections_of(path)
    garbled = bytearray(main)
    garbled[len(garbled) // 2 :] = b"\xff" * (len(garbled) - len(garbled) // 2)
    write_raw(path, bytes(garbled), others, places, lengths)
    assert load(path) is None


@pytest.mark.parametrize("damage", ["an offset", "a length", "a checksum", "one place short"])
def test_places_that_do_not_fit_papers_json_are_never_read(tmp_path: Path, damage: str) -> None:
    """Places that pass their section's checksum (rewritten with it) but do not point at the
    abstracts they were made for are never read as abstracts: the read of that abstract fails
    its own checks, takes papers.json's own, and removes the cache that lied."""
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(4))
    main, others, raw, lengths = sections_of(path)
    places = Places.from_bytes(raw, 4)
    assert places is not None
    if damage == "an offset":
        places.offsets[2] += 1
    elif damage == "a length":
        places.lengths[1] -= 1
    elif damage == "a checksum":
        places.crcs[3] ^= 1
    damaged = places.to_bytes()
    if damage == "one place short":
        damaged = Places(places.offsets[:3], places.lengths[:3], places.crcs[:3]).to_bytes()
    write_raw(path, main, others, damaged, lengths)
    loaded = load(path)
    if damage == "one place short":
        assert loaded is None
    else:
        assert loaded is not None
        assert [paper.abstract for paper in loaded] == [p.abstract for p in make_papers(4)]
        assert not path.exists()  # the next open reads papers.json and writes a new one
    # Undamaged: used, so the check above is about the damage.
    write_raw(path, main, others, raw, lengths)
    assert load(path) == make_papers(4)
    assert path.exists()


def test_a_place_outside_papers_json_is_none(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    main, others, raw, lengths = sections_of(path)
    places = Places.from_bytes(raw, 3)
    assert places is not None
    places.offsets[1] = (tmp_path / "papers.json").stat().st_size - 3
    write_raw(path, main, others, places.to_bytes(), lengths)
    assert load(path) is None


def test_a_wrong_length_in_characters_is_never_trusted(tmp_path: Path) -> None:
    """The lengths section is checked against each abstract read (damage its checksum missed)."""
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    main, others, raw, lengths = sections_of(path)
    counts = array("I", lengths)
    counts[0] += 1
    write_raw(path, main, others, raw, counts.tobytes())
    loaded = load(path)
    assert loaded is not None
    assert loaded[0].abstract == make_papers(3)[0].abstract
    assert not path.exists()


def test_an_abstract_changed_in_papers_json_is_never_read(tmp_path: Path) -> None:
    """papers.json changed in place (same size, mtime kept) after the cache was loaded: the
    abstract's checksum fails, and papers.json's own abstract is read instead."""
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(12))
    loaded = load(path)
    assert loaded is not None
    change_in_place(tmp_path / "papers.json", b"problem paper 7", b"problem paper 8")
    now = papercache.current_abstract(tmp_path / "papers.json", make_papers(12)[7].id)
    assert now is not None and "problem paper 8" in now
    assert loaded[7].abstract == now != make_papers(12)[7].abstract
    assert not path.exists()
    assert loaded[6].abstract == make_papers(12)[6].abstract


def test_an_abstract_of_a_paper_gone_from_papers_json_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    loaded = load(path)
    assert loaded is not None
    change_in_place(tmp_path / "papers.json", make_papers(3)[1].id.encode(), b"0" * 12)
    change_in_place(tmp_path / "papers.json", b"problem paper 1", b"problem paper 2")
    with pytest.raises(LibraryError, match=r"no longer holds paper .*reopen the library"):
        _ = loaded[1].abstract


@given(papers=papers_strategy)
def test_loaded_papers_hold_no_abstract(tmp_path_factory: pytest.TempPathFactory, papers) -> None:
    """Loaded papers read their abstracts from papers.json: none is held as a string, and
    each answers exactly as papers.json's record does (its length too, without a read)."""
    path = tmp_path_factory.mktemp("cache") / papercache.CACHE_FILE
    assert save(path, papers)
    loaded = load(path)
    assert loaded is not None
    assert all(stored_abstract(paper) is not None for paper in loaded)
    records = json.loads((path.parent / "papers.json").read_bytes())["papers"].values()
    assert [paper.abstract for paper in loaded] == [record["abstract"] for record in records]
    assert list(map(abstract_length, loaded)) == [len(paper.abstract) for paper in papers]


def columns_of(papers: list[Paper]) -> list[list[object]]:
    return [[getattr(paper, name) for paper in papers] for name in papercache._FIELDS]


@pytest.mark.parametrize(
    "damage",
    [
        "fields renamed",
        "a field missing",
        "a column short",
        "a number for a name",
        "a list for a tuple",
        "bytes in sources",
        "an abstract column",
        "not a pair",
    ],
)
def test_a_payload_that_does_not_fit_paper_is_none(tmp_path: Path, damage: str) -> None:
    fields = list(papercache._FIELDS)
    columns = columns_of(make_papers(3))
    if damage == "fields renamed":
        fields[1] = "label"
    elif damage == "a field missing":
        del fields[-1], columns[-1]
    elif damage == "a column short":
        columns[3] = columns[3][:2]
    elif damage == "a number for a name":
        columns[fields.index("name")][1] = 7
    elif damage == "a list for a tuple":
        columns[fields.index("sources")][0] = ["synthetic.txt"]
    elif damage == "bytes in sources":
        columns[fields.index("sources")][2] = (b"synthetic.txt",)
    elif damage == "an abstract column":
        fields.insert(3, "abstract")
        columns.insert(3, [paper.abstract for paper in make_papers(3)])
    main, others = payloads(fields, columns)
    if damage == "not a pair":
        cut = len(papercache.LISTED_FIELDS)
        main = marshal.dumps((tuple(fields[:cut]), tuple(map(tuple, columns[:cut])), "extra"))
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    _, _, places, lengths = sections_of(path)
    write_raw(path, main, others, places, lengths)
    assert load(path) is None
    # The same file undamaged is used, so the check above is about the damage only.
    main, others = payloads(list(papercache._FIELDS), columns_of(make_papers(3)))
    write_raw(path, main, others, places, lengths)
    assert load(path) == make_papers(3)


def test_save_failure_returns_false_and_leaves_nothing(tmp_path: Path) -> None:
    key, places = write_papers_json(tmp_path, make_papers(2))
    blocker = tmp_path / papercache.CACHE_FILE
    blocker.mkdir()  # os.replace cannot put a file over a directory
    assert papercache.save(blocker, key, make_papers(2), places) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == [papercache.CACHE_FILE, "papers.json"]
    missing = tmp_path / "missing" / "papers.cache"
    assert papercache.save(missing, key, make_papers(2), places) is False
    assert papercache.save(tmp_path / "c.cache", key, make_papers(2), None) is False
    assert papercache.save(tmp_path / "c.cache", key, make_papers(3), places) is False


# -- the Library's use of it ------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A library of 12 papers, written by an import (which also writes the cache)."""
    path = tmp_path / "lib"
    Library.open(path, seed=False).import_papers(make_papers(12), "synthetic.txt")
    return path


def papers_key(root: Path) -> StatKey:
    return stat_key(os.stat(root / "papers.json"))


def test_an_import_writes_a_current_cache(root: Path) -> None:
    assert load(root / papercache.CACHE_FILE) == make_papers(12)


def test_open_uses_the_cache_instead_of_papers_json(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_json(*_args: object) -> None:
        raise AssertionError("papers.json was parsed although its cache is current")

    real_read = papers_file.read_checked

    def read(store, kind: str):
        if kind == "papers":
            no_json()
        return real_read(store, kind)

    monkeypatch.setattr(papers_file, "read_checked", read)
    library = Library.open(root, seed=False)
    assert list(library.papers()) == make_papers(12)
    assert library.get(make_papers(12)[4].id).name == "MethodPaper4"


def test_a_stale_cache_is_never_used(root: Path) -> None:
    other = root.parent / "other"
    Library.open(other, seed=False).import_papers(make_papers(3, prefix="other"), "o.txt")
    stale = (root / papercache.CACHE_FILE).read_bytes()
    os.replace(other / "papers.json", root / "papers.json")  # papers.json changed behind its back
    library = Library.open(root, seed=False)
    assert list(library.papers()) == make_papers(3, prefix="other")
    cache = (root / papercache.CACHE_FILE).read_bytes()
    assert cache != stale  # rebuilt for the papers.json now in place
    assert load(root / papercache.CACHE_FILE) == make_papers(3, prefix="other")


def test_a_damaged_cache_is_ignored_and_rebuilt(root: Path) -> None:
    cache = root / papercache.CACHE_FILE
    data = cache.read_bytes()
    cache.write_bytes(data[: len(data) // 2])
    library = Library.open(root, seed=False)
    assert list(library.papers()) == make_papers(12)
    assert load(cache) == make_papers(12)


def change_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Replace the first `old` in `path` by `new` (as long), keeping its size and mtime."""
    assert len(old) == len(new)
    stat = os.stat(path)
    data = bytearray(path.read_bytes())
    at = data.index(old)
    data[at : at + len(old)] = new
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b"MethodPaper4", b"MethodPaper5"),  # a name
        (b"TEST 2025", b"TEST 2026"),  # a venue
        (make_papers(12)[3].id.encode(), make_papers(12)[9].id.encode()),  # an id, colliding
    ],
    ids=["name", "venue", "id"],
)
def test_a_changed_character_of_the_cache_is_never_read(root: Path, old: bytes, new: bytes) -> None:
    # (An abstract is not in the cache: see test_an_abstract_changed_in_papers_json_is_never_read.)
    """Issue #10: one character changed in place (same size, mtime kept) made `show` print it
    and the next import write it into papers.json; the checksum now refuses the cache."""
    cache = root / papercache.CACHE_FILE
    change_in_place(cache, old, new)
    assert load(cache) is None
    library = Library.open(root, seed=False)
    assert list(library.papers()) == make_papers(12)
    assert [paper.to_dict() for paper in library.papers()] == [
        paper.to_dict() for paper in make_papers(12)
    ]
    # The damaged cache was rewritten from papers.json.
    assert load(cache) == make_papers(12)


def test_a_cache_of_the_previous_format_is_not_used(root: Path) -> None:
    """A papers.cache written before the checksum (format 1: no checksum in its header)."""
    key = papers_key(root)
    payload = marshal.dumps((papercache._FIELDS, tuple(map(tuple, columns_of(make_papers(12))))))
    old_header = struct.Struct("<8sIqQQQ").pack(papercache.MAGIC, 1, *key, len(payload))
    (root / papercache.CACHE_FILE).write_bytes(old_header + payload)
    assert load(root / papercache.CACHE_FILE, key) is None
    assert list(Library.open(root, seed=False).papers()) == make_papers(12)
    assert load(root / papercache.CACHE_FILE, key) == make_papers(12)


def test_a_damaged_papers_json_is_reported_despite_an_old_cache(root: Path) -> None:
    (root / "papers.json").write_text("{ not json", encoding="utf-8")
    library = Library.open(root, seed=False)
    assert library.papers() == ()  # not the old cache's papers
    assert "damaged" in library.take_notices()[0]
    assert list(root.glob("papers.json.corrupt-*"))


def test_an_unwritable_cache_does_not_stop_the_library(root: Path) -> None:
    cache = root / papercache.CACHE_FILE
    cache.unlink()
    cache.mkdir()
    library = Library.open(root, seed=False)
    assert list(library.papers()) == make_papers(12)
    library.import_papers(make_papers(2, prefix="more"), "more.txt")
    assert len(Library.open(root, seed=False).papers()) == 14
    assert list(root.rglob("*.tmp")) == []


def test_refresh_sees_an_import_by_another_process(root: Path) -> None:
    reader = Library.open(root, seed=False)
    assert reader.refresh() is False
    Library.open(root, seed=False).import_papers(make_papers(2, prefix="late"), "late.txt")
    assert reader.refresh() is True
    assert len(reader.papers()) == 14
    assert reader.refresh() is False


def test_refresh_after_papers_json_vanishes_empties_the_library(root: Path) -> None:
    library = Library.open(root, seed=False)
    (root / "papers.json").unlink()
    assert library.refresh() is True
    assert list(library.papers()) == []


def test_an_import_after_a_cached_open_keeps_every_paper(root: Path) -> None:
    library = Library.open(root, seed=False)  # from the cache: no raw records in memory
    library.import_papers(make_papers(3, prefix="new"), "new.txt")
    library.tag([make_papers(12)[0].id], add=["x"])
    (root / papercache.CACHE_FILE).unlink()  # force the papers.json path
    reopened = Library.open(root, seed=False)
    assert list(reopened.papers()) == make_papers(12) + make_papers(3, prefix="new")
    assert reopened.entry(make_papers(12)[0].id).tags == frozenset({"x"})


def test_open_removes_temp_files_of_a_killed_cache_writer(root: Path) -> None:
    leftover = root / f".{papercache.CACHE_FILE}.999.deadbeef.tmp"
    leftover.write_bytes(b"half a cache")
    Library.open(root, seed=False)
    assert not leftover.exists()


def test_open_and_list_import_no_parser(root: Path) -> None:
    """`papershelf list` needs neither the importers, nor platformdirs, nor package metadata."""
    script = (
        "import sys\n"
        "from papershelf.cli.main import build_parser\n"
        "from papershelf.storage.library.library import Library\n"
        "build_parser()\n"
        f"library = Library.open({str(root)!r}, seed=False)\n"
        "assert len(library.papers()) == 12\n"
        "heavy = ('papershelf.storage.ingest.parse', 'papershelf.storage.text.latex',\n"
        "         'papershelf.storage.names.derive', 'rapidfuzz', 'platformdirs',\n"
        "         'importlib.metadata', 'textual')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    env = {**os.environ, "PAPERSHELF_HOME": str(root)}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_a_library_reloads_papers_json_whose_abstract_failed_its_check(root: Path) -> None:
    """Another program rewrote papers.json in place, keeping its size and mtime: the key
    says nothing changed, but the failed read makes the next refresh read papers.json itself
    and write a cache that fits it."""
    library = Library.open(root, seed=False)
    assert stored_abstract(library.papers()[7]) is not None
    assert library.refresh() is False
    change_in_place(root / "papers.json", b"problem paper 7", b"problem paper 8")
    assert "problem paper 8" in library.papers()[7].abstract
    assert library.refresh() is True
    assert "problem paper 8" in library.papers()[7].abstract
    assert stored_abstract(library.papers()[7]) is None  # read from papers.json itself
    again = load(root / papercache.CACHE_FILE)
    assert again is not None and "problem paper 8" in again[7].abstract


def test_papers_read_their_abstracts_from_their_version_after_another_import(root: Path) -> None:
    """Another process replaces papers.json (an import): papers loaded before still read the
    abstracts of the version they came from (held open), and the refresh brings the new ones."""
    reader = Library.open(root, seed=False)
    old = list(reader.papers())
    assert all(stored_abstract(paper) is not None for paper in old)
    Library.open(root, seed=False).import_papers(make_papers(2, prefix="late"), "late.txt")
    (root / papercache.CACHE_FILE).unlink()  # nothing left on disk but the new papers.json
    assert [paper.abstract for paper in old] == [paper.abstract for paper in make_papers(12)]
    assert reader.refresh() is True
    assert len(reader.papers()) == 14
    assert reader.papers()[13].abstract == make_papers(2, prefix="late")[1].abstract


def test_an_abstract_file_closed_reads_from_papers_json(tmp_path: Path) -> None:
    path = tmp_path / papercache.CACHE_FILE
    assert save(path, make_papers(3))
    found = papercache.load(path, json_key(path), tmp_path / "papers.json")
    assert found is not None
    papers, _, file = found
    file.close()
    assert [paper.abstract for paper in papers] == [paper.abstract for paper in make_papers(3)]
    assert not file.stale and path.exists()  # closing is not damage: the cache stays
