"""The footer is not rebuilt behind a dialog, and shows the main keys again once it closes; at
any width its keys are shown whole or not at all, the least important giving way first."""

from __future__ import annotations

import itertools

import pytest
from pilot_helpers import settle
from test_config_app import write_config
from textual.widgets._footer import FooterKey

from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.footer import QuietFooter, key_width


def count_rebuilds(app: PapershelfApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the name of the screen shown at each rebuild of a QuietFooter's keys."""
    rebuilds: list[str] = []
    original = QuietFooter.recompose

    async def counting(self: QuietFooter) -> None:
        rebuilds.append(type(app.screen).__name__)
        await original(self)

    monkeypatch.setattr(QuietFooter, "recompose", counting)
    return rebuilds


async def test_footer_waits_while_covered_and_is_right_after(make_app, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        footer = app.main_screen.query_one(QuietFooter)
        rebuilds = count_rebuilds(app, monkeypatch)
        await pilot.press("question_mark")  # the help screen covers the main one
        await pilot.pause()
        assert app.screen is not app.main_screen
        assert rebuilds == []
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert app.screen is app.main_screen
        descriptions = {key.description for key in footer.query(FooterKey)}
        assert {"Quit", "Help", "Filter"} <= descriptions


async def test_changes_of_the_bindings_before_a_refresh_rebuild_the_footer_once(
    make_app, monkeypatch
) -> None:
    """A start changes the bindings four times (mount, focus, ...): one rebuild after the
    refresh shows what the last would, where Textual's Footer rebuilt every key five times."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        footer = app.main_screen.query_one(QuietFooter)
        rebuilds = count_rebuilds(app, monkeypatch)
        for _ in range(4):  # as a start changes them: the screen mounts, the list takes focus...
            app.main_screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert rebuilds == ["MainScreen"]
        assert {"Quit", "Help", "Read"} <= {key.description for key in footer.query(FooterKey)}
        await pilot.press("slash")  # a later change rebuilds again, with the filter's keys
        await pilot.pause()
        await pilot.pause()
        assert len(rebuilds) > 1
        assert "Read" not in {key.description for key in footer.query(FooterKey)}


SIZES = [(40, 12), (60, 20), (80, 24), (120, 40), (200, 60)]


def shown_keys(footer: QuietFooter) -> list[FooterKey]:
    return [key for key in footer.query(FooterKey) if key.display and key.region.area]


def check_whole(app, footer: QuietFooter) -> list[str]:
    """Every key shown is whole on screen and covers no other; what was left out could not
    fit. Returns the descriptions shown, left to right."""
    keys = sorted(shown_keys(footer), key=lambda key: key.region.x)
    for key in keys:
        assert key.region.x >= 0 and key.region.right <= app.size.width, key.description
        # The label is drawn whole: the key's region holds its whole rendered text.
        assert key.region.width >= key.get_content_width(app.size, app.size), key.description
    for left, right in itertools.pairwise(keys):
        assert left.region.right <= right.region.x, (left.description, right.description)
    room = footer.size.width - sum(key_width(key) for key in keys)
    for key in footer.query(FooterKey):
        if not key.display:
            assert key_width(key) > room, key.description  # it would have fitted
    return [key.description for key in keys]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_keys_are_shown_whole_or_not_at_all(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        footer = app.main_screen.query_one(QuietFooter)
        shown = check_whole(app, footer)
        assert shown[-3:] == ["Help", "Quit", "Commands"]
        assert "Read" in shown  # the most important key of the list
        await pilot.press("enter")  # the reader's keys replace the list's
        await settle(app, pilot)
        check_whole(app, footer)


async def test_the_least_important_keys_give_way_first(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await settle(app, pilot)
        footer = app.main_screen.query_one(QuietFooter)
        everything = check_whole(app, footer)
        assert "Mark" in everything and "Export" in everything
        # Narrower and back, twice: keys leave from the least important, and all come back.
        for _ in range(2):
            await pilot.resize_terminal(60, 20)
            await settle(app, pilot)
            assert check_whole(app, footer) == [
                "Read", "Filter", "Tags", "Status", "Help", "Quit", "Commands"
            ]  # fmt: skip
            await pilot.resize_terminal(40, 12)
            await settle(app, pilot)
            assert check_whole(app, footer) == ["Read", "Help", "Quit", "Commands"]
            await pilot.resize_terminal(200, 60)
            await settle(app, pilot)
            assert check_whole(app, footer) == everything


async def test_a_remapped_key_is_measured_with_its_new_name(library) -> None:
    write_config('[keys]\n"list.read" = "ctrl+shift+right"\n"app.filter" = "f2"\n')
    app = PapershelfApp(library)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        footer = app.main_screen.query_one(QuietFooter)
        shown = check_whole(app, footer)
        read = next(key for key in footer.query(FooterKey) if key.description == "Read")
        assert read.key == "ctrl+shift+right" and read.display
        assert shown[0] == "Read" and read.region.width == len(read.key_display) + len(" Read")
        assert "Status" not in shown  # the wider `Read` took its room (it is shown at 60x20)
