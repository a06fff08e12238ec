"""Notifications whose toast can never get a negative timer (a Textual 8.2.8 freeze).

Textual's `Toast` takes `notification.time_left` when it is built and starts a one-shot timer
with it. When a toast is rebuilt (a notification, a dialog opening or closing) in the last
microseconds of a notification's life, `time_left` has just gone negative: the timer's loop
(`textual/timer.py`, `skip=True`) then never awaits, and the whole app freezes at full CPU,
deaf to `q` and to SIGHUP. Found by the tmux monkey (seed 42): a live process with a timer of
interval -0.00003 s. `LastingNotification` gives a toast at least `MIN_TOAST_SECONDS` to live,
while it still counts as expired (and is dropped) on time.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.notifications import Notification

MIN_TOAST_SECONDS = 0.05


@dataclass
class LastingNotification(Notification):
    """A `Notification` whose `time_left` is never below `MIN_TOAST_SECONDS`."""

    @property
    def time_left(self) -> float:
        """The time a toast of it still shows: never negative (see the module docstring)."""
        return max(self.seconds_left, MIN_TOAST_SECONDS)

    @property
    def seconds_left(self) -> float:
        """The real time left, negative once expired."""
        return Notification.time_left.fget(self)  # type: ignore[attr-defined]

    @property
    def has_expired(self) -> bool:
        """Expired on time, whatever `time_left` says."""
        return self.seconds_left <= 0
