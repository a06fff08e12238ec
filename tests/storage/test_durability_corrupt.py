"""Damaged files are kept aside with a clear error, backups rotate, and the documented recovery
works; temp files of killed writers are removed on open."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from killworker import make_papers

from storage import backups
from storage.errors import LibraryError
from storage.library import Library

DAMAGE = {
    "empty": b"",
    "truncated": None,  # the first half of the real file
    "not json": b"this is not json at all",
    "binary": bytes(range(256)),
    "not an object": b"[]",
    "bad table": b'{"meta": {"1": {"schema": 1, "kind": "%s"}}, "%s": [1, 2]}',
}


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(make_papers(6), "synthetic.txt")
    library.tag([paper.id for paper in library.papers()[:3]], add=["precious"])
    return library


def damage(path: Path, kind: str) -> bytes:
    content = DAMAGE[kind]
    if content is None:
        content = path.read_bytes()[: path.stat().st_size // 2]
    elif kind == "bad table":
        name = "papers" if path.name == "papers.json" else "state"
        content = content % (name.encode(), b"papers" if name == "papers" else b"entries")
    path.write_bytes(content)
    return content


def corrupt_copies(root: Path, name: str) -> list[Path]:
    return sorted(root.glob(f"{name}.corrupt-*"))


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_state_is_moved_aside_with_recovery_advice(lib: Library, kind: str):
    state = lib.root / "state.json"
    lib.set_status([lib.papers()[0].id], "read")  # so that a backup exists
    content = damage(state, kind)
    with pytest.raises(LibraryError) as raised:
        Library.open(lib.root, seed=False)
    message = str(raised.value)
    (moved,) = corrupt_copies(lib.root, "state.json")
    assert moved.read_bytes() == content  # kept, byte for byte
    assert not state.exists()  # and never overwritten in place
    assert "\n" not in message
    assert "damaged" in message and str(moved) in message
    assert f"cp {backups.backup_path(lib.root, 1)} {state}" in message
    # Following the advice restores the version before the last change.
    shutil.copyfile(backups.backup_path(lib.root, 1), state)
    restored = Library.open(lib.root, seed=False)
    assert sum("precious" in entry.tags for entry in restored.entries().values()) == 3
    assert restored.entry(lib.papers()[0].id).status == "unread"


def test_damaged_state_without_backups_says_so_and_next_open_starts_empty(tmp_path: Path):
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers(make_papers(2))
    library.tag([library.papers()[0].id], add=["x"])  # first save: nothing to back up
    (library.root / "state.json").write_bytes(b"{oops")
    with pytest.raises(LibraryError, match="there is no backup"):
        Library.open(library.root, seed=False)
    assert dict(Library.open(library.root, seed=False).entries()) == {}
    assert len(corrupt_copies(library.root, "state.json")) == 1


@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_papers_file_is_moved_aside_and_rebuilt_by_reimport(
    lib: Library, kind: str, seed_files: list[Path]
):
    papers = lib.root / "papers.json"
    state_before = (lib.root / "state.json").read_bytes()
    content = damage(papers, kind)
    with pytest.raises(LibraryError, match="re-import your files") as raised:
        Library.open(lib.root, seed=False)
    (moved,) = corrupt_copies(lib.root, "papers.json")
    assert moved.read_bytes() == content
    assert str(moved) in str(raised.value)
    assert (lib.root / "state.json").read_bytes() == state_before  # tags untouched
    rebuilt = Library.open(lib.root, seed=False)
    rebuilt.import_papers(make_papers(6), "synthetic.txt")
    assert sum("precious" in rebuilt.entry(p.id).tags for p in rebuilt.papers()) == 3


def test_a_running_library_saves_its_entries_again_after_damage(lib: Library):
    state = lib.root / "state.json"
    state.write_bytes(b"\x00\x00 damaged by something else")
    with pytest.raises(LibraryError, match="saved again with your next change"):
        lib.refresh()
    first = lib.papers()[0].id
    lib.set_starred([first], True)
    fresh = Library.open(lib.root, seed=False)
    assert sum("precious" in entry.tags for entry in fresh.entries().values()) == 3
    assert fresh.entry(first).starred


def test_backups_rotate_keeping_the_last_five_versions(lib: Library):
    first = lib.papers()[0].id
    versions = []
    for n in range(8):
        versions.append((lib.root / "state.json").read_bytes())
        lib.set_note(first, f"version {n}")
    kept = backups.list_backups(lib.root)
    assert [path.name for path in kept] == [f"state-{n}.json" for n in range(1, 6)]
    # state-1 is the version before the last change, state-5 the one five changes back.
    assert [path.read_bytes() for path in kept] == versions[::-1][:5]
    for path in kept:
        json.loads(path.read_text())


def test_an_unchanged_call_makes_no_backup(lib: Library):
    before = [path.read_bytes() for path in backups.list_backups(lib.root)]
    lib.tag([lib.papers()[0].id], add=["precious"])  # already there: no write
    assert [path.read_bytes() for path in backups.list_backups(lib.root)] == before


def test_open_removes_temp_files_of_killed_writers_only(lib: Library):
    leftovers = [
        lib.root / ".state.json.4242.deadbeef.tmp",
        lib.root / ".papers.json.4242.deadbeef.tmp",
    ]
    unrelated = [lib.root / "notes.tmp", lib.root / ".other.json.1.ab.tmp"]
    for path in leftovers + unrelated:
        path.write_text("partial")
    Library.open(lib.root, seed=False)
    assert [path.exists() for path in leftovers] == [False, False]
    assert [path.exists() for path in unrelated] == [True, True]
