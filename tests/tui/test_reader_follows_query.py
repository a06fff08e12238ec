"""The reader shows the current query's matches, also when the paper under the cursor stays."""

from __future__ import annotations

from pilot_helpers import filtered

from papershelf.tui.widgets.reader import Reader


def highlighted_words(app) -> set[str]:
    content = app.query_one(Reader).content
    return {
        content.plain[s.start : s.end].lower() for s in content.spans if s.style == ".reader--match"
    }


async def test_reader_highlights_follow_the_query(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        # "peptide" then "peptide sequencing": the same single paper stays under the cursor.
        await filtered(app, pilot, "peptide")
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


async def test_a_query_that_keeps_the_paper_redraws_only_the_lines_it_changes(
    make_app, monkeypatch
) -> None:
    """The same paper under a longer query: the lines whose highlights changed are drawn
    again, the others are not (each line drawn costs the frame), and what is on screen is
    what a full redraw would draw."""
    from textual.geometry import Region

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await filtered(app, pilot, "peptide")
        reader = app.query_one(Reader)
        first = app.paper_list.current_id
        drawn: list[int] = []
        real = Reader.render_line

        def recording(self: Reader, y: int):  # type: ignore[no-untyped-def]
            drawn.append(y)
            return real(self, y)

        monkeypatch.setattr(Reader, "render_line", recording)
        # Typed in one burst, without waiting: the reader shows the last query's matches.
        await pilot.press(*" sequencing")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.paper_list.current_id == first
        assert {"peptide", "sequencing"} <= highlighted_words(app)
        height = reader.scrollable_content_region.height
        assert drawn and len(set(drawn)) < height  # not every line again
        whole = Region(0, 0, *reader.size)
        on_screen = reader.render_lines(whole)  # cached lines where none was redrawn
        reader.refresh()  # everything drawn from scratch
        assert reader.render_lines(whole) == on_screen
