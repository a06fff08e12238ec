"""Backup and restore of the user state: exact round trips, absent papers, refusals."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic import make_papers, synthetic_library

from papershelf.storage.export.backup import (
    BackupError,
    dump_state,
    load_state,
    read_backup,
    restore_backup,
    write_backup,
)
from papershelf.storage.library.library import Library
from papershelf.storage.model import STATUSES, Entry


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = synthetic_library(tmp_path / "lib", 8)
    ids = [paper.id for paper in library.papers()]
    library.tag(ids[:3], add=["to-read", "gnn"])
    library.set_status(ids[1:4], "reading")
    library.set_status(ids[4], "read")
    library.set_starred(ids[5], True)
    library.set_note(ids[6], "Line one\nline two — with [MASK] and [/] and ünïcode")
    return library


def fresh_copy(tmp_path: Path, name: str, count: int = 8) -> Library:
    return synthetic_library(tmp_path / name, count)


def test_dump_holds_every_entry_with_names_for_people(lib: Library):
    document = dump_state(lib)
    assert document["format"] == "papershelf-state" and document["version"] == 1
    assert document["exported_at"].endswith("Z")
    assert set(document["entries"]) == set(lib.entries())
    first = lib.papers()[0]
    assert document["entries"][first.id]["name"] == first.name
    assert document["count"] == 7


def test_dump_then_load_is_exact(lib: Library):
    document = json.loads(json.dumps(dump_state(lib)))
    assert load_state(document) == dict(lib.entries())


def test_backup_file_restores_exactly_into_another_library(lib: Library, tmp_path: Path):
    path = tmp_path / "state-backup.json"
    assert write_backup(lib, path) == 7
    other = fresh_copy(tmp_path, "other")
    ids = [paper.id for paper in other.papers()]
    other.tag(ids[7], add=["only-here"])  # not in the backup: goes back to default
    report = restore_backup(other, path)
    assert (report.entries, report.changed, report.absent) == (7, 8, 0)
    assert dict(other.entries()) == dict(lib.entries())  # updated_at included
    assert dict(Library.open(other.root, seed=False).entries()) == dict(lib.entries())


def test_restore_is_one_undoable_step(lib: Library, tmp_path: Path):
    path = tmp_path / "b.json"
    write_backup(lib, path)
    ids = [paper.id for paper in lib.papers()]
    lib.tag(ids, add=["after-backup"])
    lib.set_note(ids[0], "newer note")
    before = dict(lib.entries())
    restore_backup(lib, path)
    assert lib.undo() == "restore b.json"
    assert dict(lib.entries()) == before


def test_entries_of_absent_papers_are_kept_until_imported(lib: Library, tmp_path: Path):
    path = tmp_path / "b.json"
    write_backup(lib, path)
    smaller = fresh_copy(tmp_path, "small", count=4)
    report = restore_backup(smaller, path)
    assert report.absent == 3
    assert smaller.tag_counts() == {"to-read": 3, "gnn": 3}  # absent papers not counted
    late = lib.papers()[6]
    assert smaller.entry(late.id).note.startswith("Line one")
    smaller.import_papers(make_papers(8), "synthetic.txt")
    assert smaller.entry(late.id) == lib.entry(late.id)
    assert dict(smaller.entries()) == dict(lib.entries())


def test_backup_refuses_to_overwrite_without_force(lib: Library, tmp_path: Path):
    path = tmp_path / "b.json"
    path.write_text("precious")
    with pytest.raises(BackupError, match="already exists; use --force"):
        write_backup(lib, path)
    assert path.read_text() == "precious"
    write_backup(lib, path, force=True)
    assert json.loads(path.read_text())["format"] == "papershelf-state"


GOOD = {"format": "papershelf-state", "version": 1, "entries": {}}


def with_entry(**fields) -> dict:
    record = {"tags": ["a"], "status": "read", "starred": False, "note": "", **fields}
    return {**GOOD, "entries": {"0123456789ab": record}}


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ([], "not a papershelf backup"),
        ({"entries": {}}, "not a papershelf backup"),
        ({"format": "papershelf-journal", "version": 1}, "not a papershelf backup"),
        ({**GOOD, "version": 2}, "newer papershelf"),
        ({**GOOD, "version": "1"}, "not valid"),
        ({**GOOD, "entries": []}, 'no "entries" object'),
        ({**GOOD, "entries": {"bad id!": {}}}, "is not a paper id"),
        ({**GOOD, "entries": {"0123456789ab": "read"}}, "is not an object"),
        (with_entry(status="done"), "status 'done' is not one of"),
        (with_entry(tags="a b"), "tags must be a list"),
        (with_entry(tags=["#"]), "not a usable tag"),
        (with_entry(starred="yes"), "starred must be true or false"),
        (with_entry(note=5), "note must be text"),
        (with_entry(updated_at=17), "updated_at must be"),
        (with_entry(colour="red"), "unknown field 'colour'"),
    ],
)
def test_load_refuses_anything_else_with_one_line(document, words):
    with pytest.raises(BackupError) as caught:
        load_state(document)
    message = str(caught.value)
    assert words in message
    assert "\n" not in message


def test_load_normalises_like_the_library():
    document = with_entry(tags=["To Read", "#gnn"], note="tab\there\x1b[31m red")
    (entry,) = load_state(document).values()
    assert entry.tags == {"to-read", "gnn"}
    assert "\x1b" not in entry.note


def test_default_entries_are_dropped():
    document = with_entry(tags=[], status="unread")
    assert load_state(document) == {}


@pytest.mark.parametrize(
    "content",
    [b"not json at all", b"\x00\x01\x02", b'{"a": 1}', b"[]", b""],
)
def test_read_backup_names_the_file_in_one_line(tmp_path: Path, content: bytes):
    path = tmp_path / "elsewhere.json"
    path.write_bytes(content)
    with pytest.raises(BackupError) as caught:
        read_backup(path)
    assert str(caught.value).startswith(f"{path}") and "\n" not in str(caught.value)
    assert "not a papershelf backup" in str(caught.value)


@pytest.mark.parametrize("where", ["version", "entry"])
def test_a_backup_holding_a_huge_integer_is_refused_in_one_line(
    lib: Library, tmp_path: Path, where: str
):
    huge = "9" * 5_000  # over Python's 4,300-digit limit for int(str)
    body = (
        f'"version": {huge}, "entries": {{}}'
        if where == "version"
        else f'"version": 1, "entries": {{"abc": {{"starred": {huge}}}}}'
    )
    path = tmp_path / "huge.json"
    path.write_text(f'{{"format": "papershelf-state", {body}}}')
    state = (lib.root / "state.json").read_bytes()
    with pytest.raises(BackupError) as caught:
        restore_backup(lib, path)
    assert str(caught.value) == (
        f"{path} is not a papershelf backup (it holds a number too long to read)"
    )
    assert (lib.root / "state.json").read_bytes() == state


def test_read_backup_of_a_missing_file(tmp_path: Path):
    with pytest.raises(BackupError, match="cannot read"):
        read_backup(tmp_path / "missing.json")


def test_a_refused_restore_changes_nothing(lib: Library, tmp_path: Path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(with_entry(status="finished")))
    before = dict(lib.entries())
    state_bytes = (lib.root / "state.json").read_bytes()
    with pytest.raises(BackupError):
        restore_backup(lib, path)
    assert dict(lib.entries()) == before
    assert (lib.root / "state.json").read_bytes() == state_bytes


TAGS = st.sampled_from(["a", "b", "to-read", "ünï", "x-y"])
ENTRIES = st.builds(
    Entry,
    tags=st.frozensets(TAGS, max_size=3),
    status=st.sampled_from(STATUSES),
    starred=st.booleans(),
    # Notes as the Library stores them: NFC, no control characters, stripped.
    note=st.text(alphabet=st.characters(categories=["L", "N", "Zs"]), max_size=30).map(
        lambda text: unicodedata.normalize("NFC", text).strip()
    ),
    updated_at=st.one_of(st.none(), st.just("2025-06-01T10:00:00Z")),
)
IDS = st.text(alphabet="0123456789abcdef", min_size=12, max_size=12)


@given(st.dictionaries(IDS, ENTRIES, max_size=6))
def test_load_inverts_the_backup_form(entries: dict[str, Entry]):
    wanted = {pid: entry for pid, entry in entries.items() if not entry.is_default}
    document = {
        **GOOD,
        "entries": {pid: {**e.to_dict(), "name": "n", "title": None} for pid, e in entries.items()},
    }
    assert load_state(json.loads(json.dumps(document))) == wanted


def test_read_backup_refuses_what_is_not_a_regular_file(tmp_path: Path):
    with pytest.raises(BackupError, match="not a regular file"):
        read_backup(Path("/dev/zero"))
    with pytest.raises(BackupError, match="cannot read"):
        read_backup(tmp_path)  # a directory
