"""A removal, undo and redo are written in a thread worker (`tui.app_writing`): keys move and
filter while the write waits; other changes wait for it, in order; `q` waits for it.

The write is held up by a real obstacle: the test holds the library's lock file (`flock` on
its own descriptor, as another papershelf process would), so the worker waits in the lock's
acquire for as long as the test likes. `settle` waits for every worker, so while the lock is
held the tests only `pilot.pause()`.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from pilot_helpers import settle, status
from test_app import SIZE, Notes
from textual.worker import WorkerCancelled

from papershelf.storage.library.library import Library
from papershelf.storage.library.lock import LOCK_FILE
from papershelf.tui.app import PapershelfApp
from papershelf.tui.app_search import SEARCH_CACHE
from papershelf.tui.screens.remove_dialog import RemoveDialog

LOCK_WAIT = 60.0
"""The app's lock timeout in these tests: far above the time the test holds the lock, so a
loaded machine never turns the obstacle into `LibraryBusy`."""


@contextmanager
def lock_held(root: Path) -> Iterator[None]:
    """Hold the library's lock file as another process would (an exclusive `flock`)."""
    fd = os.open(root / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def shown(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [hit.paper_id for hit in app.paper_list.hits]


def on_disk(root: Path) -> Library:
    """What the files hold now, read without the lock (the test may be holding it)."""
    return Library.open(root, seed=False, read_only=True)


async def remove_current(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("D")
    await pilot.pause()
    assert isinstance(app.screen, RemoveDialog)
    await pilot.press("y")
    await pilot.pause()


async def test_keys_move_and_filter_while_the_removal_is_written(
    make_app, library: Library
) -> None:
    library.lock_timeout = LOCK_WAIT
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        order = shown(app)
        target = order[0]
        name = library.get(target).name
        with lock_held(library.root):
            await remove_current(app, pilot)
            # The write runs in a thread worker, waiting for the lock; the UI thread is free.
            writes = [w for w in app.workers if w.group == "library-write"]
            assert len(writes) == 1 and writes[0].is_running
            assert writes[0].description == f"removing {name}"
            assert app.writing.running == f"removing {name}"
            assert f"removing {name}…" in status(app)
            # The paper leaves the list at once; the library still holds it until the write.
            assert shown(app) == order[1:]
            assert app.paper_list.current_id == order[1]
            assert library.has(target)
            assert on_disk(library.root).has(target)
            await pilot.press("j", "j")
            await pilot.pause()
            assert app.paper_list.current_id == order[3]
            await pilot.press("slash", *"graph")
            await pilot.pause()
            results = shown(app)
            assert results and target not in results
            assert app.search.shown_serial == app.search.serial  # this query's results
            assert app.writing.running is not None  # all this while the write waited
            assert on_disk(library.root).has(target)
        await settle(app, pilot)
        assert app.writing.running is None
        assert not library.view_held
        assert not on_disk(library.root).has(target)
        assert notes.last == f"Removed {name} (u brings it back)"
        assert "removing" not in status(app)
        await pilot.press("escape")
        await settle(app, pilot)
        assert shown(app) == order[1:]


async def test_changes_asked_for_during_the_write_wait_and_run_in_order(
    make_app, library: Library
) -> None:
    library.lock_timeout = LOCK_WAIT
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        target, after = order[0], order[1]
        with lock_held(library.root):
            await remove_current(app, pilot)
            await pilot.press("s", "asterisk")  # on the paper now under the cursor
            await pilot.pause()
            assert "(2 more waiting)" in status(app)
            assert library.entry(after).status == "unread"
            assert on_disk(library.root).has(target)
        await settle(app, pilot)
        disk = on_disk(library.root)
        assert not disk.has(target)
        assert disk.entry(after).status == "reading" and disk.entry(after).starred
        # Undo in a burst while the first undo waits for the lock: three steps back, in order.
        with lock_held(library.root):
            await pilot.press("u", "u", "u")
            await pilot.pause()
            assert app.writing.running == "undoing the last change"
            assert "(2 more waiting)" in status(app)
        await settle(app, pilot)
        disk = on_disk(library.root)
        assert disk.has(target)
        assert disk.entry(after).status == "unread" and not disk.entry(after).starred
        assert shown(app) == order


async def test_q_during_the_write_waits_for_it(make_app, library: Library) -> None:
    library.lock_timeout = LOCK_WAIT
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        target = shown(app)[0]
        name = library.get(target).name
        with lock_held(library.root):
            await remove_current(app, pilot)
            (write,) = [w for w in app.workers if w.group == "library-write"]
            await pilot.press("q")
            await pilot.pause()
            assert app.is_running
            assert notes.last == f"Quitting once saved (removing {name})"
            assert on_disk(library.root).has(target)
        # The write ends, then the app quits (and cancels what workers remain).
        with suppress(WorkerCancelled):
            await write.wait()
        for _ in range(200):
            if not app.is_running:
                break
            await pilot.pause()
        assert not app.is_running
    assert app.return_code in (None, 0)
    reopened = Library.open(library.root, seed=False)
    assert not reopened.has(target)
    assert reopened.undo() == f"remove {name}"  # the step is in the journal too
    assert reopened.has(target)


async def test_remove_undo_redo_round_trip_exactly(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        target = order[1]
        library.tag([target], add=["keep"])
        library.set_note(target, "a note")
        before = on_disk(library.root)
        papers, entries = list(before.papers()), dict(before.entries())
        app.paper_list.move_to(1)
        await pilot.pause()
        await remove_current(app, pilot)
        await settle(app, pilot)
        removed = on_disk(library.root)
        assert [p.id for p in removed.papers()] == [p.id for p in papers if p.id != target]
        assert target not in removed.entries()
        for keys, want_papers, want_target in (
            ("u", papers, True),
            ("ctrl+r", [p for p in papers if p.id != target], False),
            ("u", papers, True),
        ):
            await pilot.press(keys)
            await settle(app, pilot)
            now = on_disk(library.root)
            assert list(now.papers()) == want_papers  # every record, in library order
            assert (target in now.entries()) is want_target
            if want_target:
                assert dict(now.entries()) == entries
            assert shown(app) == [p.id for p in want_papers]


async def test_a_removal_that_fails_says_so_and_the_list_follows_the_library(
    make_app, library: Library
) -> None:
    """Another process removes the paper while the app's write waits for the lock: the app's
    removal finds it gone (NotFound), says so, and the list shows what the library holds."""
    library.lock_timeout = LOCK_WAIT
    other = Library.open(library.root, seed=False)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        order = shown(app)
        # The other library's own lock (a process of its own would hold it the same way).
        with other._lock.held():
            await remove_current(app, pilot)
            assert app.writing.running is not None
            other.remove([order[0]])
        await settle(app, pilot)
        assert app.writing.running is None and not library.view_held
        assert notes.items[-1] == (f"no paper with id {order[0]!r}", "error")
        app.poll_library()
        await settle(app, pilot)
        assert shown(app) == order[1:]
        assert app.main_screen.paper_count == len(order) - 1


async def test_a_removal_the_full_disk_refused_shows_the_paper_again(
    small_disk, seed_files
) -> None:
    """papers.json could not be written (a real full tmpfs): nothing was removed, the error
    is said, and the paper the list hid at once is shown again."""
    library = Library.open(small_disk.path / "lib", seed=False)
    library.import_files(seed_files)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        order = shown(app)
        small_disk.fill()
        await remove_current(app, pilot)
        await settle(app, pilot)
        small_disk.free()
        assert notes.last_severity == "error"
        assert "removing" not in status(app)
        assert shown(app) == order
        assert app.paper_list.current_id == order[0]
        assert on_disk(library.root).has(order[0])


async def test_a_filter_searches_the_old_index_while_the_new_one_is_made(
    make_app, library: Library, monkeypatch
) -> None:
    """After a removal the search index is made again in a worker; meanwhile the filter keeps
    searching the index there is, without the paper removed. The worker is held at a real
    obstacle: `os.stat` of search-index.bin (its first step) waits until the test lets it go."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"graph", "enter")
        await settle(app, pilot)
        results = shown(app)
        assert len(results) >= 2
        reached, go = threading.Event(), threading.Event()
        real_stat = os.stat

        def stat(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if Path(path).name == SEARCH_CACHE and not go.is_set():
                reached.set()
                go.wait(LOCK_WAIT)
            return real_stat(path, *args, **kwargs)

        monkeypatch.setattr(os, "stat", stat)
        try:
            await remove_current(app, pilot)
            # The index worker starts from the removal's end (`after_change`): once it waits,
            # the removal is saved and shown.
            assert await asyncio.to_thread(reached.wait, LOCK_WAIT)
            await pilot.pause()
            assert app.writing.running is None
            assert app.search.engine is not None and app.search.stale == {results[0]}
            assert shown(app) == results[1:]
            await pilot.press("backspace")  # `grap`: searched now, on the old index
            await pilot.pause()
            assert app.search.shown_serial == app.search.serial
            assert shown(app) and results[0] not in shown(app)
        finally:
            go.set()
        await settle(app, pilot)
        assert app.search.stale == frozenset() and not app.paper_list.hiding
        assert results[0] not in shown(app)
