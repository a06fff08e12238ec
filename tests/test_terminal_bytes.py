"""In a real terminal, hostile text never reaches the terminal as an escape sequence.

Every byte papershelf writes is recorded (`tmux pipe-pane`) while it shows a paper whose name,
title, abstract, venue, source file name, tags, note and URLs hold terminal payloads; the bytes
are then scanned for those payloads' sequences. A paste is tested on a bare pty instead: tmux
shows pasted controls as `^[` before the program sees them, other terminals need not.

What Textual 8.2.8 writes on its own (observed on a harmless library): SGR colours, cursor moves,
`CSI ? h/l` modes, the kitty keyboard `CSI > u`/`CSI < u`, `CSI ? $p` queries and OSC 22 (the
pointer shape). It never writes `CSI 2J`, OSC 52, OSC 8, a C1 control, NUL or a bidi override,
so any of those in the recording came from the payloads.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import shlex
import signal
import struct
import termios
import time
from pathlib import Path

import pytest
from terminal import Terminal, papershelf_command

from papershelf.storage.library.library import Library
from papershelf.storage.model import Entry, Paper
from papershelf.storage.text.clean import clean_name

pytestmark = pytest.mark.terminal

CLEAR = "\x1b[2J"
OSC52 = "\x1b]52;c;aGk=\x07"  # "hi" to the clipboard
OSC8 = "\x1b]8;;http://evil\x1b\\"
C1_CSI = "\x9b2J"
RLO = "\u202e"
NUL = "\x00"
CLICK = "[@click=app.quit]"

NAME = f"EvilNet{CLEAR}{RLO}x{NUL} {CLICK}Q[/]"
TITLE = f"Title {OSC8}link{C1_CSI} [link=http://evil]y[/link]"
ABSTRACT = (
    f"We study [MASK] and [/] tokens. {CLEAR} Clipboard {OSC52} link {OSC8}here "
    f"{C1_CSI} reversed {RLO}txt.exe {NUL} and {CLICK}quit[/] stay inert."
)
# A file name holds anything but `/` and NUL: its OSC 8 names no scheme-and-slashes URL.
FILE_NAME = f"list{CLEAR}{OSC52}\x1b]8;;evil\x1b\\{RLO}{C1_CSI}{CLICK}.txt"
FILE_ABSTRACT = (
    f"KelpNet maps kelp forests from orbit; the file name of this list is hostile {CLICK}."
)
NOTE = f"note {CLEAR} {OSC52} {OSC8} {C1_CSI} {RLO} {NUL} {CLICK}q[/]"
TAGS = frozenset({f"t{CLEAR}", f"{OSC52}x", f"{RLO}y", CLICK})

PAPER = Paper(
    id="e1e1e1e1e1e1",
    name=NAME,
    title=TITLE,
    abstract=ABSTRACT,
    venue=f"Venue {OSC52}",
    sources=(f"src{CLEAR}{RLO}.jsonl",),
    code_urls=(f"https://github.com/evil/x{OSC8}",),
    links=(f"http://evil/{CLEAR}",),
    url=f"https://evil.example/{C1_CSI}",
)

# The exact byte strings of the payloads, as they would reach the terminal if drawn raw.
FORBIDDEN_BYTES = {
    "CSI 2J (clear screen)": CLEAR.encode(),
    "OSC 52 (clipboard write)": b"\x1b]52;",
    "OSC 8 (hyperlink)": b"\x1b]8;",
    "NUL": b"\x00",
    "ENQ (answerback)": b"\x05",
}
# Characters looked for in the decoded output (a 0x9b byte alone is part of many UTF-8 chars).
FORBIDDEN_CHARS = {
    "C1 CSI": "\x9b",
    "a lone 0x9b byte": "\udc9b",
    "RLO (bidi override)": RLO,
}


def scan(data: bytes) -> list[str]:
    """The names of the payload sequences found in what the program wrote."""
    found = [name for name, needle in FORBIDDEN_BYTES.items() if needle in data]
    text = data.decode("utf-8", errors="surrogateescape")
    found += [name for name, char in FORBIDDEN_CHARS.items() if char in text]
    return found


def test_scan_finds_every_payload() -> None:
    # The scanner itself: each payload drawn raw would be caught; Textual's own output is not.
    for payload in (CLEAR, OSC52, OSC8, C1_CSI, RLO, NUL, "\x05"):
        assert scan(f"\x1b[1;1Hok {payload} ok".encode()), payload
    textual_own = "\x1b[?1049h\x1b[>1u\x1b[38;2;1;2;3m─▛═\x1b]22;default\x1b\\\x1b[?1049l"
    assert scan(textual_own.encode()) == []


@pytest.fixture
def term(tmp_path: Path):
    terminal = Terminal(tmp_path, width=160, height=45)
    yield terminal
    terminal.close()


def hostile_library(root: Path, folder: Path) -> None:
    """Papers, a source file name, tags and a note full of payloads, stored as given."""
    (folder / FILE_NAME).write_text(f"Hostile 2025 Papers\n\n{FILE_ABSTRACT}\n", encoding="utf-8")
    library = Library.open(root, seed=False)
    (report,) = library.import_files([folder / FILE_NAME])
    assert report.error is None and report.added == 1
    library.import_papers([PAPER], "hostile.jsonl")
    assert library.get(PAPER.id).name == NAME  # stored raw: the TUI must defend itself
    library.restore({PAPER.id: Entry(tags=TAGS, note=NOTE)})  # raw tags and note
    library.tag([PAPER.id], add=[f"{CLICK}n"])  # and one through the normal path


def start_recorded(term: Terminal, db: Path, work: Path, record: Path) -> None:
    """Start papershelf only once the recording runs, so its first frame is recorded too."""
    gate = work / "go"
    app = " ".join(shlex.quote(word) for word in [*papershelf_command(), "--db", str(db)])
    # The shell waits for the gate file (a condition, not a fixed delay), then becomes the app.
    # Under pytest the pane's environment says COLUMNS=80 LINES=24: drop them, so the app
    # takes the pane's real size.
    script = (
        f"while [ ! -e {shlex.quote(str(gate))} ]; do sleep 0.02; done; "
        f"unset COLUMNS LINES; exec {app}"
    )
    term.start(["sh", "-c", script], env={}, cwd=work)
    term.record_output(record)
    gate.touch()


def close_dialog(term: Terminal, marker: str) -> None:
    term.keys("Escape")
    # Wait for the dialog to go: a key sent right after ESC would read as alt+key.
    term.wait_until(lambda: marker not in term.screen(), f"{marker!r} to close")


def test_hostile_text_never_reaches_the_terminal(term: Terminal, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    db = tmp_path / "db"
    hostile_library(db, work)
    record = tmp_path / "output.bin"
    start_recorded(term, db, work, record)

    screen = term.wait_for_text("2 of 2 papers")
    assert "EvilNet␛[2J" in screen  # the name, in the list, with the escape made visible
    # The file's paper is first: the reader shows its hostile file name.
    # Ingest stores the file name cleaned (controls dropped); its start shows (a long word: wraps).
    term.wait_for_text(clean_name(FILE_NAME)[:25])
    term.keys("j")  # the hostile paper
    screen = term.wait_for_text("We study [MASK] and [/] tokens.")
    assert "[@click=app.quit]quit[/] stay inert." in screen
    assert "note   note ␛[2J ␛]52;c;aGk=␇ ␛]8;;http://evil␛\\" in screen
    assert term.alive()

    term.keys("t")
    term.wait_for_text("Tags on this paper")
    close_dialog(term, "Tags on this paper")
    term.keys("n")
    term.wait_for_text("Note ·")
    close_dialog(term, "Note ·")
    term.keys("e")
    term.wait_for_text("Export papers")
    close_dialog(term, "Export papers")

    assert term.alive()  # nothing fired `app.quit`
    assert term.buffer() is None  # no OSC 52 reached tmux's clipboard
    term.keys("q")
    term.wait_until(lambda: not term.alive(), "papershelf to quit")

    data = record.read_bytes()
    assert b"\x1b[?1049h" in data  # the recording covers the start of the program
    assert scan(data) == []


class Pty:
    """papershelf on a pseudo-terminal of our own: tmux makes pasted controls visible (`^[`)
    before the program sees them, a plain terminal need not, so the paste test writes the
    terminal's bytes itself."""

    def __init__(self, argv: list[str], cwd: Path, width: int = 120, height: int = 40) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "DISPLAY")}
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes papershelf
            os.chdir(cwd)
            os.execvpe(argv[0], argv, {**env, "TERM": "xterm-256color"})
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.output = bytearray()

    def read_until(self, needle: bytes, timeout: float = 20.0) -> None:
        """Collect output until `needle` was written (or fail with what was)."""
        deadline = time.monotonic() + timeout
        while needle not in self.output:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"timed out waiting for {needle!r}; got {bytes(self.output[-500:])!r}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:  # the program exited
                    chunk = b""
                if not chunk:
                    pytest.fail(f"program exited before writing {needle!r}")
                self.output += chunk

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


