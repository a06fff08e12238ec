"""A change the disk refused: kept on screen, shown as unsaved, retried, never dropped silently.
And what the library did on its own (a recovery from a backup, a damaged file moved aside) is
shown when the app opens it and when the reload poll re-reads it.

The full disk is real: a 4 MiB tmpfs (`small_disk`), filled and freed.
"""

from __future__ import annotations

from pathlib import Path

from pilot_helpers import settle, status
from test_app import SIZE, Notes

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.confirm import Confirm

UNSAVED = "● 1 change not saved — retrying"


def small_library(disk_root: Path, seed_files: list[Path]) -> Library:
    library = Library.open(disk_root / "lib", seed=False)
    library.import_files(seed_files)
    return library


def record_notifications(app: PapershelfApp) -> list[str]:
    """Every notification from now on, from the very start (before `run_test`)."""
    shown: list[str] = []
    original = app.notify

    def notify(message: str, **kwargs: object) -> None:
        assert kwargs.get("markup") is False, f"notify with markup on: {message!r}"
        shown.append(message)
        original(message, **kwargs)  # type: ignore[arg-type]

    app.notify = notify  # type: ignore[method-assign]
    return shown


async def test_a_change_the_full_disk_refused_is_saved_when_space_is_freed(
    small_disk, seed_files, reopen
) -> None:
    library = small_library(small_disk.path, seed_files)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper = app.paper_list.current_id
        small_disk.fill()
        notes = Notes(app)
        await pilot.press("T")
        await settle(app, pilot)
        assert "to-read" in library.entry(paper).tags  # kept on screen: the row shows it
        assert status(app).startswith(UNSAVED)
        assert "Not saved yet" in notes.last
        assert "to-read" not in reopen(library.root).entry(paper).tags  # not on disk yet

        small_disk.free()
        await pilot.press("s")  # the next change writes both
        await settle(app, pilot)
        assert "not saved" not in status(app)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    on_disk = reopen(library.root).entry(paper)
    assert "to-read" in on_disk.tags
    assert on_disk.status == "reading"


async def test_quit_retries_the_save_first(small_disk, seed_files, reopen) -> None:
    library = small_library(small_disk.path, seed_files)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper = app.paper_list.current_id
        small_disk.fill()
        await pilot.press("T")
        await settle(app, pilot)
        small_disk.free()
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 0
    assert "to-read" in reopen(library.root).entry(paper).tags


async def test_quit_while_the_disk_is_full_asks_and_exits_1(small_disk, seed_files, reopen) -> None:
    library = small_library(small_disk.path, seed_files)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper = app.paper_list.current_id
        small_disk.fill()
        await pilot.press("T")
        await settle(app, pilot)
        await pilot.press("q")
        await settle(app, pilot)
        assert app.is_running
        assert isinstance(app.screen, Confirm)
        assert "1 change could not be saved" in app.screen.question
        await pilot.press("n")  # stay
        await settle(app, pilot)
        assert app.is_running
        assert not isinstance(app.screen, Confirm)
        assert status(app).startswith(UNSAVED)
        await pilot.press("q")
        await settle(app, pilot)
        await pilot.press("y")  # quit anyway
        await pilot.pause()
        assert not app.is_running
    assert app.return_code == 1
    assert "to-read" not in reopen(library.root).entry(paper).tags


async def test_a_state_recovered_from_a_backup_is_announced_at_start(library: Library) -> None:
    paper = library.papers()[0].id
    for tag in ("a", "b", "c"):
        library.tag([paper], add=[tag])
    (library.root / "state.json").write_bytes(b"garbage")
    opened = Library.open(library.root, seed=False)
    app = PapershelfApp(opened)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert any("recovered from" in text and "state.json" in text for text in shown), shown
        assert {"a", "b", "c"} <= opened.entry(paper).tags


async def test_a_damaged_papers_file_is_announced_at_start(library_root: Path) -> None:
    (library_root / "papers.json").write_bytes(b"\x00not json")
    opened = Library.open(library_root, seed=False)
    app = PapershelfApp(opened)
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert any("papers.json was damaged" in text for text in shown), shown
        before = len(shown)
        app.poll_library()
        await settle(app, pilot)
        assert not any("papers.json" in text for text in shown[before:])  # told once


async def test_damage_found_by_the_reload_poll_is_announced(
    make_app, library: Library, library_root: Path
) -> None:
    paper = library.papers()[0].id
    for tag in ("a", "b"):
        library.tag([paper], add=[tag])
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        (library_root / "state.json").write_bytes(b"garbage from elsewhere")
        app.poll_library()  # what the two-second timer calls
        await settle(app, pilot)
        assert any("state.json" in text for text, _ in notes.items), notes.items
        assert {"a", "b"} <= library.entry(paper).tags
