"""The reader as drawn: it follows every change of the query, and shows titles as Unicode."""

from __future__ import annotations

from pathlib import Path

import pytest
from keys import burst
from pilot_helpers import settle

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.reader import Reader

LANTERN = Paper(
    id="abcdef000001",
    name="QuokkaNet",
    title="QuokkaNet: Lantern Fish Counting",
    abstract="We count lantern fish with a quokka camera and a _lifting_ step.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)
OTHER = Paper(
    id="abcdef000002",
    name="Wombat",
    title="Wombat Burrows",
    abstract="A study of wombat burrows and their lanterns.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)
KIE = Paper(
    id="abcdef000003",
    name="K²IE",
    title="K$^2$IE: Kernel Intensity Estimators via $\\rm E(3)$-Equivariant Maps",
    abstract="We propose K$^2$IE, a kernel method for $\\alpha$-NeuS point processes.",
    venue="Test 2025",
    sources=("hand.jsonl",),
)


@pytest.fixture
def small_app(tmp_path: Path) -> PapershelfApp:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([LANTERN, OTHER, KIE], "hand.jsonl")
    return PapershelfApp(Library.open(tmp_path / "lib", seed=False))


def drawn_highlights(reader: Reader) -> set[str]:
    """The words the reader draws in its match style (what is on screen, not its Content)."""
    # The match style is a translucent background: drawn, it is any background but the pane's.
    plain = reader.visual_style.rich_style.bgcolor
    words: set[str] = set()
    for y in range(reader.scrollable_content_region.height):
        run = ""
        for segment in reader.render_line(y):
            if segment.style is not None and segment.style.bgcolor != plain:
                run += segment.text
            else:
                if run.strip():
                    words.add(run.strip().lower())
                run = ""
        if run.strip():
            words.add(run.strip().lower())
    return words


async def test_the_drawn_highlights_follow_a_query_that_keeps_the_paper(small_app) -> None:
    app = small_app
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot.app, pilot)
        await burst(pilot, "slash", *"quokka")
        await settle(pilot.app, pilot)
        reader = app.query_one(Reader)
        assert app.paper_list.current_id == LANTERN.id
        assert drawn_highlights(reader) == {"quokkanet", "quokka"}
        # More words in one burst: the same paper stays first, its drawn matches must change.
        await burst(pilot, *" fish")
        await settle(pilot.app, pilot)
        assert app.paper_list.current_id == LANTERN.id
        assert drawn_highlights(reader) == {"quokkanet", "quokka", "fish"}
        await burst(pilot, "backspace", "backspace", "backspace", "backspace", "backspace")
        await settle(pilot.app, pilot)
        assert app.paper_list.current_id == LANTERN.id
        assert drawn_highlights(reader) == {"quokkanet", "quokka"}


async def test_an_underscored_word_is_found_and_drawn_highlighted(small_app) -> None:
    app = small_app
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot.app, pilot)
        for query in ("lifting", "'lifting"):
            await burst(pilot, "slash", *query)
            await settle(pilot.app, pilot)
            assert app.paper_list.current_id == LANTERN.id, query
            assert drawn_highlights(app.query_one(Reader)) == {"lifting"}, query
            await burst(pilot, "escape")
            await settle(pilot.app, pilot)


async def test_a_latex_title_is_shown_converted_and_found_by_its_shown_words(small_app) -> None:
    app = small_app
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot.app, pilot)
        await burst(pilot, "slash", *"k2ie")
        await settle(pilot.app, pilot)
        reader = app.query_one(Reader)
        assert app.paper_list.current_id == KIE.id
        lines = reader.text.splitlines()
        # The title begins with the name: it heads alone (papershelf.storage.text.headings), once.
        assert lines[:2] == ["K²IE: Kernel Intensity Estimators via E(3)-Equivariant Maps", ""]
        assert drawn_highlights(reader) == {"k²ie"}
        row = app.paper_list.rows.content(app.paper_list.current_hit, 120, False).plain
        # The row says the name once, then the title's other words.
        assert "K²IE  Kernel Intensity Estimators via E(3)-Equivariant Maps" in row
        assert "$" not in row
