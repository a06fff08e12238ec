"""The paper list draws only the rows on screen, whatever the number of results."""

from __future__ import annotations

from typing import Any

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.list_rows import ListRows


def synthetic(count: int) -> list[Paper]:
    return [
        Paper(
            id=f"{index:012x}",
            name=f"Method{index}",
            title=f"Method{index}: a synthetic paper about topic {index % 7}",
            abstract=f"We propose Method{index} for problem {index}.",
            venue="Synth 2025",
            sources=("synthetic.jsonl",),
        )
        for index in range(count)
    ]


async def test_rendering_cost_does_not_grow_with_the_results(tmp_path, monkeypatch) -> None:
    library = Library.open(tmp_path / "big", seed=False)
    library.import_papers(synthetic(5000), "synthetic.jsonl")
    rendered: list[str] = []
    original = ListRows.pieces

    def counting(self: ListRows, hit: Any, width: int, marked: bool) -> Any:
        rendered.append(hit.paper_id)
        return original(self, hit, width, marked)

    monkeypatch.setattr(ListRows, "pieces", counting)
    app = PapershelfApp(library)
    async with app.run_test(size=(120, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        papers = app.paper_list
        height = papers.scrollable_content_region.height
        assert len(papers.hits) == 5000
        assert papers.virtual_size.height == 5000
        # Only visible rows were built (a few redraws of them at most), never all 5,000.
        assert 0 < len(set(rendered)) <= height
        rendered.clear()
        await pilot.press("G")
        await pilot.pause()
        assert papers.cursor == 4999
        assert set(rendered) <= {hit.paper_id for hit in papers.hits[5000 - height :]}
        assert papers.scroll_y == 5000 - height


async def test_cursor_and_marks_survive_a_new_filter(make_app, ids) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        papers = app.paper_list
        papers.move_to([h.paper_id for h in papers.hits].index(ids.multi))
        await pilot.press("space")
        await pilot.press("slash", *"quokka", "enter")
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        assert [h.paper_id for h in papers.hits] == [ids.multi]
        assert papers.marked == {ids.multi}
        assert papers.current_id == ids.multi
        row = papers.rows.content(papers.hits[0], 100, True).plain
        assert row.startswith("☑")
        assert "{}" in row  # has code
        assert len(row) == 100  # fitted to the width


async def test_an_empty_result_is_handled(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("slash", *"'nosuchwordanywhere", "enter")
        for _ in range(2):
            await app.workers.wait_for_complete()
            await pilot.pause()
        papers = app.paper_list
        assert papers.hits == [] and papers.current_id is None
        await pilot.press("j", "G", "space", "t", "s", "asterisk", "y", "o", "n")
        await pilot.pause()
        assert app.is_running
        assert "No paper matches" in app.query_one("#reader").text
        assert "0 of 37 papers" in app.query_one("#status").text
