"""A change on another thread (`Library.hold_view`): readers see the library as it was until
`release_view`, then the change whole; and `held(timeout=0)` never waits for that thread.

The change is paused half made by a real obstacle: `os.replace`, the last step of every file
write, waits (for journal.json only) until the test lets it go. By then a removal has written
papers.json: its papers are gone from memory, their entries not yet.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from synthetic import make_papers

from papershelf.storage.errors import NotFound
from papershelf.storage.library.journal import JOURNAL_FILE
from papershelf.storage.library.library import Library
from papershelf.storage.library.lock import LibraryBusy

WAIT = 60.0
"""Seconds any wait of this test may take before it fails instead of hanging."""


def _library(root: Path) -> Library:
    library = Library.open(root, seed=False)
    library.import_papers(make_papers(6), "synthetic.txt")
    return library


def _in_thread(work: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(work()), daemon=True)
    thread.start()
    return thread, out


def _wait_until_paused(name: str, monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    reached = threading.Event()
    real = os.replace

    def replace(src: object, dst: object) -> None:
        if Path(str(dst)).name == name and not go.is_set():
            reached.set()
            assert go.wait(WAIT), "the test never let the write go"
        real(src, dst)  # type: ignore[arg-type]

    go = threading.Event()
    monkeypatch.setattr(os, "replace", replace)
    reached.go = go  # type: ignore[attr-defined]
    return reached


@pytest.mark.parametrize("held", [False, True], ids=["live", "view held"])
def test_a_removal_half_made_on_another_thread_is_seen_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: bool
) -> None:
    library = _library(tmp_path)
    order = [paper.id for paper in library.papers()]
    target = order[2]
    library.tag([target], add=["keep"])
    papers, entries, revision = library.papers(), dict(library.entries()), library.revision

    paused = _wait_until_paused(JOURNAL_FILE, monkeypatch)
    if held:
        library.hold_view()
    thread, out = _in_thread(lambda: library.remove([target]))
    assert paused.wait(WAIT)
    # papers.json is written; the journal and state.json not yet.
    try:
        if not held:
            # What a reader met before the view: the paper gone, its entry still there.
            assert not library.has(target)
            with pytest.raises(NotFound):
                library.get(target)
            assert "keep" in library.entry(target).tags
            return
        assert library.papers() is papers
        assert library.get(target).id == target and library.has(target)
        assert library.find(target[:6]).id == target
        assert dict(library.entries()) == entries
        assert library.tag_counts() == {"keep": 1}
        assert library.revision == revision
        assert not library.pending
    finally:
        paused.go.set()  # type: ignore[attr-defined]
        thread.join(WAIT)
    assert not thread.is_alive() and out and out[0].done  # type: ignore[attr-defined]
    # Still the old library until the reading thread releases the view, then the new at once.
    assert library.papers() is papers and library.has(target)
    library.release_view()
    assert [paper.id for paper in library.papers()] == [pid for pid in order if pid != target]
    assert not library.has(target) and target not in library.entries()
    assert library.revision > revision


def test_a_second_view_while_one_is_held_is_refused(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.hold_view()
    with pytest.raises(RuntimeError):
        library.hold_view()
    library.release_view()
    assert not library.view_held


def test_held_with_timeout_0_does_not_wait_for_another_thread(tmp_path: Path) -> None:
    """A refresh on the UI thread (`timeout=0`) while a worker of the same process writes:
    it reports the library busy at once instead of waiting for the write."""
    library = _library(tmp_path)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with library._lock.held():
            holding.set()
            release.wait(WAIT)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert holding.wait(WAIT)
    try:
        tried, out = _in_thread(lambda: _busy(library))
        tried.join(WAIT)
        assert not tried.is_alive(), "held(timeout=0) waited for the other thread"
        assert out == [True]
        (tmp_path / "papers.json").touch()  # changed on disk: a refresh must take the lock
        os.utime(tmp_path / "papers.json", ns=(1, 1))
        checked, changed = _in_thread(library.refresh)
        checked.join(WAIT)
        assert not checked.is_alive() and changed == [False]
    finally:
        release.set()
        holder.join(WAIT)
    assert library.refresh() is True  # the next poll, with the lock free, reads it


def _busy(library: Library) -> bool:
    try:
        with library._lock.held(timeout=0):
            return False
    except LibraryBusy:
        return True
