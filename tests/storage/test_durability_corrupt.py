"""Damaged files: state.json is recovered from its newest readable backup (and the user is told),
papers.json is moved aside and never replaced by a copy, nothing damaged is overwritten in place,
good backups are never rotated away by a damaged state, temp files of killed writers go."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from synthetic import make_papers, synthetic_library

import papershelf.storage.library.papers_cache as papercache
import papershelf.storage.library.state_backups as backups
from papershelf.storage.caches.places import locate
from papershelf.storage.errors import LibraryError
from papershelf.storage.files.layout import SCHEMA_VERSION, stat_key
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

DAMAGE = {
    "empty": b"",
    "truncated": None,  # the first half of the real file
    "not json": b"this is not json at all",
    "binary": bytes(range(256)),
    "not an object": b"[]",
    "bad table": b'{"meta": {"1": {"schema": 1, "kind": "%s"}}, "%s": [1, 2]}',
    "huge number": b'{"meta": {"1": {"schema": 1%s, "kind": "%s"}}}',
    "text for a list": None,  # a record whose list field holds a text
}


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = synthetic_library(tmp_path / "lib", 6)
    library.tag([paper.id for paper in library.papers()[:3]], add=["precious"])
    return library


def damage(path: Path, kind: str) -> bytes:
    """Damage the file in place (same inode), as a disk or another program would."""
    name = "papers" if path.name == "papers.json" else "state"
    content = DAMAGE[kind]
    if kind == "truncated":
        content = path.read_bytes()[: path.stat().st_size // 2]
    elif kind == "bad table":
        assert content is not None
        content = content % (name.encode(), b"papers" if name == "papers" else b"entries")
    elif kind == "huge number":
        assert content is not None
        content = content % (b"0" * 5000, name.encode())
    elif kind == "text for a list":
        data = json.loads(path.read_bytes())
        table = data["papers" if name == "papers" else "entries"]
        record = next(iter(table.values()))
        record["sources" if name == "papers" else "tags"] = "abc"
        content = json.dumps(data).encode()
    assert content is not None
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(content)
    return content


def corrupt_copies(root: Path, name: str) -> list[Path]:
    return sorted(root.glob(f"{name}.corrupt-*"))


def contents(paths: list[Path]) -> list[bytes]:
    return [path.read_bytes() for path in paths]


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_state_is_recovered_from_the_last_saved_version(lib: Library, kind: str):
    first = lib.papers()[0].id
    lib.set_status([first], "read")
    lib.set_note(first, "the last change before the damage")
    wanted = dict(lib.entries())
    kept_before = contents(backups.list_backups(lib.root))
    content = damage(lib.root / "state.json", kind)

    opened = Library.open(lib.root, seed=False)

    assert dict(opened.entries()) == wanted  # nothing acknowledged is lost
    (moved,) = corrupt_copies(lib.root, "state.json")
    assert moved.read_bytes() == content  # the damaged file is kept, byte for byte
    (notice,) = opened.take_notices()
    assert "\n" not in notice
    assert "damaged" in notice and str(moved) in notice
    assert f"recovered from {backups.backup_path(lib.root, 1)}" in notice
    assert contents(backups.list_backups(lib.root)) == kept_before  # recovery rotated nothing
    assert opened.take_notices() == []  # said once


def test_good_versions_survive_damage_and_the_changes_after_it(lib: Library):
    """The issue's path: six tags, garbage into state.json, any command, six more changes."""
    paper = lib.papers()[0].id
    for n in range(6):
        lib.tag([paper], add=[f"tag-{n}"])
    wanted_tags = lib.entry(paper).tags
    (lib.root / "state.json").write_bytes(b"garbage")
    Library.open(lib.root, seed=False, read_only=True)  # any command, `list` included
    later = Library.open(lib.root, seed=False)
    for n in range(6):
        later.set_note(paper, f"change {n} after the damage")
    fresh = Library.open(lib.root, seed=False)
    assert fresh.entry(paper).tags == wanted_tags
    assert fresh.entry(paper).note == "change 5 after the damage"
    for path in backups.list_backups(lib.root):  # every backup holds the recovered tags
        assert wanted_tags <= Entry.from_dict(by_paper(json.loads(path.read_bytes()))[paper]).tags
    assert len(corrupt_copies(lib.root, "state.json")) == 1


def test_damaged_backups_are_skipped_for_the_newest_readable_one(lib: Library):
    paper = lib.papers()[0].id
    versions = []
    for n in range(4):
        lib.set_note(paper, f"version {n}")
        versions.append(dict(lib.entries()))
    damage(lib.root / "state.json", "binary")
    damage(backups.backup_path(lib.root, 1), "truncated")
    damage(backups.backup_path(lib.root, 2), "huge number")

    opened = Library.open(lib.root, seed=False)

    assert dict(opened.entries()) == versions[-3]  # state-3: two versions back
    (notice,) = opened.take_notices()
    assert f"recovered from {backups.backup_path(lib.root, 3)}" in notice
    assert "changes after that are lost" in notice