def test_pasted_controls_never_reach_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "db"
    Library.open(db, seed=False).import_papers([PAPER], "hostile.jsonl")
    terminal = Pty([*papershelf_command(), "--db", str(db)], tmp_path)
    try:
        terminal.read_until(b"1 of 1 papers")
        terminal.write(b"/")
        # A bracketed paste of text with a C1 CSI, a bidi override and ENQ (Textual's parser
        # turns an ESC inside a paste into `^`, but passes these through).
        terminal.write(f"\x1b[200~p{C1_CSI}{RLO}\x05q\x1b[201~".encode())
        terminal.read_until(b"0 of 1 papers")  # searched: the filter bar has drawn the paste
        before_quit = bytes(terminal.output)
    finally:
        terminal.close()
    assert scan(before_quit) == []


def run_in_pty(argv: list[str], cwd: Path) -> bytes:
    """Everything a command writes to a real terminal (stdout and stderr are the pty), until
    it exits: messages meant for a terminal only (progress, "no papers match") are written."""
    terminal = Pty(argv, cwd)
    try:
        while True:
            ready, _, _ = select.select([terminal.fd], [], [], 30.0)
            assert ready, f"no exit; got {bytes(terminal.output[-300:])!r}"
            try:
                chunk = os.read(terminal.fd, 65536)
            except OSError:  # EIO: the command exited and the pty closed
                break
            if not chunk:
                break
            terminal.output += chunk
        return bytes(terminal.output)
    finally:
        terminal.close()


