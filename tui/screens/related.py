"""RelatedScreen: "more like this", the papers most like the one in the reader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.app_trace import TRACE
from tui.screens.dialogs_base import DialogScreen, clean_line, key_hints, shorten
from tui.text import plain

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


class RelatedScreen(DialogScreen[str]):
    """Lists `items` (best first) for the paper `source_name`; dismisses the chosen paper's id."""

    CSS_PATH: ClassVar[str | Path | list[str | Path]] = [
        Path(__file__).with_name("dialogs.tcss"),
        Path(__file__).with_name("related.tcss"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "related--score",
        "related--name",
        "related--venue",
        "related--title",
        "related--terms",
    }

    def __init__(self, source_name: str, items: Sequence[RelatedItem]) -> None:
        super().__init__()
        self.source_name = source_name
        self.items = tuple(items)

    def compose(self) -> ComposeResult:
        """The ranked list (score, name, venue; title; shared terms) and the key hints."""
        with Vertical(id="dialog") as dialog:
            name = shorten(clean_line(self.source_name), 60)
            dialog.border_title = Content(f"More like {name}")
            if self.items:
                options = [
                    Option(related_prompt(item), id=f"related-{index}")
                    for index, item in enumerate(self.items)
                ]
                yield OptionList(*options, id="related")
            else:
                yield Static(
                    Content("No related papers: no other paper shares its terms."), id="none"
                )
            yield key_hints(("↑↓", "move"), ("enter", "go to it in the list"), ("esc", "close"))

    def on_mount(self) -> None:
        """Focus the list with the best match highlighted."""
        if TRACE.enabled:
            # bench/bench_related_app.py: from `r` to this screen painted.
            self.call_after_refresh(TRACE.mark, "related-shown")
        if self.items:
            related = self.query_one("#related", OptionList)
            related.focus()
            related.highlighted = 0

    @on(OptionList.OptionSelected, "#related")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.items[event.option_index].paper_id)


def related_prompt(item: RelatedItem) -> Content:
    """One list entry: `score  name  venue`, then the title, then the shared terms."""
    first = [
        plain(f"{item.score:4.2f}  ", ".related--score"),
        plain(item.name, ".related--name", one_line=True),
    ]
    if item.venue:
        first += [Content("  "), plain(item.venue, ".related--venue", one_line=True)]
    lines = [Content.assemble(*first)]
    if item.title and item.title != item.name:
        lines.append(Content.assemble(_INDENT, plain(item.title, ".related--title", one_line=True)))
    if item.shared_terms:
        terms = " · ".join(item.shared_terms)
        lines.append(
            Content.assemble(_INDENT, plain(f"shared: {terms}", ".related--terms", one_line=True))
        )
    return Content("\n").join(lines)
