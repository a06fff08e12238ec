"""The reader's `from` line shows a bundled seed list by its header (`ICML 2025 Papers`); the
mouse over that line shows the source files' names in a tooltip (issue 15, part 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import settle
from test_app import SIZE, go_to
from textual.content import Content

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.reader import Reader

SEEDS = ("000_d1b2f2b4fb6e9314.txt", "001_aa86a2e0cf5ed7d9.txt")
# A source name as hostile as a file name can be: markup and a control character.
ODD_SOURCE = "[b]odd[/b]\x07.jsonl"
ODD = Paper(
    id="abcdef000201",
    name="OddSource",
    title="A paper from an oddly named file",
    abstract="Nothing in this abstract matters to the test of where the paper came from.",
    venue="Somewhere 2025",
    sources=(ODD_SOURCE,),
)


def line_of(reader: Reader, label: str) -> int:
    """The row of the reader (from its top) where the line starting with `label` is drawn."""
    rows = reader.text.splitlines()  # the fixture's papers fit the pane unwrapped at 120x40
    return next(row for row, text in enumerate(rows) if text.startswith(label))


def tooltip_text(app: PapershelfApp) -> str | None:
    """The reader's tooltip as plain text (Textual shows it after `TOOLTIP_DELAY`), or None.
    It is Content, never a string Textual would parse as markup."""
    tooltip = app.query_one(Reader).tooltip
    if tooltip is None:
        return None
    assert isinstance(tooltip, Content)
    return tooltip.plain


async def hover(pilot: Any, x: int, y: int) -> None:
    await pilot.hover(Reader, offset=(x, y))
    await pilot.pause()


async def test_the_from_line_names_the_seed_files_on_hover(library: Library) -> None:
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE, tooltips=True) as pilot:
        await settle(app, pilot)
        reader = app.query_one(Reader)
        both = next(p.id for p in library.papers() if set(p.sources) == set(SEEDS))
        await go_to(app, pilot, both)
        row = line_of(reader, "from")
        assert "ICML 2025 Papers" in reader.text.splitlines()[row]
        assert SEEDS[1] not in reader.text  # the line itself shows the header
        # On the label and on the value, twice: the files, each with its header.
        for x in (1, 12, 1):
            await hover(pilot, x, row)
            assert tooltip_text(app) == (
                f"source files:\n{SEEDS[0]} (ICML 2025 论文列表)\n{SEEDS[1]} (ICML 2025 Papers)"
            )
        # Off the line (the status line below it): no tooltip.
        await hover(pilot, 1, row + 1)
        assert tooltip_text(app) is None
        await hover(pilot, 1, row)
        assert tooltip_text(app) is not None
        await pilot.hover("#status")  # away from the reader
        await pilot.pause()
        assert reader.tooltip is None


async def test_a_source_name_is_shown_as_written_never_as_markup(
    library: Library, library_root: Path
) -> None:
    library.import_papers([ODD], ODD_SOURCE)
    app = PapershelfApp(library)
    async with app.run_test(size=SIZE, tooltips=True) as pilot:
        await settle(app, pilot)
        reader = app.query_one(Reader)
        odd = next(p for p in library.papers() if p.name == "OddSource")
        await go_to(app, pilot, odd.id)
        (source,) = odd.sources
        row = line_of(reader, "from")
        await hover(pilot, 1, row)
        shown = tooltip_text(app)
        assert shown is not None
        assert shown.startswith("source file:\n")
        assert "[b]odd[/b]" in shown  # not parsed as markup
        assert "\x07" not in shown
        assert len(shown.splitlines()) == 2
        assert source in library.get(odd.id).sources
