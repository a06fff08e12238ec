"""Streamed imports (`ingest.stream`): JSON Lines and abstract lists over the whole-file limit
import a line at a time, exactly as the whole-file reader would read them."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.decode import MAX_FILE_BYTES
from papershelf.storage.ingest.parse import ParseResult, parse_bytes, read_file
from papershelf.storage.ingest.stream import LINE_MAX_BYTES, parse_stream
from papershelf.storage.library.library import Library

MIB = 1024 * 1024
NOW = "2026-12-03T00:00:00Z"


def streamed(data: bytes, source: str) -> ParseResult | str:
    """What `parse_stream` makes of `data`: the result, or the refusal's message."""
    try:
        return parse_stream(io.BytesIO(data), source, len(data), None, now=NOW)
    except IngestError as error:
        return str(error)


def whole(data: bytes, source: str) -> ParseResult | str:
    """What the whole-file reader makes of `data`: the result, or the refusal's message."""
    try:
        return parse_bytes(data, source, now=NOW)
    except IngestError as error:
        return str(error)


WORDS = st.sampled_from(
    ["We propose", "FooNet", "a method", "that works.", "$K^2$IE", "é", "e\u0301", "\t", "x" * 30]
)
LINE_ENDS = st.sampled_from(["\n", "\r\n", "\r"])
TEXT = st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=6).map(" ".join)
RECORD = st.fixed_dictionaries(
    {"abstract": TEXT},
    optional={
        "title": TEXT,
        "authors": st.lists(TEXT, max_size=3),
        "venue": TEXT,
        "year": st.integers(1900, 2100),
        "url": st.sampled_from(["https://github.com/a/b", "https://x.org/p", "nope"]),
        "doi": st.sampled_from(["10.1000/xyz", "bad"]),
    },
)


@settings(max_examples=120)
@given(
    records=st.lists(st.one_of(RECORD, st.just("")), min_size=1, max_size=8),
    ends=st.lists(LINE_ENDS, min_size=8, max_size=8),
    bom=st.booleans(),
)
def test_json_lines_stream_as_the_whole_file_reads(
    records: list[dict[str, object] | str], ends: list[str], bom: bool
) -> None:
    lines = [json.dumps(r, ensure_ascii=False) if r else "" for r in records]
    text = "".join(line + end for line, end in zip(lines, ends, strict=False))
    data = ("\ufeff" if bom else "").encode() + text.encode()
    if not text.lstrip().startswith("{"):
        return  # a file that starts with a blank record line: covered as text below
    assert streamed(data, "r.jsonl") == whole(data, "r.jsonl")


PARAGRAPH = st.lists(st.one_of(WORDS, TEXT), min_size=1, max_size=5)
SEPARATORS = st.sampled_from(["\n\n", "\r\n\r\n", "\r\r", "\n---\n", "\n \n\t\n", "\n"])


@settings(max_examples=120)
@given(
    title=st.sampled_from(["", "ICML 2025 Papers", "## Oral Session 3"]),
    paragraphs=st.lists(st.tuples(PARAGRAPH, SEPARATORS, LINE_ENDS), max_size=6),
)
def test_abstract_lists_stream_as_the_whole_file_reads(
    title: str, paragraphs: list[tuple[list[str], str, str]]
) -> None:
    parts = [title + "\n\n"] if title else []
    for words, separator, end in paragraphs:
        parts.append(end.join(words) + separator)
    data = "".join(parts).encode()
    if data.lstrip()[:1] in (b"{", b"[", b"@", b"<"):
        return  # another format by its first character
    assert streamed(data, "list.txt") == whole(data, "list.txt")


def test_a_bad_line_is_refused_with_its_number() -> None:
    data = b'{"abstract": "We propose A."}\r\n{"abstract": "We propose B."}\n{"abstract": \n'
    assert streamed(data, "r.jsonl") == whole(data, "r.jsonl")
    assert streamed(data, "r.jsonl") == "r.jsonl, line 3: not valid JSON: Expecting value"
    bad = b'{"abstract": "We propose A."}\n{"abstract": "caf\xe9"}\n'
    assert streamed(bad, "r.jsonl") == whole(bad, "r.jsonl")


