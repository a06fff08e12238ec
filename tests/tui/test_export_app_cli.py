"""The app's `e` and `papershelf export` write the same file for the same selection."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle

from papershelf.cli.main import main
from papershelf.storage.library.library import Library
from papershelf.tui.app import PapershelfApp
from papershelf.tui.screens.export_dialog import ExportDialog, ExportRequest

SIZE = (120, 40)


@pytest.fixture
def tagged(library: Library) -> Library:
    """Four papers tagged #gnn, two of them with other tags too (one sorts before `gnn`)."""
    papers = library.papers()
    library.tag([papers[3].id, papers[0].id, papers[7].id, papers[5].id], add=["gnn"])
    library.tag([papers[0].id], add=["attention"])
    library.tag([papers[7].id], add=["zeta", "rl"])
    library.tag([papers[9].id], add=["rl"])
    return library


def cli_export(root: Path, target: Path, *query: str) -> bytes:
    assert main(["--db", str(root), "export", *query, "-o", str(target)]) == 0
    return target.read_bytes()


async def app_export(tagged: Library, target: Path, query: str, request: ExportRequest) -> bytes:
    app = PapershelfApp(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        if query:
            await pilot.press("slash", *query, "enter")
            await settle(app, pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        app.screen.dismiss(request)
        await settle(app, pilot)
    return target.read_bytes()


@pytest.mark.parametrize("query", ["#gnn", "tag:gnn"])
async def test_a_tag_exported_from_the_app_and_the_cli_is_the_same_file(
    tagged: Library, tmp_path: Path, query: str
) -> None:
    from_app = await app_export(
        tagged, tmp_path / "app.md", "", ExportRequest("tag", "gnn", tmp_path / "app.md")
    )
    from_cli = cli_export(tagged.root, tmp_path / "cli.md", query)
    assert from_app == from_cli
    text = from_app.decode()
    # One section for the tag, holding all four of its papers, each with its box.
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# Reading list: \\#gnn",
        "## gnn",
    ]
    assert text.count("- [ ]") == 4 and "4 papers" in text


async def test_the_results_of_a_lone_tag_query_are_that_tags_export(
    tagged: Library, tmp_path: Path
) -> None:
    target = tmp_path / "app.md"
    from_app = await app_export(tagged, target, "#gnn", ExportRequest("results", None, target))
    assert from_app == cli_export(tagged.root, tmp_path / "cli.md", "#gnn")


async def test_the_results_of_a_query_are_the_same_file_from_the_app_and_the_cli(
    tagged: Library, tmp_path: Path
) -> None:
    target = tmp_path / "app.md"
    from_app = await app_export(tagged, target, "graph", ExportRequest("results", None, target))
    from_cli = cli_export(tagged.root, tmp_path / "cli.md", "graph")
    assert from_app == from_cli
    text = from_app.decode()
    assert text.startswith("# Reading list: graph\n")
    # Every paper is listed under each of its tags: in full under its first, by name under
    # the others.
    for tag in ("attention", "gnn", "rl", "zeta"):
        section = text.split(f"\n## {tag}\n", 1)
        if len(section) == 2:
            body = section[1].split("\n## ", 1)[0]
            assert body.strip(), tag


async def test_the_dialog_offers_only_a_tag_the_filter_names_whole(tagged: Library) -> None:
    app = PapershelfApp(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"#gn", "enter")
        await settle(app, pilot)
        assert app.current_tag() is None  # halfway through "gnn": no tag "gn" to export
        await pilot.press("slash", "n", "enter")
        await settle(app, pilot)
        assert app.current_tag() == "gnn"
