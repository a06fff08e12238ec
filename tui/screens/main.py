"""MainScreen: the filter bar over the paper list, the reader and tag pane, status and footer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen

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


class MainScreen(Screen[None]):
    """The view every dialog returns to; its layout lives in `main.tcss`."""

    narrow: reactive[bool] = reactive(False)
    """True below `NARROW_WIDTH` columns: the list over (reader | tag pane)."""

    def __init__(
        self,
        library: Library,
        *,
        on_edit: Callable[[str], None],
        on_ready: Callable[[], None],
    ) -> None:
        super().__init__()
        self._library = library
        self._on_edit = on_edit
        self._on_ready = on_ready

    def compose(self) -> ComposeResult:
        """Filter on top; the list beside (or above) the reader and tag pane; status; footer."""
        yield FilterBar(on_edit=self._on_edit, id="filter")
        with Horizontal(id="body"):
            yield PaperList(self._library, id="papers")
            with Vertical(id="side"):
                yield Reader(id="reader")
                yield TagPane(id="tags")
        yield StatusLine(id="status")
        yield QuietFooter()

    def on_mount(self) -> None:
        """Hand over to the app's start-up, now that the widgets exist.

        The App's own Mount runs before this screen has composed its children. The start-up
        runs next in the app's queue, not here: messages the widgets post from a screen's
        handler stop at the screen (Textual never bubbles a message past its sender).
        """
        self.app.call_next(self._on_ready)

    def fit_width(self, width: int) -> None:
        """Pick the wide or the narrow layout for a terminal `width` columns wide.

        The app calls this on its own Resize: a screen covered by a dialog gets none.
        """
        self.narrow = width < NARROW_WIDTH

    def watch_narrow(self, narrow: bool) -> None:
        """Switch the layout (`main.tcss` keys it on the class)."""
        self.set_class(narrow, "-narrow")

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

    @property
    def status_line(self) -> StatusLine:
        """The status line."""
        return self.query_one(StatusLine)