def test_without_a_readable_backup_the_damaged_file_is_kept_and_the_user_told(lib: Library):
    for path in backups.list_backups(lib.root):
        path.unlink()
    content = damage(lib.root / "state.json", "not json")
    opened = Library.open(lib.root, seed=False)
    assert dict(opened.entries()) == {}
    (moved,) = corrupt_copies(lib.root, "state.json")
    assert moved.read_bytes() == content
    (notice,) = opened.take_notices()
    assert "no backup could be read" in notice and str(moved) in notice


def test_a_running_library_without_backups_saves_the_entries_it_holds(lib: Library):
    wanted = dict(lib.entries())
    for path in backups.list_backups(lib.root):
        path.unlink()
    (lib.root / "state.json").write_bytes(b"\x00\x00 damaged by something else")
    lib.refresh()
    assert "saved again" in lib.take_notices()[0]
    assert not lib.pending
    assert dict(Library.open(lib.root, seed=False).entries()) == wanted
    assert len(corrupt_copies(lib.root, "state.json")) == 1


def test_a_running_library_recovers_and_keeps_its_unsaved_change(lib: Library, small_disk):
    root = small_disk.path / "lib"
    library = Library.open(root, seed=False)
    library.import_papers(make_papers(4), "synthetic.txt")
    first, second = (paper.id for paper in library.papers()[:2])
    library.tag([first], add=["saved"])
    small_disk.fill()
    with pytest.raises(LibraryError):
        library.tag([second], add=["not-saved-yet"])
    small_disk.free()
    (root / "state.json").write_bytes(b"{damaged")
    library.refresh()
    library.save()
    fresh = Library.open(root, seed=False)
    assert fresh.entry(first).tags == {"saved"}
    assert fresh.entry(second).tags == {"not-saved-yet"}


def test_backups_keep_the_last_five_saved_versions_as_copies(lib: Library):
    first = lib.papers()[0].id
    versions = []
    for n in range(8):
        lib.set_note(first, f"version {n}")
        versions.append((lib.root / "state.json").read_bytes())
    kept = backups.list_backups(lib.root)
    assert [path.name for path in kept] == [f"state-{n}.json" for n in range(1, 6)]
    # state-1 is the version saved last, state-5 the one four saves before it.
    assert contents(kept) == versions[::-1][:5]
    # Copies, not hard links: damage to state.json in place cannot reach them.
    assert os.stat(kept[0]).st_ino != os.stat(lib.root / "state.json").st_ino
    damage(lib.root / "state.json", "empty")
    assert kept[0].read_bytes() == versions[-1]


def test_a_backup_that_cannot_be_kept_is_told_once_and_the_change_saved(lib: Library):
    first = lib.papers()[0].id
    shutil.rmtree(lib.root / "backups")
    (lib.root / "backups").write_text("not a directory")
    lib.take_notices()
    lib.tag([first], add=["one"])
    lib.tag([first], add=["two"])
    (notice,) = lib.take_notices()  # told at once, and once
    assert "no backup of it could be kept" in notice and "backups" in notice
    assert Library.open(lib.root, seed=False).entry(first).tags >= {"one", "two"}
    (lib.root / "backups").unlink()
    lib.tag([first], add=["three"])
    assert lib.take_notices() == []
    assert backups.list_backups(lib.root)  # kept again
    (lib.root / "backups").rename(lib.root / "elsewhere")
    (lib.root / "backups").write_text("broken again")
    lib.tag([first], add=["four"])
    assert len(lib.take_notices()) == 1  # a new failure is told again


def test_an_unchanged_call_makes_no_backup(lib: Library):
    before = contents(backups.list_backups(lib.root))
    lib.tag([lib.papers()[0].id], add=["precious"])  # already there: no write
    assert contents(backups.list_backups(lib.root)) == before


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_papers_file_is_moved_aside_and_rebuilt_by_reimport(lib: Library, kind: str):
    state_before = (lib.root / "state.json").read_bytes()
    content = damage(lib.root / "papers.json", kind)

    opened = Library.open(lib.root)  # seed=True: a damaged library is not a new one

    assert opened.papers() == ()
    (moved,) = corrupt_copies(lib.root, "papers.json")
    assert moved.read_bytes() == content
    (notice,) = opened.take_notices()
    assert str(moved) in notice and "import your files again" in notice
    assert not (lib.root / "papers.json").exists()  # nothing written in its place
    assert (lib.root / "state.json").read_bytes() == state_before  # tags untouched
    again = Library.open(lib.root)  # still no seeds, and still told
    assert again.papers() == ()
    assert "papershelf import" in again.take_notices()[0]
    again.import_papers(make_papers(6), "synthetic.txt")
    assert sum("precious" in again.entry(p.id).tags for p in again.papers()) == 3


