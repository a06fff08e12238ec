"""The key-hint footer, without rebuilding itself while its screen is covered."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class QuietFooter(Footer):
    """A Footer that skips rebuilding its keys while another screen is on top of its own.

    Pushing a dialog changes the main screen's bindings, and Textual's Footer recomposes
    all its keys then, although nobody can see it: ~15-20 ms of every dialog's first frame
    at 10k papers. When the main screen resumes, Textual publishes its bindings again, so
    the footer is rebuilt then, with the right keys.
    """

    def bindings_changed(self, screen: Screen) -> None:
        """Rebuild only when this footer's screen is the one shown."""
        if self.is_attached and self.app.screen is not self.screen:
            return
        super().bindings_changed(screen)
