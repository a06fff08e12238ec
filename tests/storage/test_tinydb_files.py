"""papers.json and state.json are TinyDB databases a stock `TinyDB(path)` reads (schema 2), and a
library of schema 1 (tables keyed by paper id) opens, keeps everything, and is rewritten in the
new shape by its next write."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import REPO, import_records, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinydb import Query, TinyDB

from papershelf.storage.errors import LibraryError
from papershelf.storage.export.backup import restore_backup
from papershelf.storage.files.layout import SCHEMA_VERSION, read_entries
from papershelf.storage.library import state_backups
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper

RECORDS = [
    {"title": "Sparse Mixtures", "abstract": "We route tokens sparsely.", "venue": "ICML 2025"},
    {"title": "Graph Rewiring", "abstract": "Rewiring graphs helps.", "venue": "ICLR 2025"},
    {"title": "Diffusion Guidance", "abstract": "Guidance trades diversity.", "venue": "ICML 2025"},
]


def _tinydb_papers(root: Path) -> list[dict[str, Any]]:
    with TinyDB(root / "papers.json") as db:
        return [{"doc_id": doc.doc_id, **doc} for doc in db.table("papers").all()]


def test_stock_tinydb_and_query_read_a_library_papershelf_import_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = import_records(capsys, tmp_path / "lib", RECORDS)
    library = Library.open(root, seed=False)
    ids = [paper.id for paper in library.papers()]
    for paper_id in (ids[0], ids[2]):
        assert run(capsys, "--db", root, "tag", paper_id, "+to-read")[0] == 0
    assert run(capsys, "--db", root, "status", ids[1], "read")[0] == 0

    with TinyDB(root / "papers.json") as db:
        papers = db.table("papers")
        assert [doc["id"] for doc in papers.all()] == ids  # import order
        assert [doc.doc_id for doc in papers.all()] == [1, 2, 3]
        icml = papers.search(Query().venue == "ICML 2025")
        assert [doc["id"] for doc in icml] == [ids[0], ids[2]]
        assert db.table("meta").get(doc_id=1) == {
            "schema": SCHEMA_VERSION,
            "kind": "papers",
            "app": "papershelf",
        }
    with TinyDB(root / "state.json") as db:
        state = db.table("entries")
        to_read = state.search(Query().tags.any(["to-read"]))
        assert sorted(doc["paper_id"] for doc in to_read) == sorted([ids[0], ids[2]])
        assert [doc["paper_id"] for doc in state.search(Query().status == "read")] == [ids[1]]


def test_the_readme_example_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's "Scripting with TinyDB" example, exactly as written there."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Scripting with TinyDB", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    root = import_records(capsys, tmp_path / "lib", RECORDS)
    library = Library.open(root, seed=False)
    first, second, third = library.papers()
    library.tag([first.id, second.id, third.id], add=["to-read"])
    library.set_status(third.id, "read")
    monkeypatch.setenv("PAPERSHELF_HOME", str(root))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(found.group(1), "README.md", "exec"), {})
    # ICML 2025, tagged to-read, not read yet: the first paper only.
    assert out.getvalue() == f"{first.id} {first.name} | {first.title}\n"


# A schema-1 library as papershelf 0.x wrote it, by hand: the tables keyed by paper id.
OLD_PAPERS = {
    pid: {
        "id": pid,
        "name": name,
        "title": f"{name}: A Paper",
        "abstract": f"The abstract of {name}.",
        "venue": venue,
        "sources": ["old.jsonl"],
        "code_urls": [],
        "links": [],
        "imported_at": "2025-06-01T10:00:00Z",
        "authors": [],
        "url": None,
    }
    for pid, name, venue in (
        ("c0ffee000001", "Zeta", "ICML 2025"),  # not in id order: order must be kept
        ("a0ffee000002", "Alpha", "ICLR 2025"),
        ("b0ffee000003", "Beta", None),
    )
}
OLD_ENTRIES = {
    "a0ffee000002": {"tags": ["graphs", "to-read"], "status": "reading", "starred": True,
                     "note": "read §3", "updated_at": "2025-06-02T10:00:00Z"},
    "c0ffee000001": {"tags": [], "status": "read", "starred": False, "note": "",
                     "updated_at": "2025-06-03T10:00:00Z"},
    "dead00000004": {"tags": ["orphan"], "status": "unread", "starred": False, "note": "",
                     "updated_at": "2025-06-04T10:00:00Z"},  # a paper not imported (yet)
}  # fmt: skip
OLD_JOURNAL = {
    "format": "papershelf-journal",
    "version": 1,
    "undo": [
        {
            "description": "star Alpha",
            "at": "2025-06-02T10:00:00Z",
            "before": {"a0ffee000002": {**OLD_ENTRIES["a0ffee000002"], "starred": False}},
            "after": {"a0ffee000002": OLD_ENTRIES["a0ffee000002"]},
        }
    ],
    "redo": [],
}


def _meta(kind: str) -> dict[str, Any]:
    return {"1": {"schema": 1, "kind": kind, "app": "papershelf"}}


def old_library(root: Path) -> Path:
    """A schema-1 library: papers, entries, a backup of state.json and an undo history."""
    root.mkdir()
    state = json.dumps({"meta": _meta("state"), "entries": OLD_ENTRIES}).encode()
    (root / "papers.json").write_text(json.dumps({"meta": _meta("papers"), "papers": OLD_PAPERS}))
    (root / "state.json").write_bytes(state)
    (root / "backups").mkdir()
    (root / "backups" / "state-1.json").write_bytes(state)
    (root / "journal.json").write_text(json.dumps(OLD_JOURNAL))
    return root


OLD_STATE = {pid: Entry.from_dict(record) for pid, record in OLD_ENTRIES.items()}


def _schema(path: Path) -> int:
    return json.loads(path.read_bytes())["meta"]["1"]["schema"]


def _as_old(papers: Sequence[Paper]) -> list[dict[str, object]]:
    """Papers as records of the old file's fields, after checking every later field is unset."""
    records = [paper.to_dict() for paper in papers]
    default = Paper("x", "", None, "", None, ()).to_dict()
    old_fields = set(next(iter(OLD_PAPERS.values())))
    for record in records:
        assert {k: v for k, v in record.items() if k not in old_fields} == {
            k: v for k, v in default.items() if k not in old_fields
        }
    return [{k: v for k, v in record.items() if k in old_fields} for record in records]


