"""`papershelf import` shows its progress on a terminal's stderr (one line rewritten with \\r),
and writes none of it when stderr is a pipe: the same command, in a real pty and in a pipe."""

from __future__ import annotations

import os
import pty
import select
import subprocess
from pathlib import Path

from cli_helpers import SEARCH_FIXTURE
from terminal import papershelf_command


def stderr_in_a_pty(argv: list[str]) -> tuple[int, bytes, bytes]:
    """Run `argv` with stderr on a fresh pty (stdout a pipe): exit status, stdout, stderr."""
    main, other = pty.openpty()
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=other
        )
    finally:
        os.close(other)
    written = bytearray()
    try:
        while True:
            ready, _, _ = select.select([main], [], [], 60.0)
            assert ready, f"no exit; got {bytes(written[-300:])!r}"
            try:
                chunk = os.read(main, 65536)
            except OSError:  # EIO: the command exited and the pty closed
                break
            if not chunk:
                break
            written += chunk
    finally:
        os.close(main)
    assert process.stdout is not None
    out = process.stdout.read()
    return process.wait(timeout=60), out, bytes(written)


def test_import_shows_progress_on_a_terminal_only(tmp_path: Path) -> None:
    second = tmp_path / "more.txt"
    second.write_text("KelpNet 2025\n\nKelpNet maps kelp forests from orbit.\n")
    command = [*papershelf_command(), "--db"]
    files = [str(SEARCH_FIXTURE), str(second)]

    code, out, err = stderr_in_a_pty([*command, str(tmp_path / "tty"), "import", *files])
    assert code == 0, err
    text = err.decode().replace("\r\n", "\n")  # the pty's own newline translation
    assert text.startswith("\rimporting: 1/2 files")
    assert "\rimporting: 2/2 files, merging and saving…" in text
    assert text.endswith("\rimported 2 files" + " " * 25 + "\n")  # covers the longer line

    piped = subprocess.run(
        [*command, str(tmp_path / "pipe"), "import", *files],
        capture_output=True,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == b""  # no progress, no \r, when stderr is not a terminal
    assert piped.stdout == out.replace(b"tty", b"pipe")  # the reports themselves are the same
    assert b"added" in out
