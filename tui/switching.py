"""How soon a thread waiting for the interpreter gets it: soon enough that keys are not kept
waiting by a worker's computing.

CPython lets one thread run Python at a time. A thread that wants the interpreter while
another computes waits for the switch interval (5 ms by default) before it may even ask the
other to let go. The app's main thread lets go at every turn of its event loop (each `select`)
and so waits again at the next: a key crosses the loop a dozen times from the terminal to the
list drawn (the driver's input thread, the app, the screen, the input, the search). While the
index worker warmed its tables at 100,000 papers, keys waited 60-140 ms between `tmux
send-keys` and the app seeing them (`bench/bench_app.py`, second runs, four side by side);
with the interval at `UI_SWITCH_SECONDS`, 11-17 ms.

A shorter interval costs the workers only when the main thread wants the interpreter, that
is, when there is a key or a frame to handle first; an idle app waits in `select` and asks
for nothing.
"""

from __future__ import annotations

import sys

UI_SWITCH_SECONDS = 0.0005
"""The switch interval while the app runs: a tenth of CPython's default."""


class QuickSwitch:
    """Sets the interpreter's switch interval to `UI_SWITCH_SECONDS` from `start` to `stop`
    (tests run many apps in one process: `stop` puts back what `start` found; both are safe
    to call twice)."""

    def __init__(self) -> None:
        self._saved: float | None = None

    @property
    def active(self) -> bool:
        """Whether the short interval is set (between `start` and `stop`)."""
        return self._saved is not None

    def start(self) -> None:
        """Make waiting threads get the interpreter sooner."""
        if self._saved is None:
            self._saved = sys.getswitchinterval()
            sys.setswitchinterval(UI_SWITCH_SECONDS)

    def stop(self) -> None:
        """Put the interval back as `start` found it."""
        if self._saved is not None:
            # CPython keeps whole microseconds, cut down: half a microsecond more lands on
            # the one read (0.007 reads back as 0.006999, which set alone keeps as 6998).
            sys.setswitchinterval(self._saved + 0.5e-6)
            self._saved = None
