"""The reader keeps the text of the papers it showed last: a key that keeps the paper and its
matches, or comes back to a paper shown a few keys before, neither makes nor wraps it again,
and draws what a reader made from scratch draws."""

from __future__ import annotations

from typing import Any

from keys import burst
from pilot_helpers import filtered, settle
from textual.geometry import Region

from papershelf.tui.widgets import reader as reader_module
from papershelf.tui.widgets.reader import Reader


def counting(monkeypatch: Any, name: str) -> list[int]:
    """Count the calls of `reader_module.<name>` (a list, so the test reads it as it grows)."""
    calls: list[int] = []
    real = getattr(reader_module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(reader_module, name, wrapper)
    return calls


def on_screen(reader: Reader) -> list[Any]:
    """The reader's lines as drawn now, and as a redraw from scratch draws them."""
    whole = Region(0, 0, *reader.size)
    return reader.render_lines(whole)


async def test_a_key_that_keeps_the_paper_and_its_matches_makes_nothing_again(
    make_app, monkeypatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await filtered(app, pilot, "peptide")
        reader = app.query_one(Reader)
        first = app.paper_list.current_id
        lines = reader._lines
        made = counting(monkeypatch, "reader_content")
        wrapped = counting(monkeypatch, "hang")
        await pilot.press("space")  # `peptide `: the same words, the same matches
        await settle(app, pilot)
        assert app.search.query_text == "peptide "
        assert app.paper_list.current_id == reader.paper_id == first
        assert made == [] and wrapped == []
        assert reader._lines is lines


async def test_coming_back_to_a_paper_shown_before_reuses_its_text(make_app, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await filtered(app, pilot, "learning")
        await pilot.press("down")  # to the list
        reader = app.query_one(Reader)
        first = reader.paper_id
        first_text, first_lines = reader.text, reader._lines
        await burst(pilot, "down")
        await settle(app, pilot)
        assert reader.paper_id != first
        made = counting(monkeypatch, "reader_content")
        wrapped = counting(monkeypatch, "hang")
        await burst(pilot, "up")
        await settle(app, pilot)
        assert reader.paper_id == first == app.paper_list.current_id
        assert made == [] and wrapped == []
        assert reader.text == first_text and reader._lines is first_lines
        kept = on_screen(reader)
        # What a reader that never saw the paper draws: the same lines.
        reader._recent.clear()
        reader._wrapped.clear()
        reader._lines_key = None
        reader._content_key = None
        app.main_screen.show_paper(first)
        reader.refresh()
        assert len(made) == 1
        assert on_screen(reader) == kept


async def test_typed_in_bursts_the_list_and_reader_show_the_last_query(make_app) -> None:
    """Keys sent with no pause between them: right after the burst the list holds the last
    query's results and the reader shows the paper under its cursor, with that query's
    matches, as a reader made from scratch shows it."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await filtered(app, pilot, "")
        for query in ("graph", "neural net", "peptide sequencing", "diffusion"):
            await burst(pilot, "ctrl+u", *query)
            await settle(app, pilot)
            assert app.search.query_text == query
            assert app.search.shown_serial == app.search.serial
            reader = app.query_one(Reader)
            current = app.paper_list.current_id
            assert current is not None and reader.paper_id == current
            hit = app.paper_list.current_hit
            paper = app.library.get(current)
            fresh = reader_module.reader_content(paper, app.library.entry(current), hit)
            assert reader.content.plain == fresh.plain
            assert list(reader.content.spans) == list(fresh.spans)
