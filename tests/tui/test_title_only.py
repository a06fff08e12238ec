"""A paper whose name the title already says shows the title once, in the list and reader."""

from __future__ import annotations

from pathlib import Path

from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.tui.app import PapershelfApp
from papershelf.tui.widgets.reader import Reader

TITLE = "Stronger Neyman Regret Guarantees for Adaptive Experimental Design"
CUT = Paper(
    id="cafe00000001",
    name="Stronger Neyman Regret Guarantees for Adaptive Experimental…",
    title=TITLE,
    abstract="We study sequential experiments with regret guarantees.",
    venue="ICML 2025",
    sources=("t.jsonl",),
)
NAMED = Paper(
    id="cafe00000002",
    name="RelGNN",
    title="Composite Message Passing for Relational Deep Learning",
    abstract="We propose RelGNN for relational deep learning.",
    venue="ICML 2025",
    sources=("t.jsonl",),
)


async def test_the_title_is_shown_once_with_its_matches(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([CUT, NAMED], "t.jsonl")
    app = PapershelfApp(library)
    async with app.run_test(size=(160, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.press("slash", *"adaptive design")
        await app.workers.wait_for_complete()
        await pilot.pause()
        papers = app.paper_list
        assert [hit.paper_id for hit in papers.hits] == [CUT.id]
        row = papers.rows.content(papers.hits[0], 150, False)
        assert row.plain.count("Stronger Neyman") == 1
        assert TITLE in row.plain  # whole: the cut name is not shown
        match = papers.get_visual_style("paper-list--match", partial=True)
        matched = {row.plain[s.start : s.end] for s in row.spans if s.style == match}
        assert {"Adaptive", "Design"} <= matched  # the title's matches, in the name's place
        reader = app.query_one(Reader)
        assert reader.text.count("Stronger Neyman") == 1
        assert reader.text.splitlines()[0] == TITLE


async def test_a_method_name_keeps_its_title_beside_it(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([NAMED], "t.jsonl")
    app = PapershelfApp(library)
    async with app.run_test(size=(160, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        papers = app.paper_list
        row = papers.rows.content(papers.hits[0], 150, False).plain
        assert "RelGNN  Composite Message Passing" in row
        assert app.query_one(Reader).text.splitlines()[:2] == [NAMED.name, NAMED.title]


async def test_a_title_that_begins_with_the_name_says_it_once(tmp_path: Path) -> None:
    said = Paper(
        id="cafe00000003",
        name="PANDAS",
        title="PANDAS: Improving Many-shot Jailbreaking",
        abstract="We propose PANDAS, a way to make many-shot attacks work better.",
        venue="ICML 2025",
        sources=("t.jsonl",),
    )
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_papers([said], "t.jsonl")
    app = PapershelfApp(library)
    async with app.run_test(size=(160, 30)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        papers = app.paper_list
        row = papers.rows.content(papers.hits[0], 150, False).plain
        # The name once, then the title's other words (its `:` gone with the repeat).
        assert row.count("PANDAS") == 1 and "PANDAS  Improving Many-shot Jailbreaking" in row
        assert app.query_one(Reader).text.splitlines()[:2] == [said.title, ""]
