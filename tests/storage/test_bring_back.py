"""A removed paper brought back (`import --include-removed`, `papershelf add`, `a`) comes back
with its tags, status, star and note, as one undo step (an attacker pass found them lost until
the removal itself was undone). Through the real Library and the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from papershelf.storage.ingest.parse import read_file
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry

LIST = "We propose Falcon, a planner for long tasks.\n\nWe introduce Heron, a model of birds.\n"


def library_with_a_removed_paper(tmp_path: Path) -> tuple[Library, Path, str, Entry]:
    source = tmp_path / "a.txt"
    source.write_text(LIST, encoding="utf-8")
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files([source])
    falcon = library.papers()[0].id
    library.tag(falcon, add=["to-read", "planning"])
    library.set_status(falcon, "reading")
    library.set_starred(falcon, True)
    library.set_note(falcon, "compare with Heron")
    entry = library.entry(falcon)
    library.remove([falcon])
    assert library.entry(falcon) == Entry()
    return library, source, falcon, entry


def test_import_include_removed_brings_the_entry_back_exactly(tmp_path: Path) -> None:
    library, source, falcon, entry = library_with_a_removed_paper(tmp_path)
    (report,) = library.import_files([source], include_removed=True)
    assert report.restored == 1
    assert library.entry(falcon) == entry  # updated_at included
    again = Library.open(tmp_path / "lib", seed=False, read_only=True)
    assert again.entry(falcon) == entry and again.has(falcon)


def test_undo_and_redo_of_the_bring_back_are_exact(tmp_path: Path) -> None:
    library, source, falcon, entry = library_with_a_removed_paper(tmp_path)
    library.import_files([source], include_removed=True)
    assert library.undo() == "bring back the tags and notes of Falcon"
    assert library.entry(falcon) == Entry() and library.has(falcon)
    assert library.redo() is not None
    assert library.entry(falcon) == entry
    # Then the removal itself: the paper is back already, its entry too.
    assert library.undo() is not None and library.undo() is not None
    assert library.entry(falcon) == entry and library.has(falcon)
    assert library.redo() is not None  # the removal again
    assert not library.has(falcon) and library.entry(falcon) == Entry()


def test_a_paper_added_again_by_identifier_gets_its_entry(tmp_path: Path) -> None:
    """`papershelf add` and the app's `a` import the fetched record with include_removed."""
    library, source, falcon, entry = library_with_a_removed_paper(tmp_path)
    record = read_file(source).papers[0]  # the same paper, as a fetch would hand it over
    report = library.import_papers([record], "arXiv:2501.01234", include_removed=True)
    assert report.restored == 1 and library.entry(falcon) == entry


def test_an_entry_state_json_holds_already_wins(tmp_path: Path) -> None:
    library, source, falcon, _ = library_with_a_removed_paper(tmp_path)
    newer = Entry(tags=frozenset({"from-a-backup"}))
    library.replace_all_entries({falcon: newer})  # a backup restored while it was removed
    library.import_files([source], include_removed=True)
    assert library.entry(falcon).tags == {"from-a-backup"}


def test_a_paper_removed_without_state_brings_back_no_step(tmp_path: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text(LIST, encoding="utf-8")
    library = Library.open(tmp_path / "lib", seed=False)
    library.import_files([source])
    heron = library.papers()[1].id
    library.remove([heron])
    library.import_files([source], include_removed=True)
    assert library.has(heron)
    assert library.undo() == "remove Heron"  # no step of its own: nothing to bring back


def test_the_cli_says_so_and_show_lists_the_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, source, falcon, _ = library_with_a_removed_paper(tmp_path)
    root = tmp_path / "lib"
    code, out, err = run(capsys, "--db", root, "import", "--include-removed", source)
    assert code == 0, err
    assert "1 brought back" in out
    shown = json.loads(run(capsys, "--db", root, "show", "--json", falcon)[1])
    assert (shown["tags"], shown["status"], shown["starred"], shown["note"]) == (
        ["planning", "to-read"],
        "reading",
        True,
        "compare with Heron",
    )
    assert run(capsys, "--db", root, "undo")[1].strip() == (
        "undone: bring back the tags and notes of Falcon"
    )
