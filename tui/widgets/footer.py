"""The key-hint footer: `?` and `q` pinned at its right end at any width, and not rebuilt
while its screen is covered."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PINNED_ACTIONS = ("help", "quit")
"""The keys a newcomer needs whatever the width: they never scroll out of the footer."""
COMPACT_BELOW = 80
"""Below this many columns the keys drop their padding, so more of them fit."""


class QuietFooter(Footer):
    """A Footer whose help and quit keys (and the palette's) sit in a group docked at its
    right end, so they stay in sight when the other keys are cut off at a narrow width.

    It also skips rebuilding its keys while another screen is on top of its own: pushing a
    dialog changes the main screen's bindings, and Textual's Footer recomposes all its keys
    then, although nobody can see it: ~15-20 ms of every dialog's first frame at 10k papers.
    When the main screen resumes, Textual publishes its bindings again, so the footer is
    rebuilt then, with the right keys.
    """

    DEFAULT_CSS = """
    QuietFooter > #pinned {
        dock: right;
        width: auto;
        background: $footer-background;
    }

    QuietFooter > #pinned > FooterKey.-command-palette {
        dock: none;
    }

    QuietFooter > #pinned > FooterKey.-pinned {
        margin-right: 1;
    }
    """

    PINNED: ClassVar[tuple[str, ...]] = PINNED_ACTIONS

    def compose(self) -> ComposeResult:
        """Textual's keys, with the pinned ones (and the palette's) moved to the right group."""
        pinned: list[Widget] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and (
                widget.action in self.PINNED or widget.has_class("-command-palette")
            ):
                if widget.action in self.PINNED:
                    widget.add_class("-pinned")
                pinned.append(widget)
            else:
                yield widget
        if pinned:
            yield HorizontalGroup(*pinned, id="pinned")

    def on_resize(self) -> None:
        """Compact keys in a narrow terminal (one cell between keys instead of three)."""
        self.compact = self.size.width < COMPACT_BELOW

    def bindings_changed(self, screen: Screen) -> None:
        """Rebuild only when this footer's screen is the one shown."""
        if self.is_attached and self.app.screen is not self.screen:
            return
        super().bindings_changed(screen)
