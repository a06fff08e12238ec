"""The actions that change papers: tags, status, star, note, removal, undo and redo.

`PaperActions` is composed by the app (`app.papers`), not inherited: the app's keys call it.
Every change goes straight to the Library (which writes it to disk and records it in the undo
journal, so that `u` and `ctrl+r` work across restarts and a bulk change is one step); a
`PapershelfError` becomes an error notification. A removal, undo and redo may rewrite
papers.json (seconds at 100,000 papers): they run in a thread worker (`app.writing`,
`tui.app_writing`), and every change asked for meanwhile waits for it, in order. When the
reader has focus, the actions apply to the paper it shows.
Copying, opening and exporting (`y`, `o`, `e`) are in `papershelf.tui.output`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from papershelf.storage.errors import PapershelfError, SaveError
from papershelf.storage.model import STATUSES
from papershelf.tui.widgets.reader import Reader

# The dialogs, the exporter and the clipboard are imported when first used: together they
# cost ~0.1 s of imports that would otherwise delay the first frame.
if TYPE_CHECKING:
    from papershelf.storage.library.library import RemoveReport
    from papershelf.tui.app import PapershelfApp
    from papershelf.tui.screens.tag_editor import TagChange

TO_READ = "to-read"


def _plural(count: int, word: str = "paper") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class PaperActions:
    """Key actions on the papers under the cursor or marked, for the app that composes it."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
        self.library = app.library
        self._journal_notice_shown: str | None = None

    def reader_paper_id(self) -> str | None:
        """The paper the reader shows, when the reader has focus (None otherwise)."""
        focused = self._app.focused
        return focused.paper_id if isinstance(focused, Reader) else None

    def current_paper_id(self) -> str | None:
        """The paper a one-paper action is about: the focused reader's, else the cursor's
        (never from results older than the query: see `SearchWiring.results_current`)."""
        reading = self.reader_paper_id()
        return reading or (
            self._app.paper_list.current_id if self._app.search.results_current() else None
        )

    def targets(self) -> tuple[list[str], bool]:
        """Ids to act on: the reader's paper when it has focus, the marked papers (bulk), or
        else the one under the cursor."""
        reading = self.reader_paper_id()
        if reading is not None:
            return [reading], False
        papers = self._app.paper_list
        if not self._app.search.results_current():
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
        # During a removal's (or an undo's) write it waits for it: it needs the library's lock.
        if self._app.writing.defer(partial(self.change, label, ids, bulk, run)):
            return
        try:
            changed = run()
        except SaveError as error:
            # Made in memory, not on disk: shown as it is, and saved later (`save_failed`).
            self._app.saving.save_failed(error)
            self._app.after_change()
            return
        except PapershelfError as error:
            self._app.notify_error(str(error))
            return
        where = self._describe(ids, bulk)
        unchanged = "" if changed == len(ids) else f" ({_plural(changed)} changed)"
        self._app.notify_info(f"{label}: {where}{unchanged}")
        self.show_journal_notice()
        self._app.after_change()

    def show_journal_notice(self) -> None:
        """Say once (per message) that the undo history was lost or could not be saved."""
        notice = self.library.journal_notice
        if notice and notice != self._journal_notice_shown:
            self._journal_notice_shown = notice
            self._app.notify_info(notice, "warning")

    # -- actions ---------------------------------------------------------------------------------

    def tag(self) -> None:
        """Open the tag editor for the marked papers or the one under the cursor."""
        from papershelf.tui.screens.tag_editor import TagEditor

        ids, bulk = self.targets()
        if not ids:
            self._app.notify_info("No paper to tag", "warning")
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

        self._app.push_screen(editor, done)

    def toggle_to_read(self) -> None:
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

    def cycle_status(self) -> None:
        """unread -> reading -> read -> unread, from the status of the paper under the cursor."""
        ids, bulk = self.targets()
        if not ids:
            return
        base = self.current_paper_id() or ids[0]
        status = self.library.entry(base).status
        new = STATUSES[(STATUSES.index(status) + 1) % len(STATUSES)]
        self.change(f"Status {new}", ids, bulk, lambda: self.library.set_status(ids, new))

    def star(self) -> None:
        """Star (or unstar when every target is starred)."""
        ids, bulk = self.targets()
        if not ids:
            return
        starred = not all(self.library.entry(pid).starred for pid in ids)
        label = "Starred" if starred else "Unstarred"
        self.change(label, ids, bulk, lambda: self.library.set_starred(ids, starred))

    def note(self) -> None:
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

        self._app.push_screen(NoteEditor(paper.name, self.library.entry(paper_id).note), done)

    def remove(self) -> None:
        """Ask, then remove the marked papers or the one under the cursor (one undo step),
        written in a thread worker (`app.writing`)."""
        from papershelf.tui.screens.remove_dialog import RemoveDialog

        ids, bulk = self.targets()
        if not ids:
            self._app.notify_info("No paper to remove", "warning")
            return
        names = [self.library.get(pid).name for pid in ids]
        where = self._describe_names(names, bulk)
        cursor: list[str | None] = [None]  # the paper under the cursor when confirmed

        def removed(report: RemoveReport | None, error: BaseException | None) -> None:
            self._app.paper_list.unhide(ids)
            if isinstance(error, SaveError):
                if not self.library.pending:  # papers.json refused it: nothing was removed
                    self._app.notify_error(str(error))
                    self._show_again(cursor[0])
                    return
                self._app.saving.save_failed(error)  # removed; the entries' write is retried
                self._app.after_change()
                return
            if isinstance(error, PapershelfError):
                self._app.notify_error(str(error))
                self._show_again(cursor[0])
                return
            if error is not None:
                self._show_again(cursor[0])
                raise error  # unexpected: abandoned and logged by the app's guard
            assert report is not None
            undo = "u brings it back" if len(ids) == 1 else "u brings them back"
            if not report.undoable:
                undo = "not undoable: the undo history could not be saved"
            self._app.notify_info(f"Removed {where} ({undo})")
            self.show_journal_notice()
            self._app.after_change()

        def confirmed() -> None:
            # The papers leave the list at once: keys typed meanwhile act on what it shows.
            cursor[0] = self._app.paper_list.current_id
            self._app.paper_list.hide(ids)
            self._app.writing.start(f"removing {where}", lambda: self.library.remove(ids), removed)

        self._app.push_screen(RemoveDialog(names, on_remove=confirmed))

    def _show_again(self, keep: str | None) -> None:
        """The list shows the papers of a removal that failed again (`PaperList.hide`), the
        cursor back on `keep` (where it was when the removal was confirmed)."""
        self._app.search.start_search(keep=keep)

    def _describe_names(self, names: Sequence[str], bulk: bool) -> str:
        if bulk or len(names) > 1:
            return _plural(len(names))
        return names[0]

    def undo(self) -> None:
        """Take back the latest change to the user's state (from the journal: survives restarts)."""
        self._travel(back=True)

    def redo(self) -> None:
        """Do again the latest undone change."""
        self._travel(back=False)

    def _travel(self, *, back: bool) -> None:
        """Undo or redo in a thread worker: the step may be a removal, which rewrites
        papers.json."""

        def travelled(description: str | None, error: BaseException | None) -> None:
            if isinstance(error, SaveError):
                self._app.saving.save_failed(error)
                self._app.after_change()
                return
            if isinstance(error, PapershelfError):
                self._app.notify_error(str(error))
                return
            if error is not None:
                raise error  # unexpected: abandoned and logged by the app's guard
            if description is None:
                self._app.notify_info("Nothing to undo" if back else "Nothing to redo", "warning")
            else:
                self._app.notify_info(f"{'Undone' if back else 'Redone'}: {description}")
                self._app.after_change()
            self.show_journal_notice()

        library = self.library
        label = "undoing the last change" if back else "redoing the last undone change"
        self._app.writing.start(label, library.undo if back else library.redo, travelled)
