"""A paper first stored from a title alone keeps its id when it gains an abstract; importing the
abstract's file again must find it, not add the paper a second time (ingest.merge)."""

from __future__ import annotations

import json
from pathlib import Path

from papershelf.storage.ingest.merge import record_id
from papershelf.storage.library.library import Library
from papershelf.storage.model import Paper

TITLE = "Numbat: Termite-Driven Graph Search"
ABSTRACT = "We propose Numbat, a graph search that finds termites the way numbats do."


def test_reimporting_the_abstract_of_a_paper_first_known_by_its_title(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=False)
    # A reading list started from a title (a .bib entry without abstract or identifier).
    title_only = Paper(
        id=record_id("", (), TITLE),
        name="Numbat",
        title=TITLE,
        abstract="",
        venue=None,
        sources=("refs.bib",),
        kind="inproceedings",
    )
    assert library.import_papers([title_only], source="refs.bib").added == 1
    records = tmp_path / "abstracts.jsonl"
    records.write_text(json.dumps({"title": TITLE, "abstract": ABSTRACT}) + "\n", "utf-8")
    (first,) = library.import_files([records])
    assert (first.added, first.duplicates) == (0, 1)  # the title found it: it gains the abstract
    (again,) = library.import_files([records])
    assert (again.added, again.duplicates) == (0, 1)
    (paper,) = library.papers()
    assert paper.id == title_only.id and paper.abstract == ABSTRACT
    assert paper.sources == ("refs.bib", "abstracts.jsonl")
