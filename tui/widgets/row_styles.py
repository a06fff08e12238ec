"""The paper list's row styles: one Textual `Style` per part, one Rich style per combination.

Looked up for every cell group of every row drawn, so both are kept until the theme or the CSS
changes (`clear`, from the list's `notify_style_update`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style as RichStyle
from textual.style import Style

from papershelf.tui.widgets.paper_row import StyleKey


class RowStyles:
    """Cached styles of a widget's component classes (`paper-list--<part>`)."""

    def __init__(self, get_visual_style: Callable[..., Style]) -> None:
        self._get_visual_style = get_visual_style
        self._parts: dict[str, Style] = {}
        self._rich: dict[tuple[object, str], dict[StyleKey, RichStyle]] = {}

    def part(self, name: str) -> Style:
        """The style of part `name` (`paper-list--<name>`)."""
        style = self._parts.get(name)
        if style is None:
            style = self._get_visual_style(f"paper-list--{name}", partial=True)
            self._parts[name] = style
        return style

    def for_state(self, pseudo: object, base: str) -> dict[StyleKey, RichStyle]:
        """Terminal styles by parts, for `base` rows in pseudo-class state `pseudo`."""
        styles = self._rich.get((pseudo, base))
        if styles is None:
            styles = self._rich[(pseudo, base)] = {}
        return styles

    def rich(self, styles: dict[StyleKey, RichStyle], base: str, parts: StyleKey) -> RichStyle:
        """The terminal style of `parts` over the row's `base` style, combined as Content would."""
        style = styles.get(parts)
        if style is None:
            base_style = self._get_visual_style(base) if base else self._get_visual_style()
            combined = Style.combine([base_style, *(self.part(part) for part in parts)])
            style = styles[parts] = combined.rich_style
        return style

    def clear(self) -> None:
        """Forget every style (the theme or the CSS changed)."""
        self._parts.clear()
        self._rich.clear()
