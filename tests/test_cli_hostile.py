"""Hostile files through `papershelf import` (issue "Nothing lost, nothing injected", 5 and 9).

Each hostile file is imported in one command together with a good file, in-process through
`papershelf.cli.main.main`: the exact lines on stdout and stderr, the exit status, the good file
imported, the library files unchanged by a failing file, and no hang. The Library-level twin of this
table, with the memory checks and the parser property, is tests/storage/test_hostile_imports.py.
The tests after it check bugs found here, now fixed.

Then a hostile library through every command (issue #10, "the CLI must sanitise every string it
prints"): each command and error path of the installed console script, bytes scanned.
"""

from __future__ import annotations

import os
import shutil
import subprocess
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
from terminal import papershelf_command

import papershelf.storage.ingest.parse as ingest
from papershelf.cli.main import main
from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper

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
    monkeypatch.setattr(ingest, "utc_now", lambda: NOW)


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
    assert err == (
        "papershelf: huge.txt: file too large (500.0 MiB; the limit for a JSON array or object "
        "is 64.0 MiB: only JSON Lines and abstract lists import at any size)\n"
    )
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


# -- every command and error path through the console script, on a hostile library -------------
#
# The papers, tags, note, journal, file names and even the library's directory hold terminal
# payloads; each command runs as a user runs it (the installed script, in a subprocess) and
# every byte it writes to stdout and stderr is scanned. The CLI's own newlines are the only
# control characters allowed.

OSC_TITLE = "\x1b]0;pwned\x07"  # sets the window title, ends in BEL
OSC_CLIPBOARD = "\x1b]52;c;aGk=\x07"  # writes "hi" to the clipboard
PAYLOAD = f"\x1b[2J{OSC_CLIPBOARD}{OSC_TITLE}\rX\x9b2J\u202eY\u2066Z\x7f\x05\n!"
EVIL = "e1e1e1e1e1e1"
EVIL_NAME = f"EvilNet{PAYLOAD}"
UNSAFE_OUT = {
    *map(chr, range(0x20)),
    "\x7f",
    *map(chr, range(0x80, 0xA0)),
    *map(chr, (*range(0x202A, 0x202F), *range(0x2066, 0x206A))),
    "\u2028",
    "\u2029",
} - {"\n"}


def hostile_paper(pid: str, name: str, words: str) -> Paper:
    return Paper(
        id=pid,
        name=name,
        title=f"Title {PAYLOAD}",
        abstract=f"We propose {name} for {words} {PAYLOAD} graphs. It works {PAYLOAD} well.",
        venue=f"Venue {PAYLOAD}",
        sources=(f"src{PAYLOAD}.jsonl",),
        code_urls=(f"https://github.com/evil/x{PAYLOAD}",),
        links=(f"http://evil.example/{PAYLOAD}",),
        url=f"https://evil.example/{PAYLOAD}",
    )


