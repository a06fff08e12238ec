"""The app as a real process in a real terminal (tmux): how it ends.

An unrecoverable internal error exits 70 with every change saved; SIGHUP (the terminal closed)
and SIGTERM end it promptly after a last save, with status 128+N; a change the full disk refused
is retried on a timer until it is saved; quitting with it unsaved asks, then exits 1 naming it.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest
from terminal import Terminal, papershelf_command

from papershelf.storage.library.library import Library

pytestmark = pytest.mark.terminal

READY = "of 34 papers"
UNSAVED = "1 change not saved"
# A real process whose search engine fails (the "unexpected" part is the only thing faked):
# the filter runs the search inside the filter bar's key handling, which cannot be abandoned.
CRASHING = """\
import sys
from papershelf.storage.search.engine import SearchEngine
def broken(*args, **kwargs):
    raise RuntimeError("injected search failure")
SearchEngine.results = broken
from papershelf.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


# tmux 3.3 loses a dead pane's exit status when it sees the pty close first: a small parent
# process waits for the program and writes its pid and exit status (-N: killed by signal N).
WAITER = """\
import os, signal, sys
status_file, pid_file, *argv = sys.argv[1:]
pid = os.fork()
if pid == 0:
    os.execvp(argv[0], argv)
signal.signal(signal.SIGHUP, signal.SIG_IGN)
with open(pid_file, "w") as out:
    out.write(str(pid))
_, status = os.waitpid(pid, 0)
with open(status_file, "w") as out:
    out.write(str(os.waitstatus_to_exitcode(status)))
"""


class Run:
    """The program under `WAITER` in the terminal: its pid, exit status and output."""

    def __init__(
        self, term: Terminal, workdir: Path, argv: list[str], *, session_leader: bool = False
    ) -> None:
        self.term = term
        self.status_file = workdir / "status"
        self.pid_file = workdir / "pid"
        self.output = workdir / "out.bin"
        waiter = [sys.executable, "-c", WAITER, str(self.status_file), str(self.pid_file)]
        if session_leader:
            # The program itself leads the terminal's session, as from a login shell's `exec`:
            # the kernel hangs up on it when the terminal closes. No exit status then.
            waiter = ["sh", "-c", f'echo $$ > "{self.pid_file}" && exec "$@"', "sh"]
        term.start([*waiter, *argv], env={}, cwd=workdir)
        term.record_output(self.output)
        term.wait_until(self.pid_file.exists, "the program to start")

    @property
    def pid(self) -> int:
        return int(self.pid_file.read_text())

    def status(self) -> int | None:
        """The exit status once the program has ended (-N: killed by signal N), else None."""
        text = self.status_file.read_text() if self.status_file.exists() else ""
        return int(text) if text else None

    def wait_status(self, what: str, timeout: float = 20) -> int:
        self.term.wait_until(lambda: self.status() is not None, what, timeout)
        return self.status()  # type: ignore[return-value]

    def printed(self) -> str:
        """What the program wrote to the terminal, escape sequences dropped, spaces joined."""
        escapes = r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-_])"
        text = re.sub(escapes, "", self.output.read_text(errors="replace"))
        return " ".join(text.split())


def seeded(db: Path, seed_files: list[Path]) -> Path:
    library = Library.open(db, seed=False)
    library.import_files(seed_files)
    return db


def first_paper(db: Path) -> str:
    return Library.open(db, seed=False).papers()[0].id


def tags_on_disk(db: Path, paper_id: str) -> frozenset[str]:
    return Library.open(db, seed=False).entry(paper_id).tags


