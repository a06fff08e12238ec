"""`D`: remove the paper under the cursor or the marked papers, after the RemoveDialog; `u`
brings them back. Keys one at a time, in bursts, and twice."""

from __future__ import annotations

import pytest
from keys import burst
from pilot_helpers import settle
from test_app import SIZE, Notes, go_to

from papershelf.storage.library.library import Library
from papershelf.tui.commands import help_sections
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.remove_dialog import RemoveDialog


def shown(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [hit.paper_id for hit in app.paper_list.hits]


@pytest.mark.parametrize("answer", ["y", "tab enter", "right enter"])
async def test_d_then_yes_removes_and_u_brings_it_back(
    make_app, library: Library, reopen, answer: str
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        order = shown(app)
        target = order[2]
        name = library.get(target).name
        await go_to(app, pilot, target)
        await pilot.press("D")
        await settle(app, pilot)
        assert isinstance(app.screen, RemoveDialog)
        await pilot.press(*answer.split())
        await settle(app, pilot)
        assert not isinstance(app.screen, RemoveDialog)
        assert notes.last == f"Removed {name} (u brings it back)"
        assert shown(app) == [pid for pid in order if pid != target]
        assert app.paper_list.current_id == order[3]  # the next paper, in the same row
        assert target not in [p.id for p in reopen(library.root).papers()]
        await pilot.press("u")
        await settle(app, pilot)
        assert notes.last == f"Undone: remove {name}"
        assert shown(app) == order
        assert target in [p.id for p in reopen(library.root).papers()]


@pytest.mark.parametrize("answer", ["escape", "n", "enter"])
async def test_d_then_no_keeps_the_paper(make_app, library: Library, reopen, answer: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await pilot.press("D")
        await settle(app, pilot)
        await pilot.press(answer)
        await settle(app, pilot)
        assert len(app.screen_stack) == 1
        assert shown(app) == order
        assert len(reopen(library.root).papers()) == len(order)


async def test_d_removes_the_marked_papers_with_their_tags_and_u_restores_both(
    make_app, library: Library, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        order = shown(app)
        library.tag(order[:2], add=["keep-me"])
        await pilot.press("space", "space", "T")  # marks two, tags them #to-read too
        await settle(app, pilot)
        await pilot.press("D")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, RemoveDialog) and len(dialog.names) == 2
        await pilot.press("y")
        await settle(app, pilot)
        assert notes.last == "Removed 2 papers (u brings them back)"
        assert shown(app) == order[2:]
        assert app.paper_list.marked == frozenset()
        assert reopen(library.root).entries().get(order[0]) is None
        await pilot.press("u")
        await settle(app, pilot)
        assert shown(app) == order
        assert reopen(library.root).entry(order[0]).tags == {"keep-me", "to-read"}


async def test_d_and_yes_in_one_burst_and_twice(make_app, library: Library, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await burst(pilot, "D", "y")
        await settle(app, pilot)
        assert shown(app) == order[1:]
        await burst(pilot, "D", "tab", "enter", "D", "y")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert shown(app) == order[3:]
        assert [p.id for p in reopen(library.root).papers()] == order[3:]
        await burst(pilot, "u", "u", "u")
        await settle(app, pilot)
        assert shown(app) == order


@pytest.mark.parametrize(
    "keys",
    [
        ("D", "enter"),  # enter by habit
        ("D", "escape", "enter"),  # esc, then enter on the list (opens the reader)
        ("D", "alt+enter", "escape"),  # the same two keys read by the terminal as one
        ("D", "enter", "D", "enter"),
        ("D", "n", "D", "escape", "D", "enter"),
    ],
    ids=lambda keys: " ".join(keys),
)
async def test_a_reflexive_enter_in_a_burst_removes_nothing(
    make_app, library: Library, reopen, keys: tuple[str, ...]
) -> None:
    """The dialog's focus starts on "Keep": no quick key but `y` (or moving to "Remove") takes
    a paper out (an attacker pass removed papers with `D esc enter`)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await burst(pilot, *keys)
        await settle(app, pilot)
        await burst(pilot, *keys)  # and twice
        await settle(app, pilot)
        # Twelve keys through six dialogs, one hop at a time: on a loaded machine the last
        # dialog may still be closing after one settle (it closes; nothing waits on a clock).
        for _ in range(10):
            if len(app.screen_stack) == 1:
                break
            await settle(app, pilot)
        assert app.is_running
        assert not any(isinstance(screen, RemoveDialog) for screen in app.screen_stack)
        assert shown(app) == order
        assert [p.id for p in reopen(library.root).papers()] == order


async def test_the_dialog_starts_on_keep_and_names_its_keys(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("D")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, RemoveDialog)
        assert dialog.focused is dialog.query_one("#no")
        hints = str(dialog.query_one(".dialog-hints").render())
        for hint in ("y remove", "n keep", "esc keep", "tab other button", "enter focused button"):
            assert hint in hints


async def test_d_d_opens_one_dialog_and_esc_closes_it(make_app, library: Library, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await burst(pilot, "D", "D")
        await settle(app, pilot)
        assert [type(s) for s in app.screen_stack[1:]] == [RemoveDialog]
        await burst(pilot, "escape", "j")
        await settle(app, pilot)
        assert len(app.screen_stack) == 1
        assert app.paper_list.current_id == order[1]  # the `j` after the dialog reached the list
        assert len(reopen(library.root).papers()) == len(order)


async def test_d_in_the_reader_removes_the_paper_it_shows(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await pilot.press("j", "enter")  # read the second paper
        await settle(app, pilot)
        await pilot.press("D", "y")
        await settle(app, pilot)
        assert shown(app) == [order[0], *order[2:]]


async def test_a_removal_by_another_process_leaves_the_list(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        await pilot.press("space")  # marked
        Library.open(library.root, seed=False).remove([order[0]])
        app.poll_library()
        await settle(app, pilot)
        assert shown(app) == order[1:]
        assert app.paper_list.marked == frozenset()


async def test_d_is_on_the_help_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        sections = {s.title: s for s in help_sections(app, app.bound_actions())}
        papers = {key.description: key.keys for key in sections["Papers"].keys}
        assert papers["Remove"] == "D"
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)


async def test_d_with_a_filter_keeps_the_filter_and_the_rest(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"graph", "enter")
        await settle(app, pilot)
        results = shown(app)
        assert len(results) >= 2
        await pilot.press("D", "y")
        await settle(app, pilot)  # the index is rebuilt and the query runs again
        assert app.search.query_text == "graph"
        assert shown(app) == results[1:]
        await pilot.press("u")
        await settle(app, pilot)
        assert sorted(shown(app)) == sorted(results)


async def test_a_paper_removed_before_the_reader_follows_the_cursor_to_it(
    make_app, library: Library
) -> None:
    """The reader follows the cursor one frame late (`MainScreen.show_paper` after the
    refresh); in a burst (`D enter` at once) the paper it was about to show can be removed
    within that frame, which stopped the app (CI caught it once). A removed paper shows
    nothing and the app goes on."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        order = shown(app)
        library.remove([order[1]])
        app.after_change()
        await settle(app, pilot)
        app.main_screen.show_paper(order[1])  # what the late reader update asks for
        await settle(app, pilot)
        assert app.is_running
        assert app.main_screen.reader.paper_id is None
        assert order[1] not in shown(app)
