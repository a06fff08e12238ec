"""Inputs and text areas that never let a control character reach the terminal.

Textual draws what a user types or pastes as it is, so a pasted C1 CSI (`\\x9b`), ENQ or bidi
override would go to the terminal raw. `SafeInput` and `SafeTextArea` clean every text that
enters them (typing, paste, completion, values set by code). `PathInput` holds a file path that
must stay exact (a folder's name may hold an escape), so it keeps its value and instead draws
each control character as a visible stand-in of one cell.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text
from textual.suggester import SuggestionReady
from textual.widgets import Input, TextArea
from textual.widgets.text_area import Edit, EditResult

from papershelf.tui.screens.dialogs_base import clean_line, clean_text
from papershelf.tui.text import safe

__all__ = ["PathInput", "SafeInput", "SafeTextArea"]


class _CleanEntryInput(Input):
    """An Input whose typed, pasted and completed text is cleaned, drawn through `safe()`."""

    def replace(self, text: str, start: int, end: int) -> None:
        """Replace `start:end` with `text`, its control characters dropped."""
        # Every keyboard path (typing, paste, ctrl+v, insert, delete) ends here; cleaning first
        # keeps the cursor (start + len(text)) right.
        super().replace(clean_line(text), start, end)

    async def _on_suggestion_ready(self, event: SuggestionReady) -> None:
        # A completion comes from stored text (a hand-edited tag) and is drawn after the value.
        await super()._on_suggestion_ready(
            SuggestionReady(event.value, clean_line(event.suggestion))
        )

    @property
    def _value(self) -> Text:
        """The value as drawn: one visible cell for each control character left in it."""
        if self.password:
            return super()._value
        text = Text(safe(self.value, one_line=True), no_wrap=True, overflow="ignore", end="")
        return self.highlighter(text) if self.highlighter is not None else text

    # The two cell/index conversions follow the drawn text, whose controls take one cell each.

    def _position_to_cell(self, position: int) -> int:
        return cell_len(safe(self.value[:position], one_line=True))

    def _cell_offset_to_index(self, offset: int) -> int:
        scroll_x, _ = self.scroll_offset
        offset += scroll_x
        cell_offset = 0
        for index, char in enumerate(safe(self.value, one_line=True)):
            width = get_character_cell_size(char)
            if cell_offset <= offset < cell_offset + width:
                return index
            cell_offset += width
        return max(0, min(offset, len(self.value)))


class SafeInput(_CleanEntryInput):
    """An Input whose value never holds a control character, however it was set."""

    def validate_value(self, value: str) -> str:
        """Drop control characters (line breaks and tabs become spaces) from any new value."""
        return clean_line(value)


class PathInput(_CleanEntryInput):
    """An Input for a file path: the value stays exact, its controls are drawn visibly."""


class SafeTextArea(TextArea):
    """A TextArea whose text never holds a control character other than newline and tab."""

    def __init__(self, text: str = "", **kwargs: Any) -> None:
        super().__init__(clean_text(text), **kwargs)

    def load_text(self, text: str) -> None:
        """Replace the whole text, cleaned."""
        super().load_text(clean_text(text))

    def edit(self, edit: Edit) -> EditResult:
        """Perform `edit` with its text cleaned (typing, paste, insert and replace all end here)."""
        edit.text = clean_text(edit.text)
        return super().edit(edit)
