"""Unit tests of the ingest fixes for hostile imports: surrogates, names, JSON limits, reads."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from papershelf.storage.errors import IngestError
from papershelf.storage.ingest.decode import _read_capped, source_name
from papershelf.storage.ingest.parse import parse_bytes
from papershelf.storage.text.clean import clean_name, clean_text

CONTROLS = {chr(code) for code in (*range(0x20), *range(0x7F, 0xA0))}
SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
ANY_TEXT = st.text(st.one_of(st.characters(), SURROGATES), max_size=40)


@given(ANY_TEXT)
def test_clean_text_leaves_no_lone_surrogate(text: str) -> None:
    cleaned = clean_text(text)
    cleaned.encode("utf-8")  # raises on a lone surrogate
    assert clean_text(cleaned) == cleaned


def test_clean_text_drops_surrogates_in_long_text_too() -> None:
    text = "é" * 5000 + "\ud800" + "a" * 5000
    assert clean_text(text) == "é" * 5000 + "a" * 5000


@given(ANY_TEXT)
def test_clean_name_is_one_encodable_line_without_controls(name: str) -> None:
    cleaned = clean_name(name)
    cleaned.encode("utf-8")
    assert not set(cleaned) & CONTROLS


def test_clean_name_shows_undecodable_bytes_and_flattens_lines() -> None:
    assert clean_name(os.fsdecode(b"caf\xe9.txt")) == "caf\ufffd.txt"
    assert clean_name("bad\nname\x1b[2J\t.txt") == "bad name .txt"
    assert clean_name("plain name.txt") == "plain name.txt"


def test_source_name_is_the_clean_base_name() -> None:
    assert source_name(Path("/some/dir/odd\x07name.jsonl")) == "oddname.jsonl"


def test_a_record_with_surrogate_escapes_imports_without_them() -> None:
    data = b'{"title": "T\\ud800", "abstract": "We propose \\udc00SurNet, a model."}\n'
    (paper,) = parse_bytes(data, "s.jsonl").papers
    assert (paper.title, paper.abstract) == ("T", "We propose SurNet, a model.")


def test_parse_bytes_cleans_the_source_it_is_given() -> None:
    result = parse_bytes(b"We propose NameNet, a model.\n", "a\nb\x1b.txt")
    assert result.source == "a b.txt"
    assert result.papers[0].sources == ("a b.txt",)
    with pytest.raises(IngestError) as caught:
        parse_bytes(b"", "a\nb\x1b.txt")
    assert str(caught.value) == "a b.txt: empty file"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 5000, "deep.json, line 1: not valid JSON: nested too deeply"),
        (
            b'[\n{"abstract": "We propose N, a model.",\n "n": ' + b"9" * 5000 + b"}]",
            "deep.json, line 3: not valid JSON: a number has too many digits",
        ),
    ],
)
def test_json_beyond_python_limits_is_a_one_line_error(data: bytes, message: str) -> None:
    with pytest.raises(IngestError) as caught:
        parse_bytes(data, "deep.json")
    assert str(caught.value) == message


def test_json_lines_name_the_line_of_the_long_number() -> None:
    good = b'{"abstract": "We propose A, a model."}\n'
    bad = b'{"abstract": "We propose B, a model.", "n": ' + b"1" * 4400 + b"}\n"
    with pytest.raises(IngestError) as caught:
        parse_bytes(good + good + bad, "x.jsonl")
    assert str(caught.value) == "x.jsonl, line 3: not valid JSON: a number has too many digits"


def test_deep_brackets_in_a_text_file_are_plain_text() -> None:
    text = b"[" * 5000 + b" is how this odd abstract begins.\n"
    (paper,) = parse_bytes(text, "deep.txt").papers
    assert paper.abstract == text.decode().strip()


@pytest.mark.parametrize("size", [0, 10, 99, 100, 150])
def test_read_capped_reads_the_whole_file_whatever_its_stat_said(size: int) -> None:
    # A size under 100: the file grew after the stat (or is a /proc file, which says 0).
    data = bytes(range(100))
    assert _read_capped(io.BytesIO(data), size) == data


def test_read_capped_stops_one_byte_past_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("papershelf.storage.ingest.decode.MAX_FILE_BYTES", 1000)
    monkeypatch.setattr("papershelf.storage.ingest.decode._GROWN_CHUNK", 64)
    assert len(_read_capped(io.BytesIO(b"x" * 5000), 10)) == 1001
    assert len(_read_capped(io.BytesIO(b"x" * 5000), 5000)) == 1001


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[31mEvil\x1b[0m title", "Evil title"),  # SGR colour
        ("a \x1b]0;pwned\x07title", "a title"),  # OSC window title, BEL-ended
        ("a \x1b]8;;https://x.example\x1b\\link\x1b]8;;\x1b\\ b", "a link b"),  # OSC 8 hyperlink
        ("clear\x1b[2J\x1b[H screen", "clear screen"),
        ("lone \x1b escape", "lone  escape"),  # no sequence: the ESC alone goes
    ],
)
def test_terminal_escape_sequences_go_whole(raw: str, shown: str) -> None:
    """Found by attack13: a RIS title `\\x1b[31mEvil\\x1b]0;pwn\\x07` was listed as
    `[31mEvil]0;pwn`: the ESC went, the rest of the sequence stayed as junk text."""
    assert clean_text(raw) == shown
    assert clean_text(shown) == shown


def test_an_imported_title_keeps_no_escape_sequence_remnants() -> None:
    data = b"TY  - JOUR\nTI  - \x1b[31mEvil\x1b]0;pwn\x07 title\nAB  - An abstract.\nER  - \n"
    (paper,) = parse_bytes(data, "bad.ris").papers
    assert paper.title == "Evil title"
