"""Keys typed right after leaving the filter act on the list, however fast they come."""

from __future__ import annotations

from pilot_helpers import filtered, index_loaded
from textual import events

from papershelf.tui.widgets.filter_bar import FilterBar


async def test_a_key_queued_right_after_enter_goes_to_the_list(make_app, reopen, library_root):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await filtered(app, pilot, "peptide")
        # Both keys are in the app's queue before either is handled, as when a fast typist
        # (or a slow machine) delivers "enter T" in one read.
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("T", "T"))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.query_one(FilterBar).value == "peptide"
        paper_id = app.paper_list.current_id
        assert paper_id is not None
        assert "to-read" in reopen(library_root).entry(paper_id).tags


async def test_a_key_queued_right_after_escape_goes_to_the_list(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"peptide")
        await app.workers.wait_for_complete()
        app.post_message(events.Key("escape", "\x1b"))
        app.post_message(events.Key("j", "j"))
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.query_one(FilterBar).value == ""
        assert app.focused is app.paper_list
        assert app.paper_list.cursor == 1


async def test_keys_typed_ahead_of_the_results_act_on_the_querys_papers(
    make_app, reopen, library_root
):
    """`/peptide enter T` typed while the results are not in yet (the index is being rebuilt
    after another process's import, or a slow search runs) tags a paper of those results, or
    nothing with a message: never the paper under the cursor in the older results."""
    app = make_app()
    shown: list[str] = []
    notify = app.notify
    app.notify = lambda message, **kw: (shown.append(message), notify(message, **kw))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await index_loaded(app, pilot)  # IndexReady handled
        engine = app.search.engine
        assert engine is not None
        first = app.paper_list.current_id
        app.search.engine = None  # as while the index is rebuilt: searches wait for IndexReady
        await pilot.press("slash", *"peptide")
        assert app.paper_list.current_id == first  # the older results are still shown
        await pilot.press("enter", "T")
        assert reopen(library_root).entries() == {}  # nothing tagged ...
        assert any("Still loading the search index" in m for m in shown)  # ... and said why
        await pilot.press("slash", "escape")  # the filter cleared
        await pilot.press("slash", *"peptide")  # typed while the index is away
        app.search.engine = engine  # the index is there, the results not shown yet
        assert app.paper_list.current_id == first
        await pilot.press("enter", "T")
        tagged = [pid for pid, e in reopen(library_root).entries().items() if "to-read" in e.tags]
        assert len(tagged) == 1
        assert "eptide" in app.library.get(tagged[0]).abstract
        assert tagged[0] != first


async def test_the_trace_marks_a_filter_key_before_the_query_changes(
    make_app, monkeypatch, tmp_path
):
    """`FilterBar.on_key` (public) runs before Input inserts the key: the bench's start."""
    from papershelf.tui import app_trace
    from papershelf.tui.app_trace import Trace

    trace = Trace(str(tmp_path / "trace.txt"))
    monkeypatch.setattr(app_trace.TRACE, "_file", trace._file)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", "x")
        await pilot.pause()
    events_seen = [line.split()[1] for line in (tmp_path / "trace.txt").read_text().splitlines()]
    assert events_seen.index("key") < events_seen.index("changed")


async def test_an_editing_key_in_a_burst_edits_before_the_keys_behind_it(make_app):
    """`ctrl+u title:di` arriving in one read (a paste of keys, a fast typist, tmux
    `send-keys C-u 'title:di'`): Textual runs an input's bindings only when the key has
    bubbled up through its parents, so the letters behind it were inserted first and then
    wiped by the late `ctrl+u` (found by an attacker pass). Each editing key acts in turn."""
    bursts = {
        ("ctrl+u", None): "title:di",
        ("ctrl+w", None): "abc title:di",  # deletes "word" typed before it
        ("backspace", None): "abc wortitle:di",
        ("left", None): "abc wortitle:did",
    }
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        bar = app.query_one(FilterBar)
        for (key, character), expected in bursts.items():
            bar.value = "abc word"
            bar.cursor_position = len(bar.value)
            bar.focus()
            await pilot.pause()
            for sent_key, sent in [(key, character), *((c, c) for c in "title")]:
                app.post_message(events.Key(sent_key, sent))
            app.post_message(events.Key("colon", ":"))
            for letter in "di":
                app.post_message(events.Key(letter, letter))
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert bar.value == expected, key