def test_a_schema_1_library_opens_keeps_everything_and_takes_the_new_shape(
    tmp_path: Path,
) -> None:
    root = old_library(tmp_path / "old")
    # A read-only open (`papershelf list`, `show`) reads the old shape and writes nothing.
    reader = Library.open(root, seed=False, read_only=True)
    assert _as_old(reader.papers()) == list(OLD_PAPERS.values())
    assert _schema(root / "papers.json") == _schema(root / "state.json") == 1

    # The first locked open rewrites both files at once, so stock TinyDB reads them.
    library = Library.open(root, seed=False)
    assert _as_old(library.papers()) == list(OLD_PAPERS.values())
    assert dict(library.entries()) == OLD_STATE
    assert _schema(root / "papers.json") == _schema(root / "state.json") == SCHEMA_VERSION
    assert [doc["id"] for doc in _tinydb_papers(root)] == list(OLD_PAPERS)
    assert _as_old(Library.open(root, seed=False).papers()) == list(OLD_PAPERS.values())

    # The first change rewrites state.json in the new shape; undo reaches back past it.
    library.tag(["b0ffee000003"], add=["new"])
    data = json.loads((root / "state.json").read_bytes())
    assert data["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert list(data["entries"]) == ["1", "2", "3", "4"]
    assert [record["paper_id"] for record in data["entries"].values()] == sorted(
        [*OLD_ENTRIES, "b0ffee000003"]
    )
    reopened = Library.open(root, seed=False)
    assert dict(reopened.entries()) == {**OLD_STATE, "b0ffee000003": reopened.entry("b0ffee000003")}
    assert reopened.undo() is not None  # the new tag
    assert reopened.undo() == "star Alpha"  # the step written before the upgrade
    assert not reopened.entry("a0ffee000002").starred
    assert dict(Library.open(root, seed=False).entries())["a0ffee000002"].tags == {
        "graphs",
        "to-read",
    }

    # The first import rewrites papers.json: old papers first, in their order.
    source = tmp_path / "new.jsonl"
    source.write_text(json.dumps(RECORDS[0]) + "\n")
    reopened.import_files([source])
    papers = _tinydb_papers(root)
    assert [doc["doc_id"] for doc in papers] == [1, 2, 3, 4]
    assert [doc["id"] for doc in papers[:3]] == list(OLD_PAPERS)
    assert [{k: v for k, v in doc.items() if k != "doc_id"} for doc in papers[:3]] == list(
        OLD_PAPERS.values()
    )
    assert [paper.id for paper in Library.open(root, seed=False).papers()] == [
        doc["id"] for doc in papers
    ]


def test_old_backups_still_restore(tmp_path: Path) -> None:
    """A damaged state.json is recovered from a schema-1 backup; a `papershelf backup` file
    (its own format, keyed by paper id, unchanged) restores."""
    root = old_library(tmp_path / "old")
    (root / "state.json").write_bytes(b"garbage")
    library = Library.open(root, seed=False)
    assert dict(library.entries()) == OLD_STATE
    assert any("recovered from" in notice for notice in library.take_notices())

    backup = tmp_path / "backup.json"
    document = {"format": "papershelf-state", "version": 1, "entries": OLD_ENTRIES}
    backup.write_text(json.dumps(document))
    library.tag(["b0ffee000003"], add=["gone-after-restore"])
    restore_backup(library, backup)
    assert dict(Library.open(root, seed=False).entries()) == OLD_STATE
    # The restore was a write: new shape, and its backup too.
    for path in (root / "state.json", state_backups.backup_path(root, 1)):
        assert json.loads(path.read_bytes())["meta"]["1"]["schema"] == SCHEMA_VERSION


def test_the_listing_fast_path_reads_both_shapes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = old_library(tmp_path / "old")
    assert read_entries(root / "state.json") == OLD_STATE
    for _ in range(2):  # a full open writes listing.cache; the second run lists without it
        code, out, _ = run(capsys, "--db", root, "list", "tag:to-read")
        assert code == 0 and out.startswith("a0ffee000002")
    Library.open(root, seed=False).tag(["b0ffee000003"], add=["to-read"])
    assert json.loads((root / "state.json").read_bytes())["meta"]["1"]["schema"] == SCHEMA_VERSION
    assert read_entries(root / "state.json") == {
        **OLD_STATE,
        "b0ffee000003": Library.open(root, seed=False).entry("b0ffee000003"),
    }
    code, out, _ = run(capsys, "--db", root, "list", "tag:to-read")
    assert code == 0 and len(out.splitlines()) == 2


def test_a_newer_schema_is_still_refused(tmp_path: Path) -> None:
    root = old_library(tmp_path / "old")
    data = json.loads((root / "papers.json").read_bytes())
    data["meta"]["1"]["schema"] = SCHEMA_VERSION + 1
    (root / "papers.json").write_text(json.dumps(data))
    with pytest.raises(LibraryError, match="written by a newer papershelf") as raised:
        Library.open(root, seed=False)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("papers.json", {"x1": OLD_PAPERS["a0ffee000002"]}),  # not a TinyDB document id
        ("papers.json", {"1": OLD_PAPERS["a0ffee000002"], "2": OLD_PAPERS["a0ffee000002"]}),
        ("papers.json", {"": OLD_PAPERS["a0ffee000002"]}),
        ("state.json", {"1": {"tags": ["x"]}}),  # no paper_id
        ("state.json", {"1": {"paper_id": "", "tags": ["x"]}}),
        ("state.json", {"1": {"paper_id": ["ab"], "tags": ["x"]}}),
        ("state.json", {"1": {"paper_id": "ab", "tags": ["x"]}, "2": {"paper_id": "ab"}}),
    ],
)
def test_a_schema_2_file_tinydb_could_not_read_as_papershelf_does_is_damaged(
    tmp_path: Path, name: str, table: dict[str, Any]
) -> None:
    root = tmp_path / "lib"
    root.mkdir()
    kind = "papers" if name == "papers.json" else "state"
    meta = {"1": {"schema": 2, "kind": kind, "app": "papershelf"}}
    (root / name).write_text(
        json.dumps({"meta": meta, "papers" if kind == "papers" else "entries": table})
    )
    library = Library.open(root, seed=False)
    assert any("damaged" in notice for notice in library.take_notices())
    assert list(root.glob(f"{name}.corrupt-*"))


