"""`papershelf export --format markdown|bibtex|csv|json`, the format taken from `-o`'s suffix,
and what each format holds (CSV and JSON as `show --json` names things)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import bibtexparser
import pytest
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors
from cli_helpers import import_records, run

from papershelf.storage.export.table import JSON_KEYS
from papershelf.storage.library.library import Library

RECORDS = [
    {
        "title": "Attention Is All You Need",
        "abstract": "The dominant sequence transduction models are recurrent. We use attention.",
        "venue": "NeurIPS 2017",
        "url": "https://arxiv.org/abs/1706.03762",
        "authors": ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit"],
    },
    {
        "title": "Graph Attention Networks & 100% of {Nodes}",
        "abstract": "We present graph attention networks (GATs), a novel architecture.",
        "venue": "ICLR 2018",
        "authors": ["Petar Veličković", "Guillem Cucurull"],
    },
    {"abstract": "An abstract and nothing else, about attention."},
]


def paper_id(capsys: pytest.CaptureFixture[str], root: Path, query: str) -> str:
    code, out, _ = run(capsys, "--db", root, "list", "--json", query)
    (row,) = json.loads(out)
    return str(row["id"])


@pytest.fixture
def shelf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = import_records(capsys, tmp_path / "lib", RECORDS)
    assert (
        run(capsys, "--db", root, "tag", paper_id(capsys, root, "'transduction"), "+to-read")[0]
        == 0
    )
    gat = paper_id(capsys, root, "'GATs")
    assert run(capsys, "--db", root, "tag", gat, "+gnn", "+to-read")[0] == 0
    return root


def entries(text: str) -> list[dict[str, object]]:
    parsed = bibtexparser.parse_string(
        text, append_middleware=[SeparateCoAuthors(), LatexDecodingMiddleware()]
    )
    assert not parsed.failed_blocks
    return [
        {"@type": e.entry_type, "@key": e.key, **{f.key: f.value for f in e.fields}}
        for e in parsed.entries
    ]


def test_bibtex_to_standard_output(shelf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--db", shelf, "export", "--format", "bibtex", "#to-read")
    assert code == 0, err
    found = entries(out)
    assert [(e["@type"], e["@key"]) for e in found] == [
        ("inproceedings", "vaswani2017attention"),
        ("inproceedings", "velickovic2018graph"),
    ]
    # Each name as BibTeX's `von Last, Jr, First`, which every BibTeX reader splits alike.
    assert found[0]["author"] == [
        "Vaswani, Ashish",
        "Shazeer, Noam",
        "Parmar, Niki",
        "Uszkoreit, Jakob",
    ]
    assert found[1]["title"] == "Graph Attention Networks & 100% of {Nodes}"
    assert found[1]["author"] == ["Veličković, Petar", "Cucurull, Guillem"]
    assert found[0]["year"] == "2017" and found[0]["booktitle"] == "NeurIPS 2017"


@pytest.mark.parametrize(
    ("name", "args", "start"),
    [
        ("out.bib", [], "@"),
        ("out.BIB", [], "@"),
        ("out.csv", [], "id,name,title"),
        ("out.json", [], "["),
        ("out.md", [], "# Reading list"),
        ("out.txt", [], "# Reading list"),
        ("out.bib", ["--format", "json"], "["),
        ("out", ["--format", "csv"], "id,"),
    ],
)
def test_the_format_comes_from_the_option_else_the_suffix(
    shelf: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    args: list[str],
    start: str,
) -> None:
    target = tmp_path / name
    code, out, err = run(capsys, "--db", shelf, "export", "attention", "-o", target, *args)
    assert code == 0, err
    assert out == f"wrote 3 papers to {target}\n"
    assert target.read_text(encoding="utf-8").startswith(start)


def test_a_file_and_standard_output_hold_the_same_text(
    shelf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt in ("bibtex", "csv", "json"):
        target = tmp_path / f"x.{fmt}"
        assert (
            run(capsys, "--db", shelf, "export", "attention", "--format", fmt, "-o", target)[0] == 0
        )
        code, out, _ = run(capsys, "--db", shelf, "export", "attention", "--format", fmt)
        assert code == 0 and out == target.read_text(encoding="utf-8"), fmt


def test_json_rows_match_show_json(shelf: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--db", shelf, "export", "--format", "json", "attention")
    rows = json.loads(out)
    assert code == 0 and [list(row) for row in rows] == [list(JSON_KEYS)] * 3
    for row in rows:
        shown = json.loads(run(capsys, "--db", shelf, "show", "--json", row["id"])[1])
        for key in set(row) & set(shown):
            assert row[key] == shown[key], key
    assert rows[0]["year"] is None  # the record's own year; BibTeX reads one from the venue


def test_csv_is_safe_for_spreadsheets(
    shelf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "list.csv"
    gat = paper_id(capsys, shelf, "'GATs")
    Library.open(shelf, create=False).set_note(gat, '=HYPERLINK("http://x")')
    assert run(capsys, "--db", shelf, "export", "attention", "-o", target)[0] == 0
    table = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"), newline="")))
    assert [row["id"] for row in table][:2] and len(table) == 3
    by_id = {row["id"]: row for row in table}
    assert by_id[gat]["note"] == '\'=HYPERLINK("http://x")'
    assert by_id[gat]["authors"] == "Petar Veličković; Guillem Cucurull"
    assert by_id[gat]["tags"] == "gnn; to-read" and by_id[gat]["starred"] == "no"


def test_an_unknown_format_is_a_usage_error(
    shelf: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--db", shelf, "export", "--format", "rtf")
    assert code == 2 and "invalid choice: 'rtf'" in err


def test_a_full_record_goes_out_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON records with year, DOI, arXiv and PDF links: BibTeX, CSV and JSON carry them."""
    root = tmp_path / "lib"
    fixture = Path(__file__).resolve().parent / "fixtures" / "record_fields.jsonl"
    assert run(capsys, "--db", root, "import", fixture)[0] == 0
    code, out, err = run(capsys, "--db", root, "export", "--format", "bibtex")
    assert code == 0, err
    attention = next(e for e in entries(out) if e["@key"] == "vaswani2017attention")
    assert attention["@type"] == "inproceedings" and attention["year"] == "2017"
    assert attention["doi"] == "10.48550/arxiv.1706.03762"
    assert (attention["eprint"], attention["archiveprefix"]) == ("1706.03762", "arXiv")
    assert attention["url"] == "https://papers.nips.cc/paper/7181-attention-is-all-you-need"
    assert attention["pdf"] == "https://arxiv.org/pdf/1706.03762v7"
    hjelm = next(e for e in entries(out) if str(e["@key"]).startswith("hjelm"))
    assert hjelm["@key"] == "hjelm2019learning" and hjelm["booktitle"] == "ICLR 2019"
    rows = json.loads(run(capsys, "--db", root, "export", "--format", "json")[1])
    by_title = {row["title"]: row for row in rows}
    row = by_title["Attention Is All You Need"]
    assert (row["year"], row["arxiv_id"]) == (2017, "1706.03762")
    assert row["pdf_url"] == "https://arxiv.org/pdf/1706.03762v7"
    table = list(
        csv.DictReader(io.StringIO(run(capsys, "--db", root, "export", "--format", "csv")[1]))
    )
    assert {r["doi"] for r in table} == {"10.48550/arxiv.1706.03762", ""}


