"""Snapshots of the main screen, the reader and the help screen: the main and help screens at
every size the layout adapts to (40x12, 60x20, 80x24, 120x40, 200x60), the others at 80x24 and
160x48.

Update with `pytest tests/tui/test_snapshots_main.py --snapshot-update`, then look at the
report before committing the SVGs.
"""

from __future__ import annotations

from typing import Any

import pytest
from pilot_helpers import settle

from papershelf.storage.library.library import Library

SIZES = [(80, 24), (160, 48)]
LAYOUT_SIZES = [(40, 12), (60, 20), (80, 24), (120, 40), (200, 60)]
"""Narrow and short (list or reader), narrow (list over reader), wide, wide and tall."""


def decorate(library: Library, ids: Any) -> None:
    """Some state worth seeing: tags, a star, statuses, a note."""
    first, second = library.papers()[0].id, library.papers()[1].id
    library.tag([first, ids.multi], add=["to-read", "graphs"])
    library.tag([second], add=["physics"])
    library.set_starred([first], True)
    library.set_status([second], "reading")
    library.set_status([library.papers()[2].id], "read")
    library.set_note(ids.multi, "Compare with RelGNN's message passing.")


def math_paper(library: Library) -> str:
    """The seed paper whose abstract has the most LaTeX (Õ(ε⁻⁵))."""
    return next(p.id for p in library.papers() if r"\widetilde" in p.abstract)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_main_screen(snap_compare, make_app, library: Library, ids: Any, size) -> None:
    decorate(library, ids)

    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("j", "space", "j")  # one marked row, the cursor on the third

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_filtered_with_matches_highlighted(snap_compare, make_app, library, ids, size) -> None:
    decorate(library, ids)

    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("slash", *"difusion", "enter")  # a typo: fuzzy match
        await settle(pilot.app, pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_reader_focused_on_math(snap_compare, make_app, library: Library, ids, size) -> None:
    decorate(library, ids)
    target = math_paper(library)

    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        papers = pilot.app.paper_list
        papers.move_to([hit.paper_id for hit in papers.hits].index(target))
        await pilot.press("enter", "j", "j")
        await settle(pilot.app, pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", LAYOUT_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_help_screen(snap_compare, make_app, size, monkeypatch) -> None:
    # The help screen names the config file: the same path in every run (it need not exist).
    monkeypatch.setenv("PAPERSHELF_CONFIG", "/home/reader/.config/papershelf/config.toml")

    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("question_mark")
        await settle(pilot.app, pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", [(40, 12), (60, 20)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_reader_in_a_short_narrow_terminal(snap_compare, make_app, library, ids, size) -> None:
    decorate(library, ids)

    async def run_before(pilot: Any) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("j", "enter")  # the reader takes the list's place
        await settle(pilot.app, pilot)

    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)
