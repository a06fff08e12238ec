"""`papershelf remove`: refs like every command's, all or nothing, `--source`, `--dry-run`; and
what `undo` and a later `import` (with and without `--include-removed`) do after it. Every check
reads the library back through the CLI, so the caches keyed on papers.json (listing.cache, the
search index) are seen to follow the removal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run

from papershelf.cli.removing import SHOWN


@pytest.fixture
def seeded(tmp_path: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]) -> Path:
    db = tmp_path / "lib"
    code, _, err = run(capsys, "--db", db, "import", *seed_files)
    assert code == 0, err
    return db


def names(capsys: pytest.CaptureFixture[str], db: Path, *query: str) -> list[str]:
    code, out, err = run(capsys, "--db", db, "list", "--json", *query)
    assert code == 0, err
    return [paper["name"] for paper in json.loads(out)]


def test_remove_undo_and_import_again(
    seeded: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    all_names = names(capsys, seeded)
    assert "RelGNN" in names(capsys, seeded, "relational", "deep", "learning")
    run(capsys, "--db", seeded, "tag", "RelGNN", "+graphs")
    code, out, err = run(capsys, "--db", seeded, "remove", "RelGNN", "SUICA")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "removed: 4b055f7bb983  RelGNN  [ICML 2025]",
        "removed: 67fc7055c92e  SUICA  [ICML 2025]",
        "removed 2 papers; the library holds 32 (papershelf undo brings them back).",
    ]
    assert names(capsys, seeded) == [n for n in all_names if n not in ("RelGNN", "SUICA")]
    # The search index (search-index.bin, keyed on papers.json) forgot it too.
    assert "RelGNN" not in names(capsys, seeded, "relational", "deep", "learning")
    assert run(capsys, "--db", seeded, "show", "RelGNN")[0] == 1

    code, out, _ = run(capsys, "--db", seeded, "import", *seed_files)
    assert code == 0
    assert out.splitlines()[0].endswith(", 0 skipped, 2 skipped as removed")
    assert "import --include-removed FILE brings them back" in out
    assert len(names(capsys, seeded)) == 32

    code, out, _ = run(capsys, "--db", seeded, "undo")
    assert out == "undone: remove 2 papers\n"
    assert names(capsys, seeded) == all_names  # in their places
    assert names(capsys, seeded, "#graphs") == ["RelGNN"]  # with their tags
    code, out, _ = run(capsys, "--db", seeded, "redo")
    assert out == "redone: remove 2 papers\n"

    code, out, _ = run(capsys, "--db", seeded, "import", "--include-removed", *seed_files)
    assert code == 0 and "2 brought back" in out
    assert sorted(names(capsys, seeded)) == sorted(all_names)
    code, out, _ = run(capsys, "--db", seeded, "import", *seed_files)
    assert "skipped as removed" not in out  # forgotten


@pytest.mark.parametrize("refs", [["RelGNN", "NoSuchPaper"], ["RelGNN", "0"], ["4b05", "4"]])
def test_an_unknown_or_ambiguous_ref_removes_nothing(
    seeded: Path, refs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = (seeded / "papers.json").read_bytes()
    code, out, err = run(capsys, "--db", seeded, "remove", *refs)
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == "papershelf: nothing was removed"
    assert (seeded / "papers.json").read_bytes() == before


def test_remove_source_on_the_seeds(
    seeded: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = (path.name for path in seed_files)
    papers = json.loads(run(capsys, "--db", seeded, "list", "--json")[1])
    only_first = [p["name"] for p in papers if p["sources"] == [first]]
    both = [p["name"] for p in papers if len(p["sources"]) == 2]

    code, out, _ = run(capsys, "--db", seeded, "remove", "--source", seed_files[0], "--dry-run")
    assert code == 0 and out.count("would remove: ") == len(only_first)
    assert f"the library would hold {len(papers) - len(only_first)}." in out
    assert len(names(capsys, seeded)) == len(papers)

    code, out, _ = run(capsys, "--db", seeded, "remove", "--source", first)
    assert code == 0
    assert f"kept {len(both)} papers that also came from other files" in out
    left = json.loads(run(capsys, "--db", seeded, "list", "--json")[1])
    assert sorted(p["name"] for p in left) == sorted(
        p["name"] for p in papers if p["name"] not in only_first
    )
    assert all(p["sources"] == [second] for p in left)
    # Both seed files again: the removed ones stay out.
    run(capsys, "--db", seeded, "import", *seed_files)
    assert len(names(capsys, seeded)) == len(left)
    # Undo: the removed ones back in their places; the others already have the source again
    # (from that import, so listed second), which counts as undone, not as a conflict.
    code, out, _ = run(capsys, "--db", seeded, "undo")
    step = f"remove {len(only_first)} papers of {first} ({len(both)} kept from other files)"
    assert out == f"undone: {step}\n"
    again = json.loads(run(capsys, "--db", seeded, "list", "--json")[1])
    assert [(p["name"], sorted(p["sources"])) for p in again] == [
        (p["name"], sorted(p["sources"])) for p in papers
    ]


def test_a_source_no_paper_came_from(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", seeded, "remove", "--source", "nope.txt")
    assert code == 1
    assert "no paper came from nope.txt (its files: 000_" in err


def test_many_papers_are_counted(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    everything = names(capsys, seeded)
    code, out, _ = run(capsys, "--db", seeded, "remove", *everything)
    lines = out.splitlines()
    assert code == 0 and len(lines) == SHOWN + 2
    assert lines[-2] == f"… and {len(everything) - SHOWN} more"
    assert lines[-1].startswith(f"removed {len(everything)} papers; the library holds 0")
    assert names(capsys, seeded) == []


def test_remove_needs_something_to_remove(seeded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--db", seeded, "remove")
    assert code == 2 and "name a paper" in err


def test_remove_on_no_library_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--db", tmp_path / "none", "remove", "RelGNN")
    assert code == 1 and "no papershelf library" in err
    assert not (tmp_path / "none").exists()


def test_both_seed_files_as_sources_clear_the_seeds(
    seeded: Path, seed_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    before = names(capsys, seeded)
    sources = [arg for path in seed_files for arg in ("--source", path.name)]
    code, out, _ = run(capsys, "--db", seeded, "remove", *sources)
    assert code == 0
    assert out.splitlines()[-1].startswith(f"removed {len(before)} papers; the library holds 0")
    assert names(capsys, seeded) == []
    code, out, _ = run(capsys, "--db", seeded, "undo")
    assert out == f"undone: remove {len(before)} papers of {', '.join(sources[1::2])}\n"
    assert names(capsys, seeded) == before


def test_related_papers_forget_a_removed_paper(
    seeded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--db", seeded, "related", "RelGNN", "--json", "--limit", "3")
    assert code == 0
    closest = json.loads(out)[0]["name"]
    run(capsys, "--db", seeded, "remove", closest)
    code, out, _ = run(capsys, "--db", seeded, "related", "RelGNN", "--json", "--limit", "3")
    assert code == 0 and closest not in [paper["name"] for paper in json.loads(out)]
    assert (seeded / "related-index.bin").exists()


def test_a_library_whose_papers_were_all_removed_says_so_not_that_a_file_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "one.txt"
    source.write_text("T\n\nWe propose Foo, a method that is here to be removed.\n")
    db = tmp_path / "lib"
    assert run(capsys, "--db", db, "import", source)[0] == 0
    assert run(capsys, "--db", db, "remove", "Foo")[0] == 0
    code, _, err = run(capsys, "--db", db, "tag", "Foo", "+x")
    assert code == 1
    assert "every paper was removed" in err and "papershelf undo" in err
    assert "missing" not in err
