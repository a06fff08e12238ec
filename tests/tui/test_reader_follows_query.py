"""The reader shows the current query's matches, also when the paper under the cursor stays."""

from __future__ import annotations

from papershelf.tui.widgets.reader import Reader


def highlighted_words(app) -> set[str]:
    content = app.query_one(Reader).content
    return {
        content.plain[s.start : s.end].lower() for s in content.spans if s.style == ".reader--match"
    }


async def test_reader_highlights_follow_the_query(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        # "peptide" then "peptide sequencing": the same single paper stays under the cursor.
        await pilot.press("slash", *"peptide")
        await app.workers.wait_for_complete()
        await pilot.pause()
        first = app.paper_list.current_id
        assert "peptide" in highlighted_words(app)
        await pilot.press(*" sequencing")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.paper_list.current_id == first
        assert {"peptide", "sequencing"} <= highlighted_words(app)
        # Back to "peptide" alone: "sequencing" is no longer a match and is not highlighted.
        for _ in " sequencing":
            await pilot.press("backspace")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.paper_list.current_id == first
        assert "sequencing" not in highlighted_words(app)
