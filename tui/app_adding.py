"""Adding papers by identifier in the app (`a`): the dialog, the fetch in a thread, the import.

`AddingActions` is composed by the app (`app.adding`). The fetch (`storage.fetch`, network:
seconds) runs in a thread worker, so keys go on working; a notification says what is being
fetched, and another what came of it. The papers are imported on the app's thread
(`Library.import_papers`, one write per paper), the list is refreshed, and its cursor goes to
the first new paper when the user is not busy in the filter or a dialog.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from papershelf.storage.errors import PapershelfError
from papershelf.storage.text.identifiers import Identifier
from papershelf.tui.widgets.filter_bar import FilterBar

if TYPE_CHECKING:
    from papershelf.storage.model import Paper
    from papershelf.tui.app import PapershelfApp

# An ordinary binding, like `t` and `n`: a priority `a` would act the moment it arrives, so
# an `a` typed in a burst behind `n` or `t` (before their dialog is up) opened this dialog.
# The keys behind it are held for the dialog (DialogKeys, `add_papers` in DIALOG_ACTIONS),
# a `/` sent in the same instant included: it is the dialog's text, not the filter.
ADD_BINDINGS: list[BindingType] = [
    Binding(
        "a",
        "add_papers",
        "Add",
        id="app.add",
        show=False,
        tooltip="Add papers by arXiv id, DOI or OpenReview link (fetched from the public APIs)",
    ),
]

Fetched = tuple[str, "Paper | str"]
"""An identifier's label and its paper, or the one-line reason it could not be fetched."""


class AddingActions:
    """`a`: ask for identifiers, fetch them in a thread, import what came."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.fetching = 0
        """Identifiers asked for and not yet answered (every worker's)."""

    def add(self) -> None:
        """Open the dialog for identifiers."""
        from papershelf.tui.screens.add_dialog import AddDialog

        self._app.push_screen(AddDialog(), self._chosen)

    def _chosen(self, identifiers: tuple[Identifier, ...] | None) -> None:
        if not identifiers:
            return
        from papershelf.storage.fetch.lookup import label

        self.fetching += len(identifiers)
        names = ", ".join(label(identifier) for identifier in identifiers)
        self._app.notify_info(f"Fetching {names}…")
        self._app.run_worker(
            partial(self._fetch, identifiers),
            thread=True,
            group="fetch",
            description=f"fetching {len(identifiers)} papers",
        )

    def _fetch(self, identifiers: Sequence[Identifier]) -> None:
        """In the worker's thread: each record whole, or its one-line reason."""
        from papershelf.storage.fetch.client import Client, FetchError
        from papershelf.storage.fetch.lookup import fetch_paper, label

        client = Client.from_environment()
        results: list[Fetched] = []
        for identifier in identifiers:
            try:
                results.append((label(identifier), fetch_paper(identifier, client)))
            except FetchError as error:
                results.append((label(identifier), str(error)))
        # RuntimeError: the app stopped meanwhile; nothing was written, nothing to say.
        with suppress(RuntimeError):
            self._app.call_from_thread(self._arrived, results)

    def _arrived(self, results: Sequence[Fetched]) -> None:
        # On the app's thread: imported now, or once a removal being saved is on disk (the
        # import takes the library's lock; the papers were asked for, so they wait).
        self._app.writing.after_write(partial(self.fetched, results))

    def fetched(self, results: Sequence[Fetched]) -> None:
        """On the app's thread: import what was fetched, say what happened, show the paper."""
        self.fetching -= len(results)
        app = self._app
        added: list[str] = []
        lines: list[str] = []
        failed = False
        for name, outcome in results:
            if isinstance(outcome, str):
                failed = True
                lines.append(f"{name}: {outcome}")
                continue
            try:
                # Asked for by name: a paper the user removed comes back.
                report = app.library.import_papers([outcome], source=name, include_removed=True)
            except PapershelfError as error:
                failed = True
                lines.append(f"{name}: {error}")
                continue
            if report.added:
                added.append(outcome.id)
                lines.append(f"Added {outcome.name} ({name})")
            else:
                lines.append(f"{name}: already in the library")
        if added:
            app.after_change()
            if app.screen is app.main_screen and not isinstance(app.focused, FilterBar):
                app.workflow.jump_to(added[0])
        message = "; ".join(lines)
        if failed:
            app.notify_error(message)
        else:
            app.notify_info(message)
