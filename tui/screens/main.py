"""MainScreen: the filter bar over the paper list, the reader and tag pane, status and footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive, var
from textual.screen import Screen
from textual.widget import Widget

from papershelf.storage.model import Entry
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.footer import QuietFooter
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.status_line import StatusLine
from papershelf.tui.widgets.tag_pane import TagPane

if TYPE_CHECKING:
    from papershelf.storage.library.library import Library

NARROW_WIDTH = 100
"""Below this many columns the reader goes under the list instead of beside it."""
SHORT_HEIGHT = 24
"""Below this many lines a narrow terminal shows the list or the reader, not both: stacked,
the list would get fewer than `LIST_MIN_ROWS` rows (80x24 gives it 15, the reader 4)."""
FOLD_TAGS_HEIGHT = 30
"""Below this many lines the tag pane folds to one line of counts (`TagPane.folded`)."""
LIST_MIN_ROWS = 15
"""The fewest paper rows a stacked layout gives the list (main.tcss's `min-height`)."""


class MainScreen(Screen[None]):
    """The view every dialog returns to; its layout lives in `main.tcss`."""

    narrow: reactive[bool] = reactive(False)
    """True below `NARROW_WIDTH` columns: the list over the reader (the tag pane folded)."""
    short: reactive[bool] = reactive(False)
    """True when narrow and below `SHORT_HEIGHT` lines: the list or the reader, by turns."""
    reading: reactive[bool] = reactive(False)
    """True while the reader or the tag pane has the focus (a short layout then shows them
    instead of the list)."""

    # What the status line shows, bound to its own reactives (`data_bind`). The list's counts
    # follow the list (`on_mount`); the app's parts set the rest where each fact changes:
    # the search the query, its error and `searching`, the workflow the order, the saving the
    # unsaved note, the app the number of papers.
    result_count: var[int] = var(0)
    mark_count: var[int] = var(0)
    paper_count: var[int] = var(0)
    query_text: var[str] = var("")
    shown_query: var[str] = var("")
    """The query whose results the list shows: the status line names it beside their count,
    so both change in the frame that draws the results (`SearchWiring.show_results`)."""
    query_error: var[str | None] = var(None)
    searching: var[bool] = var(False)
    sort_label: var[str] = var("library order")
    by_relevance: var[bool] = var(True)
    unsaved_note: var[str | None] = var(None)
    progress: var[str | None] = var(None)
    writing: var[str | None] = var(None)
    """`removing RelGNN…` while a change is written in a worker (`app_writing`)."""

    class Ready(Message):
        """The screen's widgets exist: the app's start-up can fill them.

        The App's own Mount runs before this screen has composed its children. The start-up
        runs in the app's handler of this message, not in the screen's: messages the widgets
        post from a screen's handler stop at the screen (Textual never bubbles a message past
        its sender).
        """

    def __init__(
        self,
        library: Library,
        *,
        on_edit: Callable[[str], None],
    ) -> None:
        super().__init__()
        self._library = library
        self._on_edit = on_edit
        self._reader_pending: tuple[str | None] | None = None
        """The paper the reader is to show after the next frame (None: nothing pending)."""

    def compose(self) -> ComposeResult:
        """Filter on top; the list beside (or above) the reader and tag pane; status; footer."""
        yield FilterBar(on_edit=self._on_edit, id="filter")
        with Horizontal(id="body"):
            yield PaperList(self._library, id="papers")
            with Vertical(id="side"):
                yield Reader(id="reader")
                yield TagPane(id="tags")
        yield StatusLine(id="status").data_bind(
            MainScreen.result_count,
            MainScreen.mark_count,
            MainScreen.paper_count,
            MainScreen.query_error,
            MainScreen.searching,
            MainScreen.sort_label,
            MainScreen.by_relevance,
            MainScreen.unsaved_note,
            MainScreen.progress,
            MainScreen.writing,
            query_text=MainScreen.shown_query,
        )
        yield QuietFooter()

    def on_mount(self) -> None:
        """Let the status line follow the list's counts; tell the app the widgets exist."""
        papers = self.paper_list
        self.watch(papers, "result_count", self._results_counted)
        self.watch(papers, "mark_count", self._marks_counted)
        self.watch(self, "focused", self._focus_moved)
        self.post_message(self.Ready())

    def _focus_moved(self, focused: object) -> None:
        side = self.query_one("#side")
        self.reading = isinstance(focused, Widget) and side in focused.ancestors_with_self

    def _results_counted(self, count: int) -> None:
        self.result_count = count

    def _marks_counted(self, count: int) -> None:
        self.mark_count = count

    def fit_size(self, width: int, height: int) -> None:
        """Pick the layout for a terminal `width` columns wide and `height` lines high.

        The app calls this on its own Resize: a screen covered by a dialog gets none.
        """
        self.narrow = width < NARROW_WIDTH
        self.short = self.narrow and height < SHORT_HEIGHT
        for pane in self.query(TagPane):  # none yet on a Resize before the first compose
            pane.folded = self.narrow or height < FOLD_TAGS_HEIGHT

    def watch_narrow(self, narrow: bool) -> None:
        """Switch the layout (`main.tcss` keys it on the class)."""
        self.set_class(narrow, "-narrow")

    def watch_short(self, short: bool) -> None:
        """Show the list or the reader by turns (`main.tcss`: `-short`, `-reading`)."""
        self.set_class(short, "-short")

    def watch_reading(self, reading: bool) -> None:
        """The reader (or tag pane) has the focus: a short layout shows it instead of the list."""
        self.set_class(reading, "-reading")

    @property
    def filter_bar(self) -> FilterBar:
        """The filter bar."""
        return self.query_one(FilterBar)

    @property
    def paper_list(self) -> PaperList:
        """The list of results."""
        return self.query_one(PaperList)

    @property
    def reader(self) -> Reader:
        """The reader."""
        return self.query_one(Reader)

    @property
    def tag_pane(self) -> TagPane:
        """The tag pane."""
        return self.query_one(TagPane)

    # -- what the widgets say ---------------------------------------------------------------

    def show_paper(self, paper_id: str | None) -> None:
        """Show `paper_id` in the reader, with this query's matches when the cursor is on it."""
        reader = self.reader
        if paper_id is None or not self._library.has(paper_id):
            # None, or removed since it was asked for (the list follows at the next change).
            reader.show(None, Entry())
            return
        hit = self.paper_list.current_hit
        reader.show(
            self._library.get(paper_id),
            self._library.entry(paper_id),
            hit if hit is not None and hit.paper_id == paper_id else None,
        )

    @on(PaperList.Highlighted)
    def _follow_cursor(self, message: PaperList.Highlighted) -> None:
        # The reader follows one frame later, so the list (what the typist watches) is drawn
        # first; a burst of moves shows only the last paper. The message goes on to the app.
        if self._reader_pending is None:
            self.call_after_refresh(self._flush_reader)
        self._reader_pending = (message.paper_id,)

    def _flush_reader(self) -> None:
        if self._reader_pending is not None:
            (paper_id,) = self._reader_pending
            self._reader_pending = None
            if paper_id is not None and not self._library.has(paper_id):
                # Removed in the frame since the cursor reached it (`D enter` in one burst):
                # the list has moved on; show where its cursor is now.
                paper_id = self.paper_list.current_id
            self.show_paper(paper_id)

    @on(PaperList.Selected)
    def _read_selected(self) -> None:
        # The class first: in a short layout the reader is hidden until it is set. Focused
        # at once (`set_focus`), so a `j` typed right after `enter` scrolls the reader.
        self.reading = True
        self.set_focus(self.reader)

    @on(FilterBar.Done)
    @on(FilterBar.Cleared)
    def _filter_done(self) -> None:
        self.paper_list.focus()

    @on(TagPane.Chosen)
    def _tag_chosen(self, message: TagPane.Chosen) -> None:
        # `#tag` joins the filter (once); the filter's own edit hook runs the search.
        filter_bar = self.filter_bar
        words = filter_bar.value.split()
        if f"#{message.tag}" not in words:
            filter_bar.value = " ".join([*words, f"#{message.tag}"])
        self.paper_list.focus()
