"""What the app does with an exception nobody expected: abandon the action, or save and stop.

Textual ends an app on any unhandled exception, with status 1 and a traceback (or, for an
error in a widget's handler, with that widget's message loop stopped). papershelf instead:

- **abandons** what can be abandoned: a key's action (`run_action`), a handler of the app's
  own messages and events (`_on_message`; mounting excepted), a dialog's result callback
  (`push_screen`), a worker (`WorkerFailed`) and the app's own timers (`guarded`). The
  screen gets one safe line, the traceback goes to `crash.log`, and the app keeps running;
- **stops** otherwise (an error inside a widget, a dialog's compose, a render): a last save
  attempt, the traceback to `crash.log`, one line on stderr and exit status `EXIT_CRASH` (70,
  EX_SOFTWARE), never 0.

Private Textual names relied on (see docs/ARCHITECTURE.md; `tests/tui/test_app_guard.py`
fails if Textual renames them): `App._handle_exception`, `MessagePump._on_message`,
`App._exception` and `App._exception_event` (so Pilot tests still see a fatal error).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import App
from textual.message import Message
from textual.notifications import Notify, SeverityLevel
from textual.worker import WorkerFailed

from papershelf.tui.crashlog import append_crash, describe
from papershelf.tui.notifications import LastingNotification
from papershelf.tui.text import one_line_notice

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode
    from textual.screen import Screen

    from papershelf.storage.library.library import Library

EXIT_CRASH = 70
"""Exit status after an error the app could not survive (EX_SOFTWARE in sysexits.h)."""

_NOT_ABANDONABLE = (events.Compose, events.Mount)
"""A failed compose or mount leaves a half-built screen: that is not something to go on with."""


class CrashGuard(App[None]):
    """Turns unexpected exceptions into an abandoned action or a clean exit 70."""

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        """Where `crash.log` goes (the library's directory), and what a last save saves."""

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """As `App.notify`, with a notification whose toast cannot freeze the app (see
        `papershelf.tui.notifications`)."""
        if timeout is None:
            timeout = self.NOTIFICATION_TIMEOUT
        notification = LastingNotification(message, title, severity, timeout, markup=markup)
        self.post_message(Notify(notification))

    def last_save_attempt(self) -> str | None:
        """Try to save what is unsaved; a line naming what is lost, or None.

        The app gives it to its `UnsavedChanges` (`app.saving`); the guard has nothing to save.
        """
        return None

    # -- abandoning ------------------------------------------------------------------------------

    def abandon(self, error: BaseException, where: str) -> None:
        """Log `error` and say so in one line; the app goes on."""
        logged = append_crash(self.library.root, error, where)
        detail = "details in crash.log" if logged else "crash.log could not be written"
        message = f"Internal error in {where}, abandoned ({describe(error)}); {detail}"
        with contextlib.suppress(Exception):  # reporting must never raise a second error
            self.notify(one_line_notice(message, 300), severity="error", markup=False, timeout=10)

    def guarded(self, callback: Callable[[], object], where: str) -> Callable[[], None]:
        """`callback` with its exceptions abandoned (timers: Textual finds their errors fatal)."""

        def run() -> None:
            try:
                callback()
            except Exception as error:  # abandoned and logged, see module doc
                self.abandon(error, where)

        return run

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action (a key, the palette); an exception abandons it."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:  # abandoned and logged, see module doc
            name = action if isinstance(action, str) else action[1]
            self.abandon(error, f"the action {name!r}")
            return True

    async def _on_message(self, message: Message) -> None:
        # The app's own handlers (its @on methods, events, call_later callbacks): abandon.
        try:
            await super()._on_message(message)
        except Exception as error:
            if isinstance(message, _NOT_ABANDONABLE):
                raise
            self.abandon(error, f"handling {type(message).__name__}")

    def push_screen(  # type: ignore[override]
        self,
        screen: Screen[Any] | str,
        callback: Callable[[Any], object] | None = None,
        wait_for_dismiss: bool = False,
    ) -> Any:
        """Push `screen`; an exception in its result callback abandons that result."""
        if callback is not None:
            callback = self._guard_result(callback, screen)
        return super().push_screen(screen, callback, wait_for_dismiss)  # type: ignore[call-overload]

    def _guard_result(
        self, callback: Callable[[Any], object], screen: Screen[Any] | str
    ) -> Callable[[Any], Awaitable[None]]:
        name = screen if isinstance(screen, str) else type(screen).__name__

        async def run(result: Any) -> None:
            try:
                outcome = callback(result)
                if isinstance(outcome, Awaitable):
                    await outcome
            except Exception as error:  # abandoned and logged, see module doc
                self.abandon(error, f"the result of {name}")

        return run

    # -- the last resort -------------------------------------------------------------------------

    def _handle_exception(self, error: Exception) -> None:
        # Textual calls this for every exception it caught and did not expect.
        if isinstance(error, WorkerFailed):
            # A worker ran on its own: nothing else stopped with it.
            cause = error.error if isinstance(error.error, BaseException) else error
            self.abandon(cause, "a background task")
            return
        self.stop_after_crash(error)

    def stop_after_crash(self, error: BaseException) -> None:
        """Log `error`, try a last save and exit with `EXIT_CRASH` and one line on stderr."""
        logged = append_crash(self.library.root, error, "the app (not recoverable)")
        try:
            lost = self.last_save_attempt()
        except Exception as save_error:  # the exit must still happen
            lost = f"the last save failed: {describe(save_error)}"
        where = f"; traceback in {logged}" if logged else ""
        saved = f"; {lost}" if lost else "; every change is saved"
        line = f"papershelf stopped after an internal error ({describe(error)}){saved}{where}"
        self.exit(return_code=EXIT_CRASH, message=Text(one_line_notice(line, 1000)))
        if self._exception is None and isinstance(error, Exception):
            # Pilot tests re-raise the first fatal error, as they would without this guard.
            self._exception = error
            self._exception_event.set()
