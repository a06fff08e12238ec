"""Save failures at the Library level: disk full (a real RLIMIT_FSIZE in a subprocess, and
simulated ENOSPC), permission denied, os.replace failing. Each leaves the file byte-identical,
raises SaveError with a clear message, keeps the change in memory, and a retry succeeds."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from synthetic import ids, make_papers, synthetic_library

from papershelf.storage.errors import SaveError
from papershelf.storage.library.library import Library


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = synthetic_library(tmp_path / "lib", 6)
    library.tag([library.papers()[0].id], add=["before"])
    return library


def leftover_temps(root: Path) -> list[str]:
    return [path.name for path in root.rglob("*.tmp")]


def failing(name: str, number: int, target: str):
    """Make `os.<name>` fail with `number` when it touches a temp file or `target`."""
    real = getattr(os, name)

    def touches(args: tuple) -> bool:
        if name in ("write", "fsync"):
            return os.readlink(f"/proc/self/fd/{args[0]}").endswith(".tmp")
        return any(str(arg).endswith((target, ".tmp")) for arg in args[:2])

    def fake(*args, **kwargs):
        if touches(args):
            raise OSError(number, os.strerror(number))
        return real(*args, **kwargs)

    return fake


CASES = {
    "disk full": ("write", errno.ENOSPC, "the disk is full"),
    "permission denied": ("open", errno.EACCES, "permission denied"),
    "read-only": ("open", errno.EROFS, "the file system is read-only"),
    "replace fails": ("replace", errno.EXDEV, os.strerror(errno.EXDEV)),
}


@pytest.mark.parametrize("case", CASES)
def test_failed_tag_keeps_file_and_change_then_retries(
    lib: Library, monkeypatch: pytest.MonkeyPatch, case: str
):
    name, number, message = CASES[case]
    state = lib.root / "state.json"
    before = state.read_bytes()
    a, b = ids(lib)[1:3]
    monkeypatch.setattr(os, name, failing(name, number, "state.json"))
    with pytest.raises(SaveError) as raised:
        lib.tag([a], add=["wanted"])
    monkeypatch.undo()
    text = str(raised.value)
    assert message in text and "state.json" in text and "\n" not in text
    assert state.read_bytes() == before
    assert leftover_temps(lib.root) == []
    assert lib.entry(a).tags == {"wanted"}  # kept in memory
    assert lib.pending
    assert Library.open(lib.root, seed=False).entry(a).tags == frozenset()
    # The next change writes both.
    assert lib.tag([b], add=["next"]) == 1
    assert not lib.pending
    fresh = Library.open(lib.root, seed=False)
    assert fresh.entry(a).tags == {"wanted"}
    assert fresh.entry(b).tags == {"next"}


def test_save_retries_a_failed_change(lib: Library, monkeypatch: pytest.MonkeyPatch):
    a = ids(lib)[1]
    monkeypatch.setattr(os, "replace", failing("replace", errno.EBUSY, "state.json"))
    with pytest.raises(SaveError):
        lib.set_status([a], "read")
    with pytest.raises(SaveError):
        lib.save()
    monkeypatch.undo()
    assert lib.save() is True
    assert Library.open(lib.root, seed=False).entry(a).status == "read"


def test_a_pending_change_survives_another_processs_change(
    lib: Library, monkeypatch: pytest.MonkeyPatch
):
    a, b = ids(lib)[1:3]
    monkeypatch.setattr(os, "replace", failing("replace", errno.EBUSY, "state.json"))
    with pytest.raises(SaveError):
        lib.tag([a], add=["mine"])
    monkeypatch.undo()
    Library.open(lib.root, seed=False).tag([b], add=["theirs"])
    lib.save()
    fresh = Library.open(lib.root, seed=False)
    assert fresh.entry(a).tags == {"mine"}
    assert fresh.entry(b).tags == {"theirs"}


def test_failed_import_keeps_papers_file_and_retries(lib: Library, monkeypatch: pytest.MonkeyPatch):
    papers = lib.root / "papers.json"
    before = papers.read_bytes()
    monkeypatch.setattr(os, "write", failing("write", errno.ENOSPC, "papers.json"))
    with pytest.raises(SaveError, match="disk is full"):
        lib.import_papers(make_papers(2, prefix="new"), "new.txt")
    monkeypatch.undo()
    assert papers.read_bytes() == before
    assert len(lib.papers()) == 8 and lib.pending
    assert lib.save() is True
    assert len(Library.open(lib.root, seed=False).papers()) == 8


DISK_FULL_SCRIPT = textwrap.dedent(
    """
    import json, resource, signal, sys
    from pathlib import Path
    from papershelf.storage.errors import SaveError
    from papershelf.storage.library.library import Library

    root = Path(sys.argv[1])
    library = Library.open(root, seed=False)
    ids = [paper.id for paper in library.papers()]
    state = root / "state.json"
    before = state.read_bytes()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG instead of being killed
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + 16, hard))
    report = {}
    try:
        library.tag(ids, add=["a-tag-long-enough-to-overflow-the-limit"])
    except SaveError as error:
        report["error"] = str(error)
    report["identical"] = state.read_bytes() == before
    report["temps"] = [p.name for p in root.rglob("*.tmp")]
    report["pending"] = library.pending
    report["in_memory"] = sorted(library.entry(ids[-1]).tags)
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    report["saved"] = library.save()
    print(json.dumps(report))
    """
)


def test_real_disk_full_in_a_subprocess(lib: Library):
    done = subprocess.run(
        [sys.executable, "-c", DISK_FULL_SCRIPT, str(lib.root)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    report = json.loads(done.stdout)
    assert "the disk is full" in report["error"]
    assert report["identical"] is True
    assert report["temps"] == []
    assert report["pending"] is True
    assert report["in_memory"] == ["a-tag-long-enough-to-overflow-the-limit"]
    assert report["saved"] is True
    fresh = Library.open(lib.root, seed=False)
    assert all(
        "a-tag-long-enough-to-overflow-the-limit" in fresh.entry(paper_id).tags
        for paper_id in ids(fresh)
    )


def test_a_pending_import_merges_with_another_processs_import(
    lib: Library, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(os, "replace", failing("replace", errno.EBUSY, "papers.json"))
    with pytest.raises(SaveError):
        lib.import_papers(make_papers(2, prefix="mine"), "mine.txt")
    monkeypatch.undo()
    Library.open(lib.root, seed=False).import_papers(make_papers(3, prefix="theirs"), "t.txt")
    assert lib.save() is True
    names = {paper.name for paper in Library.open(lib.root, seed=False).papers()}
    assert {"MethodMine0", "MethodMine1", "MethodTheirs2"} <= names
    assert len(names) == 11
