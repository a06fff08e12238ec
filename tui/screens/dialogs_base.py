"""What every papershelf dialog shares: the modal base class, safe text and the key-hint line."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

ResultT = TypeVar("ResultT")

# Direction overrides and isolates can reorder what the terminal shows (a "Trojan Source" style
# trick), so they are dropped along with the C0/C1 controls.
_BIDI_CONTROLS = frozenset(
    chr(code) for code in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
)


def clean_line(text: str) -> str:
    """`text` for one line of a dialog: controls dropped, line breaks and tabs made spaces."""
    kept: list[str] = []
    for char in text:
        if char in "\n\r\t\v\f\x85\u2028\u2029":
            kept.append(" ")
        elif char in _BIDI_CONTROLS or unicodedata.category(char) == "Cc":
            continue
        else:
            kept.append(char)
    return "".join(kept)


def clean_text(text: str) -> str:
    """Multi-line `text`: newlines and tabs kept, every other control character dropped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(
        char
        for char in text
        if char in "\n\t" or (char not in _BIDI_CONTROLS and unicodedata.category(char) != "Cc")
    )


def shorten(text: str, limit: int) -> str:
    """Cut `text` to at most `limit` characters, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def key_hints(*pairs: tuple[str, str] | None) -> Static:
    """The key-hint lines of a dialog: each key in bold, then what it does; None breaks the line."""
    parts: list[str | tuple[str, str]] = []
    line_start = True
    for pair in pairs:
        if pair is None:
            parts.append("\n")
            line_start = True
            continue
        key, what = pair
        if not line_start:
            parts.append((" · ", "dim"))
        parts.append((key, "bold"))
        parts.append(" " + what)
        line_start = False
    return Static(Content.assemble(*parts), classes="dialog-hints", markup=False)


class DialogScreen(ModalScreen[ResultT]):
    """A centred modal dialog: `esc` cancels (dismisses None), styling from dialogs.tcss."""

    # Absolute, so the sheet is found however a subclass's module is laid out.
    CSS_PATH: ClassVar[str | Path] = Path(__file__).with_name("dialogs.tcss")

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
    ]

    # dialogs.tcss sizes lists in cells per class: relative max-heights are not honoured
    # inside an auto-height container, and a 24-row terminal needs smaller lists.
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (34, "-tall")]

    def action_cancel(self) -> None:
        """Close the dialog without a result."""
        self.dismiss(None)
