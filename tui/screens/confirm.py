"""Confirm: a yes/no question that defaults to the safe answer (no)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, clean_text, key_hints


class Confirm(DialogScreen[bool]):
    """Ask `question`; dismisses True for yes, False for no, `esc` or `n`.

    The "no" button has the focus, so a reflexive `enter` never destroys anything.
    """

    FOCUS = "#no"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n", "answer(False)", "No", id="confirm.no"),
        Binding("left,right", "switch_button", "Other button", show=False, id="confirm.switch"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        """A question, then [no] [yes] and the key hints."""
        with Vertical(id="dialog", classes="-confirm") as dialog:
            dialog.border_title = "Confirm"
            yield Static(Content(clean_text(self.question)), id="question", markup=False)
            with Horizontal(id="buttons"):
                yield Button(Content(clean_line(self.no)), id="no", variant="primary")
                yield Button(Content(clean_line(self.yes)), id="yes", variant="error")
            yield key_hints(
                (self.hint_key("confirm.yes"), clean_line(self.yes)),
                (self.hint_key("confirm.no"), clean_line(self.no)),
                ("enter", "focused button"),
                (self.hint_key("dialog.cancel"), clean_line(self.no)),
            )

    def action_answer(self, yes: bool) -> None:
        """Close with the given answer."""
        self.dismiss(yes)

    def action_cancel(self) -> None:
        """`esc` means no."""
        self.dismiss(False)

    def action_switch_button(self) -> None:
        """Move the focus between the two buttons."""
        target = "#yes" if self.focused is self.query_one("#no") else "#no"
        self.query_one(target, Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")
