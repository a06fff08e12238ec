"""Helpers shared by the Pilot tests of tests/tui (`from pilot_helpers import settle, status`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App

from papershelf.storage.library.settings import load_settings, save_settings
from papershelf.tui.widgets.status_line import StatusLine


async def index_loaded(app: Any, pilot: Any, rounds: int = 200) -> None:
    """Wait until the app's search index is in (the worker loading it starts at the first
    frame, a few rounds of messages after the app is up: waiting for workers before that
    returns at once)."""
    for _ in range(rounds):
        if app.search.engine is not None:
            return
        await app.workers.wait_for_complete()
        await pilot.pause()


async def filtered(app: App[Any], pilot: Any, query: str) -> None:
    """Once the app has started, `/query` typed and its results shown."""
    await app.workers.wait_for_complete()
    await pilot.press("slash", *query)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def settle(app: App[Any], pilot: Any) -> None:
    """Let workers (index, search, copy, export) finish and their messages be handled."""
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


def status(app: App[Any]) -> str:
    """The status line's text, as drawn."""
    return app.query_one(StatusLine).text


def hint_seen(root: Path) -> None:
    """Remember in `root`'s settings that the first-run hint was shown: a library the tests
    open as one in use, so its toast does not cover what they look at."""
    save_settings(root, load_settings(root).with_hint_shown())
