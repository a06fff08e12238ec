"""The list's optional authors column: shown or hidden from the command palette ("Show authors
column" / "Hide authors column"), remembered in settings.json (`Settings.authors_column`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.settings import save_settings

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp

_HELP = "a column of authors in the list (saved in settings.json)"


def apply_saved_columns(app: PapershelfApp) -> None:
    """Show the columns this library remembers, else those of the user's config (at start)."""
    chosen = app.workflow.settings.authors_column
    app.paper_list.show_authors = bool(app.config.authors_column if chosen is None else chosen)


def toggle_authors_column(app: PapershelfApp) -> None:
    """Show the authors column if hidden, else hide it; remember the choice."""
    shown = not app.paper_list.show_authors
    app.paper_list.show_authors = shown
    workflow = app.workflow
    workflow.settings = workflow.settings.with_authors_column(shown)
    try:
        save_settings(app.library.root, workflow.settings)
    except PapershelfError as error:
        app.notify_error(f"Authors column not remembered: {error}")
    app.notify_info("Authors column shown" if shown else "Authors column hidden")


class ColumnCommands(Provider):
    """The palette's command that shows or hides the authors column."""

    def _title(self) -> str:
        from papershelf.tui.app import PapershelfApp

        app = self.app
        shown = isinstance(app, PapershelfApp) and app.paper_list.show_authors
        return "Hide authors column" if shown else "Show authors column"

    async def _run(self) -> None:
        await self.app.run_action("toggle_authors_column")

    async def discover(self) -> Hits:
        """The command, before anything is typed."""
        yield DiscoveryHit(self._title(), self._run, help=_HELP)

    async def search(self, query: str) -> Hits:
        """The command, when its name matches `query`."""
        title = self._title()
        matcher = self.matcher(query)
        score = matcher.match(title)
        if score > 0:
            yield Hit(score, matcher.highlight(title), self._run, text=title, help=_HELP)
