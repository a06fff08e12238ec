"""Every dialog in a tiny terminal (40x12): its key hints and buttons stay on screen, whole
(issue 15, part 6: at 40x12 the remove dialog's buttons and hints, the tag and note editors'
hints were below the bottom edge). Also after a resize with the dialog open, both ways."""

from __future__ import annotations

from typing import Any

import pytest
from pilot_helpers import settle
from test_app import go_to
from textual.geometry import Region
from textual.widget import Widget

from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.dialogs_base import DialogScreen

TINY = (40, 12)
# The key that opens each dialog, and what must be seen whole besides its hints.
DIALOGS = [
    ("t", ()),
    ("n", ()),
    ("D", ("#no", "#yes")),
    ("e", ("#scope", "#path")),
    ("a", ("#ids",)),
    ("y", ("#links",)),  # the paper with two code URLs: a chooser
]


def whole_on_screen(app: PapershelfApp, widget: Widget) -> bool:
    """All of `widget` is on screen, inside its dialog's frame."""
    region = widget.region
    frame = app.screen.query_one("#dialog").region
    screen = Region(0, 0, *app.size)
    return region.area > 0 and screen.contains_region(region) and frame.contains_region(region)


async def check_dialog(app: PapershelfApp, parts: tuple[str, ...]) -> None:
    assert isinstance(app.screen, DialogScreen), app.screen
    hints = app.screen.query_one(".dialog-hints")
    assert whole_on_screen(app, hints), (hints.region, app.screen.query_one("#dialog").region)
    for selector in parts:
        part = app.screen.query_one(selector)
        assert whole_on_screen(app, part), (selector, part.region)


@pytest.mark.parametrize(("key", "parts"), DIALOGS, ids=[key for key, _ in DIALOGS])
async def test_a_dialog_keeps_its_hints_on_a_tiny_screen(
    make_app, ids: Any, key: str, parts: tuple[str, ...]
) -> None:
    app = make_app()
    async with app.run_test(size=TINY) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.multi)
        await pilot.press(key)
        await settle(app, pilot)
        await check_dialog(app, parts)
        assert app.screen.has_class("-tiny")
        # Larger and back with the dialog open: the hints follow.
        for size in ((80, 24), TINY):
            await pilot.resize_terminal(*size)
            await settle(app, pilot)
            await check_dialog(app, parts)
        assert app.screen.has_class("-tiny")
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert not app.screen.has_class("-tiny")
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is app.main_screen
