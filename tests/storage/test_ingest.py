"""Ingest: the seeds, the text format, JSON records, merging (storage/ingest/parse.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.parse import (
    MAX_ABSTRACT_CHARS,
    ParseResult,
    dedupe_key,
    merge_papers,
    paper_id,
    parse_bytes,
    read_file,
)
from papershelf.storage.model import Paper

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
FIXTURES = ROOT / "tests" / "fixtures" / "ingest"
NOW = "2025-01-01T00:00:00Z"


def seed_library() -> dict[str, Paper]:
    library: dict[str, Paper] = {}
    for path in SEEDS:
        for paper in read_file(path).papers:
            old = library.get(paper.id)
            library[paper.id] = paper if old is None else merge_papers(old, paper)
    return library


def by_name(papers: list[Paper] | dict[str, Paper]) -> dict[str, Paper]:
    values = papers.values() if isinstance(papers, dict) else papers
    return {paper.name: paper for paper in values}


def test_seeds_give_34_unique_papers_with_4_in_both_files() -> None:
    library = seed_library()
    assert len(SEEDS) == 2
    assert len(library) == 34
    shared = [paper for paper in library.values() if len(paper.sources) == 2]
    assert len(shared) == 4
    assert {paper.sources for paper in shared} == {tuple(path.name for path in SEEDS)}


def test_seed_headers_give_venue_and_no_skips() -> None:
    for path in SEEDS:
        result = read_file(path)
        assert result.venue == "ICML 2025"
        assert result.skipped == 0
        assert result.duplicates == 0
        assert all(paper.venue == "ICML 2025" for paper in result.papers)
        assert all(paper.sources == (path.name,) for paper in result.papers)


def test_seed_code_urls_exactly() -> None:
    library = by_name(seed_library())
    expected = {
        "denovo": "BEAM-Labs/denovo",
        "SafeDiffCon": "AI4Science-WestlakeU/safediffcon",
        "SAUB": "inouye-lab/SAUB",
        "Info-Coevolution": "NUS-HPC-AI-Lab/Info-Coevolution",
        "ConText": "Ferenas/ConText",
        "SMFS-Identification": "SalapakaLab-SIMBioSys/SMFS-Identification",
        "CoIN": "JingyangQiao/CoIN",
        "LIFT": "zihanghliu/LIFT",
    }
    found = {name: paper.code_urls for name, paper in library.items() if paper.code_urls}
    assert found == {name: (f"https://github.com/{repo}",) for name, repo in expected.items()}
    links = {name: paper.links for name, paper in library.items() if paper.links}
    assert links == {
        "STRING": ("https://sites.google.com/view/string-robotics",),
        "SOLD": ("https://slot-latent-dynamics.github.io",),
    }
    focoop = library["FOCoOp"]
    assert focoop.abstract.endswith("The project is available at GitHub.")
    assert focoop.code_urls == () and focoop.links == ()


SEED_NAMES = [
    *("RelGNN", "SUICA", "K²IE", "SafeDiffCon", "LEVIS", "NCAL", "UniSim", "k-DTW", "ConText"),
    *("SQAOA", "Fed-ICL", "STRING", "EARL-BO", "SOLD", "KEA", "Habi", "LIFT", "PIPA", "FOCoOp"),
    "Info-Coevolution",
]


def test_seed_names() -> None:
    library = seed_library()
    names = [paper.name for paper in library.values()]
    for name in SEED_NAMES:
        assert name in names
    assert len(set(names)) == len(names)
    # Every name reads as a name or headline: short, no markup, no dangling words.
    for name in names:
        assert 2 <= len(name) <= 70
        assert "$" not in name and "*" not in name and "\\" not in name
        assert name.rstrip("…").split()[-1].lower() not in {"of", "the", "and", "a", "for", "to"}


def test_seed_names_without_a_method_are_headlines() -> None:
    library = by_name(seed_library())
    assert "The effects of noisy labels in offline alignment" in library
    assert "The convergence behavior of score-based graph generative models" in library
    assert "PES" in library  # "We introduce PES, a phase-based method"


def test_bom_crlf_and_hard_wrapped_paragraphs() -> None:
    text = "ICML 2024 Papers\r\n\r\nWe propose FooNet, a\r\nwrapped abstract.\r\n\r\n"
    text += "Second one here.\r\n"
    result = parse_bytes(b"\xef\xbb\xbf" + text.encode(), "list.txt", now=NOW)
    assert result.venue == "ICML 2024"
    assert [paper.abstract for paper in result.papers] == [
        "We propose FooNet, a wrapped abstract.",
        "Second one here.",
    ]
    assert result.papers[0].name == "FooNet"
    assert result.papers[0].imported_at == NOW


def test_wrapped_fixture_separators_sections_duplicates() -> None:
    result = read_file(FIXTURES / "wrapped.txt")
    assert result.source == "wrapped.txt"
    assert result.venue == "NeurIPS 2024"
    assert result.skipped == 2  # "Oral Session 3" and "## Poster Session"
    assert result.duplicates == 1  # the FooNet abstract again, with other spacing
    assert [paper.name for paper in result.papers][:2] == ["FooNet", "BarGAN"]
    assert result.papers[0].abstract.startswith("We propose FooNet, a novel network for hard-")
    assert "$5 million" in result.papers[2].abstract


def test_venue_argument_wins() -> None:
    result = read_file(FIXTURES / "wrapped.txt", venue="My Venue")
    assert result.venue == "My Venue"
    assert {paper.venue for paper in result.papers} == {"My Venue"}


def test_chinese_header_and_no_header() -> None:
    result = parse_bytes("ICML 2025 论文列表\n\nAn abstract.\n".encode(), "a.txt")
    assert result.venue == "ICML 2025"
    result = parse_bytes(b"Just one abstract. It has two sentences.\n", "b.txt")
    assert result.venue is None and len(result.papers) == 1


def test_stray_control_characters_are_removed() -> None:
    data = "We propose Ctl\x01Net\x1b[31m, red\x7f text \u202eevil\u202c here.\x85".encode()
    paper = parse_bytes(data, "c.txt").papers[0]
    assert paper.abstract == "We propose CtlNet, red text evil here."


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_by_bom(codec: str) -> None:
    bom = b"\xff\xfe" if codec.endswith("le") else b"\xfe\xff"
    data = bom + "ICML 2025 Papers\n\nWe introduce Ünïcode, twice.\n".encode(codec)
    result = parse_bytes(data, "u16.txt")
    assert result.venue == "ICML 2025"
    assert result.papers[0].abstract == "We introduce Ünïcode, twice."


def test_latin1_is_refused_naming_the_line() -> None:
    data = "Header\n\nFine line.\n\nCaf\u00e9 cr\u00e8me.\n".encode("latin-1")
    with pytest.raises(IngestError) as error:
        parse_bytes(data, "latin.txt")
    assert error.value.line == 5
    assert str(error.value).startswith("latin.txt, line 5: not valid UTF-8")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"%PDF-1.7\n...", "PDF"),
        (b"\x1f\x8b\x08\x00rest", "gzip"),
        (b"PK\x03\x04rest", "zip"),
        (b"text\x00with a NUL", "NUL"),
    ],
)
def test_binary_is_refused(data: bytes, what: str) -> None:
    with pytest.raises(IngestError, match=what):
        parse_bytes(data, "bin.dat")


def test_directory_fifo_and_missing_are_refused(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="directory"):
        read_file(tmp_path)
    fifo = tmp_path / "pipe.txt"
    os_mkfifo = pytest.importorskip("os").mkfifo
    os_mkfifo(fifo)
    # Opening a FIFO would block until a writer appears; it must be refused from stat alone.
    with pytest.raises(IngestError, match="FIFO"):
        read_file(fifo)
    with pytest.raises(IngestError, match="no such file"):
        read_file(tmp_path / "missing.txt")


def test_device_is_refused() -> None:
    with pytest.raises(IngestError, match="device"):
        read_file(Path("/dev/zero"))


def test_huge_sparse_file_is_refused_from_its_size(tmp_path: Path) -> None:
    path = tmp_path / "sparse.txt"
    with path.open("wb") as handle:
        handle.write(b"[" + b" " * 8192)  # a JSON array must be held whole
        handle.truncate(500 * 1024 * 1024)  # sparse: no disk used, reading it would take long
    with pytest.raises(IngestError, match="too large"):
        read_file(path)


def test_empty_and_header_only(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="empty file"):
        parse_bytes(b"", "e.txt")
    with pytest.raises(IngestError, match="empty file"):
        parse_bytes(b" \n\n\t\n", "e.txt")
    path = tmp_path / "header.txt"
    path.write_text("ICML 2025 Papers\n")
    result = read_file(path)
    assert result == ParseResult("header.txt", "ICML 2025", [], 0, 0)


def test_over_long_single_line_is_refused_quickly() -> None:
    data = b"ICML 2025 Papers\n\n" + b"word " * (10 * 1024 * 1024)  # 50 MiB, one line
    with pytest.raises(IngestError) as error:
        parse_bytes(data, "long.txt")
    assert error.value.line == 3
    assert f"{MAX_ABSTRACT_CHARS:,}" in str(error.value)


def test_json_lines_records() -> None:
    result = read_file(FIXTURES / "corpus_excerpt.jsonl")
    assert result.venue == "ICML 2025"
    assert len(result.papers) == 33 and result.skipped == 0
    marine = result.papers[23]
    assert marine.title.startswith("Mitigating Object Hallucination")
    assert marine.name == "MARINE"
    assert marine.url == "https://openreview.net/forum?id=w0xYx9CJhY"
    assert "https://openreview.net/forum?id=w0xYx9CJhY" not in marine.links
    assert marine.sources == ("corpus_excerpt.jsonl",)


def test_corpus_copy_merges_with_the_seed_copy() -> None:
    library = seed_library()
    excerpt = read_file(FIXTURES / "corpus_excerpt.jsonl").papers
    shared = [paper for paper in excerpt if paper.id in library]
    assert len(shared) == 23  # final period missing and quotes straightened, still the same
    merged = merge_papers(library[shared[0].id], shared[0])
    assert merged.sources[-1] == "corpus_excerpt.jsonl"
    assert merged.title == shared[0].title  # the seed copy had none


def test_json_array_with_authors_and_code_url() -> None:
    records = [
        {"title": "RelGNN: Composite Message Passing", "abstract": "A study of graphs.",
         "authors": "Ann Lee, Bo Chen and Cy Dee", "url": "https://github.com/x/relgnn.git"},
        {"title": "No abstract here"},
        {"title": "Listed", "abstract": "Another one.", "authors": ["A", "B"], "venue": "X 2020"},
        {"venue": "Neither title, abstract nor identifier"},
    ]  # fmt: skip
    result = parse_bytes(json.dumps(records).encode(), "list.json")
    first, title_only, second = result.papers
    # A reading list may start from a title, as a `.bib` entry may.
    assert (title_only.title, title_only.abstract) == ("No abstract here", "")
    assert result.skipped == 1 and result.venue is None
    assert first.name == "RelGNN" and first.authors == ("Ann Lee", "Bo Chen", "Cy Dee")
    assert first.code_urls == ("https://github.com/x/relgnn",)
    assert second.venue == "X 2020" and second.authors == ("A", "B")
    assert second.name == "Listed"


def test_bad_json_names_the_line() -> None:
    with pytest.raises(IngestError) as error:
        parse_bytes(b'{"abstract": "One."}\n{"abstract": oops}\n', "bad.jsonl")
    assert error.value.line == 2
    with pytest.raises(IngestError, match="must be an object"):
        parse_bytes(b"[1, 2]", "numbers.json")


def test_text_starting_with_a_bracket_is_not_json() -> None:
    result = parse_bytes(b"[MASK] tokens are predicted by our model. It works.\n", "mask.txt")
    assert result.papers[0].abstract.startswith("[MASK] tokens")


def test_merge_papers_rules() -> None:
    old = Paper("abc", "", None, "x", "V", ("a.txt",), ("https://github.com/a/b",), ("l1",))
    new = Paper("abc", "Name", "Title", "x", "W", ("b.txt", "a.txt"), ("https://github.com/c/d",),
                ("l1", "l2"), authors=("Z",))  # fmt: skip
    merged = merge_papers(old, new)
    assert merged.sources == ("a.txt", "b.txt")
    assert merged.name == "Name" and merged.title == "Title" and merged.venue == "V"
    assert merged.code_urls == ("https://github.com/a/b", "https://github.com/c/d")
    assert merged.links == ("l1", "l2") and merged.authors == ("Z",)
    # A record matched by identifier or title has another id: the stored paper's id is kept.
    assert merge_papers(old, Paper("other", "n", None, "y", None, ())).id == "abc"


def test_ids_and_dedupe_key() -> None:
    a = "We study “Robust” learning.  It is   great."
    b = 'we study "robust" learning. It is great'
    assert dedupe_key(a) == dedupe_key(b) == 'we study "robust" learning. it is great'
    assert paper_id(a) == paper_id(b)
    assert len(paper_id(a)) == 12 and int(paper_id(a), 16) >= 0
    assert paper_id(a) != paper_id("We study robust learning. It is bad.")


@pytest.mark.parametrize(
    ("authors", "names"),
    [
        ("Smith, John; Doe, Jane", ("Smith, John", "Doe, Jane")),
        ("Alice Smith; Bob Jones and Cy Dee", ("Alice Smith", "Bob Jones", "Cy Dee")),
        ("Ann Lee, Bo Chen and Cy Dee", ("Ann Lee", "Bo Chen", "Cy Dee")),
    ],
)
def test_authors_in_one_string_are_split_where_people_are(
    authors: str, names: tuple[str, ...]
) -> None:
    record = {"title": "T", "abstract": "An abstract about one thing.", "authors": authors}
    result = parse_bytes(json.dumps(record).encode(), "a.jsonl")
    assert result.papers[0].authors == names
