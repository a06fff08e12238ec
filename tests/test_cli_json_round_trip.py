"""`list --json` and `show --json` import back as the same papers, with their whole record.

An attacker pass found `kind`, `cite_key` and `extra` lost, and papers with a title but no
abstract not imported at all. Through the real command: import, print as JSON, import that into
a fresh library, print again, compare.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import REPO, run, run_captured
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FIXTURES = REPO / "tests" / "fixtures"
SOURCES = [
    *(FIXTURES / "bibtex" / name for name in ("dblp.bib", "zotero.bib", "scholar.bib")),
    FIXTURES / "openreview" / "iclr2024-v2.json",
    FIXTURES / "atom" / "arxiv-api.xml",
    FIXTURES / "record_fields.jsonl",
]
# What another import changes by its nature: when and from which file.
NOT_THE_RECORD = ("imported_at", "sources", "score")


def record_of(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in NOT_THE_RECORD}


def list_json(root: Path) -> list[dict[str, Any]]:
    code, out, err = run_captured("--db", root, "list", "--json")
    assert code == 0, err
    return json.loads(out)


def import_into(root: Path, path: Path) -> None:
    code, _, err = run_captured("--db", root, "import", path)
    assert code == 0, err


def assert_round_trip(work: Path, first: Path) -> list[dict[str, Any]]:
    """`first`'s `list --json`, imported into a fresh library, lists the same records."""
    before = list_json(first)
    dumped = work / "listed.json"
    dumped.write_text(json.dumps(before), encoding="utf-8")
    again = work / "again"
    import_into(again, dumped)
    after = list_json(again)
    assert sorted(map(json.dumps, map(record_of, after))) == sorted(
        map(json.dumps, map(record_of, before))
    )
    return before


def test_list_json_of_every_importer_comes_back_whole(tmp_path: Path) -> None:
    first = tmp_path / "first"
    for source in SOURCES:
        import_into(first, source)
    before = assert_round_trip(tmp_path, first)
    kinds = {row["kind"] for row in before}
    assert {"inproceedings", "article"} <= kinds
    assert any(row["cite_key"] and row["extra"] for row in before)
    assert any(not row["abstract"] and row["title"] for row in before)  # a title-only entry


def test_show_json_comes_back_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first"
    import_into(first, FIXTURES / "bibtex" / "dblp.bib")
    (row,) = list_json(first)
    code, out, _ = run(capsys, "--db", first, "show", "--json", row["id"])
    assert code == 0
    shown = tmp_path / "shown.json"
    shown.write_text(out, encoding="utf-8")
    import_into(tmp_path / "again", shown)
    (back,) = list_json(tmp_path / "again")
    assert record_of(back) == record_of(row)
    assert back["cite_key"] == "DBLP:conf/naacl/DevlinCLT19" and back["kind"] == "inproceedings"
    assert back["extra"]["pages"] == "4171\u20134186"  # as the .bib import decoded `--`


def test_an_id_that_is_not_the_records_own_is_ignored(tmp_path: Path) -> None:
    """A record never takes over another paper's id by claiming it."""
    first = tmp_path / "first"
    import_into(first, FIXTURES / "record_fields.jsonl")
    victim = list_json(first)[0]
    forged = tmp_path / "forged.jsonl"
    record = {"id": victim["id"], "name": "Forged", "title": "Another", "doi": "10.1234/forged"}
    forged.write_text(json.dumps(record) + "\n", encoding="utf-8")
    import_into(first, forged)
    rows = {row["id"]: row for row in list_json(first)}
    assert rows[victim["id"]] == victim | {"score": rows[victim["id"]]["score"]}
    (new,) = [row for row in rows.values() if row["doi"] == "10.1234/forged"]
    assert new["name"] != "Forged" and new["id"] != victim["id"]


TEXT = st.text(
    st.sampled_from([*"abcxyz ÉéK$^2\\{}_-:,.'\"", "\U0001f600", "\x1b", "\u202e"]),
    max_size=30,
)
WORDS = st.lists(st.sampled_from(["graph", "neural", "planner", "Falcon", "we", "propose"]))


@st.composite
def json_record(draw: st.DrawFn) -> dict[str, Any]:
    """A JSON record as people and tools write them, any field missing."""
    record: dict[str, Any] = {}
    optional = {
        "abstract": st.builds(" ".join, WORDS).map(lambda text: text + " " + draw(TEXT)),
        "title": TEXT,
        "authors": st.lists(st.sampled_from(["Ada Lovelace", "Hopper, Grace", "Turing"])),
        "year": st.integers(1990, 2030),
        "venue": st.sampled_from(["ICML 2025", "NeurIPS", ""]),
        "doi": st.sampled_from(["10.1145/3292500.3330701", "doi:10.1/X"]),
        "arxiv": st.sampled_from(["arXiv:2501.01234v2", "hep-th/9901001"]),
        "openreview": st.sampled_from(["openreview:B1ElR4cgg"]),
        "pdf": st.sampled_from(["https://example.org/a.pdf"]),
        "url": st.sampled_from(["https://github.com/x/y", "https://example.org/page"]),
        "kind": st.sampled_from(["article", "InProceedings", "misc"]),
        "cite_key": st.sampled_from(["lee2025falcon", "key:with/odd"]),
        "extra": st.dictionaries(st.sampled_from(["pages", "Volume", "note"]), TEXT, max_size=3),
        "code_urls": st.lists(st.sampled_from(["https://github.com/a/b", "gitlab.com/c/d"])),
    }
    for name, strategy in optional.items():
        if draw(st.booleans()):
            record[name] = draw(strategy)
    return record


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(json_record(), min_size=1, max_size=6))
def test_list_json_round_trips_generated_records(records: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory(prefix="recfix-roundtrip-") as name:
        work = Path(name)
        source = work / "records.jsonl"
        source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        first = work / "first"
        code, _, err = run_captured("--db", first, "import", source)
        assert code == 0, err
        if not (first / "papers.json").exists() or not list_json(first):
            return  # nothing in them was a paper
        assert_round_trip(work, first)


def test_a_json_export_comes_back_whole(tmp_path: Path) -> None:
    """`export --format json` (what scripts and spreadsheets get) imports back as the same
    records, like `list --json`: kind, cite key, extra fields, OpenReview id and links too."""
    first = tmp_path / "first"
    for source in SOURCES:
        import_into(first, source)
    exported = tmp_path / "out.json"
    code, _, err = run_captured("--db", first, "export", "--format", "json", "-o", exported)
    assert code == 0, err
    again = tmp_path / "again"
    import_into(again, exported)
    before, after = list_json(first), list_json(again)
    assert sorted(map(json.dumps, map(record_of, after))) == sorted(
        map(json.dumps, map(record_of, before))
    )
    assert any(row["openreview_id"] for row in before) and any(row["extra"] for row in before)
