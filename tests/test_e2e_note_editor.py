"""`ctrl+e` in a real terminal: the app hands the terminal to $VISUAL (a script that asks for a
line on the terminal, as an editor reads keys) and takes it back; the note is saved."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from cli_helpers import SEEDS
from terminal import Terminal, papershelf_command

pytestmark = pytest.mark.terminal

EDITOR = """\
#!/bin/sh
printf 'EDITOR HAS THE TERMINAL\\n'
IFS= read -r line
printf '%s\\n' "$line" >> "$1"
"""


def test_ctrl_e_hands_the_terminal_to_the_editor_and_back(term: Terminal, tmp_path: Path) -> None:
    db = tmp_path / "db"
    editor = tmp_path / "line-editor"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    config = tmp_path / "config.toml"
    term.start(
        [*papershelf_command(), "--db", str(db)],
        env={"VISUAL": str(editor), "PAPERSHELF_CONFIG": str(config)},
        cwd=tmp_path,
    )
    term.wait_for_text("34 of 34 papers")
    term.keys("n")
    term.wait_for_text("ctrl+e your editor")
    term.type("first line")
    term.keys("C-e")
    screen = term.wait_for_text("EDITOR HAS THE TERMINAL")
    assert "34 of 34 papers" not in screen  # the app stepped aside
    term.type("written in the editor")
    term.keys("Enter")
    term.wait_for_text("Note saved")  # the app is back, and saved what the editor wrote
    term.keys("q")
    term.wait_until(lambda: not term.alive(), "the app to quit")
    shown = subprocess.run(
        [*papershelf_command(), "--db", str(db), "list", "has:note", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PAPERSHELF_CONFIG": str(config)},
        check=True,
    )
    assert '"note": "first line\\nwritten in the editor"' in shown.stdout


def test_ctrl_c_in_the_editor_stops_the_editor_not_the_app(term: Terminal, tmp_path: Path) -> None:
    db = tmp_path / "db"
    editor = tmp_path / "line-editor"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    term.start(
        [*papershelf_command(), "--db", str(db)],
        env={"VISUAL": str(editor), "PAPERSHELF_CONFIG": str(tmp_path / "config.toml")},
        cwd=tmp_path,
    )
    term.wait_for_text("34 of 34 papers")
    term.keys("n")
    term.wait_for_text("ctrl+e your editor")
    term.keys("C-e")
    term.wait_for_text("EDITOR HAS THE TERMINAL")
    term.keys("C-c")  # the terminal interrupts its foreground: the editor, and papershelf
    screen = term.wait_for_text("The editor was stopped by signal 2; nothing saved")
    assert "ctrl+e your editor" in screen  # the note editor is still open
    term.keys("Escape")
    # Wait for the dialog to close: an ESC followed at once by q would read as alt+q.
    term.wait_until(lambda: "ctrl+e your editor" not in term.screen(), "the note editor to close")
    term.keys("q")
    term.wait_until(lambda: not term.alive(), "the app to quit")


def test_note_edit_with_stdin_not_a_terminal_gives_the_editor_the_terminal(
    term: Terminal, tmp_path: Path
) -> None:
    # Found by an attacker pass: `... | papershelf note ID --edit` (or `< file`) handed the
    # editor the pipe as its keyboard: vim ran the piped text as commands. The editor now reads
    # the terminal papershelf runs in, as it would have without the pipe.
    db = tmp_path / "db"
    editor = tmp_path / "line-editor"
    editor.write_text(EDITOR)
    editor.chmod(0o755)
    config = tmp_path / "config.toml"
    env = {**os.environ, "PAPERSHELF_CONFIG": str(config)}
    subprocess.run(
        [*papershelf_command(), "--db", str(db), "import", *map(str, SEEDS)],
        capture_output=True,
        timeout=60,
        env=env,
        check=True,
    )
    command = " ".join(map(shlex.quote, [*papershelf_command(), "--db", str(db)]))
    term.start(
        [
            "sh",
            "-c",
            f"echo 'from the pipe' | {command} note RelGNN --edit; echo EXIT $?; sleep 30",
        ],
        env={"VISUAL": str(editor), "PAPERSHELF_CONFIG": str(config)},
        cwd=tmp_path,
    )
    term.wait_for_text("EDITOR HAS THE TERMINAL")
    term.type("typed on the terminal")
    term.keys("Enter")
    screen = term.wait_for_text("EXIT ")
    assert "note saved" in screen and "EXIT 0" in screen
    shown = subprocess.run(
        [*papershelf_command(), "--db", str(db), "note", "RelGNN"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=True,
    )
    assert shown.stdout == "typed on the terminal\n"
