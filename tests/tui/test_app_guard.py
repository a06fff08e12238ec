"""Unexpected exceptions: an action, a worker, a handler or a dialog's result is abandoned (the
app goes on, `crash.log` gets the traceback); anything else saves and exits with status 70.

Also guards the private Textual names the guard overrides: renaming them breaks these tests.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from pilot_helpers import settle
from test_app import SIZE, Notes
from textual.app import App
from textual.message_pump import MessagePump
from textual.worker import WorkerFailed

from papershelf.storage.library.library import Library
from papershelf.storage.search.engine import SearchEngine
from papershelf.tui.collector import IdleCollector
from papershelf.tui.screens.tag_editor import TagEditor

CRASH_LOG = "crash.log"
EXIT_CRASH = 70


def crash_log(root: Path) -> str:
    path = root / CRASH_LOG
    return path.read_text(encoding="utf-8") if path.exists() else ""


def test_the_private_textual_names_the_guard_overrides_exist() -> None:
    # If Textual renames one of these, the guard silently stops guarding: fail here instead.
    assert callable(vars(App)["_handle_exception"])
    assert callable(vars(MessagePump)["_on_message"])
    assert "_exception" in App.__init__.__code__.co_names
    assert "_exception_event" in vars(App)
    from papershelf.tui.app_guard import CrashGuard

    for name in ("_handle_exception", "_on_message"):
        assert name in vars(CrashGuard)


async def test_a_failing_action_is_abandoned_and_logged(make_app, library, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("star \x1b[2J [b]exploded[/b]")

    monkeypatch.setattr(library, "set_starred", broken)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert app.is_running
        assert app._exception is None
        assert "Internal error in the action 'star'" in notes.last
        assert "\x1b" not in notes.last  # the error's text is shown safely
        assert notes.last_severity == "error"
        await pilot.press("j", "T")  # the app still works
        await settle(app, pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    log = crash_log(library.root)
    assert "Traceback" in log and "RuntimeError: star" in log
    assert "the action 'star'" in log


async def test_a_failing_worker_is_abandoned(make_app, library, monkeypatch) -> None:
    def broken(self: SearchEngine, *args: object, **kwargs: object) -> None:
        raise RuntimeError("warm-up failed")

    monkeypatch.setattr(SearchEngine, "warm_words", broken)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        notes = Notes(app)
        # Waiting on the workers re-raises the failure when it comes while the test waits
        # (a build that shows its progress takes long enough): the app's handling is checked.
        with contextlib.suppress(WorkerFailed):
            await settle(app, pilot)
        await pilot.pause()
        assert app.is_running
        assert app._exception is None
        assert any("background task" in text for text, _ in notes.items)
        await pilot.press("T")
        await settle(app, pilot)
        assert (
            "to-read"
            in Library.open(library.root, seed=False).entry(app.paper_list.current_id or "").tags
        )
    assert "RuntimeError: warm-up failed" in crash_log(library.root)


async def test_a_failing_search_worker_does_not_leave_searching_on_screen(
    make_app, library, monkeypatch
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)

        def broken(self: SearchEngine, *args: object, **kwargs: object) -> None:
            raise RuntimeError("search exploded")

        monkeypatch.setattr(SearchEngine, "results", broken)
        app.search.last_search = 1.0  # as after a slow search: the next one runs in the worker
        await pilot.press("slash", "g")
        await settle(app, pilot)
        assert app.is_running and app._exception is None
        status = str(app.query_one("StatusLine").render())
        assert "searching" not in status and "search failed (RuntimeError)" in status
    assert "RuntimeError: search exploded" in crash_log(library.root)


async def test_a_failing_message_handler_is_abandoned(make_app, library, monkeypatch) -> None:
    # `space` marks a paper and moves down; the app's Highlighted handler tells the idle
    # collector the user is active: make that raise once.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)

        def broken(self: IdleCollector) -> None:
            raise RuntimeError("activity exploded")

        monkeypatch.setattr(IdleCollector, "activity", broken)
        notes = Notes(app)
        await pilot.press("space")
        await pilot.pause()
        monkeypatch.undo()
        await settle(app, pilot)
        assert app.is_running
        assert app._exception is None
        assert any("handling Highlighted" in text for text, _ in notes.items)
        await pilot.press("j", "space")  # the app still handles its messages
        await settle(app, pilot)
        assert len(app.paper_list.marked) == 2
        assert app.paper_list.current_id == app.paper_list.hits[3].paper_id
    assert "RuntimeError: activity exploded" in crash_log(library.root)


async def test_a_failing_dialog_result_is_abandoned(make_app, library, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise RuntimeError("tagging failed")

    monkeypatch.setattr(library, "tag", broken)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("t")
        await settle(app, pilot)
        assert isinstance(app.screen, TagEditor)
        await pilot.press(*"newtag", "enter", "ctrl+s")
        await settle(app, pilot)
        assert app.is_running
        assert not isinstance(app.screen, TagEditor)
        assert any("the result of TagEditor" in text for text, _ in notes.items)
    assert "RuntimeError: tagging failed" in crash_log(library.root)


async def test_an_unrecoverable_error_saves_and_exits_70(
    make_app, library, monkeypatch, reopen
) -> None:
    # The filter runs the search inside the filter bar's own key handling: an error there stops
    # that widget, so the app cannot go on. Every acknowledged change must be on disk.
    def broken(self: SearchEngine, *args: object, **kwargs: object) -> object:
        raise RuntimeError("search engine bug")

    app = make_app()
    with pytest.raises(RuntimeError, match="search engine bug"):
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await pilot.press("T")
            await settle(app, pilot)
            tagged = app.paper_list.current_id
            monkeypatch.setattr(SearchEngine, "results", broken)
            await pilot.press("slash", "x")
            await settle(app, pilot)
    assert app.return_code == EXIT_CRASH
    assert "RuntimeError: search engine bug" in crash_log(library.root)
    assert "to-read" in reopen(library.root).entry(tagged).tags
