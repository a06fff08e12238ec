"""PapershelfApp: the main screen's layout, key bindings, live search and refresh wiring."""

from __future__ import annotations

import contextlib
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, ClassVar

from textual import events, on, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.widgets import Input

from papershelf.storage.errors import PapershelfError
from papershelf.storage.search.engine import SearchEngine
from papershelf.tui.app_search import SEARCH_CACHE
from papershelf.tui.app_signals import SignalExit
from papershelf.tui.app_theme import ThemeMemory
from papershelf.tui.app_trace import TRACE
from papershelf.tui.app_workflow import WORKFLOW_BINDINGS, WorkflowActions
from papershelf.tui.app_workflow_sort import SortCommands
from papershelf.tui.collector import IDLE_SECONDS, freeze_long_lived
from papershelf.tui.commands import BoundAction, PapershelfCommands, help_sections
from papershelf.tui.messages import IndexReady
from papershelf.tui.output import OutputActions
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.text import one_line_notice
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

REFRESH_SECONDS = 2.0

"""How often to look for changes another papershelf process saved."""

_MOVE: list[BindingType] = [
    # A priority binding runs before the next key is routed, so `/` then fast typing (or a
    # paste) lands in the filter; check_action lets `/` through to any focused Input.
    Binding("slash", "focus_filter", "Filter", id="app.filter", priority=True),
    Binding("escape", "back", "Back to the list", id="app.back", show=False),
]
_PAPERS: list[BindingType] = [
    Binding("t", "tag", "Tags", id="app.tag", tooltip="Edit tags (of the marked papers, if any)"),
    Binding(
        "T",
        "toggle_to_read",
        "To-read",
        id="app.to-read",
        show=False,
        tooltip="Toggle #to-read (on the marked papers, if any)",
    ),
    Binding(
        "s",
        "cycle_status",
        "Status",
        id="app.status",
        tooltip="Cycle unread → reading → read (marked papers, if any)",
    ),
    Binding("asterisk", "star", "Star", id="app.star", tooltip="Star or unstar (marked, if any)"),
    Binding("n", "note", "Note", id="app.note", show=False, tooltip="Edit the paper's note"),
    Binding("A", "mark_all", "Mark all results", id="app.mark-all", show=False),
    Binding("U", "clear_marks", "Clear marks", id="app.clear-marks", show=False),
]
_OUT: list[BindingType] = [
    Binding(
        "y",
        "copy_code",
        "Copy URL",
        id="app.copy",
        tooltip="Copy the code URL (a chooser when there are several), else the paper's page",
    ),
    Binding(
        "o",
        "open_link",
        "Open",
        id="app.open",
        show=False,
        tooltip="Open a code URL, link or the paper's page in a browser (http/https only)",
    ),
    Binding("e", "export", "Export", id="app.export", tooltip="Export Markdown"),
]
# Leaving the filter must happen before the next key is routed: the app forwards keys to the
# focused widget's queue, so with a widget-level binding a fast `enter` then `T` would type "T"
# into the filter. These priority bindings run in the app's own loop, only while the filter has
# focus (check_action), and are documented by the filter bar's own bindings on the help screen.
_LEAVE_FILTER: list[BindingType] = [
    Binding("enter", "leave_filter(True)", "To the results", show=False, priority=True),
    Binding("down", "leave_filter(True)", "To the results", show=False, priority=True),
    Binding("escape", "leave_filter(False)", "Clear filter", show=False, priority=True),
]
_APP: list[BindingType] = [
    Binding("question_mark", "help", "Help", id="app.help"),
    Binding("ctrl+p", "command_palette", "Commands", id="app.palette", show=False),
    Binding("q", "quit", "Quit", id="app.quit"),
]


