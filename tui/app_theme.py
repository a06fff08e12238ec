"""The theme a person picks in the command palette is the theme of the next start too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.settings import save_settings

if TYPE_CHECKING:
    from textual.theme import Theme

    from papershelf.tui.app import PapershelfApp


class ThemeMemory:
    """Puts back the theme saved in settings.json and saves each one chosen afterwards."""

    def __init__(self, app: PapershelfApp) -> None:
        self.app = app

    def start(self) -> None:
        """Apply the saved theme (a name this Textual does not know is ignored), then listen."""
        app = self.app
        saved = app.workflow.settings.theme
        if saved is not None and saved in app.available_themes:
            app.theme = saved
        # Textual publishes every change of `App.theme` (the palette's "Change theme" too).
        app.theme_changed_signal.subscribe(app, self._changed)

    def _changed(self, theme: Theme) -> None:
        app = self.app
        if theme.name == app.workflow.settings.theme:
            return
        app.workflow.settings = app.workflow.settings.with_theme(theme.name)
        try:
            save_settings(app.library.root, app.workflow.settings)
        except PapershelfError as error:
            app.notify_error(f"Theme not remembered: {error}")
