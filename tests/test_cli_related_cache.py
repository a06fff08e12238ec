"""`papershelf related` and `related-index.bin`: built and saved by the first call, loaded by
the next ones (same output), rebuilt after an import replaced papers.json."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from papershelf.cli.main import main
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper
from papershelf.storage.related.cache import RELATED_CACHE, load
from papershelf.storage.related.index import RelatedIndex


def related(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> str:
    code = main(["--db", str(db), "related", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the related indexes built (not loaded) while the test runs."""
    sizes: list[int] = []
    build = RelatedIndex.__init__

    def counted(self: RelatedIndex, papers: Any, **kwargs: Any) -> None:
        build(self, papers, **kwargs)
        sizes.append(len(self))

    monkeypatch.setattr(RelatedIndex, "__init__", counted)
    return sizes


@pytest.fixture
def db(tmp_path: Path, seed_files: list[Path]) -> Path:
    root = tmp_path / "lib"
    Library.open(root, seed=False).import_files(seed_files)
    return root


def test_the_first_call_builds_and_saves_the_next_load(capsys, db, builds):
    first = related(capsys, db, "RelGNN", "--json")
    assert builds == [34]
    assert (db / RELATED_CACHE).exists()
    assert related(capsys, db, "RelGNN", "--json") == first
    assert related(capsys, db, "SUICA", "--limit", "3")
    assert builds == [34]


def test_an_import_makes_the_next_call_rebuild(capsys, db, builds):
    related(capsys, db, "RelGNN")
    library = Library.open(db, seed=False)
    source = library.find("RelGNN")
    twin = Paper(
        id="0123456789ab",
        name="RelGNN-twin",
        title=None,
        abstract=source.abstract + " Imported later.",
        venue=None,
        sources=("later.jsonl",),
    )
    library.import_papers([twin], "later.jsonl")
    out = related(capsys, db, "RelGNN", "--limit", "1")
    assert builds == [34, 35]
    assert "RelGNN-twin" in out
    fresh = Library.open(db, seed=False, read_only=True)
    assert load(db, fresh.papers_key, fresh.papers()) is not None
