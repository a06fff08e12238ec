"""SIGHUP (the terminal was closed) and SIGTERM: a last save attempt, then exit 128+N.

Without handlers Python dies on either signal at once: no save of a change held in memory,
and a terminal left in raw mode for SIGTERM. The handlers run in the app's event loop
(`loop.add_signal_handler`), so the exit is Textual's ordinary shutdown, after the save.

That shutdown can hang once the terminal is gone: Textual's output thread dies on the first
write that fails (EIO on a hung-up tty) and the next write waits forever on its full queue.
So the handler also arms a watchdog that ends the process with the same status
`EXIT_GRACE_SECONDS` later; by then the save has been attempted.

`SignalExit` is a plain object the app holds (`app.signals`), started and stopped with the app.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from typing import TYPE_CHECKING

from rich.text import Text

from papershelf.tui.crashlog import append_crash
from papershelf.tui.text import one_line_notice

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

HANDLED_SIGNALS = (signal.SIGHUP, signal.SIGTERM)
EXIT_GRACE_SECONDS = 1.5
"""How long Textual's shutdown may take after a signal before the process ends without it."""


class SignalExit:
    """Exits the app that holds it promptly, after a last save attempt, on SIGHUP and SIGTERM."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app

    def start(self) -> None:
        """Handle the signals in the event loop (Unix; elsewhere the defaults stay)."""
        loop = asyncio.get_running_loop()
        for signum in HANDLED_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signum, self.signalled, signum)

    def stop(self) -> None:
        """Give the signals their default handling back."""
        loop = asyncio.get_running_loop()
        for signum in HANDLED_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)

    def signalled(self, signum: int) -> None:
        """Save what is unsaved (once more) and exit with status 128 + `signum`."""
        app = self._app
        try:
            lost = app.saving.last_save_attempt()
        except Exception as error:  # the exit must still happen
            append_crash(app.library.root, error, f"the last save on signal {signum}")
            lost = "the last save failed; see crash.log"
        name = signal.Signals(signum).name
        message = None
        if lost:
            # After SIGHUP nobody may read stderr: crash.log keeps the line too.
            append_crash(app.library.root, RuntimeError(lost), f"exit on {name}")
            message = Text(one_line_notice(f"papershelf: stopped by {name}; {lost}", 1000))
        watchdog = threading.Timer(EXIT_GRACE_SECONDS, os._exit, args=(128 + signum,))
        watchdog.daemon = True  # an exit that completes in time is not held up by it
        watchdog.start()
        app.exit(return_code=128 + signum, message=message)
