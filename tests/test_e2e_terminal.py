"""End to end in a real terminal: filter, tag, copy the code URL, export, quit — then check the
file and the library through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import date
from pathlib import Path

import pytest
from terminal import Terminal, papershelf_command

pytestmark = pytest.mark.terminal


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*papershelf_command(), "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PAPERSHELF_HOME": str(db)},
    )


def test_filter_tag_copy_export_quit(term: Terminal, tmp_path: Path) -> None:
    db = tmp_path / "db"
    work = tmp_path / "work"
    work.mkdir()
    term.start([*papershelf_command(), "--db", str(db)], env={}, cwd=work)
    # A first start fills the empty library with the bundled seeds.
    term.wait_for_text("34 of 34 papers")

    term.keys("/")
    term.type("peptide sequncing")  # with a typo
    screen = term.wait_for_text("1 of 34 papers")
    assert "denovo" in screen
    term.keys("Enter")  # to the results, keeping the query
    term.keys("T")  # toggle to-read on the paper under the cursor
    term.wait_for_text("#to-read")

    term.keys("y")
    url = "https://github.com/BEAM-Labs/denovo"
    # tmux with set-clipboard on stores what the app sent with OSC 52 in its paste buffer.
    term.wait_until(lambda: term.buffer() == url, "the URL in tmux's paste buffer")
    assert url in term.screen()  # shown, so it can be copied by hand too

    term.keys("e")
    term.wait_for_text("Export")
    term.keys("End")  # the last scope: the only tag, to-read
    term.keys("Enter")
    exported = work / f"reading-list-to-read-{date.today():%Y-%m-%d}.md"
    term.wait_until(exported.exists, f"{exported.name} to be written")
    # The notification names the file (its full wording is asserted by the Pilot tests; here it
    # wraps beside the reader's text).
    term.wait_for_text("Exported 1 paper to")

    term.keys("q")
    term.wait_until(lambda: not term.alive(), "papershelf to quit")

    text = exported.read_text(encoding="utf-8")
    assert "denovo" in text
    assert "[code](https://github.com/BEAM-Labs/denovo)" in text
    assert text.count("<!-- papershelf:") == 1

    result = cli(db, "list", "--json", "#to-read")
    assert result.returncode == 0, result.stderr
    (paper,) = json.loads(result.stdout)
    assert paper["name"] == "denovo"
    assert paper["tags"] == ["to-read"]
    assert paper["code_urls"] == [url]
