"""A fake `$VISUAL`: a shell script on PATH that edits the file it is given, as a person would.

Shared by the app's `ctrl+e` tests and `papershelf note --edit`'s (tests/test_cli_note.py).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest


class FakeEditor:
    """`papershelf-test-editor` on PATH, named by $VISUAL; each run is counted in a log."""

    NAME = "papershelf-test-editor"

    def __init__(self, bin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        bin_dir.mkdir(parents=True, exist_ok=True)
        self.script = bin_dir / self.NAME
        self.log = bin_dir / "runs.log"
        monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
        monkeypatch.setenv("VISUAL", self.NAME)
        monkeypatch.setenv("EDITOR", "false")  # never used while $VISUAL is set
        self.leaves_it()

    def does(self, body: str) -> None:
        """Each run runs `body` (sh), with the file as $1."""
        self.script.write_text(
            f'#!/bin/sh\necho "$1" >> {shlex.quote(str(self.log))}\n{body}\n', encoding="utf-8"
        )
        self.script.chmod(0o755)

    def appends(self, line: str) -> None:
        """Each run adds `line` at the end of the file."""
        self.does(f'printf "%s\\n" {shlex.quote(line)} >> "$1"')

    def replaces(self, text: str) -> None:
        """Each run writes `text` as the whole file."""
        self.does(f'printf "%s" {shlex.quote(text)} > "$1"')

    def leaves_it(self) -> None:
        """Each run quits without changing the file."""
        self.does(":")

    def fails(self, status: int, line: str) -> None:
        """Each run writes a line, then exits with `status` (the person aborted: :cq in vim)."""
        self.does(f'printf "%s\\n" {shlex.quote(line)} >> "$1"\nexit {status}')

    @property
    def runs(self) -> int:
        """How many times the editor ran."""
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0

    def edited_paths(self) -> list[Path]:
        """The file each run was given."""
        return [Path(line) for line in self.log.read_text().splitlines()] if self.runs else []

    def leftover_files(self) -> list[Path]:
        """Temp files papershelf gave the editor that are still there."""
        return [path for path in self.edited_paths() if path.exists()]
