"""NoteEditor: write the free-text note kept with one paper."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import TextArea

from tui.screens.dialogs_base import DialogScreen, clean_line, clean_text, key_hints, shorten
from tui.widgets.safe_input import SafeTextArea


class NoteEditor(DialogScreen[str]):
    """Edit `note`; `ctrl+s` dismisses the new note, `esc` (or an unchanged note) dismisses None.

    The saved note has control characters removed and trailing whitespace trimmed.
    """

    FOCUS = "#note"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save note", id="note.save"),
    ]

    def __init__(self, paper_name: str, note: str) -> None:
        super().__init__()
        self.paper_name = paper_name
        self.note = clean_text(note)

    def compose(self) -> ComposeResult:
        """A title naming the paper, the text area and the key hints."""
        with Vertical(id="dialog", classes="-note") as dialog:
            dialog.border_title = Content("Note · " + shorten(clean_line(self.paper_name), 60))
            yield SafeTextArea(
                self.note,
                id="note",
                soft_wrap=True,
                tab_behavior="focus",
                placeholder=Content("Write a note about this paper…"),
            )
            yield key_hints(("ctrl+s", "save"), ("esc", "cancel"), ("ctrl+z", "undo"))

    def on_mount(self) -> None:
        """Type straight away, after the existing text (the base focuses the area)."""
        area = self.query_one("#note", TextArea)
        area.move_cursor(area.document.end)

    def action_save(self) -> None:
        """Dismiss the edited note, or None when nothing changed."""
        text = clean_text(self.query_one("#note", TextArea).text).rstrip()
        self.dismiss(None if text == self.note.rstrip() else text)
