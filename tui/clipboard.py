"""The copy chain: a system clipboard that demonstrably worked, and always the terminal's (OSC 52).

A system tool counts only when it exits cleanly AND reading the clipboard back returns the text:
over SSH, in a container, or with a stale `DISPLAY`, tools "succeed" or fail in ways a person
cannot see. Tools run with stdin/stdout/stderr detached from the terminal (Textual draws on the
terminal, and a tool's error text would land on top of the app) and with a short timeout.
`Clipboard.copy` never raises.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

Runner = Callable[..., "subprocess.CompletedProcess[bytes]"]
Which = Callable[[str, str | None], str | None]


class TerminalApp(Protocol):
    """What the chain needs from the app: Textual's OSC 52 copy and its thread hop."""

    def copy_to_clipboard(self, text: str) -> None: ...

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...


@dataclass(frozen=True, slots=True)
class CopyOutcome:
    """What happened to one copy; `message` (one line) always contains the copied text."""

    text: str
    system: str | None
    """The system clipboard tool that verifiably holds the text, or None."""
    terminal: bool
    """Whether the OSC 52 sequence was sent to the terminal."""
    message: str


@dataclass(frozen=True, slots=True)
class ClipboardTool:
    """A command-line clipboard: how to copy, how to read back, what it needs to work."""

    name: str
    copy: tuple[str, ...]
    paste: tuple[str, ...] | None
    needs: Literal["wayland", "x11"] | None = None
    encoding: str = "utf-8"


TOOLS: tuple[ClipboardTool, ...] = (
    ClipboardTool("wl-copy", ("wl-copy",), ("wl-paste", "--no-newline"), "wayland"),
    ClipboardTool(
        "xclip",
        ("xclip", "-selection", "clipboard"),
        ("xclip", "-selection", "clipboard", "-o"),
        "x11",
    ),
    ClipboardTool("xsel", ("xsel", "-b", "-i"), ("xsel", "-b", "-o"), "x11"),
    ClipboardTool("pbcopy", ("pbcopy",), ("pbpaste",)),
    # WSL: Windows' clip.exe reads UTF-16; reading back needs PowerShell, far slower than 1 s.
    ClipboardTool("clip.exe", ("clip.exe",), None, encoding="utf-16-le"),
)

TERMINAL_NOTE = "the terminal clipboard (OSC 52; works if your terminal allows it)"


def _which(command: str, path: str | None) -> str | None:
    return shutil.which(command, path=path)


class Clipboard:
    """Copies text to every clipboard it can and says truthfully which one worked.

    `env`, `which`, `run` and `platform` are seams for tests; by default they are the
    process environment (read at each copy), `shutil.which`, `subprocess.run` and `sys.platform`.
    """

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None = None,
        which: Which = _which,
        run: Runner = subprocess.run,
        platform: str | None = None,
        timeout: float = 1.0,
        tools: tuple[ClipboardTool, ...] = TOOLS,
    ) -> None:
        self.env = env
        self.which = which
        self.run = run
        self.platform = platform or sys.platform
        self.timeout = timeout
        self.tools = tools

    def copy(self, text: str, app: TerminalApp) -> CopyOutcome:
        """Copy `text` to the system clipboard (verified) and the terminal's; never raises."""
        problems: list[str] = []
        system: str | None = None
        try:
            system = self._copy_system(text, problems)
        except Exception as error:  # a seam or tool misbehaving must not reach the user
            problems.append(f"clipboard error {type(error).__name__}")
        terminal = self._copy_terminal(text, app)
        return CopyOutcome(text, system, terminal, self._message(text, system, terminal, problems))

    # -- system clipboard --------------------------------------------------------------------

    def _copy_system(self, text: str, problems: list[str]) -> str | None:
        """Try each usable tool until one verifiably holds `text`; note what went wrong."""
        if self.platform == "win32" and self._pyperclip(text, problems):
            return "pyperclip"
        env = dict(os.environ if self.env is None else self.env)
        path = env.get("PATH")
        for tool in self.tools:
            if tool.needs == "wayland" and not env.get("WAYLAND_DISPLAY"):
                continue
            if tool.needs == "x11" and not env.get("DISPLAY"):
                continue
            if self.which(tool.copy[0], path) is None:
                continue
            if tool.paste and self.which(tool.paste[0], path) is None:
                problems.append(f"{tool.name} has no {tool.paste[0]} to check the copy")
                continue
            if self._try_tool(tool, text, env, problems):
                return tool.name
        return None

    def _try_tool(
        self, tool: ClipboardTool, text: str, env: dict[str, str], problems: list[str]
    ) -> bool:
        copied = self._run(tool.copy, env, data=text.encode(tool.encoding, errors="replace"))
        if copied is None:
            problems.append(f"{tool.name} timed out or could not start")
            return False
        if copied.returncode != 0:
            problems.append(f"{tool.name} failed with exit {copied.returncode}")
            return False
        if tool.paste is None:
            problems.append(f"{tool.name} ran but its copy cannot be checked")
            return False
        pasted = self._run(tool.paste, env, data=None)
        if pasted is None or pasted.returncode != 0:
            problems.append(f"{tool.name} copied but reading it back failed")
            return False
        back = (pasted.stdout or b"").decode(tool.encoding, errors="replace")
        if back != text and back.rstrip("\r\n") != text.rstrip("\r\n"):
            problems.append(f"{tool.name} did not keep the text")
            return False
        return True

    def _run(
        self, command: tuple[str, ...], env: dict[str, str], data: bytes | None
    ) -> subprocess.CompletedProcess[bytes] | None:
        """Run a tool detached from the terminal; None when it cannot start or times out."""
        reading = data is None
        try:
            return self.run(
                list(command),
                input=data,
                # A copy tool may fork a daemon that keeps the clipboard alive; a pipe it
                # inherited would keep us waiting, so only the read-back gets a stdout pipe.
                stdin=subprocess.DEVNULL if reading else None,
                stdout=subprocess.PIPE if reading else subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
                timeout=self.timeout,
                check=False,
                start_new_session=os.name == "posix",
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            return None

    def _pyperclip(self, text: str, problems: list[str]) -> bool:
        """Windows: pyperclip talks to the clipboard API directly (no subprocess)."""
        try:
            import pyperclip

            pyperclip.copy(text)
            if pyperclip.paste() == text:
                return True
            problems.append("pyperclip did not keep the text")
        except Exception as error:  # pyperclip raises its own and ctypes errors
            problems.append(f"pyperclip failed with {type(error).__name__}")
        return False

    # -- terminal clipboard ------------------------------------------------------------------

    @staticmethod
    def _copy_terminal(text: str, app: TerminalApp) -> bool:
        """Send OSC 52 through the app, hopping to its thread when called from a worker."""
        try:
            try:
                app.call_from_thread(app.copy_to_clipboard, text)
            except RuntimeError:
                # Raised when already on the app's thread (or the app is not running).
                app.copy_to_clipboard(text)
        except Exception:
            return False
        return True

    # -- message -----------------------------------------------------------------------------

    @staticmethod
    def _message(text: str, system: str | None, terminal: bool, problems: list[str]) -> str:
        shown = "".join(char if char.isprintable() else " " for char in text).strip()
        if system is not None:
            return f"Copied {shown} to the clipboard"
        if problems:
            reason = "system clipboard not confirmed: " + "; ".join(problems)
        else:
            reason = "no system clipboard found"
        if terminal:
            return f"Sent {shown} to {TERMINAL_NOTE} — {reason}"
        return f"Could not copy {shown} — {reason}, and the terminal clipboard failed too"
