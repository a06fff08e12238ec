"""In a real terminal: keys sent to a dialog in one burst (one `send-keys`) are all handled, in
order, and what they saved is in the library on disk."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from terminal import Terminal, papershelf_command

pytestmark = pytest.mark.terminal


def tagged(db: Path, tag: str) -> list[dict[str, object]]:
    result = subprocess.run(
        [*papershelf_command(), "--db", str(db), "list", "--json", f"#{tag}"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PAPERSHELF_HOME": str(db)},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_tag_typed_right_after_t_and_saved_in_one_burst(term: Terminal, tmp_path: Path) -> None:
    db = tmp_path / "db"
    term.start([*papershelf_command(), "--db", str(db)], env={}, cwd=tmp_path)
    term.wait_for_text("34 of 34 papers")
    # One write to the terminal: open the editor, type, add, apply, then `enter` (read) and
    # `t` again on the main screen, twice over, as fast as tmux can send them.
    for tag in ("quick", "quicker"):
        term.keys("t", *tag, "Enter", "C-s", "Enter", "Escape")
        term.wait_until(lambda tag=tag: tagged(db, tag), f"#{tag} saved")
    assert term.alive()
    assert [paper["tags"] for paper in tagged(db, "quick")] == [["quick", "quicker"]]
    term.keys("q")
    term.wait_until(lambda: not term.alive(), "papershelf to quit")
