"""NoteEditor, LinkChooser, Confirm and the shared text helpers: every key and flow."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_dialogs_harness import NO_RESULT, DialogHarness, pilot_test
from textual.widgets import Button, OptionList, TextArea

from papershelf.tui.screens.confirm import Confirm
from papershelf.tui.screens.dialogs_base import clean_line, clean_text, shorten
from papershelf.tui.screens.link_chooser import LinkChooser
from papershelf.tui.screens.note_editor import NoteEditor

URLS = [
    "https://github.com/snap-stanford/relgnn",
    "https://relbench.stanford.edu/[/]",
    "https://huggingface.co/papers/2502.06784",
]

# -- text helpers --------------------------------------------------------------------------------


def test_clean_line_drops_controls_and_flattens_breaks() -> None:
    assert clean_line("a\x1b[31mb\x07c\u202ed\r\ne\tf\x85") == "a[31mbcd  e f "
    assert clean_line("[b]x[/b]") == "[b]x[/b]"  # markup is plain text here


def test_clean_text_keeps_lines_and_tabs() -> None:
    assert clean_text("one\r\ntwo\rthree\n\tfour\x1b\x9b\u2066") == "one\ntwo\nthree\n\tfour"


BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@given(st.text())
def test_cleaned_text_has_no_control_characters(text: str) -> None:
    line, block = clean_line(text), clean_text(text)
    assert not [c for c in line if unicodedata.category(c) == "Cc" or c in BIDI]
    assert not [c for c in line if c in "\u2028\u2029"]
    assert not [
        c for c in block if (unicodedata.category(c) == "Cc" and c not in "\n\t") or c in BIDI
    ]
    # Cleaning twice changes nothing, and nothing printable is lost.
    assert clean_line(line) == line and clean_text(block) == block
    printable = [c for c in text if c.isprintable() and c not in BIDI]
    assert [c for c in block if c.isprintable()] == printable


def test_shorten_marks_the_cut() -> None:
    assert shorten("RelGNN", 10) == "RelGNN"
    assert shorten("A very long paper name", 8) == "A very…"
    assert len(shorten("x" * 50, 20)) == 20


# -- NoteEditor ----------------------------------------------------------------------------------


def note_app(note: str = "first line") -> DialogHarness:
    return DialogHarness(lambda: NoteEditor("RelGNN", note))


@pilot_test
async def test_note_ctrl_s_saves_the_typed_text() -> None:
    app = note_app()
    async with app.run_test() as pilot:
        area = app.screen.query_one("#note", TextArea)
        assert app.screen.focused is area
        # The cursor starts after the existing text.
        await pilot.press("enter", *"[MASK] ablation", "ctrl+s")
    assert app.result == "first line\n[MASK] ablation"


@pilot_test
async def test_note_escape_cancels_even_after_typing() -> None:
    app = note_app()
    async with app.run_test() as pilot:
        await pilot.press(*"scratch", "escape")
    assert app.result is None and app.dismissed == 1


@pilot_test
async def test_unchanged_note_dismisses_none() -> None:
    app = note_app()
    async with app.run_test() as pilot:
        await pilot.press("ctrl+s")
    assert app.result is None


@pilot_test
async def test_note_text_is_cleaned_and_trimmed() -> None:
    app = note_app("old \x1b[31mred\x07")
    async with app.run_test() as pilot:
        assert app.screen.query_one("#note", TextArea).text == "old [31mred"
        await pilot.press("space", "enter", "enter", "ctrl+s")
    assert app.result is None  # only trailing whitespace was added

    app = note_app("")
    async with app.run_test() as pilot:
        await pilot.press(*"new", "ctrl+s")
    assert app.result == "new"


# -- LinkChooser ---------------------------------------------------------------------------------


def links_app(urls: list[str] = URLS) -> DialogHarness:
    return DialogHarness(lambda: LinkChooser(urls, "Copy which link? · RelGNN"))


@pytest.mark.parametrize(("key", "index"), [("1", 0), ("2", 1), ("3", 2)])
@pilot_test
async def test_number_keys_choose_directly(key: str, index: int) -> None:
    app = links_app()
    async with app.run_test() as pilot:
        await pilot.press(key)
    assert app.result == URLS[index]


@pilot_test
async def test_arrows_and_enter_choose_the_highlighted_link() -> None:
    app = links_app()
    async with app.run_test() as pilot:
        links = app.screen.query_one("#links", OptionList)
        assert app.screen.focused is links and links.highlighted == 0
        await pilot.press("down", "down", "enter")
    assert app.result == URLS[2]


@pilot_test
async def test_number_without_a_link_does_nothing_and_escape_cancels() -> None:
    app = links_app()
    async with app.run_test() as pilot:
        await pilot.press("9")
        assert app.result is NO_RESULT
        await pilot.press("escape")
    assert app.result is None


@pilot_test
async def test_links_are_plain_text_and_the_tenth_has_no_number() -> None:
    urls = [f"https://example.org/{n}" for n in range(10)] + ["https://x.org/\x1b]52;c;AAAA\x07"]
    app = links_app(urls)
    async with app.run_test() as pilot:
        links = app.screen.query_one("#links", OptionList)
        prompts = [links.get_option_at_index(i).prompt.plain for i in range(links.option_count)]
        assert prompts[0] == "1 https://example.org/0"
        assert prompts[9] == "  https://example.org/9"
        assert prompts[10] == "  https://x.org/]52;c;AAAA"
        await pilot.press("end", "enter")
    # The chosen URL is returned unchanged: cleaning is for display only.
    assert app.result == urls[10]


@pilot_test
async def test_markup_in_a_url_is_shown_literally() -> None:
    app = links_app()
    async with app.run_test():
        links = app.screen.query_one("#links", OptionList)
        assert links.get_option_at_index(1).prompt.plain == "2 https://relbench.stanford.edu/[/]"


# -- Confirm -------------------------------------------------------------------------------------


def confirm_app() -> DialogHarness:
    return DialogHarness(lambda: Confirm("Replace reading-list.md?", yes="Replace", no="Keep it"))


@pytest.mark.parametrize(
    ("keys", "answer"),
    [
        (("y",), True),
        (("n",), False),
        (("escape",), False),
        (("enter",), False),  # the focus starts on the safe button
        (("right", "enter"), True),
        (("right", "left", "enter"), False),
        (("tab", "enter"), True),
    ],
)
@pilot_test
async def test_confirm_keys(keys: tuple[str, ...], answer: bool) -> None:
    app = confirm_app()
    async with app.run_test() as pilot:
        assert app.screen.focused is app.screen.query_one("#no", Button)
        await pilot.press(*keys)
    assert app.result is answer


@pilot_test
async def test_confirm_labels_are_not_markup() -> None:
    app = DialogHarness(lambda: Confirm("Delete [b]x[/b]?", yes="[red]Yes", no="No"))
    async with app.run_test() as pilot:
        assert str(app.screen.query_one("#question").render()) == "Delete [b]x[/b]?"
        assert app.screen.query_one("#yes", Button).label.plain == "[red]Yes"
        await pilot.press("y")
    assert app.result is True
