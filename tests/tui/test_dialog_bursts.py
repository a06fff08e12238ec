"""Keys typed faster than the app handles them, through every dialog."""

from __future__ import annotations

from keys import burst
from test_app import SIZE, settle

from storage.library import Library


async def test_tag_typed_right_after_t_then_saved_in_one_burst(
    make_app, library: Library, reopen
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper_id = app.paper_list.current_id
        await burst(pilot, "t", *"quick", "enter", "ctrl+s", "enter")
        await settle(app, pilot)
        assert app.is_running
        assert "quick" in reopen(library.root).entry(paper_id).tags