def test_whole_file_formats_are_refused_from_their_size() -> None:
    size = f"{200:.1f} MiB"
    cases = {
        "a.json": (b'[{"abstract": "We propose A."}]', "a JSON array or object"),
        "o.json": (b'{\n  "papers": []\n}\n', "a JSON array or object"),
        "r.bib": (b"@article{a, title={A}}\n", "BibTeX"),
        "r.ris": (b"TY  - JOUR\nTI  - A\nER  - \n", "RIS"),
        "c.jsonl": (b'{"type": "article-journal", "DOI": "10.1/x"}\n', "CSL JSON"),
        "feed.txt": (b"<?xml version='1.0'?><feed/>", "XML"),
        "u16.txt": ("We propose A.".encode("utf-16"), "UTF-16-LE text"),
    }
    for name, (data, what) in cases.items():
        found = parse_stream_sized(data, name, 200 * MIB)
        assert found == (
            f"{name}: file too large ({size}; the limit for {what} is 64.0 MiB: "
            "only JSON Lines and abstract lists import at any size)"
        )


def parse_stream_sized(data: bytes, source: str, size: int) -> str:
    with pytest.raises(IngestError) as error:
        parse_stream(io.BytesIO(data), source, size, None, now=NOW)
    return str(error.value)


def test_white_space_before_the_first_record_does_not_hide_json_lines() -> None:
    data = b"\n" * 10_000 + b'{"abstract": "We propose A.", "title": "A"}\n'
    found = streamed(data, "r.jsonl")
    assert found == whole(data, "r.jsonl")
    assert isinstance(found, ParseResult) and found.papers[0].title == "A"


def test_notes_and_records_mixed_in_a_stream_are_refused() -> None:
    note = {"id": "abc", "content": {"title": {"value": "T"}, "abstract": {"value": "We do X."}}}
    data = (json.dumps({"abstract": "We propose A."}) + "\n" + json.dumps(note) + "\n").encode()
    assert streamed(data, "n.jsonl") == (
        "n.jsonl, line 2: an OpenReview note among plain JSON records; "
        "import notes and records from separate files"
    )
    notes = (json.dumps(note) + "\n" + json.dumps(note) + "\n").encode()
    assert streamed(notes, "n.jsonl") == whole(notes, "n.jsonl")


def test_an_endless_line_is_refused_without_holding_it() -> None:
    data = b"We propose " + b"x" * (LINE_MAX_BYTES + 10)
    assert streamed(data, "l.txt") == (
        "l.txt, line 1: a line of over 4 MiB is too long for a record or an abstract"
    )
    wrapped = b"We propose\n" * 3000  # no blank line: one paragraph that never ends
    found = streamed(wrapped, "w.txt")
    assert isinstance(found, str) and "too long for an abstract" in found
    assert found.startswith("w.txt, line 1: paragraph of 20,")


def write_big_json_lines(path: Path, records: list[dict[str, object]]) -> None:
    """A JSON Lines file over the whole-file limit: the records, then lines of spaces (a record
    per 64 MiB would take a minute to import; blank lines are read as fast as the disk)."""
    with path.open("wb") as handle:
        for record in records:
            handle.write(json.dumps(record).encode() + b"\n")
        pad = b" " * (MIB - 1) + b"\n"
        for _ in range(MAX_FILE_BYTES // MIB + 1):
            handle.write(pad)
        handle.write(json.dumps({"abstract": "We propose the last paper."}).encode() + b"\n")


def test_a_json_lines_file_over_the_limit_imports(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    records: list[dict[str, object]] = [
        {"abstract": f"We propose method {n}.", "title": f"Method {n}"} for n in range(50)
    ]
    write_big_json_lines(path, records)
    assert path.stat().st_size > MAX_FILE_BYTES
    tracemalloc.start()
    try:
        result = read_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.papers) == 51
    assert result.papers[-1].abstract == "We propose the last paper."
    assert peak < 16 * MIB  # a few lines at a time, never the 65 MiB file
    library = Library.open(tmp_path / "lib", seed=False)
    (report,) = library.import_files([path])
    assert (report.error, report.added) == (None, 51)
    assert library.find("Method 7").abstract == "We propose method 7."