@pytest.fixture(scope="module")
def hostile_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library whose every text field, tag, note and journal step holds payloads."""
    root = tmp_path_factory.mktemp("hostile") / "lib"
    library = Library.open(root, seed=False)
    library.import_papers(
        [
            hostile_paper(EVIL, EVIL_NAME, "evil relational"),
            hostile_paper("e2e2e2e2e2e2", EVIL_NAME, "evil relational twin"),  # same name
            hostile_paper("0a0a0a0a0a0a", "GoodNet", "good relational"),
        ],
        f"import{PAYLOAD}.jsonl",
    )
    tags = frozenset({f"t{PAYLOAD}", f"{OSC_CLIPBOARD}x", "\u202ey", "ok"})
    library.restore({EVIL: Entry(tags=tags, status="reading", note=f"note {PAYLOAD} end")})
    library.tag([EVIL], add=["fine"])  # a journal step described with the hostile name
    return root


def hostile_setup(work: Path) -> dict[str, str]:
    """Files the commands name, all with hostile names; returns the placeholders."""
    names = {
        "text": f"list{OSC_CLIPBOARD}\u202e.txt",
        "badjson": f"bad{OSC_TITLE}.json",
        "exists": f"exists{OSC_TITLE}.md",
        "fifo": f"fifo{OSC_TITLE}",
        "file": f"file{OSC_TITLE}",
        "out": f"out{OSC_TITLE}.md",
        "backup": f"b{OSC_TITLE}.json",
        "missing": f"missing{OSC_TITLE}.json",
        "listmd": f"rl{OSC_TITLE}\r.md",
    }
    (work / names["text"]).write_text("Hostile 2025\n\nWe propose KelpNet, a kelp model.\n")
    (work / names["badjson"]).write_text("not json")
    (work / names["exists"]).write_text("mine")
    (work / names["file"]).write_text("not a library")
    os.mkfifo(work / names["fifo"])
    return {key: str(work / name) for key, name in names.items()}


# Each case: commands run in order on a fresh copy of the hostile library (`{db}` is its
# hostile directory), with the exit status of each.
CLI_CASES: dict[str, list[tuple[list[str], int]]] = {
    "list": [(["list"], 0), (["list"], 0)],  # the full path, then from listing.cache
    "list-query": [(["list", "evil"], 0), (["list", "evil"], 0)],
    "list-json": [(["list", "--json"], 0)],
    "list-limit": [(["list", "--limit", "1"], 0)],
    "list-bad-option": [(["list", f"--bogus{OSC_TITLE}"], 2)],
    "list-bad-limit": [(["list", "--limit", f"x{OSC_TITLE}"], 2)],
    "show": [(["show", EVIL], 0)],
    "show-json": [(["show", EVIL, "--json"], 0)],
    "show-ambiguous": [(["show", EVIL_NAME], 1)],
    "show-missing": [(["show", f"Nope{OSC_TITLE}"], 1)],
    "tag": [(["tag", EVIL, "+more", "-ok"], 0)],
    "tag-unusable": [(["tag", EVIL, "+\x1b"], 2)],
    "tag-bad-word": [(["tag", EVIL, f"x{OSC_TITLE}"], 2)],
    "status": [(["status", EVIL, "read"], 0)],
    "status-bad": [(["status", "X", OSC_TITLE], 2)],
    "export": [(["export"], 0)],
    "export-file": [(["export", "-o", "{out}"], 0), (["export", "-o", "{out}"], 1)],
    "export-exists": [(["export", "-o", "{exists}"], 1)],
    "export-fifo": [(["export", "-o", "{fifo}", "--force"], 1)],
    "undo-redo": [(["undo"], 0), (["redo"], 0), (["redo"], 0)],
    "backup-restore": [
        (["backup", "{backup}"], 0),
        (["backup", "{backup}"], 1),
        (["tag", EVIL, "+new"], 0),
        (["restore", "{backup}"], 0),
        (["restore", "{backup}"], 0),
    ],
    "restore-missing": [(["restore", "{missing}"], 1)],
    "sync-backup": [
        (["backup", "{backup}"], 0),
        (["tag", EVIL, "+new"], 0),
        (["sync", "--dry-run", "{backup}"], 0),
        (["sync", "{backup}"], 0),
        (["restore", "--merge", "{backup}"], 0),
    ],
    "sync-missing": [(["sync", "{missing}"], 1)],
    "sync-bad": [(["sync", "{badjson}"], 1), (["restore", "--merge", "{badjson}"], 1)],
    "restore-bad": [(["restore", "{badjson}"], 1)],
    "related": [(["related", EVIL], 0), (["related", EVIL, "--json"], 0)],
    "note": [(["note", EVIL], 0)],
    "import": [(["import", "{text}"], 0), (["import", "{missing}"], 1)],
    "import-reading-list": [
        (["export", "-o", "{listmd}"], 0),
        (["import", "{listmd}"], 0),
    ],
    "unknown-command": [([f"frob{OSC_TITLE}"], 2)],
    "db-is-a-file": [(["--db", "{file}", "list"], 1), (["--db", "{file}", "tag", EVIL, "+a"], 1)],
    "help": [(["--help"], 0), (["tag", "--help"], 0), (["--version"], 0)],
}


SHOW_NO_ESC = {"export", "import", "help"}
"""Cases whose output holds no ESC to make visible: a Markdown export and ingest's file names
drop control characters themselves, and help shows no data."""


@pytest.mark.parametrize("case", list(CLI_CASES))
def test_no_command_lets_a_control_character_reach_the_terminal(
    case: str, hostile_source: Path, tmp_path: Path
) -> None:
    db = tmp_path / f"lib{OSC_TITLE}"
    shutil.copytree(hostile_source, db)
    work = tmp_path / "work"
    work.mkdir()
    names = {**hostile_setup(work), "db": str(db)}
    written = b""
    for argv, status in CLI_CASES[case]:
        words = [word.format(**names) if word.startswith("{") else word for word in argv]
        if words[0] != "--db":
            words = ["--db", str(db), *words]
        done = subprocess.run(
            [*papershelf_command(), *words], capture_output=True, timeout=60, cwd=work
        )
        shown = done.stdout + done.stderr
        assert done.returncode == status, shown.decode(errors="replace")
        assert b"Traceback" not in shown
        written += shown
    text = written.decode("utf-8")  # strict: no lone surrogate was written either
    assert sorted({f"U+{ord(ch):04X}" for ch in text if ch in UNSAFE_OUT}) == []
    if case not in SHOW_NO_ESC:
        # The payloads were shown, made visible (or escaped, in JSON and Python's repr).
        assert any(visible in text for visible in ("␛", "\\u001b", "\\x1b")), text


def test_a_failed_save_of_the_undo_history_is_reported_cleanly(
    hostile_source: Path, tmp_path: Path
) -> None:
    db = tmp_path / f"lib{OSC_TITLE}"
    shutil.copytree(hostile_source, db)
    journal = db / "journal.json"
    journal.unlink()
    journal.mkdir()  # the history cannot be written (as root too)
    done = subprocess.run(
        [*papershelf_command(), "--db", str(db), "tag", EVIL, "+x"],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0
    err = done.stderr.decode("utf-8")
    assert err.startswith("papershelf: warning: undo history not saved: could not save ")
    assert err.count("\n") == 1 and f"lib{OSC_TITLE}" not in err and "lib␛]0;pwned␇" in err
