"""The tag pane: tags with counts for the current results; choosing one filters by it.

Folded (a narrow or short terminal, `MainScreen.fit_size`), it is one line, its border's
title, that counts the tags and names the most used (`tags 3 · #rl 12 · #vlm 4 …`); focused
(`tab`), it opens to its full list again (main.tcss)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from papershelf.tui.text import plain

FOLDED_TAGS = 5
"""How many tags the folded pane's line names (as many as fit are shown)."""


class TagPane(OptionList):
    """Tags of the papers in the results, most used first."""

    # Each tag one cell in from the edges (the pane has no padding: main.tcss); counts muted.
    DEFAULT_CSS = """
    TagPane > .option-list--option {
        padding: 0 1;
    }

    TagPane > .tag-pane--count {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "cursor_down", "Next tag", id="tag-pane.down", show=False),
        Binding("k", "cursor_up", "Previous tag", id="tag-pane.up", show=False),
        Binding("enter", "select", "Filter by tag", id="tag-pane.choose"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"tag-pane--count"}

    folded: reactive[bool] = reactive(False)
    """Shown as one line of counts (its border title) until it has the focus."""

    @dataclass
    class Chosen(Message):
        """The user chose `tag` (to add `#tag` to the filter)."""

        tag: str

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self._counts: dict[str, int] | None = None
        self.border_title = "tags"

    @property
    def counts(self) -> Mapping[str, int]:
        """The counts shown, by tag."""
        return dict(self._counts or {})

    def show_counts(self, counts: Mapping[str, int]) -> None:
        """Show `counts` (tag -> papers in the results), most used first, then by name."""
        ordered = sorted(((tag, n) for tag, n in counts.items() if n > 0), key=_order)
        new = dict(ordered)
        if new == self._counts:
            return
        current = self.highlighted_option.id if self.highlighted_option else None
        self._counts = new
        width = max((len(str(n)) for n in new.values()), default=1)
        options = [Option(_prompt(tag, count, width), id=tag) for tag, count in ordered]
        self.set_options(options)
        if not options:
            self.set_options([Option(Content("no tags in the results"), disabled=True)])
        else:
            self.highlighted = self.get_option_index(current) if current in new else 0
        self._title()

    def watch_folded(self, folded: bool) -> None:
        """One line of counts, or the list (main.tcss keys the height on `-folded`)."""
        self.set_class(folded, "-folded")
        self._title()

    def _title(self) -> None:
        """`tags (N)` over the list; folded, the counts of the most used tags as well."""
        counts = self._counts or {}
        if not counts:
            self.border_title = "tags"
        elif not self.folded:
            self.border_title = f"tags ({len(counts)})"
        else:
            # The border title is markup-free Content: tags are user text.
            most = " · ".join(f"#{tag} {n}" for tag, n in list(counts.items())[:FOLDED_TAGS])
            more = " …" if len(counts) > FOLDED_TAGS else ""
            self.border_title = plain(f"tags {len(counts)} · {most}{more}", one_line=True)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.Chosen(event.option.id))


def _order(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])


def _prompt(tag: str, count: int, width: int) -> Content:
    return Content.assemble(
        plain(f"{count:>{width}} ", ".tag-pane--count"), plain(f"#{tag}", one_line=True)
    )
