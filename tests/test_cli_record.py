"""`papershelf show` and `--json` with a paper's bibliographic record (issue 13): authors, year,
identifiers, PDF. Run in-process through `main()`, on a library made by a real import of
`tests/fixtures/record_fields.jsonl` and a few hostile records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import import_records, run

FIXTURE = Path(__file__).parent / "fixtures" / "record_fields.jsonl"
HOSTILE = {
    "title": "Hostile: authors full of markup and escapes",
    "abstract": "We propose Hostile, a kiwi counter whose authors are not to be trusted.",
    "authors": ["[bold]Mallory[/bold] Markup", "Eve \x1b[2J\x1b]0;pwned\x07Escape", "Q" * 300],
    "year": 2025,
    "pdf": "https://kiwi.example.org/[b]paper[/b].pdf",
}


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    records = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    return import_records(capsys, tmp_path / "lib", [*records, HOSTILE])


def show(capsys: pytest.CaptureFixture[str], db: Path, ref: str, *more: str) -> str:
    code, out, err = run(capsys, "--db", db, "show", ref, *more)
    assert (code, err) == (0, "")
    return out


def ids(capsys: pytest.CaptureFixture[str], db: Path) -> dict[str, str]:
    code, out, _ = run(capsys, "--db", db, "list", "--json")
    assert code == 0
    return {paper["title"].split()[0]: paper["id"] for paper in json.loads(out)}


def test_show_prints_the_record(db, capsys) -> None:
    out = show(capsys, db, ids(capsys, db)["Attention"])
    lines = out.splitlines()
    authors = (
        "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, "
        "Aidan N. Gomez, Łukasz Kaiser, Illia Polosukhin"
    )
    assert f" authors: {authors}" in lines
    assert "    year: 2017" in lines
    assert "   venue: NeurIPS 2017" in lines
    assert "     ids: doi:10.48550/arxiv.1706.03762  arxiv:1706.03762" in lines
    assert "    page: https://papers.nips.cc/paper/7181-attention-is-all-you-need" in lines
    assert "     pdf: https://arxiv.org/pdf/1706.03762v7" in lines
    # In this order, the record first.
    order = [line.split(":")[0].strip() for line in lines[2:] if ": " in line]
    assert order[:5] == ["id", "authors", "year", "venue", "ids"]


def test_show_prints_an_openreview_id(db, capsys) -> None:
    lines = show(capsys, db, ids(capsys, db)["Learning"]).splitlines()
    assert "     ids: openreview:B1ElR4cgg" in lines
    assert " authors: Hjelm, R Devon, Fedorov, Alex, Lavoie-Marchildon, Samuel" in lines


def test_a_paper_without_a_record_shows_no_empty_fields(tmp_path, capsys) -> None:
    db = import_records(
        capsys, tmp_path / "lib", [{"title": "Bare", "abstract": "We propose Bare, a thing."}]
    )
    (paper_id,) = ids(capsys, db).values()
    out = show(capsys, db, paper_id)
    for field in ("authors:", "year:", "ids:", "pdf:"):
        assert field not in out
    record = json.loads(show(capsys, db, paper_id, "--json"))
    assert record["authors"] == [] and record["extra"] == {}
    for key in ("year", "pdf_url", "doi", "arxiv_id", "openreview_id", "kind", "cite_key"):
        assert record[key] is None


def test_show_json_carries_the_record(db, capsys) -> None:
    record = json.loads(show(capsys, db, ids(capsys, db)["Attention"], "--json"))
    assert record["authors"][0] == "Ashish Vaswani" and len(record["authors"]) == 8
    assert record["year"] == 2017
    assert record["doi"] == "10.48550/arxiv.1706.03762"
    assert record["arxiv_id"] == "1706.03762"
    assert record["openreview_id"] is None
    assert record["pdf_url"] == "https://arxiv.org/pdf/1706.03762v7"
    # `links` keeps its meaning: the abstract's links, then the page.
    assert record["links"] == ["https://papers.nips.cc/paper/7181-attention-is-all-you-need"]
    keys = list(record)
    assert keys.index("year") == keys.index("authors") + 1
    assert keys[keys.index("url") :][:5] == ["url", "pdf_url", "doi", "arxiv_id", "openreview_id"]


def test_list_json_carries_the_record_too(db, capsys) -> None:
    code, out, _ = run(capsys, "--db", db, "list", "--json", "DIM")
    rows = json.loads(out)
    assert code == 0 and rows[0]["openreview_id"] == "B1ElR4cgg" and rows[0]["year"] == 2019


def test_hostile_authors_print_literally_and_cleanly(db, capsys) -> None:
    out = show(capsys, db, ids(capsys, db)["Hostile:"])
    (line,) = [line for line in out.splitlines() if line.startswith(" authors: ")]
    assert "[bold]Mallory[/bold] Markup" in line
    assert "\x1b" not in out and "\x07" not in out
    assert "Q" * 300 in line
    assert "     pdf: https://kiwi.example.org/[b]paper[/b].pdf" in out.splitlines()
    record = json.loads(show(capsys, db, ids(capsys, db)["Hostile:"], "--json"))
    assert record["authors"][0] == "[bold]Mallory[/bold] Markup"
    assert all("\x1b" not in name for name in record["authors"])
