"""The app's key actions that act on papers, and the table of every key for help and palette.

`KeyActions` is a mixin of `PapershelfApp` (a plain class, no Textual base): Textual finds an
`action_*` method on the app whatever class defines it, so the one-line delegations to the
objects the app holds (`papers`, `workflow`, `output`, `adding`) live here, beside
`bound_actions`, which groups the same bindings by area for the help screen, the command
palette and the keymap check. What must override Textual's App (focus, quit) stays in `app.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.binding import Binding, BindingType

from papershelf.tui.app_adding import ADD_BINDINGS
from papershelf.tui.app_bindings import APP, MOVE, OUT, PAPERS
from papershelf.tui.app_columns import toggle_authors_column
from papershelf.tui.app_workflow import WORKFLOW_BINDINGS
from papershelf.tui.commands import BoundAction, help_sections
from papershelf.tui.key_names import hint_keys
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

if TYPE_CHECKING:
    from papershelf.tui.app import PapershelfApp


_BULK_KEYS = (("tag", "t"), ("to-read", "T"), ("status", "s"), ("star", "asterisk"))
"""The app's keys that act on every marked paper, by binding id (`app.tag`) and default key."""


def _app(mixin: KeyActions) -> PapershelfApp:
    """The app this mixin is part of (it declares none of the app's attributes itself)."""
    return cast("PapershelfApp", mixin)


class KeyActions:
    """The paper, workflow, output, adding and help keys, each a delegation."""

    def action_mark_all(self) -> None:
        """Mark every paper in the results."""
        app = _app(self)
        count = app.paper_list.mark_all()
        # The keys as the config's [keys] remapped them.
        bulk = [hint_keys(app, f"app.{name}", key) for name, key in _BULK_KEYS]
        named = [key for key in bulk if key is not None]
        keys = ", ".join(named[:-1]) + f" and {named[-1]}" if len(named) > 1 else "".join(named)
        clear = hint_keys(app, "app.clear-marks", "U")
        clears = f" ({clear} clears)" if clear else ""
        app.notify_info(f"Marked {count} papers: {keys} now apply to them{clears}")

    def action_clear_marks(self) -> None:
        """Unmark every paper."""
        _app(self).paper_list.clear_marks()
        _app(self).notify_info("Marks cleared")

    def action_tag(self) -> None:
        """Open the tag editor for the marked papers or the one under the cursor."""
        _app(self).papers.tag()

    def action_toggle_to_read(self) -> None:
        """Add `to-read` (or remove it when every target has it)."""
        _app(self).papers.toggle_to_read()

    def action_cycle_status(self) -> None:
        """unread -> reading -> read -> unread."""
        _app(self).papers.cycle_status()

    def action_star(self) -> None:
        """Star (or unstar when every target is starred)."""
        _app(self).papers.star()

    def action_note(self) -> None:
        """Edit the note of the paper in the reader (when focused) or under the cursor."""
        _app(self).papers.note()

    def action_remove(self) -> None:
        """Remove the marked papers or the one under the cursor, after a confirmation."""
        _app(self).papers.remove()

    def action_undo(self) -> None:
        """Take back the latest change to the user's state (from the journal)."""
        _app(self).papers.undo()

    def action_redo(self) -> None:
        """Do again the latest undone change."""
        _app(self).papers.redo()

    def action_sort(self, order: str = "") -> None:
        """Show the results in `order`, or in the next order of the cycle; remember it."""
        _app(self).workflow.sort(order)

    def action_related(self) -> None:
        """Open "more like this" for the paper in the reader."""
        _app(self).workflow.related()

    def action_copy_code(self) -> None:
        """Copy the code URL of the paper in focus (a chooser when there are several)."""
        _app(self).output.copy_code()

    def action_toggle_authors_column(self) -> None:
        """Show or hide the list's authors column (the palette's command; remembered)."""
        toggle_authors_column(_app(self))

    def action_open_link(self) -> None:
        """Open a link of the paper in focus in a browser."""
        _app(self).output.open_link()

    def action_export(self) -> None:
        """Export the results, the marked papers or a tag (Markdown, BibTeX, CSV or JSON)."""
        _app(self).output.export()

    def action_add_papers(self) -> None:
        """Add papers by arXiv id, DOI or OpenReview link, fetched in a thread."""
        _app(self).adding.add()

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        app = _app(self)
        app.push_screen(HelpScreen(help_sections(app, self.bound_actions()), app.config.path))

    def bound_actions(self) -> list[BoundAction]:
        """Every binding of the main screen, by area, with the node that runs it."""
        app = _app(self)
        screen = app.main_screen
        areas: list[tuple[str, list[BindingType], object]] = [
            ("Filter", [*MOVE, *FilterBar.BINDINGS], None),
            ("List", PaperList.BINDINGS, screen.paper_list),
            ("Reader", Reader.BINDINGS, screen.reader),
            ("Tag pane", TagPane.BINDINGS, screen.tag_pane),
            ("Papers", [*PAPERS, *WORKFLOW_BINDINGS, *OUT, *ADD_BINDINGS], None),
            ("App", APP, None),
        ]
        actions: list[BoundAction] = []
        for section, bindings, target in areas:
            for binding in bindings:
                if not isinstance(binding, Binding):
                    continue
                owner = app if binding in app.BINDINGS or target is None else target
                if section == "Filter" and binding in FilterBar.BINDINGS:
                    owner = screen.filter_bar
                actions.append(BoundAction(section, binding, owner))  # type: ignore[arg-type]
        return actions
