"""The help screen: every key binding, generated from the bindings themselves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from papershelf.tui.key_names import hint_keys
from papershelf.tui.screens.dialogs_base import DialogScreen
from papershelf.tui.text import plain
from papershelf.tui.widgets.paper_row import LEGEND
from papershelf.tui.widgets.reader_wrap import wrap_points


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

    def __init__(self, sections: Sequence[HelpSection], config_path: Path | None = None) -> None:
        super().__init__()
        self._sections = tuple(sections)
        self._config_path = config_path

    def compose(self) -> ComposeResult:
        """A title, the keys, and how to close."""
        with VerticalScroll(id="help-body") as body:
            yield Static(Content("papershelf — keys"), id="help-title")
            yield Static(help_content(self._all_sections()), id="help-keys")
            yield Static(self._closing_hint(body))
            if self._config_path is not None:
                # The user's own text (a path): plain Content, never markup.
                shown = plain(f"Settings and key remapping: {self._config_path}", one_line=True)
                yield Static(shown, id="help-config")

    def _closing_hint(self, body: VerticalScroll) -> Content:
        """How to close, and the palette: the keys as remapped in the config, if they are
        (a key the scrolling body keeps for itself is not named)."""
        close = self.hint_key("help.close", body)
        palette = hint_keys(self.app, "app.palette", "ctrl+p")
        parts = [f"{close} closes"] if close else []
        parts += [f"{palette} finds any command by name"] if palette else []
        return plain(" · ".join(parts), one_line=True)

    def _all_sections(self) -> list[HelpSection]:
        return [*self._sections, LEGEND_SECTION]

    @on(events.Mount)
    @on(events.Resize)
    def _fit_soon(self) -> None:
        # The keys' width is known once laid out: wrap for it after this frame.
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Wrap the descriptions under their own column for the width the keys now have."""
        if not self.is_attached:
            return
        keys = self.query_one("#help-keys", Static)
        width = keys.content_region.width
        if width:
            keys.update(help_content(self._all_sections(), width))

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


def help_content(sections: Sequence[HelpSection], room: int | None = None) -> Content:
    """The sections as aligned `keys  description` lines; given the `room` (cells), a long
    description wraps under its own column (a hanging indent), not under the keys."""
    width = max((len(key.keys) for section in sections for key in section.keys), default=4)
    lines: list[Content] = []
    indent = width + 4
    for section in sections:
        if lines:
            lines.append(Content(""))
        lines.append(plain(section.title, "bold underline"))
        for key in section.keys:
            head = plain(f"  {key.keys:<{width}}  ", "bold")
            text = key.description
            if room is None or room - indent < MIN_DESCRIPTION or cell_len(text) <= room - indent:
                lines.append(Content.assemble(head, plain(text)))
                continue
            bounds = [0, *wrap_points(text, room - indent), len(text)]
            parts = [text[a:b].rstrip() for a, b in pairwise(bounds)]
            lines.append(Content.assemble(head, plain(parts[0])))
            lines.extend(plain(" " * indent + part) for part in parts[1:])
    return Content("\n").join(lines)


MIN_DESCRIPTION = 12
"""Fewer cells than this beside the keys: descriptions wrap as the Static wraps them."""