def test_cli_messages_never_carry_a_payload_to_a_real_terminal(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    db = tmp_path / f"db{CLEAR}"  # the library's own path is hostile too
    hostile_library(db, work)
    second = work / f"more{OSC52}{RLO}.txt"
    second.write_text("More 2025\n\nWe propose SeaNet, a model of sea ice from space.\n")
    backup = work / f"backup{OSC8}.json"
    base = [*papershelf_command(), "--db", str(db)]
    commands = [
        ["import", str(work / FILE_NAME), str(second)],  # a progress line on a terminal
        ["list"],
        ["list", "nothing-matches-this"],  # "no papers match", on a terminal only
        ["show", PAPER.id],
        ["related", PAPER.id],
        ["tag", PAPER.id, "+more"],
        ["undo"],
        ["backup", str(backup)],
        ["restore", str(backup)],
        ["restore", "--merge", str(backup)],
        ["sync", "--dry-run", str(backup)],
        ["show", f"no{OSC52}such"],
        ["status", PAPER.id, f"x{CLEAR}"],
    ]
    written = {" ".join(argv): run_in_pty([*base, *argv], work) for argv in commands}
    assert b"importing: 2/2 files" in written[" ".join(commands[0])]
    assert b"no papers match" in written["list nothing-matches-this"]
    for command, data in written.items():
        assert scan(data) == [], command
        assert b"\x1b" not in data and b"\x07" not in data, command  # the CLI writes no escapes
