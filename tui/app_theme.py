"""The theme a person picks in the command palette is the theme of the next start too.

It is the user's, not a library's: saved as `theme` in the config file (`library.config`,
written with tomlkit so the file's comments stay). A theme that papershelf version 1 saved in
a library's settings.json is still put back when the config names none.
"""

from __future__ import annotations

import difflib
from dataclasses import replace
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.config import save_theme

if TYPE_CHECKING:
    from textual.theme import Theme

    from papershelf.tui.app import PapershelfApp


class ThemeMemory:
    """Puts back the config's theme and saves each one chosen afterwards."""

    def __init__(self, app: PapershelfApp) -> None:
        self.app = app
        self._shown: str | None = None
        """The theme last applied or saved: Textual may publish it again, later."""

    def start(self) -> list[str]:
        """Apply the saved theme, then listen; returns a problem line for an unknown one."""
        app = self.app
        problems: list[str] = []
        config = app.config
        themes = app.available_themes
        if config.theme is not None and config.theme not in themes:
            near = difflib.get_close_matches(config.theme, sorted(themes), n=2, cutoff=0.6)
            hint = f"did you mean {' or '.join(near)}?" if near else "ctrl+p, Theme lists them"
            problems.append(
                f"{config.path.name}: theme: unknown theme {config.theme!r} ({hint}); ignored"
            )
        else:
            saved = config.theme or app.workflow.settings.theme
            # A name settings.json kept that this Textual does not know is passed over quietly.
            if saved is not None and saved in themes:
                app.theme = saved
        self._shown = app.theme
        # Textual publishes every change of `App.theme` (the palette's "Change theme" too).
        app.theme_changed_signal.subscribe(app, self._changed)
        return problems

    def _changed(self, theme: Theme) -> None:
        app = self.app
        if theme.name in (app.config.theme, self._shown):
            return  # starting with a saved theme writes nothing
        self._shown = theme.name
        try:
            save_theme(app.config.path, theme.name)
        except PapershelfError as error:
            app.notify_error(f"Theme not remembered: {error}")
            return
        app.config = replace(app.config, theme=theme.name)
