"""The help screen: every key binding, generated from the bindings themselves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from papershelf.tui.screens.dialogs_base import DialogScreen
from papershelf.tui.text import plain
from papershelf.tui.widgets.paper_row import LEGEND


@dataclass(frozen=True)
class KeyHelp:
    """One line of help: the keys (as shown) and what they do."""

    keys: str
    description: str


@dataclass(frozen=True)
class HelpSection:
    """The bindings of one part of the app (the list, the reader, ...)."""

    title: str
    keys: tuple[KeyHelp, ...]


LEGEND_SECTION = HelpSection(
    "Symbols in the list", tuple(KeyHelp(symbol, meaning) for symbol, meaning in LEGEND)
)
"""The legend, last: what the rows' marks mean (`paper_row.LEGEND`)."""


class HelpScreen(DialogScreen[None]):
    """Lists every binding by area; `esc`, `q` or `?` closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "dismiss", "Close help", id="help.close"),
        Binding("j,down", "scroll('down')", "Scroll down", id="help.down", show=False),
        Binding("k,up", "scroll('up')", "Scroll up", id="help.up", show=False),
        Binding("pagedown", "scroll('page_down')", "Page down", id="help.page-down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", id="help.page-up", show=False),
        Binding("g,home", "scroll('home')", "Top", id="help.top", show=False),
        Binding("G,end", "scroll('end')", "Bottom", id="help.bottom", show=False),
    ]

    CSS_PATH: ClassVar[str | Path | list[str | Path]] = Path(__file__).with_name("help.tcss")
    """Its own sheet, not the dialogs' (DialogScreen.CSS_PATH)."""
    VERTICAL_BREAKPOINTS = None
    FOCUS = "#help-body"

    def __init__(self, sections: Sequence[HelpSection]) -> None:
        super().__init__()
        self._sections = tuple(sections)

    def compose(self) -> ComposeResult:
        """A title, the keys, and how to close."""
        with VerticalScroll(id="help-body"):
            yield Static(Content("papershelf — keys"), id="help-title")
            yield Static(help_content([*self._sections, LEGEND_SECTION]), id="help-keys")
            yield Static(Content("esc / q / ? closes · ctrl+p finds any command by name"))

    async def action_dismiss(self, result: None = None) -> None:
        """Close the help screen."""
        self.dismiss(result)

    def action_scroll(self, direction: str) -> None:
        """Scroll the list of keys as the list and the reader scroll (j k pgup pgdn g G)."""
        body = self.query_one("#help-body", VerticalScroll)
        scroll = {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "page_down": body.scroll_page_down,
            "page_up": body.scroll_page_up,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }[direction]
        scroll(animate=False)


def help_content(sections: Sequence[HelpSection]) -> Content:
    """The sections as aligned `keys  description` lines."""
    width = max((len(key.keys) for section in sections for key in section.keys), default=4)
    lines: list[Content] = []
    for section in sections:
        if lines:
            lines.append(Content(""))
        lines.append(plain(section.title, "bold underline"))
        for key in section.keys:
            lines.append(
                Content.assemble(plain(f"  {key.keys:<{width}}  ", "bold"), plain(key.description))
            )
    return Content("\n").join(lines)
