"""Pilot tests: every binding of the main screen and the flows through the dialogs.

Each test checks the state that results: the library on disk (a fresh `Library.open`), the
files written, what the clipboard was handed, focus and the list's contents.
"""

from __future__ import annotations

import contextlib
import io
import threading
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import settle
from textual.widgets import Input

import papershelf.tui.app as app_module
import papershelf.tui.app_search as search_module
from papershelf.storage.errors import SaveError
from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.export_dialog import ExportDialog, ExportRequest
from papershelf.tui.screens.help import HelpScreen
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor
from papershelf.tui.screens.tag_editor import TagChange, TagEditor
from papershelf.tui.widgets.filter_bar import FilterBar
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

SIZE = (120, 40)


class Notes:
    """Records every notification (and checks each was sent with markup off)."""

    def __init__(self, app: PapershelfApp) -> None:
        self.items: list[tuple[str, str]] = []
        original = app.notify

        def notify(message: str, **kwargs: Any) -> None:
            assert kwargs.get("markup") is False, f"notify with markup on: {message!r}"
            self.items.append((message, kwargs.get("severity", "information")))
            original(message, **kwargs)

        app.notify = notify  # type: ignore[method-assign]

    @property
    def last(self) -> str:
        return self.items[-1][0]

    @property
    def last_severity(self) -> str:
        return self.items[-1][1]


async def go_to(app: PapershelfApp, pilot: Any, paper_id: str) -> None:
    """Put the list's cursor on `paper_id`."""
    ids = [hit.paper_id for hit in app.paper_list.hits]
    app.paper_list.move_to(ids.index(paper_id))
    await pilot.pause()


def first_ids(app: PapershelfApp) -> list[str]:
    return [hit.paper_id for hit in app.paper_list.hits]