class PapershelfApp(SignalExit, WorkflowActions):
    """Filter, read, tag and export the papers of one Library."""

    # The main screen's sheet is read here: Textual 8.2.8 reads a screen's CSS_PATH when the
    # screen is pushed, never for the default screen.
    CSS_PATH: ClassVar[list[str | Path]] = ["app.tcss", "screens/main.tcss"]
    TITLE = "papershelf"
    COMMANDS: ClassVar = App.COMMANDS | {PapershelfCommands, SortCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *_MOVE,
        *_PAPERS,
        *WORKFLOW_BINDINGS,
        *_OUT,
        *_APP,
        *_LEAVE_FILTER,
    ]

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        self._seen_revision = library.revision
        self._paper_count = len(library.papers())
        self._last_poll_error: str | None = None
        self.output = OutputActions(self)
        """Copy, open and export (`y`, `o`, `e`)."""

    def main_screen_ready(self) -> None:
        """Show every paper at once; build the search index only after the first frame."""
        TRACE.mark("mount")
        self.main_screen.fit_width(self.size.width)
        self._show_results(self._serial, self._all_hits(), keep=None)
        self.paper_list.focus()
        ThemeMemory(self).start()
        self.set_interval(REFRESH_SECONDS, self.guarded(self.poll_library, "the reload"))
        self.collector.start()
        self.set_interval(IDLE_SECONDS / 2, self.guarded(self.collector.tick, "the collector"))
        self.show_notices()
        self.call_after_refresh(self._first_frame)

    def on_unmount(self) -> None:
        """Give the garbage collector its usual settings back."""
        TRACE.mark_peak_rss()
        self.collector.stop()

    def _first_frame(self) -> None:
        TRACE.mark("first-frame")
        self._build_index()

    def on_resize(self, event: events.Resize) -> None:
        """Switch between the wide and the narrow layout."""
        self.main_screen.fit_width(event.size.width)

    # -- search ----------------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        # The index comes from the library's cache file when it matches the papers (a tenth
        # of a second instead of two; `papershelf list` keeps it fresh too); warm-up fills the
        # tables the first keystrokes need.
        started = perf_counter()
        cache = self.library.root / SEARCH_CACHE
        papers = self.library.papers()
        if cache.exists():
            engine = SearchEngine.load(cache, papers)
        else:
            engine = SearchEngine(papers)
            with contextlib.suppress(OSError):
                engine.save(cache)
        engine.warm(abstracts=False)
        self.post_message(IndexReady(engine, perf_counter() - started))
        with self._search_lock:  # the abstracts as shown, for `'exact` terms: after typing starts
            engine.substring_ids("abstract", "\x00")

    @on(IndexReady)
    def _index_ready(self, message: IndexReady) -> None:
        TRACE.mark("index-ready", f"{message.seconds:.3f}")
        self.engine = message.engine
        freeze_long_lived()  # the index lives as long as the library
        if self.query_text.strip():
            self.start_search(keep=None)  # the query typed while the index was being built
        else:
            self._update_status()

    # -- redrawing -------------------------------------------------------------------------------

    def _update_status(self, searching: bool = False) -> None:
        papers = self.paper_list
        self.main_screen.status_line.show(
            shown=len(papers.hits),
            total=len(self.library.papers()),
            query=self.query_text,
            marked=len(papers.marked),
            searching=searching or (bool(self.query_text.strip()) and self.engine is None),
            error=self._search_error,
            sort=self.sort_label,
            unsaved=self.unsaved_note(),
        )

    def after_change(self) -> None:
        """Entries changed (here or in another process): redraw and re-filter."""
        self._seen_revision = self.library.revision
        papers = self.paper_list
        papers.refresh_rows()
        self.main_screen.show_paper(papers.current_id)
        if len(self.library.papers()) != self._paper_count:
            self._paper_count = len(self.library.papers())
            self.engine = None
            self._build_index()
        if self.query_text.strip() or self.sort_follows_entries:
            self.start_search(keep=papers.current_id)  # `is:read`, `#tag`, the order may differ
        else:
            self._refresh_side()

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
        if self.library.pending:
            self._update_status()  # a recovery not yet written is an unsaved change

    # -- messages from the widgets ---------------------------------------------------------------

    @on(PaperList.Highlighted)
    def _highlighted(self) -> None:
        # The main screen moves the reader; here the cursor's moves count as activity.
        self.collector.activity()

    @on(PaperList.MarksChanged)
    def _marks_changed(self, message: PaperList.MarksChanged) -> None:
        self._update_status()

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
        elif self.engine is not None:
            self.results_current()  # keys typed after `enter` act on this query's results
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

    def action_copy_code(self) -> None:
        """Copy the code URL of the paper in focus (a chooser when there are several)."""
        self.output.copy_code()

    def action_open_link(self) -> None:
        """Open a link of the paper in focus in a browser."""
        self.output.open_link()

    def action_export(self) -> None:
        """Export Markdown (the results, the marked papers or a tag)."""
        self.output.export()

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        self.push_screen(HelpScreen(help_sections(self, self.bound_actions())))

    def bound_actions(self) -> list[BoundAction]:
        """Every binding of the main screen, by area, with the node that runs it."""
        screen = self.main_screen
        areas: list[tuple[str, list[BindingType], object]] = [
            ("Filter", [*_MOVE, *FilterBar.BINDINGS], None),
            ("List", PaperList.BINDINGS, screen.paper_list),
            ("Reader", Reader.BINDINGS, screen.reader),
            ("Tag pane", TagPane.BINDINGS, screen.tag_pane),
            ("Papers", [*_PAPERS, *WORKFLOW_BINDINGS, *_OUT], None),
            ("App", _APP, None),
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

    # -- for the actions module ------------------------------------------------------------------

    def export_query(self) -> str:
        """The filter's text: an export of the results is titled by it (`export.selection`)."""
        return self.query_text

    def current_tag(self) -> str | None:
        """The first tag of the library the filter names, if any (`storage.export.selection`)."""
        from papershelf.storage.export.selection import first_tag

        return first_tag(self.query_text, self.library.tag_counts())
