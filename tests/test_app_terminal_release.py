"""The app lets go of its terminal before its process ends (`cli.app.release_terminal`).

tmux 3.3 with libutempter lost the exit status of a program that ended while tmux cleared the
pane's login record after seeing the pty close (a zombie, `pane_dead_status` empty: what the
monkey test reported now and then). Released at exit, the pty closes while the process is
still alive. Checked in a real pseudo-terminal: the program's own at-exit step, registered
before the app's (so run after it), holds the process until the terminal has seen the end of
its output; then the process ends with status 0, not killed by the hangup that follows.
"""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from papershelf.storage.library.library import Library

pytestmark = pytest.mark.terminal

# The app, with an at-exit step that waits for one byte on a pipe from the test: atexit runs
# its steps last-registered first, so this one runs after the app's own.
HELD_AT_EXIT = """\
import atexit, fcntl, os, sys, termios
fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # its controlling terminal, as a tmux pane's program has
hold = int(sys.argv[1])
atexit.register(lambda: os.read(hold, 1))
from papershelf.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def read_until(master: int, done, what: str, timeout: float = 30) -> bytes:
    """Read the terminal's output until `done(output)` or its end (None then); fail on
    `timeout`. Returns what was read."""
    seen = b""
    deadline = time.monotonic() + timeout
    while not done(seen):
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"timed out waiting for {what}; the terminal showed {seen[-300:]!r}")
        ready, _, _ = select.select([master], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal closed it
            chunk = b""
        if not chunk:
            return seen + b"\0EOF"
        seen += chunk
    return seen


def test_the_app_closes_its_terminal_before_its_process_ends(
    tmp_path: Path, seed_files: list[Path]
) -> None:
    db = tmp_path / "db"
    Library.open(db, seed=False).import_files(seed_files)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    hold_read, hold_write = os.pipe()
    env = {**os.environ, "TERM": "xterm-256color", "HOME": str(tmp_path)}
    env.pop("PAPERSHELF_TRACE", None)
    process = subprocess.Popen(
        [sys.executable, "-c", HELD_AT_EXIT, str(hold_read), "--db", str(db)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        pass_fds=(hold_read,),
        start_new_session=True,  # the terminal's session leader, as under tmux
        env=env,
        cwd=tmp_path,
    )
    os.close(slave)
    os.close(hold_read)
    try:
        read_until(master, lambda out: b"of 34 papers" in out, "the app's first frame")
        os.write(master, b"q")
        read_until(master, lambda out: out.endswith(b"\0EOF"), "the terminal to be let go")
        # The terminal has seen the end while the process waits in its last at-exit step.
        assert process.poll() is None
        os.close(master)  # as tmux does then: the kernel hangs up on the session's leader
        master = -1
        os.write(hold_write, b"x")
        assert process.wait(timeout=30) == 0  # ended normally, not by the hangup
    finally:
        os.close(hold_write)
        if master != -1:
            os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
