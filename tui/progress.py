"""Progress of the app's long background builds on the status line (`indexing 45%`).

A build in a thread worker (the first search index, the related-papers index: seconds at 100k
papers) is given a `WorkerProgress` as its `progress(done, total)`: it hands the percentage to
the UI thread with `call_from_thread`, at most `INTERVAL` apart (a build calls it far more
often; each hand-over waits for the UI thread, which must stay free for typing).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from time import monotonic
from typing import Any

from textual.app import App
from textual.worker import get_current_worker

INTERVAL = 0.1
"""Seconds between two updates of the screen (about ten a second)."""


def progress_text(label: str, done: int, total: int) -> str:
    """`label 45%` (never 100% before the end, never more)."""
    if total <= 0:
        return f"{label} 0%"
    percent = min(100, done * 100 // total)
    return f"{label} {percent}%"


class WorkerProgress:
    """`progress(done, total)` for a build in a thread worker: shows `label N%` through `show`
    on the UI thread, throttled."""

    def __init__(self, app: App[Any], label: str, show: Callable[[str | None], None]) -> None:
        self._app = app
        self._label = label
        self._show = show
        self._last = -INTERVAL  # the first call shows at once
        self.shown: list[str] = []
        """Every text handed to the screen (tests and benchmarks read it)."""

    def __call__(self, done: int, total: int) -> None:
        now = monotonic()
        if now - self._last < INTERVAL and done < total:
            return
        self._last = now
        text = progress_text(self._label, done, total)
        if get_current_worker().is_cancelled or not self._app.is_running:
            return  # the app is closing: nothing to show, nobody to wait for
        with contextlib.suppress(RuntimeError):  # the app stopped meanwhile
            self._app.call_from_thread(self._show, text)
            self.shown.append(text)