async def test_start_shows_every_paper_and_focuses_the_list(make_app, library: Library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        total = len(library.papers())
        assert total == 37
        assert first_ids(app) == [paper.id for paper in library.papers()]
        assert isinstance(app.focused, PaperList)
        assert f"{total} of {total} papers" in app.query_one("#status").text
        assert app.search.engine is not None  # built in a worker after the first frame
        reader = app.query_one(Reader)
        assert reader.paper_id == library.papers()[0].id
        assert reader.text.startswith(library.papers()[0].name)


async def test_movement_keys_move_the_cursor_and_the_reader_follows(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        last = len(papers.hits) - 1
        steps = [
            ("j", 1),
            ("down", 2),
            ("k", 1),
            ("up", 0),
            ("up", 0),
            ("G", last),
            ("j", last),
            ("g", 0),
            ("end", last),
            ("home", 0),
        ]
        for key, expected in steps:
            await pilot.press(key)
            assert papers.cursor == expected, key
            assert app.query_one(Reader).paper_id == papers.hits[expected].paper_id
        page = papers.scrollable_content_region.height - 1
        assert 3 <= page < last // 2
        await pilot.press("pagedown")
        assert papers.cursor == page
        await pilot.press("pagedown")
        assert papers.cursor == 2 * page
        assert papers.scroll_y > 0  # the cursor row is kept on screen
        await pilot.press("pageup")
        assert papers.cursor == page
        await pilot.press("pageup", "pageup")
        assert papers.cursor == 0
        assert papers.scroll_y == 0


async def test_filter_updates_live_and_enter_keeps_the_query(make_app, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, FilterBar)
        await pilot.press(*"zebrafish")
        await settle(app, pilot)
        assert first_ids(app) == [ids.hostile]
        assert "1 of 37 papers" in app.query_one("#status").text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, PaperList)
        assert app.query_one(FilterBar).value == "zebrafish"
        assert first_ids(app) == [ids.hostile]


async def test_keys_typed_right_after_slash_land_in_the_filter(make_app, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        # No pause between keys: `/` must move focus before the next key is routed.
        await pilot.press("slash", "q", "u", "o", "k", "k", "a")
        await settle(app, pilot)
        assert app.query_one(FilterBar).value == "quokka"
        assert app.is_running
        assert first_ids(app) == [ids.multi]


async def test_escape_in_the_filter_clears_it(make_app, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"wombat")
        await settle(app, pilot)
        assert first_ids(app) == [ids.nocode]
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.query_one(FilterBar).value == ""
        assert len(app.paper_list.hits) == 37
        assert isinstance(app.focused, PaperList)


async def test_a_query_typed_before_the_index_is_ready_is_queued(
    make_app, monkeypatch: pytest.MonkeyPatch, ids
) -> None:
    release = threading.Event()
    real_engine = search_module.SearchEngine

    def slow_engine(papers, **kwargs):  # type: ignore[no-untyped-def]
        release.wait(timeout=30)
        return real_engine(papers, **kwargs)  # (its build's progress)

    monkeypatch.setattr(search_module, "SearchEngine", slow_engine)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.search.engine is None
        await pilot.press("slash", *"wombat")
        await pilot.pause()
        assert app.query_one(FilterBar).value == "wombat"
        assert "searching" in app.query_one("#status").text
        assert len(app.paper_list.hits) == 37  # unchanged until the index exists
        release.set()
        await settle(app, pilot)
        assert app.search.engine is not None
        assert first_ids(app) == [ids.nocode]


async def test_enter_reads_and_escape_returns_to_the_list(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await pilot.pause()
        reader = app.query_one(Reader)
        assert app.focused is reader
        assert reader.max_scroll_y > 0
        await pilot.press("j", "j", "pagedown")
        await pilot.pause()
        assert reader.scroll_y > 0
        await pilot.press("g")
        await pilot.pause()
        assert reader.scroll_y == 0
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, PaperList)


async def test_tag_editor_adds_a_tag_on_disk(make_app, library_root: Path, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagEditor)
        await pilot.press(*"graphs", "enter")  # add the typed tag
        await pilot.press("enter")  # empty input: apply
        await settle(app, pilot)
        assert not isinstance(app.screen, TagEditor)
        assert reopen(library_root).entry(paper_id).tags == {"graphs"}
        assert "#graphs" in app.paper_list.rows.content(app.paper_list.hits[0], 120, False).plain
        assert app.query_one(TagPane).counts == {"graphs": 1}


async def test_toggle_to_read_adds_then_removes(make_app, library_root: Path, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        paper_id = app.paper_list.current_id
        await pilot.press("T")
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).tags == {"to-read"}
        assert "to-read" in notes.last
        await pilot.press("T")
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).tags == frozenset()


async def test_marks_make_changes_apply_to_the_marked_set(
    make_app, library_root: Path, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        ids = first_ids(app)
        await pilot.press("space", "space")  # marks rows 0 and 1 (space moves down)
        assert app.paper_list.marked == {ids[0], ids[1]}
        assert app.paper_list.cursor == 2
        assert "2 marked" in app.query_one("#status").text
        await pilot.press("T", "asterisk", "s")
        await settle(app, pilot)
        disk = reopen(library_root)
        for paper_id in ids[:2]:
            entry = disk.entry(paper_id)
            assert entry.tags == {"to-read"} and entry.starred and entry.status == "reading"
        assert disk.entry(ids[2]).is_default
        assert "2 papers (marked)" in notes.last
        await pilot.press("up", "space")  # unmark row 1
        assert app.paper_list.marked == {ids[0]}
        await pilot.press("U")
        assert app.paper_list.marked == frozenset()
        await pilot.press("A")
        assert app.paper_list.marked == set(ids)
        await pilot.press("T")
        await settle(app, pilot)
        disk = reopen(library_root)
        assert all("to-read" in disk.entry(pid).tags for pid in ids)


async def test_bulk_tag_editor_gets_every_marked_paper(
    make_app, library_root: Path, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        ids = first_ids(app)
        await pilot.press("space", "space", "space", "t")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, TagEditor)
        assert len(editor.paper_names) == 3
        editor.dismiss(TagChange(add=frozenset({"survey"}), remove=frozenset()))
        await settle(app, pilot)
        disk = reopen(library_root)
        assert [("survey" in disk.entry(pid).tags) for pid in ids[:4]] == [True] * 3 + [False]


async def test_s_cycles_the_status(make_app, library_root: Path, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        seen = []
        for _ in range(3):
            await pilot.press("s")
            await settle(app, pilot)
            seen.append(reopen(library_root).entry(paper_id).status)
        assert seen == ["reading", "read", "unread"]


async def test_star_toggles_and_u_undoes(make_app, library_root: Path, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        paper_id = app.paper_list.current_id
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).starred
        assert "★" in app.paper_list.rows.content(app.paper_list.hits[0], 120, False).plain
        await pilot.press("u")
        await settle(app, pilot)
        assert not reopen(library_root).entry(paper_id).starred
        assert notes.last == f"Undone: star {app.library.get(paper_id).name}"
        await pilot.press("u")
        assert notes.last == "Nothing to undo"
        assert notes.last_severity == "warning"


async def test_note_editor_saves_the_note(make_app, library_root: Path, reopen) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteEditor)
        await pilot.press(*"read [b]this[/b]", "ctrl+s")
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).note == "read [b]this[/b]"
        assert "read [b]this[/b]" in app.query_one(Reader).text


async def test_y_copies_the_only_code_url(make_app, clipboard, library) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        with_code = next(p for p in library.papers() if len(p.code_urls) == 1)
        await go_to(app, pilot, with_code.id)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == [with_code.code_urls[0]]
        assert with_code.code_urls[0] in notes.last


async def test_y_offers_a_chooser_for_several_code_urls(make_app, clipboard, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.multi)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, LinkChooser)
        await pilot.press("2")
        await settle(app, pilot)
        assert clipboard.copied == ["https://gitlab.com/b/twin-two"]