def gone(pid: int) -> bool:
    """Whether `pid` has ended (a zombie waiting for its parent counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_an_unrecoverable_error_exits_70_with_the_change_on_disk(
    term: Terminal, tmp_path: Path, seed_files: list[Path]
) -> None:
    db = seeded(tmp_path / "db", seed_files)
    paper = first_paper(db)
    run = Run(term, tmp_path, [sys.executable, "-c", CRASHING, "--db", str(db)])
    term.wait_for_text(READY)
    term.keys("T")
    term.wait_for_text("#to-read")
    term.keys("/")
    for key in "xyz":  # the first key may find the index still loading (then the next one)
        term.keys(key)
        deadline = time.monotonic() + 5
        while run.status() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if run.status() is not None:
            break
    assert run.status() == 70
    screen = run.printed()
    assert "papershelf stopped after an internal error" in screen
    assert "RuntimeError: injected search failure" in screen
    assert "every change is saved" in screen
    assert "Traceback" not in screen and "╭─" not in screen
    log = (db / "crash.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "injected search failure" in log
    assert "to-read" in tags_on_disk(db, paper)


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM])
def test_a_signal_ends_the_app_with_128_plus_n(
    term: Terminal, tmp_path: Path, seed_files: list[Path], signum: int
) -> None:
    db = seeded(tmp_path / "db", seed_files)
    paper = first_paper(db)
    run = Run(term, tmp_path, [*papershelf_command(), "--db", str(db)])
    term.wait_for_text(READY)
    term.keys("T")
    term.wait_for_text("#to-read")
    started = time.monotonic()
    os.kill(run.pid, signum)
    assert run.wait_status("the app to exit", timeout=10) == 128 + signum
    assert time.monotonic() - started < 5
    assert "to-read" in tags_on_disk(db, paper)
    assert "Traceback" not in run.printed()


def test_closing_the_terminal_saves_a_held_change_and_ends_the_app(
    term: Terminal, tmp_path: Path, seed_files: list[Path], small_disk
) -> None:
    # The change is held in memory (disk full) when the terminal goes away; space is back by
    # then, so the last save attempt on SIGHUP must write it.
    db = seeded(small_disk.path / "db", seed_files)
    paper = first_paper(db)
    run = Run(term, tmp_path, [*papershelf_command(), "--db", str(db)], session_leader=True)
    term.wait_for_text(READY)
    small_disk.fill()
    term.keys("T")
    term.wait_for_text(UNSAVED)
    small_disk.free()
    pid = run.pid
    started = time.monotonic()
    term.close()  # the terminal is gone: tmux hangs up on the program
    term.wait_until(lambda: gone(pid), "the app to end after SIGHUP", timeout=10)
    assert time.monotonic() - started < 5
    assert "to-read" in tags_on_disk(db, paper)


def test_a_refused_change_is_retried_on_a_timer(
    term: Terminal, tmp_path: Path, seed_files: list[Path], small_disk
) -> None:
    db = seeded(small_disk.path / "db", seed_files)
    paper = first_paper(db)
    run = Run(term, tmp_path, [*papershelf_command(), "--db", str(db)])
    term.wait_for_text(READY)
    small_disk.fill()
    term.keys("T")
    term.wait_for_text(UNSAVED)
    assert "to-read" not in tags_on_disk(db, paper)
    small_disk.free()
    term.wait_until(lambda: UNSAVED not in term.screen(), "the retry to save", timeout=15)
    assert "to-read" in tags_on_disk(db, paper)
    term.keys("q")
    assert run.wait_status("the app to quit") == 0


def test_quitting_with_a_refused_change_asks_then_exits_1(
    term: Terminal, tmp_path: Path, seed_files: list[Path], small_disk
) -> None:
    db = seeded(small_disk.path / "db", seed_files)
    paper = first_paper(db)
    run = Run(term, tmp_path, [*papershelf_command(), "--db", str(db)])
    term.wait_for_text(READY)
    small_disk.fill()
    term.keys("T")
    term.wait_for_text(UNSAVED)
    term.keys("q")
    term.wait_for_text("Quit anyway and lose them?")
    term.keys("y")
    assert run.wait_status("the app to quit") == 1
    screen = run.printed()
    assert "papershelf: 1 change" in screen and "could not be saved and are lost" in screen
    assert "to-read" not in tags_on_disk(db, paper)
