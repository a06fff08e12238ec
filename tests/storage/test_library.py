"""Unit tests for every `Library` method (entries, lookup, opening, schema, refresh)."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import ids, make_papers, reopen, synthetic_library

from papershelf.storage.errors import Ambiguous, LibraryError, NotFound, PapershelfError
from papershelf.storage.library.library import (
    SCHEMA_VERSION,
    InvalidInput,
    Library,
    bundled_seed_files,
    default_root,
)
from papershelf.storage.model import Entry, Paper


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    """An unseeded library holding 10 synthetic papers."""
    return synthetic_library(tmp_path / "lib", 10)


# -- locations and opening ------------------------------------------------------------------


def test_default_root_follows_papershelf_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PAPERSHELF_HOME", str(tmp_path / "home"))
    assert default_root() == tmp_path / "home"
    monkeypatch.delenv("PAPERSHELF_HOME")
    assert default_root().name == "papershelf"
    assert default_root() != tmp_path / "home"


def test_open_without_root_uses_papershelf_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PAPERSHELF_HOME", str(tmp_path / "home"))
    library = Library.open(seed=False)
    assert library.root == tmp_path / "home"
    assert library.root.is_dir()


def test_open_creates_missing_directories(tmp_path: Path):
    library = Library.open(tmp_path / "a" / "b" / "c", seed=False)
    assert library.root.is_dir()
    assert library.papers() == ()
    assert dict(library.entries()) == {}


def test_open_refuses_a_file_as_root(tmp_path: Path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(LibraryError) as raised:
        Library.open(tmp_path / "file", seed=False)
    # Found by an attacker pass (the config's `library` naming a file): the app said
    # "cannot create the library directory F: [Errno 17] File exists: 'F'".
    assert str(raised.value) == f"{tmp_path / 'file'} is a file, not a library directory"
    with pytest.raises(LibraryError) as raised:
        Library.open(tmp_path / "file" / "lib", seed=False)
    assert str(raised.value) == (
        f"cannot create the library directory {tmp_path / 'file' / 'lib'}: Not a directory"
    )


def test_bundled_seeds_are_the_two_seed_files(seed_files: list[Path]):
    found = bundled_seed_files()
    assert [path.name for path in found] == [path.name for path in seed_files]
    assert all(path.is_file() for path in found)


def test_first_open_imports_the_seeds_once(tmp_path: Path, seed_files: list[Path]):
    library = Library.open(tmp_path / "lib")
    assert len(library.papers()) == 34
    assert {source for paper in library.papers() for source in paper.sources} == {
        path.name for path in seed_files
    }
    before = (library.root / "papers.json").read_bytes()
    again = Library.open(tmp_path / "lib")
    assert len(again.papers()) == 34
    assert (library.root / "papers.json").read_bytes() == before


def test_unseeded_open_writes_nothing(tmp_path: Path):
    library = Library.open(tmp_path / "lib", seed=False)
    assert not (library.root / "papers.json").exists()
    assert not (library.root / "state.json").exists()


# -- reading --------------------------------------------------------------------------------


def test_papers_keep_import_order(lib: Library):
    assert [paper.name for paper in lib.papers()] == [f"MethodPaper{i}" for i in range(10)]


def test_get_returns_the_paper_or_raises_not_found(lib: Library):
    first = lib.papers()[0]
    assert lib.get(first.id) is first
    with pytest.raises(NotFound, match="no paper with id"):
        lib.get("000000000000")


def test_find_by_id_prefix_and_name(lib: Library):
    paper = lib.papers()[3]
    assert lib.find(paper.id) == paper
    assert lib.find(paper.id[:6]) == paper
    assert lib.find(paper.id[:6].upper()) == paper
    assert lib.find("  methodpaper3 ") == paper
    assert lib.find("METHODPAPER3") == paper


def test_find_needs_four_hex_digits_for_a_prefix(tmp_path: Path):
    library = Library.open(tmp_path / "lib", seed=False)
    paper = Paper(id="abc123456789", name="Only", title=None, abstract="o", venue=None, sources=())
    library.import_papers([paper])
    with pytest.raises(NotFound):
        library.find("abc")
    assert library.find("abc1") == paper


def test_find_reports_ambiguous_prefix_with_candidates(tmp_path: Path):
    library = Library.open(tmp_path / "lib", seed=False)
    twins = [
        Paper(
            id=f"abcd{i:08x}", name=f"Twin{i}", title=None, abstract=f"t{i}", venue=None, sources=()
        )
        for i in range(5)
    ]
    library.import_papers(twins)
    with pytest.raises(Ambiguous) as raised:
        library.find("abcd")
    message = str(raised.value)
    assert "5 papers" in message
    assert message.count("abcd0000") == 3  # three candidates shown, with their ids
    assert "\n" not in message
    assert library.find("abcd00000003").name == "Twin3"


def test_find_reports_ambiguous_names(tmp_path: Path):
    library = Library.open(tmp_path / "lib", seed=False)
    same = [
        Paper(id=f"{i:012x}", name="SameName", title=None, abstract=f"s{i}", venue=None, sources=())
        for i in range(2)
    ]
    library.import_papers(same)
    with pytest.raises(Ambiguous, match="2 papers"):
        library.find("samename")


def test_a_name_that_is_another_papers_id_prefix_is_ambiguous(tmp_path: Path):
    # In the real corpus `DBAE` names one paper and begins another's id: `tag DBAE +x` must not
    # tag the other one.
    library = Library.open(tmp_path / "lib", seed=False)
    named = Paper(id="4cc61e9d2b42", name="DBAE", title=None, abstract="a", venue=None, sources=())
    other = Paper(id="dbaed569bd3c", name="FIND", title=None, abstract="b", venue=None, sources=())
    library.import_papers([named, other])
    with pytest.raises(Ambiguous, match="2 papers") as raised:
        library.find("DBAE")
    assert "4cc61e9d2b42" in str(raised.value) and "dbaed569bd3c" in str(raised.value)
    assert library.find("dbaed5") == other  # more of the id settles it
    assert library.find("FIND") == other


def test_a_name_is_found_as_a_person_types_it(tmp_path: Path):
    # `show K2IE` must find K²IE: superscripts, subscripts, accents and case are folded.
    library = Library.open(tmp_path / "lib", seed=False)
    papers = [
        Paper(id=f"{i:012x}", name=name, title=None, abstract=name, venue=None, sources=())
        for i, name in enumerate(["K²IE", "H₂O-Net", "Déjà"])
    ]
    library.import_papers(papers)
    assert library.find("K2IE") == papers[0]
    assert library.find("k2ie") == papers[0]
    assert library.find("h2o-net") == papers[1]
    assert library.find("DEJA") == papers[2]
    assert library.find("Déjà") == papers[2]


def test_find_unknown_or_empty_is_not_found(lib: Library):
    with pytest.raises(NotFound):
        lib.find("no-such-method")
    with pytest.raises(NotFound):
        lib.find("   ")
    with pytest.raises(NotFound):
        lib.find("ffffffffffff")


def test_entry_defaults_and_entries_hold_only_non_default(lib: Library):
    first, second = ids(lib)[:2]
    assert lib.entry(first) == Entry()
    lib.tag([first], add=["x"])
    lib.tag([second], add=["y"])
    lib.tag([second], remove=["y"])
    assert set(lib.entries()) == {first}
    assert lib.entry(second) == Entry()
    with pytest.raises(TypeError):
        lib.entries()[second] = Entry()  # type: ignore[index]


# -- changing entries -----------------------------------------------------------------------


def test_tag_normalises_adds_removes_and_counts(lib: Library):
    a, b, c = ids(lib)[:3]
    assert lib.tag([a, b], add=["To Read", "#Diffusion"]) == 2
    assert lib.entry(a).tags == {"to-read", "diffusion"}
    assert lib.tag([a, b], add=["to-read"]) == 0  # nothing new
    assert lib.tag([a, c], remove=["diffusion"]) == 1  # c had nothing to remove
    assert lib.entry(a).tags == {"to-read"}
    assert lib.tag([a], add=["x"], remove=["x"]) == 0  # removal wins
    assert reopen(lib).entry(b).tags == {"to-read", "diffusion"}


def test_tag_accepts_a_single_id_and_duplicate_ids(lib: Library):
    a = ids(lib)[0]
    assert lib.tag(a, add="solo") == 1
    assert lib.tag([a, a], add=["pair"]) == 1
    assert lib.entry(a).tags == {"solo", "pair"}


def test_tag_rejects_unusable_tags_and_unknown_ids(lib: Library):
    a = ids(lib)[0]
    with pytest.raises(InvalidInput):
        lib.tag([a], add=["  #  "])
    with pytest.raises(InvalidInput):
        lib.tag([a], add=["x" * 100])
    with pytest.raises(NotFound):
        lib.tag(["deadbeef0000"], add=["x"])
    assert issubclass(InvalidInput, PapershelfError)
    assert lib.entry(a) == Entry()


def test_set_status(lib: Library):
    a, b = ids(lib)[:2]
    assert lib.set_status([a, b], "reading") == 2
    assert lib.set_status([a], "reading") == 0
    assert lib.set_status([a], "read") == 1
    assert (lib.entry(a).status, lib.entry(b).status) == ("read", "reading")
    assert lib.set_status([b], "unread") == 1
    assert b not in lib.entries()
    with pytest.raises(InvalidInput, match="unknown status"):
        lib.set_status([a], "done")
    assert reopen(lib).entry(a).status == "read"


def test_set_starred(lib: Library):
    a = ids(lib)[0]
    assert lib.set_starred([a], True) == 1
    assert lib.set_starred([a], True) == 0
    assert reopen(lib).entry(a).starred
    assert lib.set_starred([a], False) == 1
    assert a not in reopen(lib).entries()


def test_set_note_strips_control_characters(lib: Library):
    a = ids(lib)[0]
    assert lib.set_note(a, "line one\n\x1b[31mred\x07 [MASK] [/]\u202e  ") == 1
    note = lib.entry(a).note
    assert note == "line one\nred [MASK] [/]"  # the colour code goes whole, its text stays
    assert lib.set_note(a, note) == 0
    assert reopen(lib).entry(a).note == note
    assert lib.set_note(a, "") == 1
    assert a not in lib.entries()


def test_changes_set_updated_at(lib: Library):
    a = ids(lib)[0]
    lib.set_starred([a], True)
    stamp = lib.entry(a).updated_at
    assert stamp is not None and stamp.endswith("Z")


def test_restore_puts_entries_back_exactly(lib: Library):
    a, b = ids(lib)[:2]
    lib.tag([a], add=["keep"])
    saved = {a: lib.entry(a), b: lib.entry(b)}
    lib.tag([a, b], add=["bulk"])
    lib.set_status([b], "read")
    assert lib.restore(saved) == 2
    assert lib.entry(a) == saved[a]
    assert lib.entry(b) == Entry()
    assert lib.restore(saved) == 0
    assert reopen(lib).entry(a) == saved[a]


def test_entries_is_a_snapshot_that_changes_replace(lib: Library):
    a = ids(lib)[0]
    view = lib.entries()
    lib.tag([a], add=["x"])
    assert a not in view  # a view held by another thread is never mutated under it
    assert lib.entries()[a].tags == {"x"}


def test_tag_counts(lib: Library):
    a, b, c = ids(lib)[:3]
    lib.tag([a, b], add=["x"])
    lib.tag([b, c], add=["y"])
    assert lib.tag_counts() == Counter({"x": 2, "y": 2})
    assert lib.tag_counts([a, b]) == Counter({"x": 2, "y": 1})
    assert lib.tag_counts([]) == Counter()


def test_revision_grows_on_every_change_only(lib: Library):
    a = ids(lib)[0]
    start = lib.revision
    lib.tag([a], add=["x"])
    after_tag = lib.revision
    assert after_tag > start
    lib.tag([a], add=["x"])
    assert lib.revision == after_tag
    lib.import_papers(make_papers(2, prefix="more"))
    assert lib.revision > after_tag


def test_a_change_rewrites_state_only(lib: Library):
    papers_file = lib.root / "papers.json"
    before = papers_file.read_bytes()
    before_stat = papers_file.stat()
    lib.tag(ids(lib)[:3], add=["x"])
    lib.set_status(ids(lib)[:1], "read")
    assert papers_file.read_bytes() == before
    assert papers_file.stat().st_mtime_ns == before_stat.st_mtime_ns
    assert papers_file.stat().st_ino == before_stat.st_ino


def test_state_file_is_tinydb_shaped_with_schema(lib: Library):
    a = ids(lib)[0]
    lib.tag([a], add=["x"])
    data = json.loads((lib.root / "state.json").read_text())
    assert data["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert data["meta"]["1"]["kind"] == "state"
    # TinyDB documents: integer ids, the paper a field.
    assert data["entries"] == {"1": {"paper_id": a, **lib.entry(a).to_dict()}}
    papers = json.loads((lib.root / "papers.json").read_text())
    assert papers["meta"]["1"] == {"schema": SCHEMA_VERSION, "kind": "papers", "app": "papershelf"}
    assert list(papers["papers"]) == [str(n) for n in range(1, len(ids(lib)) + 1)]
    assert [record["id"] for record in papers["papers"].values()] == ids(lib)


@pytest.mark.parametrize("name", ["papers.json", "state.json"])
def test_newer_schema_is_refused_and_left_untouched(lib: Library, name: str):
    lib.tag(ids(lib)[:1], add=["x"])
    path = lib.root / name
    data = json.loads(path.read_text())
    data["meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(LibraryError, match="newer papershelf") as raised:
        Library.open(lib.root)
    assert "\n" not in str(raised.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in lib.root.iterdir() if "corrupt" in p.name) == []


def test_foreign_json_file_is_refused_and_left_untouched(tmp_path: Path):
    root = tmp_path / "lib"
    root.mkdir()
    (root / "papers.json").write_text('{"_default": {"1": {"a": 1}}}')
    with pytest.raises(LibraryError, match="not a papershelf papers file"):
        Library.open(root)
    assert (root / "papers.json").read_text() == '{"_default": {"1": {"a": 1}}}'


def test_refresh_sees_changes_of_another_library(lib: Library):
    other = reopen(lib)
    a = ids(lib)[0]
    assert lib.refresh() is False
    other.tag([a], add=["from-other"])
    revision = lib.revision
    assert lib.refresh() is True
    assert lib.entry(a).tags == {"from-other"}
    assert lib.revision > revision
    assert lib.refresh() is False
    other.import_papers(make_papers(3, prefix="extra"))
    assert lib.refresh() is True
    assert len(lib.papers()) == 13


def test_changes_merge_with_another_librarys_changes(lib: Library):
    """Each change re-reads state.json under the lock, so neither process loses the other's."""
    other = reopen(lib)
    a, b = ids(lib)[:2]
    lib.tag([a], add=["mine"])
    other.tag([b], add=["theirs"])
    lib.tag([a], add=["mine-too"])  # without a refresh in between
    fresh = reopen(lib)
    assert fresh.entry(a).tags == {"mine", "mine-too"}
    assert fresh.entry(b).tags == {"theirs"}