def test_a_json_or_bibtex_export_imports_back_as_the_same_papers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What goes out for scripts or citations comes back in as the same papers (same ids, so
    tags and notes would attach), with their record."""
    root = tmp_path / "lib"
    fixture = Path(__file__).resolve().parent / "fixtures" / "record_fields.jsonl"
    assert run(capsys, "--db", root, "import", fixture)[0] == 0
    before = {row["id"]: row for row in json.loads(run(capsys, "--db", root, "list", "--json")[1])}
    for fmt in ("json", "bibtex"):
        out = tmp_path / f"out.{fmt}"
        assert run(capsys, "--db", root, "export", "--format", fmt, "-o", out)[0] == 0
        again = tmp_path / f"again-{fmt}"
        code, _, err = run(capsys, "--db", again, "import", out)
        assert code == 0, err
        after = json.loads(run(capsys, "--db", again, "list", "--json")[1])
        assert {row["id"] for row in after} == set(before), fmt
        for row in after:
            for key in ("year", "doi", "arxiv_id", "pdf_url", "abstract"):
                assert row[key] == before[row["id"]][key], (fmt, key)


def test_a_csv_export_imported_back_is_refused_in_one_line(
    shelf: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Found by attack13: importing our own CSV made one junk paper named after its header."""
    table = tmp_path / "list.csv"
    assert run(capsys, "--db", shelf, "export", "--format", "csv", "-o", table)[0] == 0
    fresh = tmp_path / "fresh"
    code, out, err = run(capsys, "--db", fresh, "import", table)
    assert code == 1
    assert err.count("\n") == 1
    assert "list.csv: a CSV table" in err and "--format json" in err
    assert "0 new papers" in out
    # The same table under another name is refused too: it is told by its header.
    renamed = tmp_path / "list.txt"
    renamed.write_bytes(table.read_bytes())
    code, _, err = run(capsys, "--db", fresh, "import", renamed)
    assert code == 1 and "list.txt: a CSV table" in err
