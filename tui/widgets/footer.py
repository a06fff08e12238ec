"""The key-hint footer: `?` and `q` pinned at its right end at any width, the other keys shown
whole or not at all (the least important give way first), and not rebuilt while its screen is
covered."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

PINNED_ACTIONS = ("help", "quit")
"""The keys a newcomer needs whatever the width: they never scroll out of the footer."""
KEEP_FIRST = (
    "read",
    "submit",
    "select",
    "focus_filter",
    "clear_filter",
    "tag",
    "cycle_status",
    "star",
    "copy_code",
    "export",
)
"""The other keys in the order they keep their place when the footer is short of room; a key
not named here (`space Mark`, and any later addition) gives way before all of these."""
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

    _rebuild_due = False
    """Whether a rebuild is scheduled for after the next refresh (`bindings_changed`)."""

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
        # After the refresh, the keys' styles follow `compact`: their widths are then known.
        self.call_after_refresh(self.fit_keys)

    async def recompose(self) -> None:
        """Rebuild the keys, then show only those that fit whole."""
        self._rebuild_due = False
        await super().recompose()
        self.call_after_refresh(self.fit_keys)

    def fit_keys(self) -> None:
        """Show each key whole or hide it: a key cut in the middle of its label tells nothing.

        The room is the footer's width less the pinned group's; the keys take it in the order
        of `KEEP_FIRST` (each the first that still fits), and keep their footer order on screen.
        """
        if not self.is_attached:
            return
        keys = [child for child in self.children if isinstance(child, FooterKey)]
        pinned = [key for key in self.query(FooterKey) if key.parent is not self]
        room = self.size.width - sum(key_width(key) for key in pinned)
        for key in sorted(keys, key=importance):
            width = key_width(key)
            key.display = width <= room
            if key.display:
                room -= width

    def bindings_changed(self, screen: Screen) -> None:
        """Rebuild only when this footer's screen is the one shown, and once for all the
        changes before the next refresh.

        Textual's Footer schedules a whole rebuild (after the refresh) for every change of the
        bindings, and a start changes them four times (the screen mounts, the list takes focus,
        ...): five rebuilds of every key, at 100,000 papers ~60 ms of CPU on the UI thread
        around the first frame, while the search index loads. One rebuild after the refresh
        reads the bindings as they are by then, which is what the last of them would show.
        """
        if self.is_attached and self.app.screen is not self.screen:
            return
        if self._rebuild_due:
            return
        # Textual schedules the rebuild only when these hold (else it just notes the bindings).
        self._rebuild_due = screen.app.app_focus and self.is_attached and screen is self.screen
        super().bindings_changed(screen)


def importance(key: FooterKey) -> int:
    """A key's place in `KEEP_FIRST` (a key not named there comes after all of them)."""
    return KEEP_FIRST.index(key.action) if key.action in KEEP_FIRST else len(KEEP_FIRST)


def key_width(key: FooterKey) -> int:
    """The cells a key takes in the footer's row: its label, padding, border and margins."""
    styles = key.styles
    label = key.get_content_width(Size(0, 0), Size(0, 0))
    return label + styles.gutter.width + styles.margin.width
