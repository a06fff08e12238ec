"""The copy chain against fake clipboard tools on PATH: it never raises, always sends OSC 52,
says "Copied" only after reading the text back, and keeps tool output off the terminal."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_dialogs_harness import pilot_test
from textual.app import App

from papershelf.tui.clipboard import TERMINAL_NOTE, Clipboard, CopyOutcome

URL = "https://github.com/snap-stanford/relgnn"


class SpyApp:
    """Stands in for the Textual app: records OSC 52 copies; on its own thread like Textual."""

    def __init__(self, fail: bool = False) -> None:
        self.copied: list[str] = []
        self.fail = fail

    def copy_to_clipboard(self, text: str) -> None:
        if self.fail:
            raise OSError("terminal gone")
        self.copied.append(text)

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any:
        raise RuntimeError("The `call_from_thread` method must run in a different thread")


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty PATH and no display: the clipboard sees exactly the tools a test puts here."""
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", str(path))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return path


def tool(bin_dir: Path, name: str, script: str) -> Path:
    """Write an executable shell script named `name` (absolute paths: PATH holds only bin_dir)."""
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)
    return path


def working(bin_dir: Path, name: str, read_flag: str) -> tuple[Path, Path]:
    """A clipboard tool that stores stdin in a file and prints it back when given `read_flag`."""
    store, log = bin_dir / f"{name}.store", bin_dir / f"{name}.log"
    tool(
        bin_dir,
        name,
        f'echo "$@" >> {log}\n'
        f'for arg in "$@"; do [ "$arg" = "{read_flag}" ] && exec /bin/cat {store}; done\n'
        f"exec /bin/cat > {store}\n",
    )
    return store, log


