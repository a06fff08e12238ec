"""The CLI's one way out to the terminal (`papershelf.cli.output`): nothing unsafe passes, safe
text is passed on unchanged, and JSON still parses to the same values."""

from __future__ import annotations

import io
import json
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import papershelf.cli.output as output

C0 = [chr(code) for code in range(0x20)]
C1 = [chr(code) for code in range(0x80, 0xA0)]
BIDI = [chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
UNSAFE = {*C0, "\x7f", *C1, *BIDI, "\u2028", "\u2029"}
"""What must never reach a terminal from data (the CLI's own newlines aside)."""
# What a file name that is not UTF-8 holds (surrogateescape); a high one would pair with it.
SURROGATES = st.integers(0xDC80, 0xDCFF).map(chr)
TEXT = st.text(st.characters(codec=None) | st.sampled_from(sorted(UNSAFE)) | SURROGATES)


def unsafe_in(text: str, *, newline_ok: bool) -> set[str]:
    found = {ch for ch in text if ch in UNSAFE or "\ud800" <= ch <= "\udfff"}
    return found - {"\n"} if newline_ok else found


def test_each_kind_of_unsafe_character_gets_a_visible_stand_in() -> None:
    text = "a\x1b]52;c;aGk=\x07 b\rc\x7fd\x9b2J e\u202ef\u2066g\u2028h\udcffi\tj\nk"
    assert output.terminal_text(text) == (
        "a␛]52;c;aGk=␇ b␍c␡d\ufffd2J e\ufffdf\ufffdg h\ufffdi j k"
    )
    assert output.terminal_text(text, one_line=False) == (
        "a␛]52;c;aGk=␇ b␍c␡d\ufffd2J e\ufffdf\ufffdg\nh\ufffdi j\nk"
    )
    assert output.terminal_text("one\r\ntwo", one_line=False) == "one\ntwo"


@given(text=TEXT)
def test_nothing_unsafe_survives_and_safe_text_is_unchanged(text: str) -> None:
    line = output.terminal_text(text)
    block = output.terminal_text(text, one_line=False)
    assert unsafe_in(line, newline_ok=False) == set()
    assert unsafe_in(block, newline_ok=True) == set()
    assert block.count("\n") == text.count("\n") + text.count("\u2028") + text.count("\u2029")
    assert len(line) == len(text)  # one stand-in per character
    if not unsafe_in(text, newline_ok=False):
        assert line is text  # the fast path hands the same string on


@given(value=st.recursive(st.none() | TEXT | st.integers(), lambda inner: st.lists(inner)))
def test_json_output_has_nothing_unsafe_and_reads_back_the_same(value: object) -> None:
    text = output.json_text({"value": value})
    assert unsafe_in(text, newline_ok=True) == set()
    assert json.loads(text) == {"value": value}


def test_json_dumps_alone_would_leave_c1_and_bidi_raw() -> None:
    # Why json_text exists: ensure_ascii=False escapes C0 controls, and nothing else.
    raw = json.dumps("\x1b\x9b\u202e", ensure_ascii=False)
    assert raw == '"\\u001b\x9b\u202e"'
    assert output.json_text("\x1b\x9b\u202e") == '"\\u001b\\u009b\\u202e"'


def test_lines_are_one_line_each_whatever_they_hold(capsys: pytest.CaptureFixture[str]) -> None:
    output.lines(["plain", "two\nlines", "esc\x1b[2J", ""])
    assert capsys.readouterr().out == "plain\ntwo lines\nesc␛[2J\n\n"
    output.lines([])
    assert capsys.readouterr().out == ""


def test_everything_written_while_guarded_is_cleaned(capsys: pytest.CaptureFixture[str]) -> None:
    with output.guarded_streams():
        print("out \x1b]0;title\x07 kept\nnewline")
        print("err \x9b2J \u202e", file=sys.stderr)
        output.error("bad\nname\x1b")
        output.warning("w\x07")
    captured = capsys.readouterr()
    assert captured.out == "out ␛]0;title␇ kept\nnewline\n"
    assert captured.err == ("err \ufffd2J \ufffd\npapershelf: bad name␛\npapershelf: warning: w␇\n")
    assert not isinstance(sys.stdout, type(output._GuardedStream(io.StringIO())))
