"""The command line prints titles as a person reads them: LaTeX as Unicode (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import import_records, run

RECORDS = [
    {
        "title": r"$\rm E(3)$-Equivariant Critics for Cooperative Swarms",
        "abstract": "We study critics that respect rotations for cooperative swarms of drones.",
        "venue": "Hand 2025",
    },
    {
        "title": r"K$^2$IE: Kernel Intensity Estimators for Schr\"{o}dinger Processes",
        "abstract": "We propose K$^2$IE, a kernel estimator of point process intensities.",
        "venue": "Hand 2025",
    },
]
E3_TITLE = "E(3)-Equivariant Critics for Cooperative Swarms"
KIE_TITLE = "K²IE: Kernel Intensity Estimators for Schrödinger Processes"


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    return import_records(capsys, tmp_path / "db", RECORDS)


def test_show_prints_the_converted_title(db, capsys):
    code, out, err = run(capsys, "--db", db, "show", "K2IE")
    assert code == 0, err
    # The title begins with the name: it heads alone, the name said once (storage.text.headings).
    assert out.splitlines()[:2] == [KIE_TITLE, ""]
    assert "$" not in out.split("\n\n")[0]
    code, out, err = run(capsys, "--db", db, "show", "K2IE", "--json")
    assert code == 0, err
    assert json.loads(out)["title"] == KIE_TITLE


def test_a_name_taken_from_a_title_is_converted_and_keeps_its_parentheses(db, capsys):
    code, out, err = run(capsys, "--db", db, "list", "--json", "critics")
    assert code == 0, err
    (paper,) = json.loads(out)
    assert paper["title"] == E3_TITLE
    assert paper["name"].startswith("E(3)-Equivariant Critics")


def test_list_prints_converted_titles_and_finds_the_converted_words(db, capsys):
    # The first run opens the library and writes listing.cache; the second answers from it.
    for _ in range(2):
        code, out, err = run(capsys, "--db", db, "list")
        assert code == 0, err
        assert KIE_TITLE in out and E3_TITLE in out and "$" not in out
        for query in ("k2ie", "K²IE", "^k2ie", "'k²ie", "schrodinger", "'e(3)-equi"):
            code, out, err = run(capsys, "--db", db, "list", query)
            assert code == 0, err
            assert len(out.splitlines()) == 1, (query, out)


def test_export_prints_the_converted_title(db, capsys):
    code, out, err = run(capsys, "--db", db, "export")
    assert code == 0, err
    assert "$" not in out
    assert "Schrödinger" in out and "E(3)-Equivariant" in out
