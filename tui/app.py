"""PapershelfApp: key bindings, start-up, focus and the workers' messages.

The app holds one object per thing the keys act on: `papers` (tags, status, star, note, undo),
`search` (the filter's live search), `workflow` (sort orders, related papers) and `output`
(copy, open, export), `adding` (fetch by identifier), `saving` (changes not yet on disk),
`writing` (removals, undo and redo, saved in a worker), `signals` (SIGHUP, SIGTERM) and
`reloading` (the screen following the library, `app_refresh`).
The `action_*` methods that delegate to them are the mixin `KeyActions` (`app_keys`), with the
table of every key for help and palette; what stays App behaviour, as bases, is what must
override Textual's own App methods: the crash guard and the dialog keys.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import App
from textual.binding import BindingType
from textual.widgets import Input

from papershelf.storage.library.config import Config, load_config
from papershelf.tui.app_actions import PaperActions
from papershelf.tui.app_adding import ADD_BINDINGS, AddingActions
from papershelf.tui.app_bindings import APP, LEAVE_FILTER, MOVE, OUT, PAPERS
from papershelf.tui.app_columns import ColumnCommands, apply_saved_columns
from papershelf.tui.app_config import start_config
from papershelf.tui.app_guard import CrashGuard
from papershelf.tui.app_keys import KeyActions
from papershelf.tui.app_refresh import LibraryRefresh
from papershelf.tui.app_saving import UnsavedChanges
from papershelf.tui.app_search import SearchWiring
from papershelf.tui.app_signals import SignalExit
from papershelf.tui.app_trace import TRACE
from papershelf.tui.app_workflow import WORKFLOW_BINDINGS, RelatedReady, WorkflowActions
from papershelf.tui.app_workflow_sort import SortCommands
from papershelf.tui.app_writing import LibraryWrites
from papershelf.tui.collector import HOLD_YOUNG_SECONDS, IDLE_SECONDS, IdleCollector, StartPause
from papershelf.tui.commands import PapershelfCommands
from papershelf.tui.first_run import show_first_run_hint
from papershelf.tui.messages import IndexReady, SearchFailed, SearchFinished, TablesReady
from papershelf.tui.output import OutputActions
from papershelf.tui.screens.dialogs_base import DialogKeys
from papershelf.tui.screens.main import MainScreen
from papershelf.tui.switching import QuickSwitch
from papershelf.tui.text import one_line_notice
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.timer import Timer

    from papershelf.storage.library.library import Library


class PapershelfApp(KeyActions, CrashGuard, DialogKeys):
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

    def __init__(
        self,
        library: Library,
        config: Config | None = None,
        *,
        start_pause: StartPause | None = None,
    ) -> None:
        super().__init__(library)  # the crash guard keeps it: `self.library`
        self.start_pause = start_pause
        """Cyclic collections held off since before the library was opened (`run_app`): given
        back at the first frame."""
        self.config: Config = load_config() if config is None else config
        """The user's config file (`library.config`): theme, keys, defaults; and its problems."""
        self.applied_keymap: dict[str, str] = {}  # the [keys] given to set_keymap (app_config)
        self.collector = IdleCollector()
        self.quick_switch = QuickSwitch()
        """The interpreter's switch interval, short while the app runs (`tui.switching`)."""
        self.young_release: Timer | None = None
        """The timer that runs young collections once keys pause (`collector.wake` starts it)."""
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
        self.writing: LibraryWrites = LibraryWrites(self)
        """Removals, undo and redo: written in a thread worker, one at a time."""
        self.signals: SignalExit = SignalExit(self)
        """SIGHUP and SIGTERM: a last save, then exit 128+N."""
        self.reloading: LibraryRefresh = LibraryRefresh(self)
        """The screen follows the library: changes made here and those other processes saved."""
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
        """Handle the signals and retry failed saves while the app runs; keys go before the
        workers' computing (`tui.switching`)."""
        self.quick_switch.start()
        self.signals.start()
        self.saving.start()

    @on(MainScreen.Ready)
    def main_screen_ready(self) -> None:
        """Show every paper at once; build the search index only after the first frame."""
        TRACE.mark_cpu("mount")
        self.main_screen.fit_size(self.size.width, self.size.height)
        apply_saved_columns(self)
        self.main_screen.paper_count = len(self.reloading.papers_seen)
        self.search.show_results(self.search.serial, self.workflow.all_hits(), keep=None)
        self.paper_list.focus()
        start_config(self)  # keys, theme, export directory; a notice per problem
        self.reloading.start()  # every two seconds, what other processes saved
        self.collector.start()
        self.set_interval(IDLE_SECONDS / 2, self.guarded(self.collector.tick, "the collector"))
        self.young_release = self.set_interval(HOLD_YOUNG_SECONDS, self._release_young, pause=True)
        self.collector.wake = self.young_release.resume
        self.show_notices()
        show_first_run_hint(self)
        self.call_after_refresh(self._first_frame)

    def _release_young(self) -> None:
        # The young collections held off while keys came, run once they pause (the timer
        # runs only while some are held: `collector.wake` resumes it).
        try:
            released = self.collector.release_young()
        except Exception as error:  # abandoned and logged, as `guarded` does
            self.abandon(error, "the collector")
            released = True
        if released and self.young_release is not None:
            self.young_release.pause()

    def on_unmount(self) -> None:
        """Give the garbage collector and the switch interval their usual settings back."""
        TRACE.mark_peak_rss()
        self.signals.stop()
        self.collector.stop()
        self.quick_switch.stop()

    def _first_frame(self) -> None:
        TRACE.mark_cpu("first-frame")
        if self.start_pause is not None:
            self.start_pause.end()
        self.search.build_index()

    def on_resize(self, event: events.Resize) -> None:
        """Fit the main screen's layout to the new size (wide, narrow, short)."""
        self.main_screen.fit_size(event.size.width, event.size.height)

    # -- messages from the workers ---------------------------------------------------------------

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        self.search.index_ready(message)  # first: a query typed meanwhile is searched
        self.workflow.index_ready(message)

    @on(TablesReady)
    def _tables_ready(self) -> None:
        self.search.tables_ready()

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
        self.reloading.after_change()

    def poll_library(self) -> None:
        """Pick up changes another process saved (the CLI, a second app)."""
        self.reloading.poll()

    def show_notices(self) -> None:
        """What the library did on its own, each notice once (`LibraryRefresh.show_notices`)."""
        self.reloading.show_notices()

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

    # -- for the output actions ------------------------------------------------------------------

    def export_query(self) -> str:
        """The filter's text: an export of the results is titled by it (`export.selection`)."""
        return self.search.query_text

    def current_tag(self) -> str | None:
        """The first tag of the library the filter names, if any (`storage.export.selection`)."""
        from papershelf.storage.export.selection import first_tag

        return first_tag(self.search.query_text, self.library.tag_counts())
