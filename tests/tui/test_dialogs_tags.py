"""TagEditor: its pure editing logic, its completion, and every key and flow in a harness app."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_dialogs_harness import NO_RESULT, DialogHarness, pilot_test
from textual.widgets import Input, OptionList, Static

from papershelf.tui.screens.tag_editor import TagChange, TagEditor
from papershelf.tui.screens.tag_editor_logic import TagEdits, TagSuggester, parse_tag_input

KNOWN = {"to-read": 40, "llm": 30, "transformers": 15, "diffusion": 12, "graph": 9, "rl": 7}


def one_paper(current: frozenset[str] = frozenset({"graph", "to-read"})) -> DialogHarness:
    return DialogHarness(lambda: TagEditor(["RelGNN"], current, KNOWN))


def five_papers() -> DialogHarness:
    names = ["RelGNN", "SafeDiffCon", "K²IE", "STRING", "k-DTW"]
    counts = {"graph": 2, "to-read": 5}
    return DialogHarness(lambda: TagEditor(names, frozenset(counts), KNOWN, counts=counts))


def rows(app: DialogHarness, list_id: str) -> list[str]:
    options = app.screen.query_one(list_id, OptionList)
    return [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]


def error_text(app: DialogHarness) -> str:
    error = app.screen.query_one("#error", Static)
    return str(error.render()) if error.display else ""


# -- pure logic ----------------------------------------------------------------------------------


def test_parse_tag_input_reads_adds_removes_and_commas() -> None:
    assert parse_tag_input("#Deep Learning, -Graph,  +RL ,") == [
        ("add", "deep-learning"),
        ("remove", "graph"),
        ("add", "rl"),
    ]
    assert parse_tag_input("   ") == []


@pytest.mark.parametrize("text", ["#", "-", "- ", "x" * 65, "a, #"])
def test_parse_tag_input_rejects_unusable_tags(text: str) -> None:
    with pytest.raises(ValueError):
        parse_tag_input(text)


def test_edits_for_several_papers_add_only_where_missing() -> None:
    edits = TagEdits(5, {"graph", "to-read"}, {"graph": 2, "to-read": 5})
    edits.add("to-read")  # already on all five: nothing to do
    edits.add("graph")  # on two of five: goes on all
    edits.add("new")
    assert edits.change() == TagChange(add=frozenset({"graph", "new"}), remove=frozenset())
    assert edits.remove("new") and edits.remove("graph")
    assert not edits.remove("absent")
    assert edits.change() == TagChange(add=frozenset(), remove=frozenset({"graph"}))


def test_toggle_undoes_removal_and_addition() -> None:
    edits = TagEdits(1, {"graph"}, {})
    edits.toggle("graph")
    assert edits.removed == {"graph"}
    edits.toggle("graph")
    edits.add("new")
    edits.toggle("new")
    assert edits.change() is None


TAGS = st.sampled_from(["a", "b", "c", "d", "e"])


@given(
    papers=st.lists(st.frozensets(TAGS, max_size=4), min_size=1, max_size=4),
    ops=st.lists(st.tuples(st.sampled_from(["add", "remove"]), TAGS), max_size=12),
)
def test_applying_the_change_gives_what_the_last_edit_of_each_tag_asked(
    papers: list[frozenset[str]], ops: list[tuple[str, str]]
) -> None:
    counts: dict[str, int] = {}
    for tags in papers:
        for tag in tags:
            counts[tag] = counts.get(tag, 0) + 1
    edits = TagEdits(len(papers), counts, counts)
    wanted: dict[str, bool] = {}
    for op, tag in ops:
        if op == "add":
            edits.add(tag)
            wanted[tag] = True
        elif edits.remove(tag):
            wanted[tag] = False
    change = edits.change() or TagChange(frozenset(), frozenset())
    assert not change.add & change.remove
    assert change.remove <= set(counts)
    after = [(tags | change.add) - change.remove for tags in papers]
    for tag in {"a", "b", "c", "d", "e"}:
        if tag in wanted:
            assert all((tag in tags) == wanted[tag] for tags in after), tag
        else:
            assert [tag in tags for tags in after] == [tag in tags for tags in papers]


def test_suggester_completes_known_tags_and_removals() -> None:
    suggester = TagSuggester(["to-read", "llm", "transformers", "topology"], lambda: ["graph"])

    def suggest(value: str) -> str | None:
        return asyncio.run(suggester.get_suggestion(value))

    assert suggest("to") == "to-read"  # most used first
    assert suggest("top") == "topology"
    assert suggest("#tr") == "#transformers"
    assert suggest("-gr") == "-graph"
    assert suggest("llm, tra") == "llm, transformers"
    assert suggest("llm") is None  # already whole
    assert suggest("zzz") is None
    assert suggest("-") is None


# -- the dialog, one paper -----------------------------------------------------------------------


@pilot_test
async def test_typed_tag_is_normalised_added_and_enter_on_empty_applies() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"#Bad Idea", "enter")
        assert app.screen.query_one("#tag-input", Input).value == ""
        assert "+ bad-idea  added" in rows(app, "#current")
        assert app.result is NO_RESULT
        await pilot.press("enter")
    assert app.result == TagChange(add=frozenset({"bad-idea"}), remove=frozenset())


@pilot_test
async def test_typed_minus_tag_removes_and_ctrl_s_applies() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"-graph", "enter")
        assert "\u2212 graph  removed" in rows(app, "#current")
        await pilot.press("ctrl+s")
    assert app.result == TagChange(add=frozenset(), remove=frozenset({"graph"}))


@pilot_test
async def test_ctrl_s_takes_what_is_still_typed() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"llm, -to-read", "ctrl+s")
    assert app.result == TagChange(add=frozenset({"llm"}), remove=frozenset({"to-read"}))


@pilot_test
async def test_right_arrow_accepts_the_completion_from_known_tags() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"dif")
        await app.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("right")
        assert app.screen.query_one("#tag-input", Input).value == "diffusion"
        await pilot.press("enter", "enter")
    assert app.result == TagChange(add=frozenset({"diffusion"}), remove=frozenset())


@pilot_test
async def test_known_list_filters_and_arrow_keys_pick_from_it() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        # Current tags (graph, to-read) are not offered again; most used first.
        assert rows(app, "#known") == [
            "llm  30 papers",
            "transformers  15 papers",
            "diffusion  12 papers",
            "rl  7 papers",
        ]
        await pilot.press("r")
        # Prefix matches first, then the other matches.
        assert rows(app, "#known") == ["rl  7 papers", "transformers  15 papers"]
        await pilot.press("down", "down")
        assert app.screen.query_one("#known", OptionList).highlighted == 1
        await pilot.press("enter")
        assert "+ transformers  added" in rows(app, "#current")
        await pilot.press("up", "enter")  # wraps to the last known tag: rl
        await pilot.press("enter")
    assert app.result == TagChange(add=frozenset({"transformers", "rl"}), remove=frozenset())


@pilot_test
async def test_picking_after_a_comma_keeps_the_earlier_parts() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"new, -graph, tr", "down", "enter")
        assert rows(app, "#current") == [
            "\u2212 graph  removed",
            "+ new  added",
            "  to-read",
            "+ transformers  added",
        ]
        await pilot.press("ctrl+s")
    expected = TagChange(add=frozenset({"new", "transformers"}), remove=frozenset({"graph"}))
    assert app.result == expected


@pilot_test
async def test_clicking_a_known_tag_adds_it() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        assert await pilot.click("#known", offset=(3, 2))  # the second row: transformers
        assert "+ transformers  added" in rows(app, "#current")
        assert app.screen.focused is app.screen.query_one("#tag-input")


@pilot_test
async def test_minus_lists_removable_tags() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press("-")
        assert rows(app, "#known") == ["remove graph", "remove to-read"]
        await pilot.press("t", "down", "enter", "ctrl+s")
    assert app.result == TagChange(add=frozenset(), remove=frozenset({"to-read"}))


@pilot_test
async def test_invalid_tag_shows_an_inline_error_and_keeps_the_dialog() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press("#", "enter")
        assert "Not a usable tag" in error_text(app)
        await pilot.press("ctrl+s")  # still invalid: not applied
        assert app.result is NO_RESULT
        await pilot.press("backspace")
        assert error_text(app) == ""  # typing clears the error
        await pilot.press(*"-nope", "enter")
        assert "No tag 'nope' on this paper to remove" in error_text(app)
        await pilot.press("escape")
    assert app.result is None


@pilot_test
async def test_delete_on_a_current_tag_removes_it_and_again_restores_it() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press("tab")
        current = app.screen.query_one("#current", OptionList)
        assert app.screen.focused is current and current.highlighted == 0
        await pilot.press("delete")
        assert rows(app, "#current") == ["\u2212 graph  removed", "  to-read"]
        await pilot.press("backspace")
        assert rows(app, "#current") == ["  graph", "  to-read"]
        await pilot.press("down", "backspace")
        assert rows(app, "#current") == ["  graph", "\u2212 to-read  removed"]
        await pilot.press("enter")  # enter in the list applies
    assert app.result == TagChange(add=frozenset(), remove=frozenset({"to-read"}))


@pilot_test
async def test_delete_on_an_added_tag_drops_it() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"new", "enter", "tab")
        current = app.screen.query_one("#current", OptionList)
        # The highlight follows the tag just added.
        assert rows(app, "#current")[current.highlighted or 0] == "+ new  added"
        await pilot.press("delete")
        assert rows(app, "#current") == ["  graph", "  to-read"]
        await pilot.press("ctrl+s")
    assert app.result is None


@pilot_test
async def test_nothing_changed_dismisses_none_and_escape_cancels() -> None:
    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press("enter")
    assert app.result is None and app.dismissed == 1

    app = one_paper()
    async with app.run_test() as pilot:
        await pilot.press(*"new", "enter", "escape")
    assert app.result is None


@pilot_test
async def test_a_paper_without_tags_says_so() -> None:
    app = one_paper(frozenset())
    async with app.run_test() as pilot:
        assert rows(app, "#current") == ["(no tags yet: type one below)"]
        await pilot.press(*"rl", "enter", "ctrl+s")
    assert app.result == TagChange(add=frozenset({"rl"}), remove=frozenset())


# -- several papers ------------------------------------------------------------------------------


@pilot_test
async def test_several_papers_show_the_union_with_counts() -> None:
    app = five_papers()
    async with app.run_test():
        assert rows(app, "#current") == ["  graph  (2/5)", "  to-read  (5/5)"]
        names = app.screen.query_one("#names", Static).render()
        assert str(names) == "RelGNN, SafeDiffCon, K²IE and 2 more"


@pilot_test
async def test_several_papers_adding_a_partial_tag_puts_it_on_all() -> None:
    app = five_papers()
    async with app.run_test() as pilot:
        await pilot.press(*"graph", "enter")
        assert "+ graph  2/5 → all" in rows(app, "#current")
        await pilot.press(*"to-read", "enter")  # already on all five: no change
        await pilot.press("ctrl+s")
    assert app.result == TagChange(add=frozenset({"graph"}), remove=frozenset())


# -- safety --------------------------------------------------------------------------------------


@pilot_test
async def test_markup_and_control_characters_are_shown_literally() -> None:
    names = ["[b]Bold[/b] \x1b[31mRed\u202e"]
    app = DialogHarness(lambda: TagEditor(names, frozenset({"[mask]"}), {"[/]": 2}))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert rows(app, "#current") == ["  [mask]"]
        assert rows(app, "#known") == ["[/]  2 papers"]
        title = app.screen.query_one("#dialog").border_title
        assert title is not None and "[b]Bold[/b]" in title.replace("\\[", "[")
        assert "\x1b" not in title and "\u202e" not in title
