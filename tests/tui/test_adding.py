"""`a`: papers added by identifier from the app, fetched from the local API server
(tests/fetch_server.py) in a thread worker while the keys go on working."""

from __future__ import annotations

from fetch_server import FakeApis, offline
from keys import burst
from pilot_helpers import settle
from test_app import SIZE
from test_app_saving import record_notifications
from textual import events
from textual.widgets import Input, Static

from papershelf.storage.library.library import Library
from papershelf.tui.screens.add_dialog import AddDialog

QUOKKA_ARXIV = "2501.01234"


def quokka(library: Library) -> list[str]:
    return [paper.id for paper in library.papers() if paper.arxiv_id == QUOKKA_ARXIV]


async def test_a_then_an_id_and_enter_in_one_burst_adds_and_shows_the_paper(
    make_app, library: Library, reopen, fake_apis: FakeApis
) -> None:
    app = make_app()
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        count = len(library.papers())
        await burst(pilot, "a", *f"arXiv:{QUOKKA_ARXIV}", "enter")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        (new_id,) = quokka(reopen(library.root))
        assert len(app.library.papers()) == count + 1
        assert app.paper_list.current_id == new_id  # the list shows it, under the cursor
        assert f"Fetching arXiv:{QUOKKA_ARXIV}…" in shown
        assert f"Added QuokkaNet (arXiv:{QUOKKA_ARXIV})" in shown
        # Again: already there, nothing new.
        await burst(pilot, "a", *QUOKKA_ARXIV, "enter")
        await settle(app, pilot)
        assert f"arXiv:{QUOKKA_ARXIV}: already in the library" in shown
        assert len(quokka(reopen(library.root))) == 1


async def test_several_ids_at_once(make_app, library: Library, reopen, fake_apis: FakeApis) -> None:
    app = make_app()
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await burst(pilot, *"openreview:Xq7pB3kFzL arXiv:2501.99999 2501.01234", "enter")
        await settle(app, pilot)
        host = fake_apis.base.removeprefix("http://")
        assert shown[-1] == (
            "Added Echidna (openreview:Xq7pB3kFzL); "
            f"arXiv:2501.99999: no such paper at {host}; Added QuokkaNet (arXiv:2501.01234)"
        )
        stored = reopen(library.root).papers()
        assert {paper.openreview_id for paper in stored} >= {"Xq7pB3kFzL"}
        assert quokka(reopen(library.root))


async def test_escape_cancels_and_fetches_nothing(
    make_app, library: Library, fake_apis: FakeApis
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        start = app.paper_list.current_id
        await burst(pilot, "a", *QUOKKA_ARXIV, "escape", "escape", "a", "escape", "j")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert fake_apis.requests == []
        assert app.paper_list.current_id != start  # `j` reached the list
        await burst(pilot, "a")
        await settle(app, pilot)
        assert isinstance(app.screen, AddDialog) and app.screen.dialog_ready


async def test_a_word_that_is_no_identifier_keeps_the_dialog_open_and_says_so(
    make_app, fake_apis: FakeApis
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await burst(pilot, "a", *"2501.01234 wombat", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, AddDialog)
        error = app.screen.query_one("#error", Static)
        assert error.display
        assert "Not an arXiv id, DOI or OpenReview link: wombat" in str(error.render())
        await burst(pilot, "enter")  # still wrong: still open
        await settle(app, pilot)
        assert isinstance(app.screen, AddDialog)
        assert fake_apis.requests == []


async def until(pilot, condition) -> None:
    """Let the app handle messages until `condition()` holds (bounded)."""
    for _ in range(500):
        if condition():
            return
        await pilot.pause()
    raise AssertionError("the app never got there")


async def test_keys_work_while_a_fetch_waits_for_its_reply(
    make_app, library: Library, reopen, fake_apis: FakeApis, monkeypatch
) -> None:
    monkeypatch.setenv("PAPERSHELF_FETCH_TIMEOUT", "60")  # the test ends the wait itself
    app = make_app()
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        start = app.paper_list.current_id
        count = len(library.papers())
        await burst(pilot, "a", *"2501.00001", "enter", "j", "j")
        # The fetch waits for a reply that does not come; the list takes keys meanwhile.
        await until(pilot, lambda: app.paper_list.current_id != start and fake_apis.requests)
        await pilot.press("k")
        assert app.adding.fetching == 1
        assert "Fetching arXiv:2501.00001…" in shown
        fake_apis.never.set()  # the server hangs up without answering
        await settle(app, pilot)
        host = fake_apis.base.removeprefix("http://")
        assert shown[-1].startswith(f"arXiv:2501.00001: cannot reach {host}: ")
        assert app.adding.fetching == 0
        assert len(reopen(library.root).papers()) == count


async def test_offline_is_one_notification_and_nothing_is_added(
    make_app, library: Library, reopen, monkeypatch
) -> None:
    host = offline(monkeypatch)
    app = make_app()
    shown = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        count = len(library.papers())
        await pilot.press("a")
        await burst(pilot, *"10.1145/3292500.3330701", "enter")
        await settle(app, pilot)
        assert shown[-1] == (
            f"doi:10.1145/3292500.3330701: cannot reach {host}: Connection refused"
        )
        assert len(reopen(library.root).papers()) == count
        assert app.is_running


async def test_a_is_on_the_help_screen(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        keys = {(action.binding.key, action.binding.action) for action in app.bound_actions()}
        assert ("a", "add_papers") in keys


async def test_a_typed_in_the_filter_stays_in_the_filter(make_app, fake_apis: FakeApis) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await burst(pilot, "slash", *"a graph a")
        await settle(app, pilot)
        assert len(app.screen_stack) == 1
        assert app.main_screen.filter_bar.value == "a graph a"
        assert fake_apis.requests == []


async def test_a_pasted_list_of_lines_adds_every_line(
    make_app, library: Library, reopen, fake_apis: FakeApis
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await burst(pilot, "a")
        app.post_message(events.Paste("arXiv:2501.01234\nopenreview:Xq7pB3kFzL\n"))
        await settle(app, pilot)
        assert isinstance(app.screen, AddDialog)
        assert app.screen.query_one("#ids", Input).value == (
            "arXiv:2501.01234 openreview:Xq7pB3kFzL"
        )
        await burst(pilot, "enter")
        await settle(app, pilot)
        stored = reopen(library.root).papers()
        assert {"2501.01234"} <= {paper.arxiv_id for paper in stored}
        assert {"Xq7pB3kFzL"} <= {paper.openreview_id for paper in stored}


async def test_an_a_typed_behind_another_dialog_key_is_that_dialogs_text(
    make_app, library: Library, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await burst(pilot, "n", *"a note", "ctrl+s", "t", *"data", "enter", "ctrl+s")
        await settle(app, pilot)
        assert app.is_running and len(app.screen_stack) == 1
        entry = reopen(library.root).entry(paper_id)
        assert (entry.note, entry.tags) == ("a note", {"data"})
