"""Changes the library holds in memory because a save failed: retried, shown, never dropped.

A `Library` change whose write fails (a full disk, a read-only directory) stays in memory and
raises `SaveError`. The app then says so, keeps the change on screen, shows
`● N changes not saved — retrying` in the status line until it is on disk, and retries on the
next change (the Library does), every `RETRY_SECONDS`, and at `q`. Quitting with changes still
unsaved asks first; quitting anyway exits with `EXIT_UNSAVED` and a line naming what was lost.

`UnsavedChanges` is a plain object the app holds (`app.saving`); the app's `action_quit` and
its crash guard's `last_save_attempt` delegate to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from papershelf.storage.errors import PapershelfError, SaveError
from papershelf.tui.text import one_line_notice

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

RETRY_SECONDS = 3.0
"""How often a change that could not be saved is tried again."""
EXIT_UNSAVED = 1
"""Exit status when the user chose to quit with changes that could not be saved."""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class UnsavedChanges:
    """Retries failed saves and refuses to forget them silently, for the app that holds it."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self._save_error: str | None = None
        """The last save failure's message, while changes are unsaved."""

    def start(self) -> None:
        """Start retrying; a library opened with unsaved changes (a recovery) shows them."""
        app = self._app
        app.set_interval(RETRY_SECONDS, app.guarded(self._retry_when_idle, "saving"))
        self.show()

    def _retry_when_idle(self) -> None:
        # Not while a change is written in a worker (`app.writing`): the save would wait for
        # its lock on the UI thread, and that write saves what is pending first anyway.
        if self._app.writing.running is None:
            self.retry_save()

    def show(self) -> None:
        """Put the unsaved note (or none) on the status line: after every change and save."""
        self._app.main_screen.unsaved_note = self.unsaved_note()

    @property
    def unsaved_count(self) -> int:
        """Changes held in memory only: papers whose entry is unsaved, plus unsaved imports."""
        library = self.library
        if not library.pending:
            return 0
        return max(library.unsaved_changes + library.unsaved_papers, 1)

    def unsaved_note(self) -> str | None:
        """`● N changes not saved — retrying` for the status line, or None when all is saved."""
        count = self.unsaved_count
        return f"● {_plural(count, 'change')} not saved — retrying" if count else None

    def save_failed(self, error: SaveError) -> None:
        """A change was made in memory but could not be written: say so; retries follow."""
        self._save_error = str(error)
        held = "Not saved yet (kept on screen, retrying): " if self.library.pending else ""
        self._app.notify(
            one_line_notice(f"{held}{error}", 300),
            severity="error",
            markup=False,
            timeout=10,
        )
        self.show()

    def retry_save(self) -> bool:
        """Try to write what is unsaved; True when it is now on disk."""
        if not self.library.pending:
            return True
        try:
            self.library.save()
        except SaveError as error:
            self._save_error = str(error)
            return False
        except PapershelfError as error:  # the library became unusable: say it, keep trying
            self._save_error = str(error)
            return False
        self._save_error = None
        self._app.notify("Saved: every change is on disk now", markup=False)
        self.show()
        return True

    def last_save_attempt(self) -> str | None:
        """Save what is unsaved; a line naming what is lost if that failed (None: all saved)."""
        if self.retry_save():
            return None
        count = self.unsaved_count
        what = _plural(count, "change") + " to tags, statuses, stars or notes"
        if self.library.unsaved_papers:
            what = _plural(count, "change") + " (imported papers included)"
        return f"{what} could not be saved and are lost: {self._save_error}"

    def quit(self) -> None:
        """Quit; with unsaved changes, try once more and then ask before losing them. A change
        being written in a worker is waited for (`LibraryWrites.quit`)."""
        app = self._app
        if app.writing.quit():
            return
        if self.retry_save():
            app.exit()
            return
        from papershelf.tui.screens.confirm import Confirm

        count = self.unsaved_count
        question = (
            f"{_plural(count, 'change')} could not be saved ({self._save_error}). "
            "Quit anyway and lose them?"
        )

        def answered(quit_anyway: bool | None) -> None:
            if not quit_anyway:
                return
            lost = self.last_save_attempt()
            if lost is None:
                app.exit()
                return
            line = one_line_notice(f"papershelf: {lost}", 1000)
            app.exit(return_code=EXIT_UNSAVED, message=Text(line))

        app.push_screen(Confirm(one_line_notice(question, 300), yes="Quit", no="Stay"), answered)
