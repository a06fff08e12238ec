"""What the list redraws when results change: only rows that differ, never a layout.

And its own position bar (in place of Textual's scrollbar, which redrew on every change of the
number of results): where the thumb is, and that clicking or dragging the bar moves through
the list.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import messages
from textual.screen import Screen

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.footer import QuietFooter
from papershelf.tui.widgets.paper_list import PaperList
from papershelf.tui.widgets.position_bar import THUMB

SIZE = (120, 30)


@pytest.fixture
def big_library(tmp_path: Path) -> Library:
    """600 papers: many screens of rows."""
    library = Library.open(tmp_path / "big", seed=False)
    papers = [
        Paper(
            id=f"{index:012x}",
            name=f"Method{index}",
            title=f"Method{index}: a synthetic paper about topic {index % 7}",
            # Abstracts of different lengths: the reader's height changes between papers.
            abstract=f"We propose Method{index} for problem {index}. " * (1 + index % 40),
            venue="Synth 2025",
            sources=("synthetic.jsonl",),
        )
        for index in range(600)
    ]
    library.import_papers(papers, "synthetic.jsonl")
    return library


def drawn_rows(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the screen rows the list draws from now on."""
    rows: list[int] = []
    real = PaperList.render_line

    def recording(self: PaperList, y: int):  # type: ignore[no-untyped-def]
        rows.append(y)
        return real(self, y)

    monkeypatch.setattr(PaperList, "render_line", recording)
    return rows


def bar_column(papers: PaperList) -> str:
    """The last cell of every row on screen, top to bottom."""
    height = papers.scrollable_content_region.height
    return "".join(papers.render_line(y).text[-1] for y in range(height))


async def started(app: PapershelfApp, pilot) -> PaperList:  # type: ignore[no-untyped-def]
    await app.workers.wait_for_complete()
    await pilot.pause()
    return app.paper_list


async def test_the_same_results_again_redraw_no_row(make_app, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        papers = await started(app, pilot)
        rows = drawn_rows(monkeypatch)
        papers.show(papers.hits, keep=papers.current_id)
        await pilot.pause()
        assert rows == []
        assert papers.painted_count == papers.shown_count  # the list on screen is up to date


async def test_only_the_rows_that_differ_are_redrawn(make_app, library, monkeypatch) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        papers = await started(app, pilot)
        hits = list(papers.hits)
        rows = drawn_rows(monkeypatch)
        hits[3], hits[4] = hits[4], hits[3]  # two rows show something else, no other does
        papers.show(hits, keep=papers.current_id)
        await pilot.pause()
        assert sorted(set(rows)) == [3, 4]
        for y in (3, 4):
            assert library.get(hits[y].paper_id).name in papers.render_line(y).text


async def test_new_results_never_ask_for_a_layout(big_library, monkeypatch) -> None:
    # A layout arranges and redraws the whole screen: neither the list nor the reader (showing
    # papers of other lengths each time) may ask for one.
    asked: list[object] = []
    real = Screen._on_layout

    async def recording(self: Screen, message: messages.Layout) -> None:
        asked.append(message.widget)
        await real(self, message)

    app = PapershelfApp(big_library)
    async with app.run_test(size=SIZE) as pilot:
        papers = await started(app, pilot)
        everything = papers.hits
        monkeypatch.setattr(Screen, "_on_layout", recording)
        # Many rows (a thumb), three (no thumb), none, and all of them again.
        for hits in (everything[:300], everything[:3], everything[:0], everything):
            papers.show(hits)
            await pilot.pause()
            assert papers.virtual_size.height == len(hits)
        # The footer rebuilds its keys when the bindings change (on a loaded machine the focus
        # of the start can settle only now): that is not the results' doing.
        footer = app.query_one(QuietFooter)

        def not_the_footers() -> list[object]:
            return [w for w in asked if w is not footer and footer not in w.ancestors]

        assert not_the_footers() == []
        app.query_one("#status").refresh(layout=True)  # the recording does see a request
        await pilot.pause()
        assert not_the_footers() == [app.query_one("#status")]


async def test_the_bar_shows_where_the_screen_is_in_the_list(big_library) -> None:
    app = PapershelfApp(big_library)
    async with app.run_test(size=SIZE) as pilot:
        papers = await started(app, pilot)
        column = bar_column(papers)
        assert column[0] == THUMB and set(column[1:]) == {" "}  # 600 rows: a one-cell thumb
        await pilot.press("G")
        await pilot.pause()
        column = bar_column(papers)
        assert column[-1] == THUMB and set(column[:-1]) == {" "}
        papers.show(papers.hits[:5])
        await pilot.pause()
        assert set(bar_column(papers)) == {" "}  # everything fits: no thumb


async def test_clicking_and_dragging_the_bar_moves_through_the_list(big_library) -> None:
    app = PapershelfApp(big_library)
    async with app.run_test(size=SIZE) as pilot:
        papers = await started(app, pilot)
        region = papers.scrollable_content_region
        bar_x, bottom = region.width - 1, region.height - 1
        await pilot.click(PaperList, offset=(bar_x, bottom))
        assert papers.cursor == 599
        await pilot.click(PaperList, offset=(bar_x, 0))
        assert papers.cursor == 0
        await pilot.click(PaperList, offset=(2, 3))  # a row, not the bar: that row
        assert papers.cursor == 3
        await pilot.mouse_down(PaperList, offset=(bar_x, 0))
        await pilot.hover(PaperList, offset=(bar_x, bottom // 2))
        await pilot.mouse_up(PaperList, offset=(bar_x, bottom // 2))
        assert papers.cursor == round(599 * (bottom // 2) / bottom)
        assert app.mouse_captured is None
        assert bar_column(papers).index(THUMB) in range(bottom // 2 - 1, bottom // 2 + 2)


async def test_a_frame_of_rows_reads_the_lists_state_once(
    big_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The `View` every row is drawn with is made once per frame, not once a row (it reads
    the widget's geometry and state: at 40 rows that cost more than the cached rows)."""
    app = PapershelfApp(big_library)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        papers = app.paper_list
        rows = drawn_rows(monkeypatch)
        views: list[int] = []
        real = PaperList._view

        def counting(self: PaperList):  # type: ignore[no-untyped-def]
            views.append(1)
            return real(self)

        monkeypatch.setattr(PaperList, "_view", counting)
        papers.refresh()
        await pilot.pause()
        assert len(rows) >= papers.scrollable_content_region.height > 1
        assert len(views) == 1
        # Drawn so, the rows are those drawn one at a time (the Line API's own calls).
        monkeypatch.undo()
        region = papers.scrollable_content_region
        assert [papers.render_line(y) for y in range(region.height)] == [
            papers.rows.draw(papers._view(), y) for y in range(region.height)
        ]
