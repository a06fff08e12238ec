"""Text from files and users is shown literally: never markup, never a terminal escape."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st
from pilot_helpers import settle
from textual.content import Content

from papershelf.tui.text import highlighted, one_line_notice, plain, safe
from papershelf.tui.widgets.reader import Reader
from papershelf.tui.widgets.tag_pane import TagPane

MARKUP = "[MASK] [/] [@click=app.quit]x[/] [link=http://x]y[/link]"


def visible_controls(text: str) -> list[str]:
    return [ch for ch in text if ch != "\n" and unicodedata.category(ch) == "Cc"]


@given(st.text())
def test_safe_keeps_length_and_removes_every_control(text: str) -> None:
    shown = safe(text)
    assert len(shown) == len(text)  # match spans stay valid
    assert visible_controls(shown) == []
    assert "\n" not in safe(text, one_line=True)


@given(st.text(), st.lists(st.tuples(st.integers(-5, 50), st.integers(-5, 50)), max_size=4))
def test_highlighted_never_raises_and_keeps_the_text(text: str, spans) -> None:
    content = highlighted(text, spans, "bold")
    assert content.plain == safe(text)
    assert all(0 <= s.start <= s.end <= len(content.plain) for s in content.spans)


def test_markup_is_plain_text() -> None:
    assert plain(MARKUP).plain == MARKUP
    assert plain("a\x1b[2Jb\x1b]52;c;aGk=\x07").plain == "a␛[2Jb␛]52;c;aGk=␇"
    assert "\u202e" not in safe("evil\u202etxt.exe")
    assert one_line_notice("copied [/] \x1b[2J\nnext") == "copied [/] ␛[2J next"


async def test_hostile_paper_shows_literally_in_list_and_reader(make_app, ids) -> None:
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        hit = next(h for h in papers.hits if h.paper_id == ids.hostile)
        row = papers.rows.content(hit, 200, False).plain
        assert "MaskNet [MASK]" in row
        # Stored text with raw escapes (import_papers keeps them) is defused when drawn.
        assert "[@click=app.quit]Quit[/] the [b]bold[/b] way ␛[31mred␇" in row
        papers.move_to([h.paper_id for h in papers.hits].index(ids.hostile))
        await pilot.pause()
        text = app.query_one(Reader).text
        assert MARKUP in text
        assert "␛[31mred␇" in text
        # Cleaned text loses whole escape sequences, not only their ESC bytes (attack13).
        assert "Raw escapes   must stay inert" in text and "[2J" not in text and "]52;" not in text
        assert visible_controls(text) == []
        # Click on the reader where `[@click=app.quit]` is drawn: nothing may fire.
        await pilot.click(Reader, offset=(5, 8))
        await pilot.pause()
        assert app.is_running
        screen_text = app.export_screenshot()
        assert "\x1b" not in screen_text
        assert "[MASK]" in screen_text


async def test_hostile_tags_and_notes_show_literally(make_app, ids, library) -> None:
    library.tag([ids.hostile], add=["[/]", "[@click=app.quit]x"])
    library.set_note(ids.hostile, "see [link=http://x]y[/link] and [/] \x1b[2J done")
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        papers.move_to([h.paper_id for h in papers.hits].index(ids.hostile))
        await pilot.pause()
        hit = papers.current_hit
        row = papers.rows.content(hit, 300, False).plain
        assert "#[/]" in row and "#[@click=app.quit]x" in row
        text = app.query_one(Reader).text
        assert "#[/] #[@click=app.quit]x" in text or "#[@click=app.quit]x #[/]" in text
        assert "see [link=http://x]y[/link] and [/]" in text
        pane = app.query_one(TagPane)
        prompts = [str(option.prompt) for option in pane.options]
        assert any("#[/]" in prompt for prompt in prompts)
        assert all(isinstance(option.prompt, Content) for option in pane.options)
        assert app.is_running


async def test_notifications_with_brackets_do_not_crash(make_app, ids, clipboard) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        papers = app.paper_list
        papers.move_to([h.paper_id for h in papers.hits].index(ids.hostile))
        await pilot.press("y")  # the code URL holds `[/]`: notify must not parse it
        await settle(app, pilot)
        assert clipboard.copied == ["https://github.com/hostile/[/]masknet"]
        assert app.is_running
        messages = [n.message for n in app._notifications]
        assert any("[/]masknet" in message for message in messages)


async def test_hostile_filter_text_is_shown_literally(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"[/]", "enter")
        await settle(app, pilot)
        assert "filter: [/]" in app.query_one("#status").text
        assert app.is_running


@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_the_app_and_the_cli_show_the_same_stand_ins(text: str) -> None:
    # One table for both: a paper shown by `papershelf show` reads as it does in the app, and
    # whatever the app shows can be encoded for the terminal (a lone surrogate cannot).
    from papershelf.cli.output import terminal_text

    text = text.replace("\r\n", "\r")  # the CLI also turns a CRLF line end into a newline
    shown = safe(text)
    assert shown == terminal_text(text, one_line=False)
    assert safe(text, one_line=True) == terminal_text(text, one_line=True)
    shown.encode("utf-8")
