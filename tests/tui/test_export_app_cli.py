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


@pytest.mark.parametrize(
    ("downs", "fmt", "suffix"), [(1, "bibtex", "bib"), (2, "csv", "csv"), (3, "json", "json")]
)
async def test_each_format_from_the_app_is_the_clis_file(
    tagged: Library,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    downs: int,
    fmt: str,
    suffix: str,
) -> None:
    monkeypatch.chdir(tmp_path)  # the dialog offers a path in the working directory
    app = PapershelfApp(tagged)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"#gnn", "enter")
        await settle(app, pilot)
        # One burst: open the dialog, to the format list, pick, export.
        await pilot.press("e", "tab", "tab", *["down"] * downs, "enter")
        await settle(app, pilot)
        written = sorted(tmp_path.glob(f"reading-list-*.{suffix}"))
        assert len(written) == 1
        # The same keys again write the same file (the dialog asks before replacing it).
        await pilot.press("e", "tab", "tab", *["down"] * downs, "enter", "y")
        await settle(app, pilot)
    from_cli = cli_export(tagged.root, tmp_path / f"cli.{suffix}", "#gnn")
    assert written[0].read_bytes() == from_cli
    assert sorted(tmp_path.glob(f"reading-list-*.{suffix}")) == written
    if fmt == "bibtex":
        assert from_cli.decode().count("\n@") == 3  # the four #gnn papers