async def test_y_without_code_says_so(make_app, clipboard, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await go_to(app, pilot, ids.nocode)
        await pilot.press("y")
        await settle(app, pilot)
        assert clipboard.copied == []
        assert notes.last == "NoCode has no code URL"
        assert notes.last_severity == "warning"


async def test_o_opens_only_web_links(make_app, monkeypatch: pytest.MonkeyPatch, ids) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url) or True)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await go_to(app, pilot, ids.nocode)  # only an ftp:// link
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == []
        assert "no web link" in notes.last
        await go_to(app, pilot, ids.hostile)  # an https code URL and a javascript: link
        await pilot.press("o")
        await settle(app, pilot)
        assert opened == ["https://github.com/hostile/[/]masknet"]
        await go_to(app, pilot, ids.multi)  # three web links: a chooser
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, LinkChooser)
        await pilot.press("3")
        await settle(app, pilot)
        assert opened[-1] == "https://twinrepo.example.org"


async def test_export_writes_the_results(make_app, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("slash", *"quokka|wombat", "enter")
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        target = tmp_path / "out.md"
        dialog.dismiss(ExportRequest(scope="results", tag=None, path=target))
        await settle(app, pilot)
        text = target.read_text(encoding="utf-8")
        assert "TwinRepo" in text and "NoCode" in text and "RelGNN" not in text
        assert str(target) in notes.last


async def test_export_of_a_tag_and_of_the_marked_papers(make_app, tmp_path: Path, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.multi)
        await pilot.press("T", "space")  # tag TwinRepo to-read, mark it
        await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        app.screen.dismiss(ExportRequest(scope="tag", tag="to-read", path=tmp_path / "t.md"))
        await settle(app, pilot)
        assert "TwinRepo" in (tmp_path / "t.md").read_text(encoding="utf-8")
        await pilot.press("e")
        await pilot.pause()
        app.screen.dismiss(ExportRequest(scope="marked", tag=None, path=tmp_path / "m.md"))
        await settle(app, pilot)
        marked = (tmp_path / "m.md").read_text(encoding="utf-8")
        assert "TwinRepo" in marked and "RelGNN" not in marked


async def test_help_lists_every_binding(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = str(app.screen.query_one("#help-keys").content)
        actions = app.bound_actions()
        assert len(actions) >= 25
        for action in actions:
            assert action.binding.description in shown
        for key in ("j / ↓", "G / end", "*", "?", "space", "/", "esc"):
            assert key in shown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


async def test_help_scrolls_like_every_other_view(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 20)) as pilot:  # too small for every key: it scrolls
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        body = app.screen.query_one("#help-body")
        assert body.max_scroll_y > 0
        for key, where in (("G", body.max_scroll_y), ("g", 0), ("end", body.max_scroll_y)):
            await pilot.press(key)
            await pilot.pause()
            assert body.scroll_y == where, key
        await pilot.press("home", "pagedown")
        await pilot.pause()
        assert 1 < body.scroll_y <= body.max_scroll_y
        await pilot.press("pageup", "j", "j", "k")
        await pilot.pause()
        assert body.scroll_y == 1


@pytest.mark.parametrize("query", ["has:pdf", "is:done"])
async def test_an_unknown_operator_is_said_as_the_cli_says_it(
    make_app, library_root: Path, query: str
) -> None:
    from papershelf.cli.main import main
    from papershelf.tui.widgets.status_line import StatusLine

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["--db", str(library_root), "list", query]) == 1
    said = err.getvalue().removeprefix("papershelf: ").strip()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *query)
        await settle(app, pilot)
        assert said in str(app.query_one(StatusLine).render())


