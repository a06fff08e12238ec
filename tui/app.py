"""PapershelfApp: key bindings, start-up and refresh; the actions live in composed objects.

The app holds one object per thing the keys act on: `papers` (tags, status, star, note, undo),
`search` (the filter's live search), `workflow` (sort orders, related papers) and `output`
(copy, open, export), and `saving` (changes not yet on disk) and `signals` (SIGHUP, SIGTERM).
Its `action_*` methods are one-line delegations to them; what stays App behaviour, as bases, is
what must override Textual's own App methods: the crash guard and the dialog keys.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import App
from textual.binding import Binding, BindingType
from textual.widgets import Input

from papershelf.storage.errors import PapershelfError
from papershelf.storage.library.config import Config, load_config
from papershelf.tui.app_actions import PaperActions
from papershelf.tui.app_adding import ADD_BINDINGS, AddingActions
from papershelf.tui.app_bindings import APP, LEAVE_FILTER, MOVE, OUT, PAPERS
from papershelf.tui.app_columns import ColumnCommands, apply_saved_columns, toggle_authors_column
from papershelf.tui.app_config import start_config
from papershelf.tui.app_guard import CrashGuard
from papershelf.tui.app_saving import UnsavedChanges
from papershelf.tui.app_search import SearchWiring
from papershelf.tui.app_signals import SignalExit
from papershelf.tui.app_trace import TRACE
from papershelf.tui.app_workflow import WORKFLOW_BINDINGS, RelatedReady, WorkflowActions
from papershelf.tui.app_workflow_sort import SortCommands
from papershelf.tui.collector import IDLE_SECONDS, IdleCollector
from papershelf.tui.commands import BoundAction, PapershelfCommands, help_sections
from papershelf.tui.first_run import show_first_run_hint
from papershelf.tui.messages import IndexReady, SearchFailed, SearchFinished
from papershelf.tui.output import OutputActions
from papershelf.tui.screens.dialogs_base import DialogKeys
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.main import MainScreen
from papershelf.tui.text import one_line_notice
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

REFRESH_SECONDS = 2.0

"""How often to look for changes another papershelf process saved."""


class PapershelfApp(CrashGuard, DialogKeys):
    """Filter, read, tag and export the papers of one Library."""

    # The main screen's sheet is read here: Textual 8.2.8 reads a screen's CSS_PATH when the
    # screen is pushed, never for the default screen.
    CSS_PATH: ClassVar[list[str | Path]] = ["app.tcss", "screens/main.tcss"]
    TITLE = "papershelf"
    COMMANDS: ClassVar = App.COMMANDS | {PapershelfCommands, SortCommands, ColumnCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *MOVE,
        *PAPERS,
        *WORKFLOW_BINDINGS,
        *OUT,
        *ADD_BINDINGS,
        *APP,
        *LEAVE_FILTER,
    ]
    # The keys typed behind one of these wait for its dialog (DialogKeys): `a /` types `/`
    # into the add dialog instead of opening the filter behind it.
    DIALOG_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {
            "tag",
            "note",
            "remove",
            "related",
            "copy_code",
            "open_link",
            "export",
            "add_papers",
            "help",
            "quit",
        }
    )

    def __init__(self, library: Library, config: Config | None = None) -> None:
        super().__init__(library)  # the crash guard keeps it: `self.library`
        self.config: Config = load_config() if config is None else config
        """The user's config file (`library.config`): theme, keys, defaults; and its problems."""
        self.applied_keymap: dict[str, str] = {}  # the [keys] given to set_keymap (app_config)
        self._seen_revision = library.revision
        self._papers_seen = library.papers()
        self._last_poll_error: str | None = None
        self.collector = IdleCollector()
        self.papers: PaperActions = PaperActions(self)
        """Tags, status, star, note, undo and redo (`t`, `T`, `s`, `*`, `n`, `u`, `ctrl+r`)."""
        self.search: SearchWiring = SearchWiring(self)
        """The filter's live search and its results."""
        self.workflow: WorkflowActions = WorkflowActions(self)
        """Sort orders, related papers and the jump to a paper (`S`, `r`)."""
        self.output: OutputActions = OutputActions(self)
        """Copy, open and export (`y`, `o`, `e`)."""
        self.adding: AddingActions = AddingActions(self)
        """Papers fetched by identifier (`a`)."""
        self.saving: UnsavedChanges = UnsavedChanges(self)
        """Changes held in memory after a failed save: retried, shown, asked about at `q`."""
        self.signals: SignalExit = SignalExit(self)
        """SIGHUP and SIGTERM: a last save, then exit 128+N."""
        self.main_screen = MainScreen(library, on_edit=self.search.query_edited)
        """The screen every dialog returns to (the first of the stack)."""

    def get_default_screen(self) -> MainScreen:
        """The main screen is the first of the stack."""
        return self.main_screen

    @property
    def paper_list(self) -> PaperList:
        """The list widget (on the main screen, whichever screen is active)."""
        return self.main_screen.paper_list

    def today(self) -> date:
        """Today's date (a method, so tests can fix it)."""
        return date.today()

    def notify_error(self, message: str) -> None:
        """An error the user caused or must know about, as one safe line."""
        self.notify(one_line_notice(message), severity="error", markup=False)

    def notify_info(self, message: str, severity: str = "information") -> None:
        """A one-line notification of user text, never parsed as markup."""
        self.notify(one_line_notice(message, 300), severity=severity, markup=False)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        """Handle the signals and retry failed saves while the app runs."""
        self.signals.start()
        self.saving.start()

    @on(MainScreen.Ready)
    def main_screen_ready(self) -> None:
        """Show every paper at once; build the search index only after the first frame."""
        TRACE.mark("mount")
        self.main_screen.fit_size(self.size.width, self.size.height)
        apply_saved_columns(self)
        self.main_screen.paper_count = len(self._papers_seen)
        self.search.show_results(self.search.serial, self.workflow.all_hits(), keep=None)
        self.paper_list.focus()
        start_config(self)  # keys, theme, export directory; a notice per problem
        self.set_interval(REFRESH_SECONDS, self.guarded(self.poll_library, "the reload"))
        self.collector.start()
        self.set_interval(IDLE_SECONDS / 2, self.guarded(self.collector.tick, "the collector"))
        self.show_notices()
        show_first_run_hint(self)
        self.call_after_refresh(self._first_frame)

    def on_unmount(self) -> None:
        """Give the garbage collector its usual settings back."""
        TRACE.mark_peak_rss()
        self.signals.stop()
        self.collector.stop()

    def _first_frame(self) -> None:
        TRACE.mark("first-frame")
        self.search.build_index()

    def on_resize(self, event: events.Resize) -> None:
        """Fit the main screen's layout to the new size (wide, narrow, short)."""
        self.main_screen.fit_size(event.size.width, event.size.height)

    # -- messages from the workers ---------------------------------------------------------------

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        self.search.index_ready(message)  # first: a query typed meanwhile is searched
        self.workflow.index_ready(message)

    @on(SearchFinished)
    def _search_finished(self, message: SearchFinished) -> None:
        self.search.finished(message)

    @on(SearchFailed)
    def _search_failed(self, message: SearchFailed) -> None:
        self.search.failed(message)

    @on(RelatedReady)
    def _related_ready(self, message: RelatedReady) -> None:
        self.workflow.related_ready(message)

    # -- redrawing -------------------------------------------------------------------------------

    def last_save_attempt(self) -> str | None:
        """The crash guard's last save before it stops the app: the saving's."""
        return self.saving.last_save_attempt()

    async def action_quit(self) -> None:
        """Quit; with changes not saved, try once more and ask before losing them."""
        self.saving.quit()

    def after_change(self) -> None:
        """Papers or entries changed (here or in another process): redraw and re-filter."""
        self._seen_revision = self.library.revision
        self.saving.show()  # saved now, or held in memory
        papers = self.paper_list
        papers_changed = self.library.papers() is not self._papers_seen
        if papers_changed:
            self._papers_changed()
        papers.refresh_rows()
        self.main_screen.show_paper(papers.current_id)
        if papers_changed or self.search.query_text.strip() or self.workflow.sort_follows_entries:
            # `is:read`, `#tag`, the order may differ; papers imported, removed or put back
            self.search.start_search(keep=papers.current_id)
        else:
            self.search.refresh_side()

    def _papers_changed(self) -> None:
        """Papers were imported, removed or put back: rebuild the index, and at once stop
        showing (or marking) papers that are gone; the search runs again on the new index."""
        self._papers_seen = self.library.papers()
        self.main_screen.paper_count = len(self._papers_seen)
        self.search.engine = None
        self.search.build_index()
        present = {paper.id for paper in self._papers_seen}
        papers = self.paper_list
        if not papers.marked <= present:
            papers.set_marks(set(papers.marked & present))
        if any(hit.paper_id not in present for hit in papers.hits):
            hits = [hit for hit in papers.hits if hit.paper_id in present]
            self.search.show_results(self.search.serial, hits, keep=papers.current_id)

    def poll_library(self) -> None:
        """Pick up changes another process saved (the CLI, a second app)."""
        try:
            changed = self.library.refresh()
        except PapershelfError as error:
            if str(error) != self._last_poll_error:
                self._last_poll_error = str(error)
                self.notify_error(str(error))
            return
        self._last_poll_error = None
        self.show_notices()
        if changed or self.library.revision != self._seen_revision:
            self.after_change()

    def show_notices(self) -> None:
        """What the library did on its own (a damaged file moved aside, state recovered from a
        backup): each notice once, as a warning that stays long enough to be read."""
        for notice in self.library.take_notices():
            self.notify(one_line_notice(notice, 400), severity="warning", markup=False, timeout=30)
        self.saving.show()  # a recovery not yet written is an unsaved change

    # -- messages from the widgets ---------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _highlighted(self) -> None:
        # The main screen moves the reader; here the cursor's moves count as activity.
        self.collector.activity()

    # -- actions ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`/` is for the filter only on the main screen and when no input has focus."""
        if action == "leave_filter":
            return isinstance(self.focused, FilterBar) and self.screen is self.main_screen
        if action == "focus_filter":
            return self.screen is self.main_screen and not isinstance(self.focused, Input)
        return True

    def action_leave_filter(self, keep: bool) -> None:
        """`enter`/`down` in the filter: to the results; `esc`: clear the filter first."""
        if not keep:
            self.main_screen.filter_bar.value = ""
        elif self.search.engine is not None:
            self.search.results_current()  # keys typed after `enter` act on this query's results
        # Screen.set_focus takes effect now; Widget.focus() would wait for call_later, and the
        # next key would still be routed to the filter.
        self.screen.set_focus(self.paper_list)

    def action_focus_filter(self) -> None:
        """Focus the filter (at once: keys typed right after `/` must land there)."""
        filter_bar = self.main_screen.filter_bar
        self.screen.set_focus(filter_bar)
        filter_bar.cursor_position = len(filter_bar.value)

    def action_back(self) -> None:
        """From the reader or the tag pane back to the list."""
        self.paper_list.focus()

    def action_mark_all(self) -> None:
        """Mark every paper in the results."""
        count = self.paper_list.mark_all()
        self.notify_info(f"Marked {count} papers: t, T, s and * now apply to them (U clears)")

    def action_clear_marks(self) -> None:
        """Unmark every paper."""
        self.paper_list.clear_marks()
        self.notify_info("Marks cleared")

    def action_tag(self) -> None:
        """Open the tag editor for the marked papers or the one under the cursor."""
        self.papers.tag()

    def action_toggle_to_read(self) -> None:
        """Add `to-read` (or remove it when every target has it)."""
        self.papers.toggle_to_read()

    def action_cycle_status(self) -> None:
        """unread -> reading -> read -> unread."""
        self.papers.cycle_status()

    def action_star(self) -> None:
        """Star (or unstar when every target is starred)."""
        self.papers.star()

    def action_note(self) -> None:
        """Edit the note of the paper in the reader (when focused) or under the cursor."""
        self.papers.note()

    def action_remove(self) -> None:
        """Remove the marked papers or the one under the cursor, after a confirmation."""
        self.papers.remove()

    def action_undo(self) -> None:
        """Take back the latest change to the user's state (from the journal)."""
        self.papers.undo()

    def action_redo(self) -> None:
        """Do again the latest undone change."""
        self.papers.redo()

    def action_sort(self, order: str = "") -> None:
        """Show the results in `order`, or in the next order of the cycle; remember it."""
        self.workflow.sort(order)

    def action_related(self) -> None:
        """Open "more like this" for the paper in the reader."""
        self.workflow.related()

    def action_copy_code(self) -> None:
        """Copy the code URL of the paper in focus (a chooser when there are several)."""
        self.output.copy_code()

    def action_toggle_authors_column(self) -> None:
        """Show or hide the list's authors column (the palette's command; remembered)."""
        toggle_authors_column(self)

    def action_open_link(self) -> None:
        """Open a link of the paper in focus in a browser."""
        self.output.open_link()

    def action_export(self) -> None:
        """Export the results, the marked papers or a tag (Markdown, BibTeX, CSV or JSON)."""
        self.output.export()

    def action_add_papers(self) -> None:
        """Add papers by arXiv id, DOI or OpenReview link, fetched in a thread."""
        self.adding.add()

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        self.push_screen(HelpScreen(help_sections(self, self.bound_actions()), self.config.path))

    def bound_actions(self) -> list[BoundAction]:
        """Every binding of the main screen, by area, with the node that runs it."""
        screen = self.main_screen
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
                owner = self if binding in self.BINDINGS or target is None else target
                if section == "Filter" and binding in FilterBar.BINDINGS:
                    owner = screen.filter_bar
                actions.append(BoundAction(section, binding, owner))  # type: ignore[arg-type]
        return actions

    # -- for the output actions ------------------------------------------------------------------

    def export_query(self) -> str:
        """The filter's text: an export of the results is titled by it (`export.selection`)."""
        return self.search.query_text

    def current_tag(self) -> str | None:
        """The first tag of the library the filter names, if any (`storage.export.selection`)."""
        from papershelf.storage.export.selection import first_tag

        return first_tag(self.search.query_text, self.library.tag_counts())
