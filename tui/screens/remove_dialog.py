"""RemoveDialog: "Remove these papers from the library?" before `D` removes them.

A `Confirm`, and like every one its safe button ("Keep") has the focus: only `y`, or `tab`
(`←`/`→`) to "Remove" then `enter`, removes; `enter`, `esc` and `n` keep. A reflexive `D enter`,
or a burst `D esc enter` (a terminal may deliver ESC and the next key at once, as `alt+enter`),
removes nothing, although undo would bring the papers back. It names the papers (the first
`NAMES_SHOWN`, then a count), shows its keys, and says what undo and a later import do.

The removal runs inside the key that answers yes (`on_remove`), not in a result callback:
Textual runs that callback a message later, and a `D` typed right behind `enter` would
otherwise be routed first and aim at the paper being removed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Static

from papershelf.tui.key_names import hint_keys
from papershelf.tui.screens.confirm import Confirm
from papershelf.tui.screens.dialogs_base import clean_line, key_hints, shorten

NAMES_SHOWN = 6
NAME_CHARS = 60


class RemoveDialog(Confirm):
    """Ask before removing `names` (the papers' names, in library order); True: remove.

    The focus starts on "Keep" (`Confirm.FOCUS`)."""

    DEFAULT_CSS: ClassVar[str] = """
    RemoveDialog #names {
        color: $text-muted;
        margin-bottom: 1;
    }
    RemoveDialog #after {
        color: $text-muted;
    }
    /* Under 20 rows (dialogs.tcss): the buttons and the keys before what undo does. */
    RemoveDialog.-tiny #after {
        display: none;
    }
    RemoveDialog.-tiny #names {
        margin-bottom: 0;
        max-height: 1;
    }
    """

    def __init__(self, names: Sequence[str], on_remove: Callable[[], None]) -> None:
        count = len(names)
        what = "this paper" if count == 1 else f"these {count} papers"
        super().__init__(f"Remove {what} from the library?", yes="Remove", no="Keep")
        self.names = list(names)
        self.on_remove = on_remove

    def dismiss(self, result: bool | None = None) -> AwaitComplete:
        """Remove at once on yes (see the module docstring), then close; once only."""
        if result and not self.dialog_closed and self.is_current:
            self.on_remove()
        return super().dismiss(result)

    def compose(self) -> ComposeResult:
        """The question, the papers' names, what undo does, then [keep] [remove] and the keys."""
        with Vertical(id="dialog", classes="-confirm") as dialog:
            dialog.border_title = "Remove papers" if len(self.names) > 1 else "Remove paper"
            yield Static(Content(self.question), id="question", markup=False)
            yield Static(Content(self._names_text()), id="names", markup=False)
            # The app's undo key, as the config may have remapped it.
            undo = hint_keys(self.app, "app.undo", "u") or "Undo (in the command palette)"
            yield Static(
                Content(
                    f"{undo} undoes it, with their tags and notes. Importing the file again skips "
                    "them (papershelf import --include-removed brings them back)."
                ),
                id="after",
                markup=False,
            )
            with Horizontal(id="buttons"):
                yield Button(Content(self.no), id="no", variant="primary")
                yield Button(Content(self.yes), id="yes", variant="error")
            yield key_hints(
                (self.hint_key("confirm.yes"), "remove"),
                (self.hint_key("confirm.no"), "keep"),
                (self.hint_key("dialog.cancel"), "keep"),
                None,
                ("tab", "other button"),
                ("enter", "focused button"),
            )

    def _names_text(self) -> str:
        shown = [f"• {shorten(clean_line(name), NAME_CHARS)}" for name in self.names[:NAMES_SHOWN]]
        if len(self.names) > NAMES_SHOWN:
            shown.append(f"  … and {len(self.names) - NAMES_SHOWN} more")
        return "\n".join(shown)
