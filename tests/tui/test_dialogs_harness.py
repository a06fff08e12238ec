"""A tiny app that shows one dialog over a plausible background and records what it returns.

Shared by the dialog and snapshot tests (imported as a module; it holds no tests of its own).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from textual.app import App, ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static, TextArea

BACKGROUND = """\
ICML 2025 Papers

RelGNN — Predictive tasks on relational databases are critical in real-world applications \
spanning e-commerce, healthcare, and social media. Here we introduce RelGNN, a novel GNN \
framework specifically designed to leverage the unique structural characteristics of the \
graphs built from relational databases.

SafeDiffCon — Diffusion models can be used to control physical systems; we propose a \
safe diffusion-based controller with guarantees under [MASK]-style uncertainty.

K²IE — Kernel method-based intensity estimators have been among the most easy-to-implement \
estimators for point processes; we show they can be improved at no cost.
"""

NO_RESULT = object()


class DialogHarness(App[None]):
    """Pushes `make_screen()` on start; `result` is what the dialog dismissed with."""

    TITLE = "papershelf"

    def __init__(self, make_screen: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.result: object = NO_RESULT
        self.dismissed = 0

    def compose(self) -> ComposeResult:
        """Header, some abstracts and a footer: what a dialog usually sits on."""
        yield Header()
        yield Static(Content(BACKGROUND))
        yield Footer()

    def on_mount(self) -> None:
        """Show the dialog under test."""
        self.push_screen(self.make_screen(), self._record)

    def _record(self, result: object) -> None:
        self.result = result
        self.dismissed += 1


def still_blink(app: App[Any]) -> None:
    """Stop cursor blinking so screenshots do not depend on timing."""
    for widget in app.screen.query(Input):
        widget.cursor_blink = False
    for area in app.screen.query(TextArea):
        area.cursor_blink = False


def pilot_test(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test under plain pytest (the project has no asyncio plugin)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
