"""Reading a library without the lock: `Library.open(read_only=True)` and
`papershelf.storage.files.layout.read_entries`, which `papershelf list` uses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from papershelf.storage.errors import LibraryError, SaveError
from papershelf.storage.files.layout import SCHEMA_VERSION, read_entries, stat_key
from papershelf.storage.library.library import Library

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "search" / "abstracts.jsonl"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A library with papers and entries, and no lock file."""
    path = tmp_path / "lib"
    library = Library.open(path, seed=False)
    library.import_files([FIXTURE])
    ids = [paper.id for paper in library.papers()]
    library.tag(ids[:3], add=["a", "b"])
    library.set_status(ids[3], "read")
    library.set_note(ids[4], "a note")
    (path / ".lock").unlink()
    return path


def test_read_only_open_reads_the_same_library_without_a_lock(root: Path) -> None:
    mine = Library.open(root, read_only=True)
    assert not (root / ".lock").exists()
    theirs = Library.open(root)  # locked
    assert (root / ".lock").exists()
    assert mine.papers() == theirs.papers()
    assert dict(mine.entries()) == dict(theirs.entries())
    assert mine.papers_key == theirs.papers_key == stat_key(os.stat(root / "papers.json"))


def test_read_only_open_imports_no_filelock(root: Path) -> None:
    code = (
        "import sys\n"
        "from papershelf.storage.library.library import Library\n"
        f"library = Library.open({str(root)!r}, read_only=True)\n"
        "assert library.papers()\n"
        "print('filelock' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert done.stdout.strip() == "False", done.stderr
    assert not (root / ".lock").exists()


def test_a_change_after_a_read_only_open_locks_as_always(root: Path) -> None:
    library = Library.open(root, read_only=True)
    paper = library.papers()[0]
    assert library.tag([paper.id], add=["later"]) == 1
    assert (root / ".lock").exists()
    assert "later" in Library.open(root).entry(paper.id).tags


def test_read_only_open_of_a_new_directory_seeds_it(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "new", read_only=True)
    assert len(library.papers()) == 34  # the bundled seeds, as an ordinary first open


def test_read_only_open_of_an_empty_library_seeds_it(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    empty = {"meta": {"1": {"schema": 1, "kind": "papers", "app": "papershelf"}}, "papers": {}}
    (tmp_path / "lib" / "papers.json").write_text(json.dumps(empty))
    assert len(Library.open(tmp_path / "lib", read_only=True).papers()) == 34


def test_read_only_open_of_a_damaged_state_recovers_it_like_a_locked_open(
    root: Path,
) -> None:
    wanted = dict(Library.open(root).entries())
    (root / "state.json").write_text("{not json")
    library = Library.open(root, read_only=True)
    assert dict(library.entries()) == wanted  # recovered from its backup
    assert "it was kept as" in library.take_notices()[0]
    assert list(root.glob("state.json.corrupt-*"))


def test_read_only_open_of_a_newer_file_is_refused_and_left_alone(root: Path) -> None:
    data = json.loads((root / "state.json").read_text())
    data["meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    (root / "state.json").write_text(json.dumps(data))
    with pytest.raises(LibraryError, match="newer papershelf"):
        Library.open(root, read_only=True)
    assert (root / "state.json").exists()
    assert not (root / ".lock").exists()


def test_papers_key_is_none_while_an_import_is_not_saved(root: Path, monkeypatch, tmp_path) -> None:
    library = Library.open(root)
    assert library.papers_key is not None

    def fail(_data: object, _seen: object = None) -> None:
        raise SaveError("could not save papers.json: the disk is full; nothing was changed")

    monkeypatch.setattr(library._papers.store, "write_chunks", fail)
    extra = tmp_path / "extra.txt"
    extra.write_text("Extra\n\nAn abstract about zebrafish swarms and their diffusion.\n")
    with pytest.raises(SaveError):
        library.import_files([extra])
    assert library.pending
    assert library.papers_key is None  # the papers in memory are in no file


# -- state.json without the Library --------------------------------------------------------------


def test_read_entries_equals_the_librarys_entries(root: Path) -> None:
    entries = read_entries(root / "state.json")
    assert entries == dict(Library.open(root).entries())
    assert entries


def test_read_entries_of_no_file_is_empty(tmp_path: Path) -> None:
    assert read_entries(tmp_path / "state.json") == {}


DAMAGED_STATES = [
    "",
    "{not json",
    "[]",
    '{"meta": {"1": {"schema": 1, "kind": "state"}}, "entries": []}',
    '{"meta": {"1": {"schema": 1, "kind": "state"}}, "entries": {"abc": 5}}',
    '{"meta": {"1": {"schema": 1, "kind": "state"}}, "entries": {"abc": {"tags": 5}}}',
    '{"meta": {"1": {"schema": 1, "kind": "state"}}, "entries": {"abc": {"tags": "ab"}}}',
    # Schema 2: TinyDB documents; the paper is a field, the key a document id.
    '{"meta": {"1": {"schema": 2, "kind": "state"}}, "entries": {"abc": {"paper_id": "abc"}}}',
    '{"meta": {"1": {"schema": 2, "kind": "state"}}, "entries": {"1": {"tags": ["x"]}}}',
    '{"meta": {"1": {"schema": 2, "kind": "state"}}, "entries": {"1": {"paper_id": "abc",'
    ' "tags": "ab"}}}',
]
FOREIGN_STATES = [
    '{"entries": {}}',
    '{"meta": {"1": {"schema": 1, "kind": "papers"}}, "entries": {}}',
    '{"meta": {"1": {"schema": 99, "kind": "state"}}, "entries": {}}',
    '{"meta": {"1": {"schema": "1", "kind": "state"}}, "entries": {}}',
]


@pytest.mark.parametrize("content", DAMAGED_STATES)
def test_read_entries_of_a_damaged_file_is_none_and_the_library_recovers_it(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "state.json"
    path.write_text(content)
    assert read_entries(path) is None
    library = Library.open(tmp_path, seed=False)
    assert "damaged" in library.take_notices()[0]
    assert list(tmp_path.glob("state.json.corrupt-*"))


@pytest.mark.parametrize("content", FOREIGN_STATES)
def test_read_entries_of_a_file_the_library_refuses_is_none(tmp_path: Path, content: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(content)
    assert read_entries(path) is None
    with pytest.raises(LibraryError):
        Library.open(tmp_path, seed=False)
    assert path.read_text() == content  # another program's file is left alone
