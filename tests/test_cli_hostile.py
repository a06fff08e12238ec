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
import threading
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage import ingest
from storage.library import Library
from tui.cli import main

NOW = "2025-07-01T00:00:00Z"
"""Fixed import time, so that two libraries given the same papers write the same bytes."""
MIB = 1024 * 1024
BASE_ABSTRACT = "We propose BaseNet, a network that is already in the library before the test."
GOOD_ABSTRACTS = (
    "We introduce GoodFormer, a transformer for good files. Code: https://github.com/ex/good.",
    "We present SecondFlow, a flow model that imports next to hostile files.",
)
GOOD_TEXT = "ICML 2025 Papers\n\n" + "\n\n".join(GOOD_ABSTRACTS) + "\n"
GOOD_LINE = "good.txt: 2 added, 0 duplicates, 0 skipped\n"
OTHER_TEXT = (
    "ICML 2025 Papers\n\nWe propose Ünïcode-Net, a model trained on text that is not ASCII.\n\n"
    "Large models memorise [MASK] tokens; we study why and fix it.\n"
)
LATIN1 = "Old list 2024\n\nA first abstract that is fine.\n\nCaf\u00e9 abstracts are not UTF-8.\n"
CONTROL = {chr(code) for code in (*range(0x20), *range(0x7F, 0xA0))} - {"\n"}


def write_bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def make_dir(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text(GOOD_TEXT)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_sparse(path: Path) -> None:
    path.touch()
    os.truncate(path, 500 * MIB)  # a hole: no disk used, but reading it would take 500 MiB


def make_long_line(path: Path) -> None:
    path.write_bytes(b"word " * (10 * MIB))  # 50 MiB, one line


@dataclass(frozen=True)
class Hostile:
    """One hostile file and exactly what `papershelf import` says about it."""

    name: str
    make: Callable[[Path], None]
    error: str | None
    """The exact message after `papershelf: ` on stderr, or None when the file imports."""
    added: int = 0
    skipped: int = 0
    seconds: float = 5.0
    """The command must return within this time."""

    @property
    def stdout(self) -> str:
        """Its own report line (when it imports), the good file's, then the summary."""
        lines = (
            []
            if self.error
            else [f"{self.name}: {self.added} added, 0 duplicates, {self.skipped} skipped\n"]
        )
        new = self.added + len(GOOD_ABSTRACTS)
        lines += [GOOD_LINE, f"{new} new papers; the library holds {1 + new} papers.\n"]
        return "".join(lines)

    @property
    def stderr(self) -> str:
        return f"papershelf: {self.error}\n" if self.error else ""


CASES = [
    Hostile(
        "latin1.txt",
        write_bytes(LATIN1.encode("latin-1")),
        "latin1.txt, line 5: not valid UTF-8 text (byte 0xE9); save the file as UTF-8",
    ),
    Hostile("utf16le-bom.txt", write_bytes(b"\xff\xfe" + OTHER_TEXT.encode("utf-16-le")), None, 2),
    Hostile("utf16be-bom.txt", write_bytes(b"\xfe\xff" + OTHER_TEXT.encode("utf-16-be")), None, 2),
    Hostile(
        "utf16-no-bom.txt",
        write_bytes(OTHER_TEXT.encode("utf-16-le")),
        "utf16-no-bom.txt: is a binary file (it contains NUL bytes), not a text file",
    ),
    Hostile("utf8-bom.txt", write_bytes(b"\xef\xbb\xbf" + OTHER_TEXT.encode()), None, 2),
    Hostile(
        "nul.txt",
        write_bytes(OTHER_TEXT.encode().replace(b"ASCII", b"AS\x00CII")),
        "nul.txt: is a binary file (it contains NUL bytes), not a text file",
    ),
    Hostile(
        "paper.pdf",
        write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
        "paper.pdf: is a PDF, not a text file",
    ),
    Hostile(
        "abstracts.txt.gz",
        write_bytes(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(256))),
        "abstracts.txt.gz: is a gzip archive, not a text file",
    ),
    Hostile("abstracts.d", make_dir, "abstracts.d: is a directory, not a file"),
    Hostile("pipe.txt", make_fifo, "pipe.txt: is a FIFO (named pipe), not a file", seconds=1.0),
    Hostile(
        "huge.txt",
        make_sparse,
        "huge.txt: file too large (500.0 MiB; the limit is 64.0 MiB)",
        seconds=1.0,
    ),
    Hostile(
        "long.txt",
        make_long_line,
        "long.txt, line 1: paragraph of 52,428,799 characters is too long for an abstract "
        "(the limit is 20,000)",
    ),
    Hostile("empty.txt", write_bytes(b""), "empty.txt: empty file"),
    Hostile("header.txt", write_bytes(b"ICML 2025 Papers\n"), None),
    Hostile(
        "headers.txt",
        write_bytes(b"ICML 2025 Papers\n\n## Oral Session 1\n\nPoster Session 2\n"),
        None,
        skipped=2,
    ),
]


@pytest.fixture(autouse=True)
def _fixed_import_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every import stamps NOW, so papers.json of two libraries can be compared byte for byte."""
    monkeypatch.setattr(ingest, "_now", lambda: NOW)


def make_library(root: Path) -> None:
    """A library holding one paper with a tag, so that both library files exist."""
    base = root.parent / "base.txt"
    base.write_text("ICML 2025 Papers\n\n" + BASE_ABSTRACT + "\n")
    library = Library.open(root, seed=False)
    library.import_files([base])
    library.tag([library.papers()[0].id], add=["keep"])


def unblock(path: Path) -> None:
    """Give EOF to a reader stuck opening a FIFO; never blocks (no reader: ENXIO)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return
    os.close(fd)


def run_within(
    seconds: float, capsys: pytest.CaptureFixture[str], argv: list[str], fifo: Path | None = None
) -> tuple[int, str, str]:
    """`main(argv)` in a thread; fails unless it returns within `seconds`. (code, out, err)."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["code"] = main(argv)
        except BaseException as error:  # handed to the test thread below
            box["error"] = error

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        if fifo is not None:
            unblock(fifo)
        thread.join(5)
        pytest.fail(f"papershelf import did not return within {seconds:g} s")
    out, err = capsys.readouterr()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["code"], out, err  # type: ignore[return-value]


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

    assert (code, out, err) == (1 if case.error else 0, case.stdout, case.stderr)
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
    assert set(out) & CONTROL == set()


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
    assert set(out + err + shown) & CONTROL == set()