async def test_every_binding_is_a_palette_command(make_app, library_root: Path, reopen) -> None:
    from papershelf.tui.commands import PapershelfCommands

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        provider = PapershelfCommands(app.screen)
        found = [hit async for hit in provider.discover()]
        titles = [str(hit.display) for hit in found]
        assert len(titles) == len(app.bound_actions())
        assert "Papers: Star" in titles and "List: Down" in titles
        hits = [hit async for hit in provider.search("papers star")]
        star = max(hits, key=lambda hit: hit.score)
        assert str(star.text) == "Papers: Star"
        paper_id = app.paper_list.current_id
        await star.command()  # type: ignore[misc]
        await settle(app, pilot)
        assert reopen(library_root).entry(paper_id).starred
        down = next(hit for hit in found if str(hit.display) == "List: Down")
        await down.command()  # type: ignore[misc]
        assert app.paper_list.cursor == 1


async def test_choosing_a_tag_in_the_pane_filters_by_it(make_app, library_root: Path, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await go_to(app, pilot, ids.multi)
        await pilot.press("T")
        await settle(app, pilot)
        await pilot.press("tab")
        while not isinstance(app.focused, TagPane):
            await pilot.press("tab")
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.query_one(FilterBar).value == "#to-read"
        assert first_ids(app) == [ids.multi]
        assert isinstance(app.focused, PaperList)


async def test_q_quits(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_q_in_the_filter_is_typed_not_quit(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", "q")
        await pilot.pause()
        assert app.is_running
        assert isinstance(app.focused, Input)
        assert app.query_one(FilterBar).value == "q"


async def test_a_library_error_is_a_notification(make_app, monkeypatch, library) -> None:
    def fail(*args: object, **kwargs: object) -> int:
        raise SaveError("could not save state.json: no space left on device")

    monkeypatch.setattr(library, "set_starred", fail)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert app.is_running
        assert notes.last == "could not save state.json: no space left on device"
        assert notes.last_severity == "error"


async def test_changes_from_another_process_show_up(make_app, library_root: Path, ids) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        other = Library.open(library_root, seed=False)  # e.g. the CLI
        other.tag([ids.multi], add=["from-cli"])
        app.poll_library()  # what the 2-second timer calls
        await settle(app, pilot)
        assert app.query_one(TagPane).counts == {"from-cli": 1}
        await go_to(app, pilot, ids.multi)
        assert "#from-cli" in app.query_one(Reader).text


async def test_narrow_terminals_stack_the_reader_under_the_list(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert app.screen.has_class("-narrow")
        papers, reader = app.paper_list, app.query_one(Reader)
        assert reader.region.y > papers.region.y
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert not app.screen.has_class("-narrow")
        assert reader.region.x > papers.region.x


def test_app_module_stays_a_thin_wiring_module() -> None:
    for module in ("app.py", "app_actions.py", "screens/main.py"):
        lines = (Path(app_module.__file__).parent / module).read_text().count("\n")
        assert lines < 400, module
