"""Drive papershelf in a real terminal: a private tmux server, keys in, screen and bytes out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")

TMUX_CONF = """\
set -g set-clipboard on
set -s escape-time 0
set -g status off
set -g default-terminal "tmux-256color"
set -g history-limit 0
"""


def require_tmux() -> str:
    """The tmux binary; CI installs it, so there a missing tmux is a failure, not a skip."""
    if TMUX is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is not installed, but CI must run the terminal tests")
        pytest.skip("tmux is not installed")
    return TMUX


def papershelf_command() -> list[str]:
    """The installed console script, or the module when only the source is importable."""
    script = Path(sys.executable).with_name("papershelf")
    return [str(script)] if script.exists() else [sys.executable, "-m", "papershelf"]


class Terminal:
    """One tmux server on its own socket, running one program in a pane of a fixed size."""

    def __init__(self, workdir: Path, width: int = 120, height: int = 40) -> None:
        self.tmux = require_tmux()
        self.workdir = workdir
        self.socket = workdir / "tmux.sock"
        self.conf = workdir / "tmux.conf"
        self.conf.write_text(TMUX_CONF)
        self.width = width
        self.height = height

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [self.tmux, "-S", str(self.socket), "-f", str(self.conf), *args],
            capture_output=True,
            text=True,
            check=check,
            timeout=30,
        )

    def start(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        """Start `argv` in a detached session; the session ends when the program does."""
        exports = " ".join(f"{key}={_quote(value)}" for key, value in env.items())
        # No X or Wayland display: the copy must go through the terminal (OSC 52) to tmux.
        # COLUMNS/LINES (set by pytest) would make the app ignore the pane size.
        command = (
            f"cd {_quote(str(cwd))} && exec env -u DISPLAY -u WAYLAND_DISPLAY "
            f"-u COLUMNS -u LINES {exports} " + " ".join(map(_quote, argv))
        )
        self._run(
            "new-session", "-d", "-s", "app", "-x", str(self.width), "-y", str(self.height), command
        )

    def record_output(self, path: Path) -> None:
        """Append every byte the program writes to the terminal to `path`."""
        self._run("pipe-pane", "-o", "-t", "app", f"cat >> {_quote(str(path))}")

    def keys(self, *keys: str) -> None:
        """Send tmux key names (`Enter`, `Escape`, `Down`, ...) or single characters."""
        self._run("send-keys", "-t", "app", *keys)

    def type(self, text: str) -> None:
        """Type text literally."""
        self._run("send-keys", "-t", "app", "-l", text)

    def screen(self) -> str:
        """The visible screen as plain text."""
        return self._run("capture-pane", "-p", "-t", "app").stdout

    def buffer(self) -> str | None:
        """tmux's newest paste buffer (set by an OSC 52 copy), or None when there is none."""
        result = self._run("show-buffer", check=False)
        return result.stdout if result.returncode == 0 else None

    def alive(self) -> bool:
        """Whether the program's session still exists."""
        return self._run("has-session", "-t", "app", check=False).returncode == 0

    def wait_until(
        self, condition: Callable[[], object], what: str, timeout: float = 20.0
    ) -> object:
        """Poll `condition` until it returns something truthy; fail with the screen if never.

        This waits on an observable condition, not for a fixed time: a fast machine goes on at once.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                screen = self.screen() if self.alive() else "(program has exited)"
                pytest.fail(f"timed out waiting for {what}; screen:\n{screen}")
            time.sleep(0.05)

    def wait_for_text(self, text: str, timeout: float = 20.0) -> str:
        """Wait until `text` is on the screen; returns the screen."""
        return str(self.wait_until(lambda: text in (s := self.screen()) and s, repr(text), timeout))

    def close(self) -> None:
        """Stop the tmux server (and anything still running in it)."""
        self._run("kill-server", check=False)


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"
