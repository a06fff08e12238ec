"""NoteEditor: write the free-text note kept with one paper, here or in the user's editor."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static, TextArea

from papershelf.storage.library.library import NOTE_MAX_CHARS
from papershelf.tui.screens.dialogs_base import (
    DialogScreen,
    clean_line,
    clean_text,
    key_hints,
    shorten,
)
from papershelf.tui.widgets.safe_input import SafeTextArea

PASTE_LIMIT = 2 * NOTE_MAX_CHARS
"""A paste that would make the note longer than this is refused: such a note could not be saved,
and inserting megabytes into the text area freezes it (5 MB took ~58 s)."""


class NoteEditor(DialogScreen[str]):
    """Edit `note`; `ctrl+s` dismisses the new note, `esc` (or an unchanged note) dismisses None.

    `ctrl+e` hands the text to `$VISUAL`/`$EDITOR` with the app suspended and dismisses what
    comes back (saved by the app); an unchanged note or a failed editor keeps the dialog open
    and says so. The saved note has control characters removed and trailing whitespace trimmed.
    """

    FOCUS = "#note"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save note", id="note.save"),
        # Priority: the text area binds ctrl+e itself (end of line), and it has the focus.
        Binding(
            "ctrl+e",
            "external_editor",
            "Edit in $VISUAL / $EDITOR",
            id="note.editor",
            priority=True,
            tooltip="Open the note in your own editor; it is saved when the editor exits",
        ),
    ]

    def __init__(self, paper_name: str, note: str) -> None:
        super().__init__()
        self.paper_name = paper_name
        self.note = clean_text(note)

    def compose(self) -> ComposeResult:
        """A title naming the paper, the text area and the key hints."""
        with Vertical(id="dialog", classes="-note") as dialog:
            dialog.border_title = Content("Note · " + shorten(clean_line(self.paper_name), 60))
            area = SafeTextArea(
                self.note,
                id="note",
                soft_wrap=True,
                tab_behavior="focus",
                placeholder=Content("Write a note about this paper…"),
            )
            yield area
            yield Static("", id="error", markup=False)
            yield key_hints(
                (self.hint_key("note.save", area), "save"),
                (self.hint_key("note.editor", area), "your editor"),
                (self.hint_key("dialog.cancel", area), "cancel"),
                ("ctrl+z", "undo"),
            )

    def on_mount(self) -> None:
        """Type straight away, after the existing text (the base focuses the area)."""
        area = self.query_one("#note", TextArea)
        area.move_cursor(area.document.end)
        self._set_error("")

    def _set_error(self, message: str) -> None:
        error = self.query_one("#error", Static)
        error.update(Content.assemble(("✗ ", "bold"), message) if message else "")
        error.display = bool(message)

    def refuse_paste(self, text: str) -> bool:
        """Refuse a paste that would make the note longer than PASTE_LIMIT, saying why."""
        length = len(self.query_one("#note", TextArea).text) + len(text)
        if length <= PASTE_LIMIT:
            return False
        self._set_error(
            f"Paste of {len(text):,} characters not inserted: "
            f"a note holds at most {NOTE_MAX_CHARS:,}"
        )
        return True

    def action_save(self) -> None:
        """Dismiss the edited note, or None when nothing changed; too long: stay open, say why."""
        text = clean_text(self.query_one("#note", TextArea).text).rstrip()
        if len(text) > NOTE_MAX_CHARS:
            # Closing would lose the text (the library refuses it): keep it here to shorten.
            self._set_error(
                f"Not saved: the note has {len(text):,} characters, "
                f"at most {NOTE_MAX_CHARS:,} are kept · shorten it, or esc to discard"
            )
            return
        self._set_error("")
        self.dismiss(None if text == self.note.rstrip() else text)

    def action_external_editor(self) -> None:
        """Edit the text in the user's editor, the app suspended; save what comes back."""
        from papershelf.tui.external_editor import NoteEdit, edit_note

        text = self.query_one("#note", TextArea).text
        try:
            with self.app.suspend():
                # Nothing may escape this block: Textual resumes the screen only after a normal
                # exit (edit_note reports its failures as a NoteEdit).
                try:
                    edit = edit_note(text, self.paper_name)
                except Exception as error:
                    edit = NoteEdit(None, f"the editor failed ({error}); nothing saved", ok=False)
        except SuspendNotSupported:
            self._set_error("This terminal cannot be handed to an editor: edit the note here")
            return
        if edit.note is None:
            self._set_error(edit.message[:1].upper() + edit.message[1:])
            return
        self._set_error("")
        self.dismiss(edit.note)
