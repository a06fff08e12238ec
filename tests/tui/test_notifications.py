"""A toast built in the last moment of its notification's life must not freeze the app
(Textual 8.2.8 starts a timer of negative interval then, whose loop never yields)."""

from __future__ import annotations

import asyncio
from time import time

from textual.app import App, ComposeResult
from textual.notifications import Notification
from textual.widgets import Static
from textual.widgets._toast import Toast

from papershelf.tui.notifications import MIN_TOAST_SECONDS, LastingNotification


def test_a_lasting_notification_expires_on_time_but_never_has_negative_time_left() -> None:
    late = LastingNotification("x", timeout=1.0, raised_at=time() - 2.0)
    assert late.has_expired
    assert late.time_left == MIN_TOAST_SECONDS
    fresh = LastingNotification("x", timeout=60.0)
    assert not fresh.has_expired and 59 < fresh.time_left <= 60


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("host")


async def _app_still_answers(notification: Notification) -> bool:
    """Mount a toast of `notification` (as Textual rebuilds toasts) and see whether the app
    still runs other work afterwards."""
    app = _Host()
    async with app.run_test() as pilot:
        await app.screen.mount(Toast(notification))
        answered = asyncio.Event()
        app.call_later(answered.set)
        try:
            await asyncio.wait_for(answered.wait(), timeout=5)
        except TimeoutError:
            return False
        await pilot.pause()
    return True


async def test_a_toast_of_a_just_expired_notification_does_not_freeze_the_app() -> None:
    # The notification expired between the toast rack's check and the toast's timer: with a
    # plain Notification the event loop spins for ever (the test would hang); ours answers.
    late = LastingNotification("x", timeout=1.0, raised_at=time() - 1.00003)
    assert await _app_still_answers(late)
