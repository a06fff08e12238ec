"""RelatedScreen: "more like this", the papers most like the one in the reader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.segment import Segment
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widgets import Static

from papershelf.storage.text.titles import display_title
from papershelf.tui.app_trace import TRACE
from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, key_hints, shorten
from papershelf.tui.text import plain

_INDENT = " " * 6
"""Under the score column: the title and the shared terms line up with the name."""


@dataclass(frozen=True)
class RelatedItem:
    """One related paper as the screen lists it."""

    paper_id: str
    name: str
    title: str | None
    venue: str | None
    score: float
    shared_terms: tuple[str, ...]


class RelatedList(ScrollView, can_focus=True):
    """The ranked entries drawn line by line, the entry under the cursor highlighted.

    A Line-API widget rather than an OptionList: it builds no per-option layout, only draws
    the rows on screen, so the screen shows within a frame even on a big library.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("home", "move_to(0)", "First", show=False),
        Binding("end", "move_to(-1)", "Last", show=False),
        Binding("enter", "choose", "Choose", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "related-list--cursor",
        "related--score",
        "related--name",
        "related--venue",
        "related--title",
        "related--terms",
    }

    cursor: reactive[int] = reactive(0, init=False)
    """The index of the highlighted entry."""

    class Chosen(Message):
        """The entry at `index` was chosen (enter or a click)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, prompts: Sequence[Content], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prompts = tuple(prompts)
        # One row per line of every entry: (entry index, the line), and each entry's first row.
        self._rows: list[tuple[int, Content]] = []
        self._starts: list[int] = []
        for index, prompt in enumerate(self.prompts):
            self._starts.append(len(self._rows))
            self._rows.extend((index, line) for line in prompt.split("\n"))
        self._starts.append(len(self._rows))
        self.virtual_size = Size(0, len(self._rows))

    def _style_of(self, style: VisualStyle | str) -> VisualStyle:
        """Content's style lookup: `.name` is one of this list's component classes."""
        if isinstance(style, VisualStyle):
            return style
        if style.startswith("."):
            return self.get_visual_style(style[1:], partial=True)
        return VisualStyle.parse(style)

    def render_line(self, y: int) -> Strip:
        """Row `y` of the view: one line of an entry, cut with an ellipsis at the edge."""
        width = self.scrollable_content_region.width
        row = self.scroll_offset.y + y
        base = self.visual_style
        if row >= len(self._rows) or width <= 0:
            return Strip.blank(width, base.rich_style)
        index, line = self._rows[row]
        if index == self.cursor:
            base += self.get_visual_style("related-list--cursor")
        fitted = line.truncate(width, ellipsis=True, pad=True)
        segments = [
            Segment(text, style.rich_style)
            for text, style in fitted.render(base, end="", parse_style=self._style_of)
        ]
        return Strip(segments, width)

    def watch_cursor(self, old: int, new: int) -> None:
        """Redraw the two entries that changed and keep the new one in view."""
        for index in (old, new):
            if 0 <= index < len(self.prompts):
                self.refresh(self._entry_region(index).translate(-self.scroll_offset))
        if 0 <= new < len(self.prompts):
            self.scroll_to_region(self._entry_region(new), animate=False, immediate=True)

    def _entry_region(self, index: int) -> Region:
        start, end = self._starts[index], self._starts[index + 1]
        return Region(0, start, max(1, self.scrollable_content_region.width), end - start)

    def action_move(self, step: int) -> None:
        """Move the cursor `step` entries, stopping at either end."""
        if self.prompts:
            self.cursor = max(0, min(len(self.prompts) - 1, self.cursor + step))

    def action_move_to(self, index: int) -> None:
        """Put the cursor on entry `index` (negative counts from the end)."""
        if self.prompts:
            self.cursor = index % len(self.prompts)

    def action_choose(self) -> None:
        """Choose the highlighted entry."""
        if self.prompts:
            self.post_message(self.Chosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        """A click highlights and chooses the entry under the pointer."""
        row = event.y + self.scroll_offset.y
        if 0 <= event.y < self.scrollable_content_region.height and row < len(self._rows):
            event.stop()
            self.cursor = self._rows[row][0]
            self.action_choose()


class RelatedScreen(DialogScreen[str]):
    """Lists `items` (best first) for the paper `source_name`; dismisses the chosen paper's id."""

    CSS_PATH: ClassVar[str | Path | list[str | Path]] = [
        Path(__file__).with_name("dialogs.tcss"),
        Path(__file__).with_name("related.tcss"),
    ]

    FOCUS = "#related"

    def __init__(self, source_name: str, items: Sequence[RelatedItem]) -> None:
        super().__init__()
        self.source_name = source_name
        self.items = tuple(items)

    def compose(self) -> ComposeResult:
        """The ranked list (score, name, venue; title; shared terms) and the key hints."""
        with Vertical(id="dialog") as dialog:
            name = shorten(clean_line(self.source_name), 60)
            dialog.border_title = Content(f"More like {name}")
            related: RelatedList | None = None
            if self.items:
                related = RelatedList([related_prompt(item) for item in self.items], id="related")
                yield related
            else:
                yield Static(
                    Content("No related papers: no other paper shares its terms."), id="none"
                )
            yield key_hints(
                ("↑↓", "move"),
                ("enter", "go to it in the list"),
                (self.hint_key("dialog.cancel", related), "close"),
            )

    def on_mount(self) -> None:
        """Trace the first paint (the base focuses the list)."""
        if TRACE.enabled:
            # bench/bench_related_app.py: from `r` to this screen painted.
            self.call_after_refresh(TRACE.mark, "related-shown")

    def on_related_list_chosen(self, event: RelatedList.Chosen) -> None:
        """Close with the chosen paper's id."""
        event.stop()
        self.dismiss(self.items[event.index].paper_id)


def related_prompt(item: RelatedItem) -> Content:
    """One list entry: `score  name  venue`, then the title, then the shared terms."""
    first = [
        plain(f"{item.score:4.2f}  ", ".related--score"),
        plain(item.name, ".related--name", one_line=True),
    ]
    if item.venue:
        first += [Content("  "), plain(item.venue, ".related--venue", one_line=True)]
    lines = [Content.assemble(*first)]
    title = display_title(item.title)  # LaTeX as Unicode, as the list and the reader show it
    if title and title != item.name:
        lines.append(Content.assemble(_INDENT, plain(title, ".related--title", one_line=True)))
    if item.shared_terms:
        terms = " · ".join(item.shared_terms)
        lines.append(
            Content.assemble(_INDENT, plain(f"shared: {terms}", ".related--terms", one_line=True))
        )
    return Content("\n").join(lines)