def test_busy_lock_gives_a_clear_error(lib: Library):
    import filelock

    holder = filelock.FileLock(lib.root / ".lock", thread_local=False)
    lib.lock_timeout = 0.05
    with holder:
        with pytest.raises(LibraryError, match="library is busy"):
            lib.tag(ids(lib)[:1], add=["x"])
        assert lib.refresh() is False  # refresh never waits
    assert lib.tag(ids(lib)[:1], add=["x"]) == 1


def test_pending_is_false_and_save_is_a_no_op_normally(lib: Library):
    lib.tag(ids(lib)[:1], add=["x"])
    assert lib.pending is False
    assert lib.save() is False


def test_orphan_entries_are_kept(lib: Library):
    """An entry for a paper this process does not know (another import) is never dropped."""
    path = lib.root / "state.json"
    lib.tag(ids(lib)[:1], add=["x"])
    data = json.loads(path.read_text())
    orphan = {"paper_id": "0123456789ab", **Entry(tags=frozenset({"orphan"})).to_dict()}
    data["entries"][str(len(data["entries"]) + 1)] = orphan
    path.write_text(json.dumps(data))
    os.utime(path, ns=(1, 1))
    lib.tag(ids(lib)[1:2], add=["y"])
    records = json.loads(path.read_text())["entries"].values()
    assert orphan in records


@settings(max_examples=40)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 4),
            st.sampled_from(["tag+", "tag-", "status", "star"]),
            st.sampled_from(["a", "b", "c"]),
        ),
        max_size=12,
    )
)
def test_entries_on_disk_always_equal_entries_in_memory(tmp_path_factory, steps):
    root = tmp_path_factory.mktemp("prop")
    library = Library.open(root, seed=False)
    library.import_papers(make_papers(5))
    paper_ids = ids(library)
    for index, action, value in steps:
        target = [paper_ids[index]]
        if action == "tag+":
            library.tag(target, add=[value])
        elif action == "tag-":
            library.tag(target, remove=[value])
        elif action == "status":
            library.set_status(target, {"a": "unread", "b": "reading", "c": "read"}[value])
        else:
            library.set_starred(target, value == "a")
    assert dict(reopen(library).entries()) == dict(library.entries())
    assert all(not entry.is_default for entry in library.entries().values())
