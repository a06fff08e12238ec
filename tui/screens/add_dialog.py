"""AddDialog (`a`): identifiers of papers to fetch and add (arXiv ids, DOIs, OpenReview links)."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Label, Static

from papershelf.storage.text.identifiers import Identifier, identify
from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, key_hints, shorten
from papershelf.tui.widgets.safe_input import SafeInput

MAX_IDS_CHARS = 2_000
"""Room for a few dozen identifiers; a longer paste is cut by the input."""

PLACEHOLDER = "2501.01234  10.1145/3292500.3330701  openreview.net/forum?id=…"


class IdsInput(SafeInput):
    """The identifiers' input: a paste of several lines (a list of ids) keeps every line."""

    def on_paste(self, event: events.Paste) -> None:
        """Insert the whole paste, its line breaks made spaces (Input keeps the first line)."""
        # A subclass's handler runs before Input's own, which prevent_default then skips.
        event.prevent_default()
        event.stop()
        text = " ".join(event.text.split())
        if not text:
            return
        if self.selection.is_empty:
            self.insert_text_at_cursor(text)
        else:
            self.replace(text, *self.selection)


class AddDialog(DialogScreen[tuple[Identifier, ...]]):
    """Ask for one or more identifiers, separated by spaces; dismisses them (each recognised,
    each once, in order) or None. An unrecognised word keeps the dialog open, named."""

    FOCUS = "#ids"

    # A priority binding runs when `enter` is routed, with the text typed so far: the input's
    # own Submitted message would arrive after keys typed behind `enter` reached the input.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "add", "Fetch and add", id="add.run", priority=True, show=False),
    ]

    DEFAULT_CSS: ClassVar[str] = """
    AddDialog > #dialog {
        max-width: 90;
    }
    AddDialog #ids-help {
        color: $text-muted;
    }
    """

    def compose(self) -> ComposeResult:
        """Input, a line on what it takes, the error line and the key hints."""
        with Vertical(id="dialog", classes="-add") as dialog:
            dialog.border_title = "Add papers by identifier"
            yield Label("arXiv ids, DOIs or OpenReview links")
            field = IdsInput(
                placeholder=PLACEHOLDER, id="ids", max_length=MAX_IDS_CHARS, select_on_focus=False
            )
            yield field
            yield Static(
                "Separated by spaces; fetched from arXiv, Crossref or OpenReview.",
                id="ids-help",
                markup=False,
            )
            yield Static("", id="error", markup=False)
            yield key_hints(
                (self.hint_key("add.run", field), "fetch and add"),
                (self.hint_key("dialog.cancel", field), "cancel"),
            )

    def on_mount(self) -> None:
        """No error to show yet."""
        self._set_error("")

    def _set_error(self, message: str) -> None:
        error = self.query_one("#error", Static)
        error.update(Content.assemble(("✗ ", "bold"), clean_line(message)) if message else "")
        error.display = bool(message)

    @on(Input.Changed, "#ids")
    def _changed(self) -> None:
        self._set_error("")

    def action_add(self) -> None:
        """Check every word; dismiss the identifiers, or say which word is not one."""
        words = self.query_one("#ids", Input).value.split()
        if not words:
            self._set_error("Type an arXiv id, a DOI or an OpenReview link")
            return
        found: dict[Identifier, None] = {}
        for word in words:
            identifier = identify(word)
            if identifier is None:
                self._set_error(f"Not an arXiv id, DOI or OpenReview link: {shorten(word, 60)}")
                return
            found[identifier] = None
        self.dismiss(tuple(found))
