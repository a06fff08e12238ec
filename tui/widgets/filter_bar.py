"""The filter bar: an Input whose text is the query (DESIGN §4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Input

from papershelf.storage.search.engine import MAX_QUERY_TERMS, parse_query
from papershelf.tui.app_trace import TRACE
from papershelf.tui.widgets.reactives import VIRTUAL_SIZE
from papershelf.tui.widgets.safe_input import SafeInput

MAX_FILTER_CHARS = 200
"""Longest filter text: a pasted page would otherwise cost a search over every term per key."""

_EDITING_PREFIXES = ("cursor_", "delete_", "home", "end", "select_all")


def _editing_keys() -> dict[str, str]:
    """Input's own editing and cursor bindings (key -> action string), read from its public
    BINDINGS: the keys `FilterBar.on_key` runs at once."""
    return {
        binding.key: binding.action
        for binding in Binding.make_bindings(Input.BINDINGS)
        if binding.action.startswith(_EDITING_PREFIXES)
    }


PLACEHOLDER = "/ filter: words  'exact  !not  ^prefix  a|b  #tag  is:read  has:code  venue:icml"


class FilterBar(SafeInput):
    """Typing filters the list live; `enter` goes to the results, `esc` clears.

    Pasted control characters are dropped (SafeInput), so the query is what is drawn.

    `on_edit` is called with the new query as soon as the text changes, inside the key's own
    handling. Input.Changed reaches the app only after a hop through the bar's parents, by
    which time the screen has drawn the echo of the key on its own; the list's redraw then
    waits for the next frame tick, 17-33 ms later. Called here, the search's redraw of the
    list lands in the same frame as the echo.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "To the results", id="filter.done"),
        Binding("escape", "clear_filter", "Clear filter", id="filter.clear"),
        Binding("down", "done", "To the results", id="filter.down", show=False),
    ]

    class Cleared(Message):
        """The user cleared the filter with `esc`."""

    class Done(Message):
        """The user wants to go to the results, keeping the query."""

    def __init__(
        self, *, on_edit: Callable[[str], None] | None = None, id: str | None = None
    ) -> None:
        super().__init__(
            placeholder=PLACEHOLDER, id=id, select_on_focus=False, max_length=MAX_FILTER_CHARS
        )
        self._on_edit = on_edit
        self._editing = _editing_keys()
        self._terms_notice: str | None = None

    def on_paste(self, event: events.Paste) -> None:
        """Paste the first line, cut to fit the filter's limit (saying so), never refuse it.

        Runs before Input's own paste handler, which would refuse a paste that makes the
        value longer than `max_length` as a whole.
        """
        event.prevent_default()
        event.stop()
        lines = event.text.splitlines()
        line = lines[0] if lines else ""
        start, end = sorted(self.selection)
        room = MAX_FILTER_CHARS - (len(self.value) - (end - start))
        if len(line) > room:
            line = line[: max(0, room)]
            self.notify(
                f"Filter cut to {MAX_FILTER_CHARS} characters", severity="warning", markup=False
            )
        if line:
            self.replace(line, start, end)

    def _say_if_cut(self, value: str) -> None:
        """Say once when the query holds more terms than a search uses."""
        notice = None
        if len(value.split()) > MAX_QUERY_TERMS:  # cheap test before parsing
            notice = parse_query(value).notice
        if notice is not None and notice != self._terms_notice:
            self.notify(notice.capitalize(), severity="warning", markup=False)
        self._terms_notice = notice

    def _watch_value(self, value: str) -> None:
        # Input's watcher sets `virtual_size` (a layout reactive) to the text's width, so every
        # key would lay out the whole screen. The bar's size never depends on its text (unless
        # CSS makes it auto-sized): store the new virtual size quietly (horizontal scrolling
        # reads it) and Input's own assignment is then a no-op; the text repaints all the same.
        if not self.styles.auto_dimensions:
            self.set_reactive(VIRTUAL_SIZE, Size(self.content_width, 1))
        super()._watch_value(value)
        self._say_if_cut(value)
        if self._on_edit is not None:
            self._on_edit(value)

    async def on_key(self, event: events.Key) -> None:
        """Mark the key's arrival (the bench measures from here to the list being drawn), and
        run an editing key's action now.

        Textual calls this before Input's own key handler (the subclass's handler first). It
        runs a widget's bindings only once the key has bubbled up through the parents, a
        message hop each, while a printable key is inserted here at once: in a burst
        (`ctrl+u title:`), the letters behind an editing key went in first and the late
        `ctrl+u` wiped them. Run here, every key acts in the order it was typed.
        """
        TRACE.mark("key", event.key)
        action = self._editing.get(event.key)
        if action is not None:
            event.prevent_default()
            event.stop()
            await self.run_action(action)

    def action_clear_filter(self) -> None:
        """Clear the query and hand focus back."""
        self.value = ""
        self.post_message(self.Cleared())

    def action_done(self) -> None:
        """Keep the query and go to the results."""
        self.post_message(self.Done())

    async def action_submit(self) -> None:
        """`enter`: like `done` (Input's Submitted is not needed)."""
        self.post_message(self.Done())
