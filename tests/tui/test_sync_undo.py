"""`u` in the app takes back a whole `papershelf sync` (papers in, papers removed, entries) as
one step, and `ctrl+r` does it again."""

from __future__ import annotations

from pathlib import Path

from pilot_helpers import settle
from test_app import SIZE, Notes

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.sync.run import sync_library


def desk_papers() -> list[Paper]:
    """Two papers only the other library holds."""
    return [
        Paper(
            id=f"d{number}" * 6,
            name=f"DeskNet{number}",
            title=None,
            abstract=f"We propose DeskNet{number}, a model trained only on the desktop.",
            venue="TEST 2025",
            sources=("desk.txt",),
            imported_at="2025-01-01T00:00:00Z",
        )
        for number in (1, 2)
    ]


async def test_u_takes_back_a_whole_sync_and_ctrl_r_does_it_again(
    make_app, library: Library, tmp_path: Path, seed_files: list[Path], reopen
) -> None:
    other = Library.open(tmp_path / "desktop", seed=False)
    other.import_files(seed_files)
    new = desk_papers()
    other.import_papers(new, "desk.txt")
    first = library.papers()[0]
    other.tag([first.id, new[0].id], add=["from-desk"])
    report = sync_library(library, tmp_path / "desktop")  # `papershelf sync` before the app
    assert (report.papers_in, report.changed) == (2, 1)
    count = len(library.papers())

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        notes = Notes(app)
        assert len(app.paper_list.hits) == count
        await pilot.press("u")
        await settle(app, pilot)
        assert notes.last == "Undone: sync with desktop"
        back = reopen(library.root)
        assert not any(back.has(paper.id) for paper in new)
        assert back.entry(first.id).tags == frozenset()
        assert len(app.paper_list.hits) == count - 2
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert notes.last == "Redone: sync with desktop"
        again = reopen(library.root)
        assert all(again.has(paper.id) for paper in new)
        assert again.entry(new[0].id).tags == {"from-desk"}
        assert len(app.paper_list.hits) == count
