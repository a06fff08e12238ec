"""ExportDialog: scope choice, the path that follows it, path checks and the overwrite confirm."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from test_dialogs_harness import NO_RESULT, DialogHarness, pilot_test
from textual.widgets import Input, OptionList, Static

from papershelf.tui.screens.confirm import Confirm
from papershelf.tui.screens.export_dialog import ExportDialog, ExportRequest

TODAY = date(2025, 7, 14)
TAGS = ["to-read", "diffusion", "graph"]


def harness(
    folder: Path, *, marked: int = 0, current_tag: str | None = None, tags: list[str] = TAGS
) -> DialogHarness:
    return DialogHarness(lambda: ExportDialog(folder, tags, 120, marked, current_tag, TODAY))


def path_value(app: DialogHarness) -> str:
    return app.screen.query_one("#path", Input).value


def scope_rows(app: DialogHarness) -> list[str]:
    scope = app.screen.query_one("#scope", OptionList)
    return [scope.get_option_at_index(i).prompt.plain for i in range(scope.option_count)]


def error_text(app: DialogHarness) -> str:
    error = app.screen.query_one("#error", Static)
    return str(error.render()) if error.display else ""


@pilot_test
async def test_default_is_current_results_and_enter_exports(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        assert scope_rows(app) == [
            "● Current results (120 papers)",
            "○ Marked papers (0)",
            "○ Tag #to-read",
            "○ Tag #diffusion",
            "○ Tag #graph",
        ]
        assert path_value(app) == str(tmp_path / "reading-list-results-2025-07-14.md")
        await pilot.press("enter")
    assert app.result == ExportRequest(
        "results", None, tmp_path / "reading-list-results-2025-07-14.md"
    )


@pilot_test
async def test_marked_is_preselected_when_there_are_marks(tmp_path: Path) -> None:
    app = harness(tmp_path, marked=3, current_tag="graph")
    async with app.run_test() as pilot:
        assert path_value(app) == str(tmp_path / "reading-list-marked-2025-07-14.md")
        await pilot.press("ctrl+s")
    assert app.result == ExportRequest(
        "marked", None, tmp_path / "reading-list-marked-2025-07-14.md"
    )


@pilot_test
async def test_current_tag_is_preselected(tmp_path: Path) -> None:
    app = harness(tmp_path, current_tag="graph")
    async with app.run_test() as pilot:
        assert "● Tag #graph" in scope_rows(app)
        await pilot.press("enter")
    assert app.result == ExportRequest(
        "tag", "graph", tmp_path / "reading-list-graph-2025-07-14.md"
    )


@pilot_test
async def test_moving_the_scope_moves_the_path_and_skips_disabled_marked(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("down")  # "marked" is disabled with no marks: straight to the first tag
        assert path_value(app) == str(tmp_path / "reading-list-to-read-2025-07-14.md")
        await pilot.press("down")
        assert scope_rows(app)[3] == "● Tag #diffusion"
        assert scope_rows(app)[2] == "○ Tag #to-read"
        await pilot.press("tab", "enter")  # enter in the path field exports too
    assert app.result == ExportRequest(
        "tag", "diffusion", tmp_path / "reading-list-diffusion-2025-07-14.md"
    )


@pilot_test
async def test_an_edited_path_no_longer_follows_the_scope(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("tab", "ctrl+u", *"mine.md", "shift+tab", "down")
        assert path_value(app) == "mine.md"
        await pilot.press("enter")
    # A relative path is taken under the default folder.
    assert app.result == ExportRequest("tag", "to-read", tmp_path / "mine.md")


@pilot_test
async def test_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = harness(tmp_path / "elsewhere")
    async with app.run_test() as pilot:
        await pilot.press("tab", "ctrl+u", *"~/x.md", "enter")
    assert app.result == ExportRequest("results", None, tmp_path / "x.md")


@pilot_test
async def test_missing_folder_is_an_inline_error(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("tab", "ctrl+u", *"nowhere/x.md", "enter")
        assert error_text(app) == f"✗ Folder does not exist: {tmp_path / 'nowhere'}"
        assert app.result is NO_RESULT
        await pilot.press("backspace")  # editing clears the error
        assert error_text(app) == ""
        await pilot.press("escape")
    assert app.result is None


@pilot_test
async def test_folder_or_empty_path_is_an_inline_error(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("tab", "ctrl+u", ".", "enter")
        assert error_text(app) == f"✗ {tmp_path} is a folder: add a file name"
        await pilot.press("ctrl+u", "enter")
        assert error_text(app) == "✗ Type the name of the file to write"
        (tmp_path / "file").write_text("x")
        await pilot.press(*"file/x.md", "enter")
        assert error_text(app) == f"✗ Not a folder: {tmp_path / 'file'}"
    assert app.result is NO_RESULT


@pilot_test
async def test_existing_file_asks_and_no_keeps_the_dialog_open(tmp_path: Path) -> None:
    existing = tmp_path / "reading-list-results-2025-07-14.md"
    existing.write_text("mine")
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("enter")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.focused is app.screen.query_one("#path")
        await pilot.press("enter")
        assert isinstance(app.screen, Confirm)
        await pilot.press("enter")  # the default answer is "keep it"
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("enter", "escape")  # esc on the confirm is "no" as well
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("escape")
    assert app.result is None
    assert existing.read_text() == "mine"


@pilot_test
async def test_existing_file_replaced_after_yes(tmp_path: Path) -> None:
    existing = tmp_path / "reading-list-results-2025-07-14.md"
    existing.write_text("mine")
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("enter")
        question = app.screen.query_one("#question", Static).render()
        assert str(question).startswith("reading-list-results-2025-07-14.md already exists")
        await pilot.press("y")
    assert app.result == ExportRequest("results", None, existing)


@pilot_test
async def test_tag_names_are_shown_literally_and_file_names_made_safe(tmp_path: Path) -> None:
    app = harness(tmp_path, tags=["[b]x[/b]", "ml/theory"])
    async with app.run_test() as pilot:
        assert scope_rows(app)[2:] == ["○ Tag #[b]x[/b]", "○ Tag #ml/theory"]
        await pilot.press("down", "down")
        assert Path(path_value(app)).parent == tmp_path
        await pilot.press("enter")
    assert isinstance(app.result, ExportRequest) and app.result.tag == "ml/theory"
    assert "/" not in app.result.path.name


def format_rows(app: DialogHarness) -> list[str]:
    formats = app.screen.query_one("#format", OptionList)
    return [formats.get_option_at_index(i).prompt.plain for i in range(formats.option_count)]


@pytest.mark.parametrize(
    ("downs", "fmt", "suffix"),
    [(0, "markdown", ".md"), (1, "bibtex", ".bib"), (2, "csv", ".csv"), (3, "json", ".json")],
)
@pilot_test
async def test_each_format_can_be_chosen_and_the_path_follows(
    tmp_path: Path, downs: int, fmt: str, suffix: str
) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        assert format_rows(app)[0] == "● Markdown reading list (.md)"
        # In one burst: to the format list past the path, down to the format, enter.
        await pilot.press("tab", "tab", *["down"] * downs, "enter")
    name = f"reading-list-results-2025-07-14{suffix}"
    assert app.result == ExportRequest("results", None, tmp_path / name, fmt)  # type: ignore[arg-type]


@pilot_test
async def test_the_format_marks_follow_and_a_typed_name_keeps_its_stem(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("tab", "tab", "down", "down")
        assert format_rows(app) == [
            "○ Markdown reading list (.md)",
            "○ BibTeX citations (.bib)",
            "● CSV table (.csv)",
            "○ JSON (.json)",
        ]
        assert path_value(app) == str(tmp_path / "reading-list-results-2025-07-14.csv")
        await pilot.press("shift+tab", "ctrl+u", *"mine.md", "tab", "up")
        assert path_value(app) == "mine.bib"
        await pilot.press("shift+tab", "ctrl+u", *"notes.txt", "tab", "up")
        assert path_value(app) == "notes.txt"  # not an export suffix: left as typed
        # Moving the scope now leaves the typed path alone, and keeps the format.
        await pilot.press("shift+tab", "shift+tab", "down", "enter")
    assert app.result == ExportRequest("tag", "to-read", tmp_path / "notes.txt", "markdown")


@pilot_test
async def test_ctrl_u_clears_a_path_that_grew_while_elsewhere(tmp_path: Path) -> None:
    app = harness(tmp_path, tags=["a", "a-much-longer-tag"])
    async with app.run_test() as pilot:
        await pilot.press("down", "down", "tab", "ctrl+u", *"x.md", "enter")
    assert app.result == ExportRequest("tag", "a-much-longer-tag", tmp_path / "x.md")


@pilot_test
async def test_the_scope_after_a_format_keeps_the_formats_suffix(tmp_path: Path) -> None:
    app = harness(tmp_path)
    async with app.run_test() as pilot:
        await pilot.press("tab", "tab", "down", "shift+tab", "shift+tab", "down", "down")
        assert path_value(app) == str(tmp_path / "reading-list-diffusion-2025-07-14.bib")
        await pilot.press("enter")
    assert app.result == ExportRequest(
        "tag", "diffusion", tmp_path / "reading-list-diffusion-2025-07-14.bib", "bibtex"
    )
