"""Hostile files through `papershelf import` (issue "Nothing lost, nothing injected", 5 and 9).

Each hostile file is imported in one command together with a good file, in-process through
`tui.cli.main`: the exact lines on stdout and stderr, the exit status, the good file imported,
the library files unchanged by a failing file, and no hang. The Library-level twin of this
table, with the memory checks and the parser property, is tests/storage/test_hostile_imports.py.
The tests at the end check bugs found here, now fixed.
"""

from __future__ import annotations

import os
import shutil
import time
import tracemalloc
from pathlib import Path

import pytest
from hostile_files import (
    CASES,
    CONTROL,
    GOOD_ABSTRACTS,
    GOOD_TEXT,
    LATIN1,
    MIB,
    NOW,
    OTHER_TEXT,
    Hostile,
    finish_within,
    make_library,
    make_sparse,
)

from storage import ingest
from tui.cli import main

GOOD_LINE = "good.txt: 2 added, 0 duplicates, 0 skipped\n"
TERMINAL_CONTROL = CONTROL - {"\n"}
"""Control characters that must not reach the terminal (output lines end in a newline)."""


def expected_stdout(case: Hostile) -> str:
    """Its own report line (when it imports), the good file's, then the summary."""
    added = len(case.abstracts)
    lines = (
        []
        if case.error
        else [f"{case.name}: {added} added, 0 duplicates, {case.skipped} skipped\n"]
    )
    new = added + len(GOOD_ABSTRACTS)
    lines += [GOOD_LINE, f"{new} new papers; the library holds {1 + new} papers.\n"]
    return "".join(lines)


def expected_stderr(case: Hostile) -> str:
    """The file's one-line error after `papershelf: `, or nothing when it imports."""
    return f"papershelf: {case.error}\n" if case.error else ""


@pytest.fixture(autouse=True)
def _fixed_import_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every import stamps NOW, so papers.json of two libraries can be compared byte for byte."""
    monkeypatch.setattr(ingest, "_now", lambda: NOW)


def run_within(
    seconds: float, capsys: pytest.CaptureFixture[str], argv: list[str], fifo: Path | None = None
) -> tuple[int, str, str]:
    """`main(argv)`, failing unless it returns within `seconds`; (code, out, err)."""
    code = finish_within(seconds, lambda: main(argv), fifo)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_import_command_reports_a_hostile_file_exactly_and_imports_the_good_one(
    case: Hostile, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    make_library(db)
    twin = tmp_path / "twin"
    shutil.copytree(db, twin)
    state_before = (db / "state.json").read_bytes()
    hostile = tmp_path / case.name
    case.make(hostile)
    good = tmp_path / "good.txt"
    good.write_text(GOOD_TEXT)

    argv = ["--db", str(db), "import", str(hostile), str(good)]
    code, out, err = run_within(case.seconds, capsys, argv, hostile)

    assert (code, out, err) == (
        1 if case.error else 0,
        expected_stdout(case),
        expected_stderr(case),
    )
    assert (db / "state.json").read_bytes() == state_before
    if case.error:
        # papers.json is exactly what importing the good file alone gives.
        assert main(["--db", str(twin), "import", str(good)]) == 0
        capsys.readouterr()
        assert (db / "papers.json").read_bytes() == (twin / "papers.json").read_bytes()


def test_sparse_500_mib_file_is_refused_at_once_with_little_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    make_library(db)
    huge = tmp_path / "huge.txt"
    make_sparse(huge)
    started = time.perf_counter()
    tracemalloc.start()
    try:
        code = main(["--db", str(db), "import", str(huge)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    elapsed = time.perf_counter() - started
    out, err = capsys.readouterr()
    assert (code, out) == (1, "0 new papers; the library holds 1 paper.\n")
    assert err == "papershelf: huge.txt: file too large (500.0 MiB; the limit is 64.0 MiB)\n"
    assert elapsed < 1.0
    assert peak < 5 * MIB


# -- bugs found here (each test failed before its fix) ------------------------------------------


@pytest.mark.parametrize(
    ("name", "data"),
    [
        # A JSON lone-surrogate escape (\udfff) once reached papers.json's encoder.
        (
            "surrogate.jsonl",
            b'{"title": "Bad \\udfff", "abstract": "We propose TitleNet, a model."}\n',
        ),
        # Deeply nested JSON once raised RecursionError out of ingest.
        ("deep.json", b"[" * 5_000),
        # A JSON integer over 4,300 digits once raised ValueError out of ingest.
        (
            "bigint.json",
            b'[{"abstract": "We propose IntNet, a model.", "n": ' + b"1" * 5_000 + b"}]",
        ),
    ],
    ids=["surrogate.jsonl", "deep.json", "bigint.json"],
)
def test_malformed_json_is_one_line_on_stderr_not_a_traceback(
    name: str, data: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    make_library(db)
    (tmp_path / name).write_bytes(data)
    good = tmp_path / "good.txt"
    good.write_text(GOOD_TEXT)
    code = main(["--db", str(db), "import", str(tmp_path / name), str(good)])
    out, err = capsys.readouterr()
    assert GOOD_LINE in out
    assert code == 0 or (
        code == 1 and err.startswith(f"papershelf: {name}") and err.count("\n") == 1
    )


def test_file_name_that_is_not_utf8_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    make_library(db)
    latin_name = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9.txt")
    Path(latin_name).write_text(OTHER_TEXT)
    good = tmp_path / "good.txt"
    good.write_text(GOOD_TEXT)
    code = main(["--db", str(db), "import", latin_name, str(good)])
    out, err = capsys.readouterr()
    assert code == 0 and GOOD_LINE in out and err == ""
    assert set(out) & TERMINAL_CONTROL == set()


def test_control_characters_in_file_names_never_reach_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "lib"
    make_library(db)
    bad = tmp_path / "bad\nname\x1b[2J.txt"
    bad.write_bytes(LATIN1.encode("latin-1"))
    good = tmp_path / "good\x1b]0;pwned\x07.txt"
    good.write_text(GOOD_TEXT)
    code = main(["--db", str(db), "import", str(bad), str(good)])
    out, err = capsys.readouterr()
    assert code == 1
    assert "2 new papers" in out
    assert err.count("\n") == 1 and "line 5: not valid UTF-8" in err
    code = main(["--db", str(db), "show", "GoodFormer"])
    shown, _ = capsys.readouterr()
    assert code == 0 and "GoodFormer" in shown
    assert set(out + err + shown) & TERMINAL_CONTROL == set()