def assert_quiet(capfd: pytest.CaptureFixture[str]) -> None:
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_no_tool_on_path_sends_osc52_and_says_so(
    bin_dir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    app = SpyApp()
    outcome = Clipboard().copy(URL, app)
    assert outcome == CopyOutcome(
        URL, None, True, f"Sent {URL} to {TERMINAL_NOTE} — no system clipboard found"
    )
    assert app.copied == [URL]
    assert_quiet(capfd)


def test_working_xclip_is_verified(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    store, log = working(bin_dir, "xclip", "-o")
    app = SpyApp()
    outcome = Clipboard().copy(URL, app)
    assert outcome.system == "xclip"
    assert outcome.message == f"Copied {URL} to the clipboard"
    assert outcome.terminal and app.copied == [URL]  # OSC 52 as well
    assert store.read_text() == URL
    assert log.read_text().splitlines() == ["-selection clipboard", "-selection clipboard -o"]
    assert_quiet(capfd)


def test_xclip_without_display_is_not_run(bin_dir: Path, capfd: pytest.CaptureFixture[str]) -> None:
    _, log = working(bin_dir, "xclip", "-o")
    outcome = Clipboard().copy(URL, SpyApp())
    assert outcome.system is None and "no system clipboard found" in outcome.message
    assert not log.exists()
    assert_quiet(capfd)


def test_failing_xclip_with_stale_display_stays_off_the_terminal(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":99")
    tool(bin_dir, "xclip", 'echo "Error: Can\'t open display: :99" >&2\necho noise\nexit 1\n')
    app = SpyApp()
    outcome = Clipboard().copy(URL, app)
    assert outcome.system is None and outcome.terminal and app.copied == [URL]
    assert not outcome.message.startswith("Copied")
    assert outcome.message == (
        f"Sent {URL} to {TERMINAL_NOTE} — system clipboard not confirmed: xclip failed with exit 1"
    )
    assert_quiet(capfd)


def test_xclip_that_claims_success_but_keeps_nothing_is_not_trusted(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    tool(
        bin_dir,
        "xclip",
        'for arg in "$@"; do [ "$arg" = "-o" ] && echo "something older" && exit 0; done\n'
        "exec /bin/cat > /dev/null\n",
    )
    outcome = Clipboard().copy(URL, SpyApp())
    assert outcome.system is None
    assert "xclip did not keep the text" in outcome.message and URL in outcome.message
    assert not outcome.message.startswith("Copied")
    assert_quiet(capfd)


def test_falls_through_a_failing_xclip_to_a_working_xsel(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    tool(bin_dir, "xclip", "echo broken >&2\nexit 1\n")
    store, log = working(bin_dir, "xsel", "-o")
    outcome = Clipboard().copy(URL, SpyApp())
    assert outcome.system == "xsel" and outcome.message == f"Copied {URL} to the clipboard"
    assert log.read_text().splitlines() == ["-b -i", "-b -o"]
    assert_quiet(capfd)


def test_wayland_tools_need_wayland_display_and_their_paste(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    store, _ = working(bin_dir, "wl-copy", "--never")
    assert Clipboard().copy(URL, SpyApp()).system is None  # no WAYLAND_DISPLAY
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    outcome = Clipboard().copy(URL, SpyApp())
    assert outcome.system is None and "wl-copy has no wl-paste to check the copy" in outcome.message
    tool(bin_dir, "wl-paste", f"exec /bin/cat {store}\n")
    assert Clipboard().copy(URL, SpyApp()).system == "wl-copy"
    assert_quiet(capfd)


def test_a_hanging_tool_times_out(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    tool(bin_dir, "xclip", "exec /bin/sleep 30\n")
    outcome = Clipboard(timeout=0.2).copy(URL, SpyApp())
    assert outcome.system is None and "xclip timed out or could not start" in outcome.message
    assert_quiet(capfd)


def test_clip_exe_gets_utf16_but_cannot_be_verified(
    bin_dir: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    store = bin_dir / "clip.store"
    tool(bin_dir, "clip.exe", f"exec /bin/cat > {store}\n")
    text = "https://example.org/K²IE"
    outcome = Clipboard().copy(text, SpyApp())
    assert store.read_bytes().decode("utf-16-le") == text
    assert outcome.system is None
    assert "clip.exe ran but its copy cannot be checked" in outcome.message
    assert text in outcome.message
    assert_quiet(capfd)


@pytest.mark.parametrize(
    "error", [OSError("exec format error"), subprocess.SubprocessError("boom"), RuntimeError("?")]
)
def test_errors_from_running_a_tool_never_escape(error: Exception, bin_dir: Path) -> None:
    def run(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        raise error

    clipboard = Clipboard(env={"DISPLAY": ":0", "PATH": "/x"}, which=lambda c, p: c, run=run)
    outcome = clipboard.copy(URL, SpyApp())
    assert outcome.system is None and outcome.terminal and URL in outcome.message


def test_failing_terminal_clipboard_is_reported(bin_dir: Path) -> None:
    outcome = Clipboard().copy(URL, SpyApp(fail=True))
    assert not outcome.terminal and outcome.system is None
    assert outcome.message == (
        f"Could not copy {URL} — no system clipboard found, and the terminal clipboard failed too"
    )


def test_windows_uses_pyperclip_and_checks_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyperclip

    board: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", board.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: board[-1])
    no_tools = Clipboard(platform="win32", which=lambda c, p: None)
    assert no_tools.copy(URL, SpyApp()).system == "pyperclip"

    def broken(text: str) -> None:
        raise pyperclip.PyperclipException("no clipboard")

    monkeypatch.setattr(pyperclip, "copy", broken)
    outcome = no_tools.copy(URL, SpyApp())
    assert outcome.system is None
    assert "pyperclip failed with PyperclipException" in outcome.message


def test_message_never_carries_control_characters(bin_dir: Path) -> None:
    text = "https://x.org/\x1b]52;c;AAAA\x07"
    outcome = Clipboard().copy(text, SpyApp())
    assert outcome.text == text
    assert "\x1b" not in outcome.message and "\x07" not in outcome.message
    assert "https://x.org/ ]52;c;AAAA" in outcome.message


# -- with a real Textual app -----------------------------------------------------------------


class Spied(App[None]):
    """A bare app whose OSC 52 copies are recorded (and still performed)."""

    def __init__(self) -> None:
        super().__init__()
        self.osc52: list[str] = []

    def copy_to_clipboard(self, text: str) -> None:
        self.osc52.append(text)
        super().copy_to_clipboard(text)


@pilot_test
async def test_real_app_on_its_own_thread_and_from_a_worker_thread(bin_dir: Path) -> None:
    app = Spied()
    async with app.run_test():
        on_loop = Clipboard().copy(URL, app)
        from_thread = await asyncio.to_thread(Clipboard().copy, URL + "/2", app)
    assert on_loop.terminal and from_thread.terminal
    assert app.osc52 == [URL, URL + "/2"]