WORDS = st.text("abcdefghij ", min_size=3, max_size=30).filter(str.strip)
RECORD = st.fixed_dictionaries(
    {"title": WORDS, "abstract": WORDS, "venue": st.sampled_from(["ICML 2025", "ICLR 2025", ""])}
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    records=st.lists(RECORD, min_size=1, max_size=8),
    tagged=st.lists(st.integers(0, 7)),
    status=st.sampled_from(["unread", "reading", "read"]),
)
def test_tinydb_sees_what_the_library_holds(
    tmp_path_factory: pytest.TempPathFactory,
    records: list[dict[str, str]],
    tagged: list[int],
    status: str,
) -> None:
    root = tmp_path_factory.mktemp("lib")
    source = root / "in.jsonl"
    source.write_text("".join(json.dumps(record) + "\n" for record in records))
    library = Library.open(root / "db", seed=False)
    library.import_files([source])
    papers = library.papers()
    chosen = sorted({papers[n % len(papers)].id for n in tagged})
    if chosen:
        library.tag(chosen, add=["picked"])
        library.set_status(chosen[:1], status)
    fresh = Library.open(root / "db", seed=False)
    seen = _tinydb_papers(root / "db")
    assert [doc.pop("doc_id") for doc in seen] == list(range(1, len(papers) + 1))
    assert seen == [paper.to_dict() for paper in fresh.papers()]
    with TinyDB(root / "db" / "state.json") as db:
        state = {doc.pop("paper_id"): Entry.from_dict(doc) for doc in db.table("entries").all()}
    assert state == dict(fresh.entries())
