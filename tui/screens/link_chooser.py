"""LinkChooser: pick one of a paper's URLs (number keys choose directly)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from papershelf.tui.screens.dialogs_base import DialogScreen, clean_line, key_hints

_DIRECT_KEYS = 9


class LinkChooser(DialogScreen[str]):
    """Offer `urls` under `title`; dismisses the chosen URL (unchanged) or None."""

    FOCUS = "#links"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            str(number),
            f"choose({number - 1})",
            f"Link {number}",
            show=False,
            id=f"links.choose-{number}",
        )
        for number in range(1, _DIRECT_KEYS + 1)
    ]

    def __init__(self, urls: Sequence[str], title: str) -> None:
        super().__init__()
        self.urls = tuple(urls)
        self.heading = title

    def compose(self) -> ComposeResult:
        """The numbered URL list and the key hints."""
        with Vertical(id="dialog", classes="-links") as dialog:
            dialog.border_title = Content(clean_line(self.heading))
            links = OptionList(id="links")
            # Each link beside the key that chooses it (`1`, or its remap in the config).
            keys = [
                self.hint_key(f"links.choose-{number}", links)
                for number in range(1, min(len(self.urls), _DIRECT_KEYS) + 1)
            ]
            options = [
                Option(
                    self._prompt(keys[index] if index < len(keys) else None, url), id=f"url-{index}"
                )
                for index, url in enumerate(self.urls)
            ] or [Option(Content("(no links)"), disabled=True)]
            links.add_options(options)
            yield links
            defaults = [str(number) for number in range(1, len(keys) + 1)]
            if keys == defaults:
                choose = f"1-{len(keys)}" if len(keys) > 1 else "1"
            else:
                choose = "the key beside a link" if any(keys) else None
            yield key_hints(
                (choose, "choose"),
                ("↑↓ enter", "choose highlighted"),
                (self.hint_key("dialog.cancel", links), "cancel"),
            )

    def on_mount(self) -> None:
        """Highlight the first URL (the base focuses the list)."""
        links = self.query_one("#links", OptionList)
        if self.urls:
            links.highlighted = 0

    @staticmethod
    def _prompt(key: str | None, url: str) -> Content:
        """A link, after the key that chooses it (blank beyond the ninth, or without a key)."""
        return Content.assemble((f"{key or ' '} ", "bold"), clean_line(url))

    def action_choose(self, index: int) -> None:
        """Choose the URL at `index`, when there is one."""
        if 0 <= index < len(self.urls):
            self.dismiss(self.urls[index])
        else:
            self.app.bell()

    @on(OptionList.OptionSelected, "#links")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose(event.option_index)
