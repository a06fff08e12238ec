"""`papershelf import` of arXiv feeds and OpenReview notes: recognised by content, reported per
file like any other, and a file of the wrong shape refused in one line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_helpers import run

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_feeds_and_notes_import_with_the_usual_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A feed saved without an extension is still a feed.
    feed = tmp_path / "lg-query"
    shutil.copy(FIXTURES / "atom" / "arxiv-api.xml", feed)
    code, out, err = run(
        capsys,
        "--db",
        tmp_path / "lib",
        "import",
        feed,
        FIXTURES / "atom" / "cs.LG-announce.atom",
        FIXTURES / "openreview" / "iclr2024-v2.json",
        FIXTURES / "openreview" / "iclr2020-v1.json",
    )
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "lg-query: 2 added, 0 duplicates, 0 skipped",
        "cs.LG-announce.atom: 2 added, 0 duplicates, 0 skipped",
        "iclr2024-v2.json: 2 added, 0 duplicates, 1 skipped",
        "iclr2020-v1.json: 1 added, 0 duplicates, 0 skipped",
        "7 new papers; the library holds 7 papers.",
    ]
    code, out, _ = run(capsys, "--db", tmp_path / "lib", "show", "Echidna")
    assert code == 0 and "Echidna: Spiny Regularisers for Robust Fine-Tuning" in out


def test_the_wrong_shape_is_one_line_and_the_other_files_still_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(
        capsys,
        "--db",
        tmp_path / "lib",
        "import",
        FIXTURES / "atom" / "not-a-feed.xml",
        FIXTURES / "atom" / "bomb.xml",
        FIXTURES / "openreview" / "wrong-shape.json",
        FIXTURES / "openreview" / "iclr2020-v1.json",
    )
    assert code == 1
    assert err.splitlines() == [
        "papershelf: not-a-feed.xml: not an arXiv Atom or RSS feed (the document is <html>)",
        "papershelf: bomb.xml: refused: the XML declares a DTD or entities",
        "papershelf: wrong-shape.json: OpenReview note 1 is not an object with a content object",
    ]
    assert out.splitlines()[-1] == "1 new paper; the library holds 1 paper."
