"""Removing papers (`Library.remove`): one undoable step that keeps each paper's record and
entry, a removed table in papers.json that later imports respect, `source` removals, and what
happens when the journal is lost or cannot be written, or another process imported meanwhile."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from synthetic import make_papers
from tinydb import Query, TinyDB

from papershelf.storage.errors import NotFound
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper


def _library(root: Path, count: int = 8) -> Library:
    library = Library.open(root, seed=False)
    library.import_papers(make_papers(count), "synthetic.txt")
    return library


def _ids(library: Library) -> list[str]:
    return [paper.id for paper in library.papers()]


def _papers_json(root: Path) -> dict:
    return json.loads((root / "papers.json").read_text(encoding="utf-8"))


def test_remove_then_undo_puts_records_and_entries_back_exactly(tmp_path: Path) -> None:
    library = _library(tmp_path)
    order = _ids(library)
    papers = list(library.papers())
    library.tag([order[1], order[4]], add=["x", "y"])
    library.set_note(order[4], "a note")
    library.set_status([order[6]], "read")
    entries = dict(library.entries())

    report = library.remove([order[4], order[1], order[6]])

    assert report.done and report.undoable
    assert [paper.id for paper in report.removed] == [order[1], order[4], order[6]]
    assert report.description == "remove 3 papers"
    assert _ids(library) == [pid for pid in order if pid not in (order[1], order[4], order[6])]
    assert dict(library.entries()) == {}
    assert library.undo() == "remove 3 papers"
    assert list(library.papers()) == papers  # the same records, in their old places
    assert dict(library.entries()) == entries  # updated_at included: exactly as they were
    assert library.redo() == "remove 3 papers"
    assert len(library.papers()) == len(order) - 3 and dict(library.entries()) == {}
    # And from another process, after a restart: the journal holds it all.
    again = Library.open(tmp_path, seed=False)
    assert again.undo() == "remove 3 papers"
    assert list(again.papers()) == papers and dict(again.entries()) == entries


def test_one_paper_is_named_in_the_step(tmp_path: Path) -> None:
    library = _library(tmp_path)
    paper = library.papers()[2]
    assert library.remove(paper.id).description == f"remove {paper.name}"


def test_an_unknown_id_removes_nothing(tmp_path: Path) -> None:
    library = _library(tmp_path)
    before = (tmp_path / "papers.json").read_bytes()
    with pytest.raises(NotFound):
        library.remove([library.papers()[0].id, "0123456789ab"])
    assert (tmp_path / "papers.json").read_bytes() == before
    assert len(library.papers()) == 8


def test_a_dry_run_changes_nothing(tmp_path: Path) -> None:
    library = _library(tmp_path)
    library.tag([library.papers()[0].id], add=["x"])
    files = {name: (tmp_path / name).read_bytes() for name in ("papers.json", "state.json")}
    report = library.remove([library.papers()[0].id], dry_run=True)
    assert len(report.removed) == 1 and not report.done
    assert {name: (tmp_path / name).read_bytes() for name in files} == files
    assert library.undo() == "tag +x on MethodPaper0"  # the journal did not move either


def test_an_import_skips_removed_papers_until_asked_to_bring_them_back(tmp_path: Path) -> None:
    library = _library(tmp_path)
    papers = make_papers(8)
    library.remove([papers[2].id, papers[5].id])

    (report,) = [library.import_papers(papers, "synthetic.txt")]
    assert (report.added, report.duplicates, report.removed) == (0, 6, 2)
    assert len(library.papers()) == 6

    report = library.import_papers(papers, "synthetic.txt", include_removed=True)
    assert (report.added, report.restored, report.removed) == (2, 2, 0)
    assert len(library.papers()) == 8
    assert "removed" not in _papers_json(tmp_path)  # forgotten: no table left
    assert library.import_papers(papers, "synthetic.txt").removed == 0


def test_removed_papers_are_known_by_identifier_and_by_title(tmp_path: Path) -> None:
    library = Library.open(tmp_path, seed=False)
    cited = Paper("d0i0000000aa", "Cited", "A Cited Paper", "", None, ("a.bib",), doi="10.1/x")
    titled = Paper("7171e0000000", "Titled", "Only A Title", "", None, ("a.bib",))
    library.import_papers([cited, titled], "a.bib")
    library.remove([cited.id, titled.id])
    # Other records of the same papers: an abstract list's, with the DOI or the same title.
    again = [
        replace(cited, id="abcdefabcdef", abstract="Now with an abstract.", sources=("b",)),
        replace(titled, id="fedcbafedcba", title="only a title", sources=("b",)),
    ]
    assert library.import_papers(again, "b").removed == 2
    assert library.papers() == ()


def test_the_removed_table_is_a_tinydb_table(tmp_path: Path) -> None:
    library = _library(tmp_path)
    gone = library.papers()[3]
    library.remove(gone.id)
    with TinyDB(tmp_path / "papers.json") as db:
        assert len(db.table("papers").all()) == 7
        (doc,) = db.table("removed").search(Query().id == gone.id)
    assert doc["name"] == gone.name and doc["removed_at"].endswith("Z")
    # Reopened (papers.cache or papers.json), the library reads the same.
    assert len(Library.open(tmp_path, seed=False, read_only=True).papers()) == 7


def test_remove_source_takes_only_papers_from_that_file_alone(
    tmp_path: Path, seed_files: list[Path]
) -> None:
    library = Library.open(tmp_path, seed=True)
    papers = list(library.papers())
    first = seed_files[0].name
    only = [p for p in papers if p.sources == (first,)]
    shared = [p for p in papers if first in p.sources and len(p.sources) > 1]
    assert only and shared  # the bundled seeds have both kinds

    report = library.remove(source=first)

    assert {p.id for p in report.removed} == {p.id for p in only}
    assert {p.id for p in report.trimmed} == {p.id for p in shared}
    assert report.description.startswith(f"remove {len(only)} papers of {first}")
    assert all(first not in p.sources for p in library.papers())
    assert len(library.papers()) == len(papers) - len(only)
    library.undo()
    assert list(library.papers()) == papers  # the sources come back too
    # The seeds imported again: the removed ones stay out, the shared ones gain the source.
    library.redo()
    reports = library.import_files(seed_files)
    assert sum(r.removed for r in reports) >= len(only)
    assert len(library.papers()) == len(papers) - len(only)


def test_undo_after_another_process_imported_more(tmp_path: Path) -> None:
    library = _library(tmp_path)
    order = _ids(library)
    library.remove([order[0], order[5]])
    other = Library.open(tmp_path, seed=False)
    more = make_papers(3, prefix="more")
    other.import_papers(more, "more.txt")

    assert library.undo() == "remove 2 papers"
    assert _ids(library) == [*order, *(p.id for p in more)]
    assert _ids(Library.open(tmp_path, seed=False)) == _ids(library)


def test_undo_of_a_paper_brought_back_meanwhile_restores_its_entry(tmp_path: Path) -> None:
    library = _library(tmp_path)
    paper = library.papers()[1]
    library.tag(paper.id, add=["kept"])
    library.remove(paper.id)
    Library.open(tmp_path, seed=False).import_papers([paper], "x", include_removed=True)
    # Brought back with its tags (one step of its own, test_bring_back.py); undoing that
    # step and then the removal leaves the paper listed once, with its tags.
    library.refresh()  # the other process's import
    assert library.entry(paper.id).tags == {"kept"}
    assert library.undo() == "bring back the tags and notes of MethodPaper1"
    assert library.entry(paper.id).tags == frozenset()
    assert library.undo() == "remove MethodPaper1"
    assert library.entry(paper.id).tags == {"kept"}
    assert _ids(library).count(paper.id) == 1


def test_a_paper_brought_back_elsewhere_counts_as_undone(tmp_path: Path) -> None:
    library = _library(tmp_path)
    paper, other_paper = library.papers()[1], library.papers()[2]
    library.remove([paper.id, other_paper.id])
    # Another process brings one back from another file: its record now has both sources.
    other = Library.open(tmp_path, seed=False)
    other.import_papers([replace(paper, sources=("y.txt",))], "y.txt", include_removed=True)
    outcome = library.travel(back=True)
    assert outcome is not None
    assert (outcome.applied, outcome.conflicts) == (2, ())
    assert library.get(paper.id).sources == ("synthetic.txt", "y.txt")  # left as it is
    assert _ids(library).index(other_paper.id) == 2


def test_redo_leaves_a_paper_changed_elsewhere_since(tmp_path: Path) -> None:
    library = _library(tmp_path)
    paper = library.papers()[1]
    library.remove(paper.id)
    library.undo()
    # Since the undo, another process imported it from one more file: redo leaves it.
    Library.open(tmp_path, seed=False).import_papers([replace(paper, sources=("y.txt",))], "y")
    outcome = library.travel(back=False)
    assert outcome is not None and outcome.conflicts == (paper.id,)
    assert outcome.message == f"remove {paper.name}: nothing done, all 1 paper changed since"
    assert paper.id in _ids(library)


def test_undo_without_the_record_leaves_the_paper_out(tmp_path: Path) -> None:
    """An older papershelf's import rewrites papers.json without the removed table: the record
    is gone, so undo cannot put the paper back (and says so); its entry stays in the step."""
    library = _library(tmp_path)
    paper = library.papers()[1]
    library.tag(paper.id, add=["x"])
    library.remove(paper.id)
    data = _papers_json(tmp_path)
    del data["removed"]
    (tmp_path / "papers.json").write_text(json.dumps(data), encoding="utf-8")
    outcome = library.travel(back=True)
    assert outcome is not None and outcome.conflicts == (paper.id,)
    assert paper.id not in _ids(library)
    assert library.entries() == {}


def test_when_the_journal_is_lost_the_removal_stays_and_an_import_brings_it_back(
    tmp_path: Path,
) -> None:
    library = _library(tmp_path)
    paper = library.papers()[2]
    library.tag(paper.id, add=["x"])
    library.remove(paper.id)
    (tmp_path / "journal.json").write_text("{ damaged", encoding="utf-8")
    again = Library.open(tmp_path, seed=False)
    assert again.undo() is None
    assert again.journal_notice is not None and "undo history was lost" in again.journal_notice
    assert again.import_papers([paper], "x").removed == 1  # still remembered
    assert again.import_papers([paper], "x", include_removed=True).restored == 1
    assert paper.id in _ids(again)
    assert again.entry(paper.id) == Entry()  # its tags went with the journal


def test_a_journal_that_cannot_be_written_keeps_the_entries_in_state(tmp_path: Path) -> None:
    library = _library(tmp_path)
    paper = library.papers()[2]
    library.tag(paper.id, add=["x"])
    journal = tmp_path / "journal.json"
    journal.unlink()
    journal.mkdir()  # the journal's atomic replace fails
    report = library.remove(paper.id)
    assert report.done and not report.undoable
    assert paper.id not in _ids(library)
    assert library.entry(paper.id).tags == {"x"}  # not lost: back with the paper
    journal.rmdir()
    library.import_papers([paper], "x", include_removed=True)
    assert library.entry(paper.id).tags == {"x"}


def test_the_step_is_read_by_a_journal_without_removal(tmp_path: Path) -> None:
    """An older papershelf reads a step's description, before, after and at: the records ride
    along in a key of their own."""
    library = _library(tmp_path)
    library.remove(library.papers()[0].id)
    step = json.loads((tmp_path / "journal.json").read_text())["undo"][-1]
    assert set(step) == {"description", "at", "before", "after", "papers"}
    assert set(step["before"]) == set(step["after"]) == set(step["papers"])
