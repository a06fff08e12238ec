"""What the CLI tests share: running `papershelf` in this process, and libraries to run it on."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from papershelf.cli.main import main
from papershelf.storage.library.library import Library

REPO = Path(__file__).resolve().parent.parent
SEARCH_FIXTURE = REPO / "tests" / "fixtures" / "search" / "abstracts.jsonl"
SEEDS = sorted((REPO / "seeds").glob("*.txt"))


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """The CLI in this process, read through pytest's capture: exit status, stdout, stderr."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_captured(*argv: str | Path) -> tuple[int, str, str]:
    """The CLI in this process without a capsys fixture (module-scoped fixtures, hypothesis
    examples): exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def build_search_library(root: Path) -> Path:
    """The search fixture and the seeds, with tags, statuses, stars and a note; no lock file
    left behind, so a test can tell whether a command took the lock."""
    library = Library.open(root, seed=False)
    library.import_files([SEARCH_FIXTURE, *SEEDS])
    ids = [paper.id for paper in library.papers()]
    library.tag(ids[:40], add=["to-read"])
    library.set_status(ids[5:30], "reading")
    library.set_starred(ids[::7], True)
    library.set_note(ids[3], "a note on diffusion transformers")
    (root / ".lock").unlink()
    return root


def import_records(
    capsys: pytest.CaptureFixture[str], root: Path, records: Sequence[dict[str, object]]
) -> Path:
    """A library at `root` made by `papershelf import` of `records` as JSON Lines."""
    source = root.parent / f"{root.name}-records.jsonl"
    source.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    code, _, err = run(capsys, "--db", root, "import", source)
    assert code == 0, err
    return root
