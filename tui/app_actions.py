"""The actions that change papers: tags, status, star, note, undo and redo.

`PaperActions` is the base of `PapershelfApp`; it holds no layout. Every change goes straight
to the Library (which writes it to disk and records it in the undo journal, so that `u` and
`ctrl+r` work across restarts and a bulk change is one step); a `PapershelfError` becomes an
error notification. When the reader has focus, the actions apply to the paper it shows.
Copying, opening and exporting (`y`, `o`, `e`) are in `papershelf.tui.output`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from textual.app import App

from papershelf.storage.errors import PapershelfError, SaveError
from papershelf.storage.model import STATUSES
from papershelf.tui.screens.main import MainScreen
from papershelf.tui.text import one_line_notice
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader

# The dialogs, the exporter and the clipboard are imported when first used: together they
# cost ~0.1 s of imports that would otherwise delay the first frame.
if TYPE_CHECKING:
    from papershelf.storage.library.library import Library
    from papershelf.tui.screens.tag_editor import TagChange

TO_READ = "to-read"


def _plural(count: int, word: str = "paper") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class PaperActions(App[None]):
    """Key actions on the papers under the cursor or marked; the app adds layout and search."""

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self._journal_notice_shown: str | None = None
        self.main_screen = MainScreen(
            library, on_edit=self.query_edited, on_ready=self.main_screen_ready
        )
        """The screen every dialog returns to (the first of the stack)."""

    # -- what the app provides -----------------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        """The main screen is the first of the stack."""
        return self.main_screen

    @property
    def paper_list(self) -> PaperList:
        """The list widget (on the main screen, whichever screen is active)."""
        return self.main_screen.paper_list

    def query_edited(self, query: str) -> None:
        """The filter's text changed; the search wiring overrides this."""

    def main_screen_ready(self) -> None:
        """The main screen's widgets are mounted; the app overrides this to start up."""

    def after_change(self) -> None:
        """Redraw whatever shows entries; the app overrides this."""

    def results_current(self) -> bool:
        """Whether the list shows the query's results; the search wiring overrides this."""
        return True

    def export_query(self) -> str:
        """The query whose results an export of the results holds; the app overrides this."""
        return ""

    def current_tag(self) -> str | None:
        """The tag the filter is about, if any; the app overrides this."""
        return None

    def today(self) -> date:
        """Today's date (a method, so tests can fix it)."""
        return date.today()

    # -- helpers ---------------------------------------------------------------------------------

    def notify_error(self, message: str) -> None:
        """An error the user caused or must know about, as one safe line."""
        self.notify(one_line_notice(message), severity="error", markup=False)

    def notify_info(self, message: str, severity: str = "information") -> None:
        """A one-line notification of user text, never parsed as markup."""
        self.notify(one_line_notice(message, 300), severity=severity, markup=False)  # type: ignore[arg-type]

    def reader_paper_id(self) -> str | None:
        """The paper the reader shows, when the reader has focus (None otherwise)."""
        focused = self.focused
        return focused.paper_id if isinstance(focused, Reader) else None

    def current_paper_id(self) -> str | None:
        """The paper a one-paper action is about: the focused reader's, else the cursor's
        (never from results older than the query: see `SearchWiring.results_current`)."""
        reading = self.reader_paper_id()
        return reading or (self.paper_list.current_id if self.results_current() else None)

    def targets(self) -> tuple[list[str], bool]:
        """Ids to act on: the reader's paper when it has focus, the marked papers (bulk), or
        else the one under the cursor."""
        reading = self.reader_paper_id()
        if reading is not None:
            return [reading], False
        papers = self.paper_list
        if not self.results_current():
            return [], False
        if papers.marked:
            order = {paper.id: i for i, paper in enumerate(self.library.papers())}
            return sorted(papers.marked, key=lambda pid: order.get(pid, 0)), True
        current = papers.current_id
        return ([current] if current else []), False

    def _describe(self, ids: Sequence[str], bulk: bool) -> str:
        if bulk:
            return f"{_plural(len(ids))} (marked)"
        return self.library.get(ids[0]).name if ids else "no paper"

    def change(self, label: str, ids: Sequence[str], bulk: bool, run: Callable[[], int]) -> None:
        """Run one Library change on `ids` (the journal records it for undo), notify, redraw."""
        try:
            changed = run()
        except SaveError as error:
            # Made in memory, not on disk: shown as it is, and saved later (`save_failed`).
            self.save_failed(error)
            self.after_change()
            return
        except PapershelfError as error:
            self.notify_error(str(error))
            return
        where = self._describe(ids, bulk)
        unchanged = "" if changed == len(ids) else f" ({_plural(changed)} changed)"
        self.notify_info(f"{label}: {where}{unchanged}")
        self.show_journal_notice()
        self.after_change()

    def save_failed(self, error: SaveError) -> None:
        """A change is held in memory because its save failed; the saving mixin retries it."""
        self.notify_error(str(error))

    def show_journal_notice(self) -> None:
        """Say once (per message) that the undo history was lost or could not be saved."""
        notice = self.library.journal_notice
        if notice and notice != self._journal_notice_shown:
            self._journal_notice_shown = notice
            self.notify_info(notice, "warning")

    # -- actions ---------------------------------------------------------------------------------

    def action_tag(self) -> None:
        """Open the tag editor for the marked papers or the one under the cursor."""
        from papershelf.tui.screens.tag_editor import TagEditor

        ids, bulk = self.targets()
        if not ids:
            self.notify_info("No paper to tag", "warning")
            return
        names = [self.library.get(pid).name for pid in ids]
        counts = self.library.tag_counts(ids)
        editor = TagEditor(names, frozenset(counts), self.library.tag_counts(), counts=counts)

        def done(result: TagChange | None) -> None:
            if result is None or not (result.add or result.remove):
                return
            words = [f"+{tag}" for tag in sorted(result.add)]
            words += [f"-{tag}" for tag in sorted(result.remove)]
            self.change(
                f"Tags {' '.join(words)}",
                ids,
                bulk,
                lambda: self.library.tag(ids, add=result.add, remove=result.remove),
            )

        self.push_screen(editor, done)

    def action_toggle_to_read(self) -> None:
        """Add `to-read` (or remove it when every target has it)."""
        ids, bulk = self.targets()
        if not ids:
            return
        if all(TO_READ in self.library.entry(pid).tags for pid in ids):
            self.change(
                f"Removed #{TO_READ}", ids, bulk, lambda: self.library.tag(ids, remove=[TO_READ])
            )
        else:
            self.change(
                f"Added #{TO_READ}", ids, bulk, lambda: self.library.tag(ids, add=[TO_READ])
            )

    def action_cycle_status(self) -> None:
        """unread -> reading -> read -> unread, from the status of the paper under the cursor."""
        ids, bulk = self.targets()
        if not ids:
            return
        base = self.current_paper_id() or ids[0]
        status = self.library.entry(base).status
        new = STATUSES[(STATUSES.index(status) + 1) % len(STATUSES)]
        self.change(f"Status {new}", ids, bulk, lambda: self.library.set_status(ids, new))

    def action_star(self) -> None:
        """Star (or unstar when every target is starred)."""
        ids, bulk = self.targets()
        if not ids:
            return
        starred = not all(self.library.entry(pid).starred for pid in ids)
        label = "Starred" if starred else "Unstarred"
        self.change(label, ids, bulk, lambda: self.library.set_starred(ids, starred))

    def action_note(self) -> None:
        """Edit the note of the paper in the reader (when focused) or under the cursor."""
        from papershelf.tui.screens.note_editor import NoteEditor

        paper_id = self.current_paper_id()
        if paper_id is None:
            return
        paper = self.library.get(paper_id)

        def done(note: str | None) -> None:
            if note is not None:
                self.change(
                    "Note saved", [paper_id], False, lambda: self.library.set_note(paper_id, note)
                )

        self.push_screen(NoteEditor(paper.name, self.library.entry(paper_id).note), done)

    def action_undo(self) -> None:
        """Take back the latest change to the user's state (from the journal: survives restarts)."""
        self._travel(back=True)

    def action_redo(self) -> None:
        """Do again the latest undone change."""
        self._travel(back=False)

    def _travel(self, *, back: bool) -> None:
        try:
            description = self.library.undo() if back else self.library.redo()
        except SaveError as error:
            self.save_failed(error)
            self.after_change()
            return
        except PapershelfError as error:
            self.notify_error(str(error))
            return
        if description is None:
            self.notify_info("Nothing to undo" if back else "Nothing to redo", "warning")
        else:
            self.notify_info(f"{'Undone' if back else 'Redone'}: {description}")
            self.after_change()
        self.show_journal_notice()
