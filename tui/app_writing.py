"""Library changes that rewrite papers.json, run in a thread worker so that keys never wait.

A removal, its undo and redo rewrite papers.json: at 100,000 papers (177 MB) that is 3-12 s
of CPU, during which the UI thread, had it done the write, would take no key. `LibraryWrites`
(`app.writing`, composed by the app) runs such a change in a thread worker, one at a time:

- before the worker starts, the library holds its view (`Library.hold_view`): the list, the
  reader and the filter read the papers and entries as they were, never a change half made;
- the status line says what is being saved (`removing RelGNN…`);
- moving, reading and filtering go on at once. Any other change to the library (tags,
  status, star, note, another removal, undo, redo, papers fetched by `a`) waits (`defer`)
  and runs after the write, in the order asked, each on the UI thread as before (a removal
  or an undo in its own worker again); the status line counts them. Waiting, not refusing:
  keys typed in a burst (`u u u`, `D y D y`) keep their meaning, as when the write held the
  UI thread, and nothing asked for is dropped. None can run during the write: each takes the
  library's lock, which the worker holds. A change's targets are those of the key (the
  papers the person saw), so one aimed at a paper the write removed says it is gone;
- the reload timer and the save retry timer skip their turn (both take the library's lock);
  no garbage collection runs (`IdleCollector.hold`): the worker's new papers would be walked
  by each, every thread stopped meanwhile; they are frozen when it ends;
- `q` waits for the write and the changes waiting: the app quits once they are on disk
  (`quit_after_write`);
- when the worker ends, on the UI thread: the view is released (the change appears whole),
  then the change's own `done` says what happened and refreshes the screen, as a change made
  on the UI thread did.

A signal (SIGTERM, SIGHUP) does not wait: the last save runs and the process ends; the order
of the writes (`storage.library.removal`) makes a kill at any point lose nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from papershelf.tui.app_trace import TRACE

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

Done = Callable[[Any, BaseException | None], None]
"""Called on the UI thread when the write ended: its result (None after an error) and its
error (None when it succeeded)."""


class LibraryWrites:
    """Runs the app's long library writes in a thread worker, one at a time, and the changes
    that come meanwhile after them, in order."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self.running: str | None = None
        """What the write under way does (`removing RelGNN`), None when none runs."""
        self.quit_after_write = False
        """`q` came during the write: quit once every change waiting is on disk."""
        self._waiting: list[Callable[[], None]] = []
        """Changes asked for during the write, oldest first (`defer`)."""

    def start(self, label: str, work: Callable[[], Any], done: Done) -> None:
        """Run `work` (a Library change) in a thread worker, showing `label` on the status
        line; `done(result, error)` runs on the UI thread after it. During another write it
        waits for that one (and those before it)."""
        if self.defer(partial(self.start, label, work, done)):
            return
        self.running = label
        self.library.hold_view()
        self._app.collector.hold()  # no collection walks what the worker makes meanwhile
        self._show()
        TRACE.mark("write-start", label)
        self._app.run_worker(
            partial(self._work, work, done),
            thread=True,
            group="library-write",
            description=label,  # never the repr of the arguments (every paper)
        )

    def defer(self, change: Callable[[], None]) -> bool:
        """While a write runs: keep `change` (on the UI thread) for after it and those waiting
        before it, and return True; else False (the caller goes on at once)."""
        if self.running is None:
            return False
        self._waiting.append(change)
        self._show()
        return True

    def after_write(self, change: Callable[[], None]) -> None:
        """Run `change` now, or after the write under way (and the changes waiting)."""
        if not self.defer(change):
            change()

    def _show(self) -> None:
        """The status line: what is being saved, and how many changes wait for it."""
        text = None
        if self.running is not None:
            waiting = len(self._waiting)
            more = f" ({waiting} more waiting)" if waiting else ""
            text = f"{self.running}…{more}"
        self._app.main_screen.writing = text

    def _work(self, work: Callable[[], Any], done: Done) -> None:
        """In the worker's thread: the change, then `_finished` on the UI thread."""
        result: Any = None
        error: BaseException | None = None
        try:
            result = work()
        except Exception as caught:  # handed to `done` on the UI thread, as the app's errors
            error = caught
        # RuntimeError: the app stopped meanwhile; the change is on disk, nobody to tell.
        with suppress(RuntimeError):
            self._app.call_from_thread(self._finished, result, error, done)

    def _finished(self, result: Any, error: BaseException | None, done: Done) -> None:
        """On the UI thread: the change appears whole and is reported; what waited runs."""
        self.running = None
        self.library.release_view()
        self._app.collector.end_hold()
        TRACE.mark("write-done")
        app = self._app
        # An error nobody expected is abandoned (crash.log), as in any action of the app.
        app.guarded(partial(done, result, error), "the end of a save")()
        # In order, until one of them starts the next write (the rest wait for that one).
        while self._waiting and self.running is None:
            app.guarded(self._waiting.pop(0), "a change that waited for a save")()
        self._show()
        if self.running is None and self.quit_after_write:
            self.quit_after_write = False
            app.saving.quit()

    def quit(self) -> bool:
        """`q` during a write: say so and quit after it and the changes waiting (True);
        False when no write runs."""
        if self.running is None:
            return False
        if not self.quit_after_write:
            self.quit_after_write = True
            self._app.notify_info(f"Quitting once saved ({self.running})")
        return True