def by_paper(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A state.json's entry records by paper id (schema 2 files them under document ids)."""
    return {record["paper_id"]: record for record in state["entries"].values()}


@pytest.mark.parametrize(("schema", "told"), [(1, "is paper"), (SCHEMA_VERSION, "twice")])
def test_a_record_filed_under_another_id_is_damage(lib: Library, schema: int, told: str):
    path = lib.root / "papers.json"
    data = json.loads(path.read_bytes())
    if schema == 1:  # keyed by paper id, as schema 1 was
        data["meta"]["1"]["schema"] = 1
        data["papers"] = {record["id"]: record for record in data["papers"].values()}
    table = data["papers"]
    first, second = list(table)[:2]
    table[first] = table[second]  # two keys, one paper: it would silently vanish
    path.write_text(json.dumps(data))
    opened = Library.open(lib.root, seed=False)
    assert opened.papers() == ()
    assert told in opened.take_notices()[0]


def test_an_import_takes_nothing_from_the_papers_cache(lib: Library):
    """A cache that passes every check but says something else than papers.json (the one
    case a checksum cannot catch: written wrong) must not reach papers.json."""
    papers_json = lib.root / "papers.json"
    key = stat_key(papers_json.stat())
    liar = [replace(paper, name="WRONG NAME") for paper in lib.papers()]
    raw = papers_json.read_bytes()
    places = locate(raw, [record["abstract"] for record in json.loads(raw)["papers"].values()])
    assert papercache.save(lib.root / papercache.CACHE_FILE, key, liar, places)
    opened = Library.open(lib.root, seed=False)
    opened.import_papers(make_papers(2, prefix="new"), "new.txt")
    records = json.loads(papers_json.read_bytes())["papers"].values()
    assert "WRONG NAME" not in {record["name"] for record in records}
    assert len(records) == 8


def test_open_removes_temp_files_of_killed_writers_only(lib: Library):
    leftovers = [
        lib.root / ".state.json.4242.deadbeef.tmp",
        lib.root / ".papers.json.4242.deadbeef.tmp",
        lib.root / "backups" / ".state-1.json.4242.deadbeef.tmp",
    ]
    unrelated = [lib.root / "notes.tmp", lib.root / ".other.json.1.ab.tmp"]
    for path in leftovers + unrelated:
        path.write_text("partial")
    Library.open(lib.root, seed=False)
    assert [path.exists() for path in leftovers] == [False, False, False]
    assert [path.exists() for path in unrelated] == [True, True]


def test_a_symlinked_state_file_is_written_through_its_link(lib: Library, tmp_path: Path):
    synced = tmp_path / "synced"
    synced.mkdir()
    target = synced / "state.json"
    state = lib.root / "state.json"
    target.write_bytes(state.read_bytes())
    state.unlink()
    state.symlink_to(target)
    library = Library.open(lib.root, seed=False)
    library.set_starred([library.papers()[0].id], True)
    assert state.is_symlink() and state.resolve() == target
    assert by_paper(json.loads(target.read_bytes()))[library.papers()[0].id]["starred"]
    assert not list(synced.glob(".*.tmp")) and not list(lib.root.glob(".*.tmp"))


def test_a_damaged_symlinked_state_file_is_recovered_behind_its_link(lib: Library, tmp_path):
    synced = tmp_path / "synced"
    synced.mkdir()
    target = synced / "state.json"
    state = lib.root / "state.json"
    wanted = dict(lib.entries())
    target.write_bytes(state.read_bytes())
    state.unlink()
    state.symlink_to(target)
    target.write_bytes(b"damaged")
    opened = Library.open(lib.root, seed=False)
    assert dict(opened.entries()) == wanted
    assert state.is_symlink() and json.loads(target.read_bytes())["entries"]
    assert len(corrupt_copies(synced, "state.json")) == 1


def test_a_directory_that_cannot_hold_the_lock_is_refused_at_once(tmp_path: Path):
    with pytest.raises(LibraryError) as raised:
        Library.open("/proc", lock_timeout=600)  # a wait would hang the test for 10 minutes
    message = str(raised.value)
    assert "lock file" in message and "busy" not in message


@pytest.mark.parametrize("raw", ["", "   ", "~no-such-user-here/lib"])
def test_unusable_library_names_are_refused(raw: str):
    with pytest.raises(LibraryError) as raised:
        Library.open(raw)
    assert "\n" not in str(raised.value)
