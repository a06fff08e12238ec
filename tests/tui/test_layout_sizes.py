"""The main screen at any size (issue 15, part 2): at least 15 list rows at 80x24, the list
or the reader by turns in a short narrow terminal, the tag pane folded to a line of counts,
`?` and `q` in the footer at every width, notifications clear of the status line, the tag
pane and a dialog's key hints."""

from __future__ import annotations

from typing import Any

import pytest
from pilot_helpers import settle
from textual.geometry import Region
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast

from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.widgets.footer import QuietFooter
from papershelf.tui.widgets.status_line import StatusLine

SIZES = [(40, 12), (60, 20), (80, 24), (120, 40), (200, 60)]
size_ids = pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")


def footer_key(app: PapershelfApp, key: str) -> FooterKey:
    (found,) = [k for k in app.main_screen.query_one(QuietFooter).query(FooterKey) if k.key == key]
    return found


def shown_whole(app: PapershelfApp, widget: Any) -> bool:
    """Whether all of `widget` is on screen and nothing of the footer covers it."""
    region = widget.region
    screen = Region(0, 0, *app.size)
    if region.area == 0 or screen.intersection(region) != region:
        return False
    for other in app.main_screen.query_one(QuietFooter).query(FooterKey):
        if other is widget or other.region.area == 0:
            continue
        # A key under the pinned group is covered by it, not the other way round.
        if other.parent is widget.parent and other.region.overlaps(region):
            return False
    return True


@size_ids
async def test_help_and_quit_are_always_in_the_footer(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for key in ("question_mark", "q"):
            assert shown_whole(app, footer_key(app, key)), (key, footer_key(app, key).region)
        # Its key works, pressed and clicked, twice in a row.
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark", "question_mark")  # close, open again in one burst
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen
        await pilot.click(footer_key(app, "question_mark"))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.click(footer_key(app, "q"))
        await pilot.pause()
    assert app.return_code == 0


@pytest.mark.parametrize("size", [(80, 24), (100, 24), (120, 40)], ids=str)
async def test_the_list_has_at_least_15_rows_when_the_reader_is_beside_or_below(
    make_app, size
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert app.paper_list.scrollable_content_region.height >= 15
        assert app.main_screen.reader.region.height >= 4  # and the reader is still there


@pytest.mark.parametrize("size", [(60, 20), (40, 12)], ids=str)
async def test_a_short_narrow_terminal_shows_the_list_or_the_reader(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        screen = app.main_screen
        papers, reader = app.paper_list, screen.reader
        body = screen.query_one("#body").region
        assert papers.region.height == body.height and reader.region.area == 0
        await pilot.press("enter", "j")  # in a burst: the `j` scrolls the reader
        await pilot.pause()
        assert screen.focused is reader and papers.region.area == 0
        assert reader.region.height >= body.height - 1  # all but the folded tag line
        await pilot.press("escape")
        await pilot.pause()
        assert screen.focused is papers and reader.region.area == 0
        await pilot.press("enter", "escape", "enter", "escape")  # twice, in a burst
        await pilot.pause()
        assert screen.focused is papers and papers.region.height == body.height


@pytest.mark.parametrize("size", [(40, 12), (60, 20), (80, 24), (120, 24)], ids=str)
async def test_the_tag_pane_folds_to_a_line_of_counts(make_app, library: Library, size) -> None:
    papers = library.papers()
    library.tag([papers[0].id, papers[1].id], add=["graphs"])
    library.tag([papers[2].id], add=["physics"])
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        pane = app.main_screen.tag_pane
        assert pane.folded
        # Folded: one line, its title counting the tags, the most used first.
        if pane.region.area:
            assert pane.region.height == 1
        assert str(pane.border_title) == "tags 2 · #graphs 2 · #physics 1"


async def test_a_tall_wide_terminal_shows_the_whole_tag_pane(make_app, library: Library) -> None:
    library.tag([library.papers()[0].id], add=["graphs"])
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        pane = app.main_screen.tag_pane
        assert not pane.folded and pane.region.height > 3
        assert str(pane.border_title) == "tags (1)"


async def test_a_focused_folded_tag_pane_opens(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        pane = app.main_screen.tag_pane
        assert pane.region.height == 1
        app.main_screen.set_focus(pane)
        await pilot.pause()
        assert pane.region.height > 3
        await pilot.press("escape")
        await pilot.pause()
        assert pane.region.height == 1


def toast_cells(app: PapershelfApp, region: Region) -> list[tuple[int, int]]:
    """The cells of `region` where a toast is the widget on top (what the user sees)."""
    covered: list[tuple[int, int]] = []
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            widget, _ = app.screen.get_widget_at(x, y)
            if isinstance(widget, Toast) or any(isinstance(a, Toast) for a in widget.ancestors):
                covered.append((x, y))
    return covered


@size_ids
async def test_notifications_cover_neither_status_tags_nor_dialog_hints(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        for n in range(6):
            app.notify_info(f"Notice {n}: something worth saying about the papers")
        await pilot.pause(0.2)
        await pilot.pause()
        assert app.screen.query(Toast)
        # A toast is drawn somewhere (the top right), just not over these.
        assert toast_cells(app, Region(0, 0, *app.size))
        for clear in (app.main_screen.query_one(StatusLine), app.main_screen.tag_pane):
            assert toast_cells(app, clear.region) == [], clear
        await pilot.press("t")  # a dialog with a line of key hints
        await pilot.pause()
        for n in range(6):
            app.notify_info(f"Dialog notice {n}")
        await pilot.pause(0.2)
        await pilot.pause()
        hints = [w.region for w in app.screen.query(".dialog-hints")]
        assert hints
        screen = Region(0, 0, *app.size)
        for region in hints:
            assert toast_cells(app, region.intersection(screen)) == []


def visible_cells(app: PapershelfApp, widget: Any) -> int:
    """How many cells of `widget`'s region show it (or a child of it) on top."""
    region = widget.region.intersection(Region(0, 0, *app.size))
    shown = 0
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            top, _ = app.screen.get_widget_at(x, y)
            shown += top is widget or widget in top.ancestors
    return shown


@size_ids
async def test_every_dialog_shows_its_key_hints_and_its_input_at_every_size(
    make_app, size, tmp_path, monkeypatch
) -> None:
    # Found by an attacker pass: at 40x12 the note, tag, export and remove dialogs ran past the
    # screen's bottom, cutting off their key hints (and the remove dialog's buttons): nothing
    # said that ctrl+s saves or applies.
    monkeypatch.chdir(tmp_path)  # where the export goes
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("e", "enter")  # an export, so that the next asks before replacing it
        await settle(app, pilot)
        # Then the question whether to replace that export (a long path), and the remove dialog
        # and the tag editor of every paper, marked.
        for keys in ("n", "t", "e", "D", "a", ["e", "enter"], "AD", "t"):
            await pilot.press(*keys)
            await settle(app, pilot)
            assert app.screen is not app.main_screen, keys
            (hints,) = app.screen.query(".dialog-hints")
            assert hints.region.area and visible_cells(app, hints) == hints.region.area, keys
            focused = app.screen.focused
            assert focused is not None and visible_cells(app, focused) > 0, (keys, focused)
            for _ in keys:  # the replace question is over the export dialog: esc for each
                if app.screen is not app.main_screen:
                    await pilot.press("escape")
                    await settle(app, pilot)
            assert app.screen is app.main_screen
